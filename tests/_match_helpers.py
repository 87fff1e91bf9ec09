"""Shared by the tests of connect6.match: test engines and bots, small jobs and configs."""
import json
import os
import sys

from connect6.match import GameJob, MatchConfig, parse_player
from connect6.records import replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINES = os.path.join(ROOT, "tests", "engines")
TINY = "local:depth=1,width=3"
OPENING = "j10,j9,k11,k10,l10"


def cmd(name, *args):
    parts = [sys.executable, os.path.join(ENGINES, name)] + [str(a) for a in args]
    return "cmd:" + " ".join(parts)


def job(a, b, a_black=True, **kw):
    kw.setdefault("cwd", ENGINES)
    return GameJob(game=1, pair=1, a=parse_player(a), b=parse_player(b), a_black=a_black, opening=OPENING,
                   seed=1, **kw)


def check_record(r, opening=OPENING, moves_replay=True):
    assert r["result"] in ("black", "white", "draw")
    assert len(r["times"]) == len(r["moves"])
    assert r["times"][:3] == [None, None, None] and r["opening"] == (opening or r["opening"])
    assert len(r["evals"]) == len(r["moves"]) and r["evals"][:3] == [None, None, None]
    assert json.loads(json.dumps(r)) == r
    if moves_replay:
        board = replay(r["moves"])
        if r["termination"] == "six":
            assert str(board.outcome().winner) == r["result"]
    return r


def config(games=4, **kw):
    kw.setdefault("openings", [OPENING, "j10,i9,i11,k11,k9"])
    kw.setdefault("seed", 5)
    kw.setdefault("cwd", ENGINES)
    return MatchConfig(a=parse_player(kw.pop("a", TINY)), b=parse_player(kw.pop("b", "py:pybots:nearest")),
                       games=games, **kw)


class QuietProgress:
    """A match progress display that shows nothing and keeps what it is told:
    the runner's notes and the statuses of the running games."""

    def __init__(self):
        self.notes = []
        self.seen = []
        self.closed = 0

    def update(self, record, stats):
        pass

    def note(self, text):
        self.notes.append(text)

    def running(self, statuses):
        self.seen.extend(statuses)

    def close(self):
        self.closed += 1
