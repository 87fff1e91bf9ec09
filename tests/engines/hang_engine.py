"""Answers `name`, then hangs on `next`; ignores SIGTERM and starts a child
process that also sleeps (the driver must kill the whole process group).
With a path argument, writes "<own pid> <child pid>" there; with a second
argument ``start``, it then hangs before it reads anything (it never starts)."""
import signal
import subprocess
import sys
import time

from _stub import Stub, say


class Hang(Stub):
    name = "hang"

    def __init__(self, pidfile=None, hang_at_start=False):
        super().__init__()
        self.pidfile = pidfile
        self.hang_at_start = hang_at_start

    def on_start(self):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        if self.pidfile:
            import os
            with open(self.pidfile, "w") as fh:
                fh.write(f"{os.getpid()} {child.pid}\n")
        while self.hang_at_start:
            time.sleep(60)

    def reply(self):
        say("thinking very hard")
        while True:
            time.sleep(60)


if __name__ == "__main__":
    Hang(sys.argv[1] if len(sys.argv) > 1 else None, sys.argv[2:3] == ["start"]).run()
