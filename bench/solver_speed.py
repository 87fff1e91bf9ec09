"""Speed of the VCDT solver (threat-space search), optionally against an
earlier revision in the same run.

The positions are fixed: archive positions after 3 to 16 turns (the tests'
``positions`` builder) each followed by random pairs of candidate cells
(seeded), the kind of node the search asks the solver about.  Each is
solved ``--repeat`` times with ``--budget`` nodes and the solver's table
cleared per call (``solve_vcdt``); printed: solver nodes, proofs (calls
that prove a win), CPU seconds, nodes and proofs per CPU second.  With ``--base REV`` the same is measured for the
core of git revision REV (built under bench/out/rev-SHA), alternating
``--rounds`` times so that both see the same load, and the ratio of the
medians is printed.  The node totals must match when only speed changed.

    python bench/solver_speed.py [--positions 150] [--budget 3000] [--repeat 3] [--base REV] [--rounds 3]
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from _common import ROOT, compare_builds, machine

TESTS = ROOT / "tests"


def measure(positions: int, budget: int, repeat: int) -> dict:
    """Solve the fixed positions with the core importable here; nodes and CPU seconds."""
    sys.path.insert(0, str(TESTS))
    import connect6
    from engine_core import movegen
    try:
        from engine_core.tss import solve_vcdt
    except ImportError:                 # a --base build from before the solver had its own module
        from engine_core.threats import solve_vcdt
    from _positions import positions as archive_positions
    rng = random.Random(1)
    items = []
    for board in archive_positions(positions, step_range=(3, 16)):
        for _ in range(4):
            child = board.copy()
            child.push(connect6.Move(tuple(rng.sample(movegen.candidates(child.position, 2), 2))))
            if not child.is_game_over() and child.stones_to_place == 2:
                items.append(child.position)
    start = time.process_time()
    nodes = proofs = 0
    for _ in range(repeat):
        for pos in items:
            result, _, n = solve_vcdt(pos, 10, budget)
            nodes += n
            proofs += result == 1
    return {"calls": repeat * len(items), "nodes": nodes, "proofs": proofs, "cpu": time.process_time() - start}


def line(name: str, cpu: float, r: dict) -> str:
    return (f"{name:>14}: {r['calls']} calls, {r['nodes']} nodes, {r['proofs']} proofs, {cpu:.2f} s CPU,"
            f" {r['nodes'] / cpu:,.0f} nodes/s, {r['proofs'] / cpu:,.1f} proofs/s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--budget", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--base", metavar="REV", help="also measure the core of git revision REV")
    ap.add_argument("--rounds", type=int, default=3, help="alternations with --base (medians compared)")
    args = ap.parse_args(argv)
    print(f"# VCDT solver speed; {machine()}")
    compare_builds("solver_speed", f"measure({args.positions}, {args.budget}, {args.repeat})", args.base,
                   args.rounds, line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
