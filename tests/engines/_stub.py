"""A tiny engine-protocol speaker for the tests: plain Python, no connect6 import
(it starts fast).  It plays the empty cells nearest the centre, in a fixed
order, and can be told to misbehave through hooks."""
import sys

LETTERS = "ABCDEFGHIJKLMNOPQRS"
# cells nearest the centre first (ties: row, then column)
ORDER = sorted(((c, r) for r in range(19) for c in range(19)),
               key=lambda cr: (max(abs(cr[0] - 9), abs(cr[1] - 9)), cr[1], cr[0]))


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class Stub:
    name = "stub"

    def __init__(self):
        self.stones = {}   # (col, row) -> "black" / "white"
        self.turns = 0
        self.moves_played = 0

    def stones_of(self, text):
        text = text.upper()
        cells = [(LETTERS.index(text[i]), LETTERS.index(text[i + 1])) for i in range(0, len(text), 2)]
        if len(cells) == 2 and cells[0] == cells[1]:
            cells = cells[:1]
        return cells

    def place(self, color, text):
        for cell in self.stones_of(text):
            self.stones[cell] = color
        self.turns += 1

    def choose(self):
        """The protocol letters of a legal move for the side to move."""
        need = 1 if self.turns == 0 else 2
        free = [cr for cr in ORDER if cr not in self.stones][:need]
        return "".join(LETTERS[c] + LETTERS[r] for c, r in free)

    def reply(self):
        """What to print for `next`; override to misbehave."""
        return "move " + self.choose()

    def on_start(self):
        pass

    def run(self):
        self.on_start()
        for line in iter(sys.stdin.readline, ""):
            words = line.split()
            if not words:
                continue
            if words[0] in ("quit", "exit"):
                return
            self.dispatch(words)

    def dispatch(self, words):
        """Answer one command (not quit) of the protocol."""
        cmd = words[0]
        if cmd == "name":
            say("name " + self.name)
        elif cmd == "new":
            self.stones, self.turns = {}, 0
        elif cmd in ("black", "white"):
            self.place(cmd, words[1])
        elif cmd == "next":
            answer = self.reply()
            self.moves_played += 1
            if answer is not None:
                say(answer)
