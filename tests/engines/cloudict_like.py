"""Behaves like Cloudict: a long help banner on start, progress lines on stdout
while thinking, settings (``depth N``) that outlive ``new``, a data file read
from its working directory, and it never exits on end of input (only ``quit``).
Every command it gets is appended to the log file given as the argument, and
the data file ``stub-patterns.txt`` must be in its working directory (else it
exits with status 2 at once)."""
import os
import sys
import time

from _stub import Stub, say


class CloudictLike(Stub):
    name = "cloudict-like"

    def __init__(self, log):
        super().__init__()
        self.log = log
        self.depth = None

    def on_start(self):
        if not os.path.exists("stub-patterns.txt"):
            sys.stderr.write("stub-patterns.txt not found in " + os.getcwd() + "\n")
            sys.exit(2)
        for i in range(40):
            say(f"help line {i}: move XXXX / black XXXX / white XXXX / next / depth d / quit")

    def note(self, line):
        with open(self.log, "a") as fh:
            fh.write(line.strip() + "\n")

    def reply(self):
        for d in range(1, (self.depth or 1) + 1):
            say(f"searching depth {d} ... best so far move {self.choose()} nodes {d * 100}")
        return "move " + self.choose()

    def run(self):
        self.on_start()
        for line in iter(sys.stdin.readline, ""):
            self.note(line)
            words = line.split()
            if not words:
                continue
            if words[:1] == ["depth"] and len(words) == 2:
                self.depth = int(words[1])
                continue
            if words[:1] == ["quit"]:
                return
            self.dispatch(words)
        while True:  # end of input: keeps running until killed
            time.sleep(60)


if __name__ == "__main__":
    CloudictLike(os.path.abspath(sys.argv[1])).run()
