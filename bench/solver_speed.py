"""Speed of the threat-space solver, optionally against an earlier revision
in the same run.

The positions are fixed: archive positions after 3 to 16 turns (the tests'
``positions`` builder) each followed by random pairs of candidate cells
(seeded), the kind of node the search asks the solver about.  Each is
solved ``--repeat`` times with ``--budget`` nodes and the solver's table
cleared per call (``solve_vcdt``, or with ``--fours N`` ``solve_vct`` allowing
N single fours in a line); printed: solver nodes, proofs (calls that find
a win), CPU seconds, nodes and proofs per CPU second.  With ``--base REV`` the same is measured for the
core of git revision REV (built under bench/out/rev-SHA), alternating
``--rounds`` times so that both see the same load, and the ratio of the
medians is printed.  The node totals must match when only speed changed.

    python bench/solver_speed.py [--positions 150] [--budget 3000] [--repeat 3] [--fours 0]
                                 [--base REV] [--rounds 3]
    python bench/solver_speed.py --soundness [--positions 150] [--seed 1] [--fours 1]

``--soundness`` measures no speed: it checks, by brute force over every
defence (tests/_positions.py, ``holds_against_every_defence``), each win
that ``solve_vct`` finds with ``--fours`` single fours (default 1) where
it finds none with one fewer, on the same kind of positions (``--seed``
picks the random pairs), and prints how many hold.  The solver tries the
defender's free stone on a zone of cells only; an escape is a cell that
zone missed.  With two fours the brute force covers the levels where two
are left and trusts the solver below (the run with one checks that).
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from _common import ROOT, compare_builds, machine

TESTS = ROOT / "tests"


def boards(positions: int, seed: int = 1) -> list:
    """The fixed positions: archive positions, each followed by 4 random pairs."""
    sys.path.insert(0, str(TESTS))
    import connect6
    from engine_core import movegen
    from _positions import positions as archive_positions
    rng = random.Random(seed)
    items = []
    for board in archive_positions(positions, step_range=(3, 16)):
        for _ in range(4):
            child = board.copy()
            child.push(connect6.Move(tuple(rng.sample(movegen.candidates(child.position, 2), 2))))
            if not child.is_game_over() and child.stones_to_place == 2:
                items.append(child)
    return items


def soundness(positions: int, seed: int, fours: int = 1) -> None:
    """Print how many wins with ``fours`` single fours, that the solver allowing
    one fewer cannot find, hold against every defence.  The brute force runs
    at the levels where ``fours`` are left; below, the solver allowing fewer
    is trusted (its own run of this check is the one with fewer fours)."""
    sys.path.insert(0, str(TESTS))
    from engine_core.tss import solve_vct
    from _positions import holds_against_every_defence
    items = boards(positions, seed)
    wins = [b for b in items if solve_vct(b.position, 10, fours - 1, 200000)[0] == 0
            and solve_vct(b.position, 10, fours, 200000)[0] == 1]
    start = time.process_time()
    held = 0
    for board in wins:
        ok = holds_against_every_defence(board, fours, trusted=fours - 1) > 0
        held += ok
        if not ok:
            print("escape:", " ".join(str(m) for m in board.move_stack))
    print(f"seed {seed}: {len(items)} positions, {len(wins)} wins with {fours} single four(s) that the solver "
          f"allowing {fours - 1} does not find, {held} hold against every defence "
          f"({time.process_time() - start:.1f} s CPU)")


def measure(positions: int, budget: int, repeat: int, fours: int = 0) -> dict:
    """Solve the fixed positions with the core importable here; nodes and CPU seconds."""
    sys.path.insert(0, str(TESTS))
    try:
        from engine_core.tss import solve_vcdt
    except ImportError:                 # a --base build from before the solver had its own module
        from engine_core.threats import solve_vcdt
    if fours:
        from engine_core.tss import solve_vct     # only builds that have it can be compared
    items = [board.position for board in boards(positions)]
    start = time.process_time()
    nodes = proofs = 0
    for _ in range(repeat):
        for pos in items:
            result, _, n = solve_vct(pos, 10, fours, budget) if fours else solve_vcdt(pos, 10, budget)
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
    ap.add_argument("--fours", type=int, default=0, help="single fours a line may hold (0: VCDT)")
    ap.add_argument("--base", metavar="REV", help="also measure the core of git revision REV")
    ap.add_argument("--rounds", type=int, default=3, help="alternations with --base (medians compared)")
    ap.add_argument("--soundness", action="store_true", help="check single-four wins by brute force instead")
    ap.add_argument("--seed", type=int, default=1, help="random pairs of --soundness")
    args = ap.parse_args(argv)
    if args.soundness:
        print(f"# single-four wins checked against every defence; {machine()}")
        soundness(args.positions, args.seed, max(args.fours, 1))
        return 0
    print(f"# threat-space solver speed, single fours allowed a line: {args.fours}; {machine()}")
    compare_builds("solver_speed", f"measure({args.positions}, {args.budget}, {args.repeat}, {args.fours})", args.base,
                   args.rounds, line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
