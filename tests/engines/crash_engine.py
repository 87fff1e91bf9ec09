"""Plays N moves (argument, default 0), then dies on the next `next` with exit status 3."""
import sys

from _stub import Stub, say


class Crash(Stub):
    name = "crash"

    def __init__(self, after):
        super().__init__()
        self.after = after

    def reply(self):
        if self.moves_played >= self.after:
            sys.stderr.write("crash engine: giving up\n")
            sys.stderr.flush()
            say("about to crash")
            sys.exit(3)
        return super().reply()


if __name__ == "__main__":
    Crash(int(sys.argv[1]) if len(sys.argv) > 1 else 0).run()
