"""Answers with a malformed reply: `lower` (move jjkk), `short` (move JJK),
`off` (move ZZJJ, letters beyond S), `spaces` (move JJ KK), or `exit` (a
malformed reply, then it exits)."""
import sys

from _stub import Stub, say

REPLIES = {"lower": "move {m_lower}", "short": "move {m3}", "off": "move ZZ{m2}", "spaces": "move {a} {b}"}


class Malformed(Stub):
    name = "malformed"

    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def reply(self):
        m = self.choose()
        if self.mode == "exit":
            say("move " + m.lower())
            sys.exit(0)
        return REPLIES[self.mode].format(m_lower=m.lower(), m3=m[:3], m2=m[2:], a=m[:2], b=m[2:])


if __name__ == "__main__":
    Malformed(sys.argv[1] if len(sys.argv) > 1 else "lower").run()
