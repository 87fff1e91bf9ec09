"""Answers with illegal moves: `occupied` (default: a stone on the centre, which
is taken after black's first move), `count` (one stone where two are due) or
`same` (the same stone twice)."""
import sys

from _stub import Stub


class Illegal(Stub):
    name = "illegal"

    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def reply(self):
        good = self.choose()
        if self.turns == 0:
            return "move " + good            # the first move is fine
        if self.mode == "count":
            return "move " + good[:2]
        if self.mode == "same":
            return "move " + good[:2] * 2
        return "move JJ" + good[2:]            # JJ is occupied


if __name__ == "__main__":
    Illegal(sys.argv[1] if len(sys.argv) > 1 else "occupied").run()
