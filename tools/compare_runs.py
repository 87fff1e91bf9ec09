"""Two runs of the same match, game for game: which results changed, and where
the moves first parted.

A keep test of ours plays a candidate on the same openings, colours and
opponent as a run of the default (same ``--seed``, so game N has the same
opening and colour in both).  At long time against a fixed-depth opponent
most games repeat move for move, so the paired view says more than the two
scores: which games the change turned, and the first turn where its moves
left the other run's (turns numbered from 0, Black's first stone, as
``tools/first_loss.py`` numbers them).  Each run is a match folder (or its ``games.jsonl``);
the games compared are those both hold, and a game with another opening or
colour in the two runs is an error, not a comparison.

    python tools/compare_runs.py BASE_RUN CANDIDATE_RUN [--changed]

The summary counts the candidate's results better, worse and the same as
the base's (for player ``a``, the engine under test), with a two-sided
sign test on the better and worse games: the chance of a split at least as
uneven if the change made no difference to any game.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from connect6.match import GAMES_FILE, read_results  # noqa: E402

#: a game's result for player a, ordered from worst to best
RANK = {"lost": 0, "drawn": 1, "won": 2}


def load_run(path: str) -> Dict[int, Dict[str, Any]]:
    """The records of a run (a match folder or its games.jsonl), by game number."""
    file = os.path.join(path, GAMES_FILE) if os.path.isdir(path) else path
    if not os.path.isfile(file):
        raise ValueError(f"{path}: no {GAMES_FILE} there")
    return {int(r["game"]): r for r in read_results(file)}


def outcome(record: Mapping[str, Any]) -> str:
    """'won', 'lost' or 'drawn', for player a."""
    winner = record.get("winner")
    return "won" if winner == "a" else "lost" if winner == "b" else "drawn"


def shown(record: Mapping[str, Any]) -> str:
    """The outcome, with how the game ended when not on the board (a forfeit)."""
    end = record.get("termination")
    return outcome(record) + ("" if end in (None, "six", "draw", "full") else f" ({end})")


def first_difference(a: Sequence[str], b: Sequence[str]) -> Optional[int]:
    """The turn at which two move lists first differ, numbered as the record's
    move list is (turn 0 is Black's first stone, as in tools/first_loss.py);
    one ending first differs at the turn after its last; None if equal."""
    for turn, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return turn
    return None if len(a) == len(b) else min(len(a), len(b))


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact sign test: P(a split at least as uneven) with n = better + worse fair coins."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def compare(base: Mapping[int, Mapping[str, Any]], cand: Mapping[int, Mapping[str, Any]]) -> List[Dict[str, Any]]:
    """One row per game both runs hold: its results in each, the change, and
    the first turn where the moves differ (None: the same game)."""
    rows = []
    for game in sorted(set(base) & set(cand)):
        b, c = base[game], cand[game]
        for key in ("opening", "a_color"):
            if b.get(key) != c.get(key):
                raise ValueError(f"game {game}: {key} {b.get(key)!r} in one run, {c.get(key)!r} in the "
                                 "other: not the same schedule (another --seed or openings file?)")
        step = RANK[outcome(c)] - RANK[outcome(b)]
        rows.append({"game": game, "pair": c.get("pair", (game + 1) // 2), "color": c.get("a_color"),
                     "base": shown(b), "candidate": shown(c),
                     "change": "better" if step > 0 else "worse" if step < 0 else "",
                     "parted": first_difference(b.get("moves", []), c.get("moves", []))})
    return rows


def _score(records: List[Mapping[str, Any]]) -> str:
    kinds = [outcome(r) for r in records]
    return f"{kinds.count('won')}-{kinds.count('lost')}-{kinds.count('drawn')}"


def report(base_path: str, cand_path: str, changed_only: bool = False) -> str:
    base, cand = load_run(base_path), load_run(cand_path)
    rows = compare(base, cand)
    common = [r["game"] for r in rows]
    better = sum(r["change"] == "better" for r in rows)
    worse = sum(r["change"] == "worse" for r in rows)
    lines = [f"base: `{base_path}`", f"candidate: `{cand_path}`", "",
             "| game | pair | ours | base | candidate | change | moves part at turn |",
             "|---:|---:|---|---|---|---|---|"]
    for r in rows:
        if changed_only and r["change"] == "" and r["base"] == r["candidate"]:
            continue
        parted = "same game" if r["parted"] is None else str(r["parted"])
        lines.append(f"| {r['game']} | {r['pair']} | {r['color']} | {r['base']} | {r['candidate']} | "
                     f"{r['change']} | {parted} |")
    opponents = {r.get("b") for r in [*base.values(), *cand.values()]}
    if len(opponents) > 1:
        lines.append(f"Note: the runs name more than one opponent: {', '.join(sorted(map(str, opponents)))}.")
    only = sorted(set(base) ^ set(cand))
    lines += ["", f"On the {len(rows)} games both runs hold: base {_score([base[g] for g in common])}, "
              f"candidate {_score([cand[g] for g in common])}; the candidate's result better in {better}, "
              f"worse in {worse}, the same in {len(rows) - better - worse} "
              f"(sign test, two-sided: p = {sign_test(better, worse):.3g}); "
              f"{sum(r['parted'] is None for r in rows)} games move for move the same."]
    if only:
        lines.append(f"Games in one run only (not compared): {', '.join(map(str, only))}.")
    return "\n".join(lines) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", help="the run to compare with: a match folder or its games.jsonl")
    ap.add_argument("candidate", help="the run of the change: a match folder or its games.jsonl")
    ap.add_argument("--changed", action="store_true", help="list only the games whose result changed")
    args = ap.parse_args(argv)
    try:
        print(report(args.base, args.candidate, args.changed), end="")
    except (OSError, ValueError) as exc:
        print(f"compare_runs: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
