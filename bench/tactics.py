"""Tactical suites from the human games: does the engine take the win, stop
the threat, find and keep a threat-space win, and refute the opponent's?

Positions come from tests/data/human-games.csv through the same builders the
tests use (tests/_positions.py), so they are fixed and reproducible:

* ``win-in-one``: the side to move can make six.  Solved: its move makes six.
* ``must-block``: the opponent threatens six next turn, two stones stop every
  threat, the side to move cannot make six.  Solved: after the move the
  opponent has no live 4 or 5 left.
* ``vcdt-win``: the side to move has a VCDT (victory by continuous double
  threats; the solver proves it).  Found: the search reports a forced win.
  Kept: the move makes six, or leaves three or more threats, or leaves two
  and after every blocking pair the solver still proves the win.
* ``vcdt-defence``: the opponent would win by VCDT if the side to move passed;
  the side to move has no threats of its own and no VCDT.  Solved: after the
  move the solver (``--verify-budget`` nodes) finds no VCDT for the opponent.
  Some of these positions are lost whatever is played, so 100% is not always
  possible; the paper's engine, which knows nothing of threats, is the
  baseline.

Each engine searches every position with ``--time`` seconds (iterative
deepening, tables cleared per position), or to ``--depth`` when given.

    python bench/tactics.py [--profiles default paper] [--time 0.5] [--depth D]
                            [--sizes 150,60,40,150] [--out bench/results]

Writes ``tactics.md`` in ``--out``.  About 6 minutes with the defaults on 2 cores.
"""
from __future__ import annotations

import argparse
import datetime
import os
import sys
import time

from _common import ROOT, machine

import connect6
from engine_core import threats as T
from engine_core import tss

sys.path.insert(0, str(ROOT / "tests"))
from _positions import must_block, threat_road_empties, vcdt_positions, vcdt_threatened, win_in_one  # noqa: E402

SUITES = ("win-in-one", "must-block", "vcdt-win", "vcdt-defence")


def _keeps_vcdt_win(board, move, budget):
    """After ``move``: six made, or three or more threats (no defence), or two
    threats and the solver proves the win after every blocking pair."""
    after = board.copy()
    after.push(move)
    if after.is_game_over():
        return after.outcome().winner == board.turn
    h, blocks = T.blocking(after.position, int(board.turn))   # checked against brute force in the tests
    if h >= 3:
        return True
    if h < 2:
        return False        # a single threat leaves the defender a free stone: not a VCDT step
    for block in blocks:
        nxt = after.copy()
        nxt.push(connect6.Move(block))
        if nxt.is_game_over() or tss.solve_vcdt(nxt.position, 12, budget)[0] != 1:
            return False
    return True


def run_suite(name, cases, engine, args):
    """Search every case; returns (solved, found, total, seconds per position)."""
    solved = found = 0
    spent = 0.0
    for case in cases:
        board = case[0] if isinstance(case, tuple) else case
        engine.new_game()
        t0 = time.perf_counter()
        result = engine.search(board, time=None if args.depth else args.time, depth=args.depth)
        spent += time.perf_counter() - t0
        after = board.copy()
        after.push(result.move)
        me = int(board.turn)
        if name == "win-in-one":
            ok = after.outcome() is not None and after.outcome().winner == me
        elif name == "must-block":
            ok = after.outcome() is None and not threat_road_empties(after, 1 - me)
        elif name == "vcdt-win":
            found += result.win_in is not None and result.win_in > 0
            ok = _keeps_vcdt_win(board, result.move, args.verify_budget)
        else:
            ok = (after.outcome() is not None and after.outcome().winner == me) or (
                after.outcome() is None and tss.solve_vcdt(after.position, 12, args.verify_budget)[0] != 1)
        solved += ok
    return solved, found, len(cases), spent / max(1, len(cases))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profiles", nargs="+", default=["default", "paper"], help="engine profiles to test")
    ap.add_argument("--time", type=float, default=0.5, help="seconds per position (iterative deepening)")
    ap.add_argument("--depth", type=int, default=None, help="a fixed depth instead of --time")
    ap.add_argument("--sizes", default="150,60,40,150",
                    help="positions per suite: win-in-one, must-block, vcdt-win, vcdt-defence")
    ap.add_argument("--verify-budget", type=int, default=200000, help="solver nodes for each verification")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"))
    args = ap.parse_args(argv)
    try:
        sizes = [int(x) for x in args.sizes.split(",")]
        if len(sizes) != len(SUITES) or min(sizes) < 0:
            raise ValueError
        engines = {p: connect6.make_engine(p) for p in args.profiles}
    except ValueError as exc:
        ap.error(str(exc) or f"--sizes needs {len(SUITES)} whole numbers >= 0, not {args.sizes!r}")

    t0 = time.perf_counter()
    builders = [win_in_one, must_block, vcdt_positions, vcdt_threatened]    # in SUITES order
    suites = [(name, build(n)) for name, build, n in zip(SUITES, builders, sizes) if n]
    print(f"# tactical suites built in {time.perf_counter() - t0:.0f} s: "
          + ", ".join(f"{name} {len(cases)}" for name, cases in suites))

    budget = f"{args.depth} turns deep" if args.depth else f"{args.time:g} s per position"
    lines = [f"# Tactical suites ({budget})", "",
             f"Measured {datetime.datetime.now():%Y-%m-%d %H:%M} on {machine()}; positions from "
             "tests/data/human-games.csv (see bench/tactics.py for how each suite is built and scored).", "",
             "| suite | positions | " + " | ".join(f"`{p}`" for p in args.profiles) + " |",
             "|---|---:|" + "---:|" * len(args.profiles)]
    for name, cases in suites:
        cells = []
        for profile, engine in engines.items():
            solved, found, total, per = run_suite(name, cases, engine, args)
            text = f"{solved}/{total} ({100 * solved / total:.1f}%)" if total else "-"
            if name == "vcdt-win":
                text += f"; win seen {found}/{total}"
            print(f"{name:13s} {profile:10s} {text}  [{per:.3f} s per position]", flush=True)
            cells.append(text)
        lines.append(f"| {name} | {len(cases)} | " + " | ".join(cells) + " |")
    lines += ["", f"Run time {(time.perf_counter() - t0) / 60:.1f} min."]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "tactics.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
