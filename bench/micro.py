"""Micro-benchmark of the compiled core.

Prints stones added+removed per second on the road table, and pair deltas
per second by a local rescan (the roads through the two stones), a global
rescan (all 924 roads) and the exact incremental method, with their ratios.
Timings come from C loops, so Python call overhead is not in them.

    python bench/micro.py [--positions N] [--seconds S]
"""
from __future__ import annotations

import argparse
import itertools

from _common import machine, step_positions

from engine_core import movegen
from engine_core import position as cpos


def _repeat(fn, seconds):
    """Call fn(reps) with growing reps until one call takes ``seconds``; return (time, reps, extra)."""
    reps = 1
    while True:
        out = fn(reps)
        t = out[0] if isinstance(out, tuple) else out
        if t >= seconds or reps > 1 << 30:
            return t, reps, out
        reps = max(reps * 2, int(reps * seconds / max(t, 1e-6) * 1.1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=10, help="positions after 8 turns of the human games")
    ap.add_argument("--seconds", type=float, default=0.2, help="time per measurement")
    args = ap.parse_args(argv)

    boards = step_positions(args.positions)
    print(f"# micro-benchmark: {len(boards)} positions after 8 turns; {machine()}")

    # stones added and removed
    ops = 0
    secs = 0.0
    for b in boards:
        pos = b.position.copy()
        cells = pos.empty_cells()
        t, reps, _ = _repeat(lambda r: cpos.time_add_remove(pos, cells, pos.to_move, r), args.seconds)
        ops += reps * len(cells)
        secs += t
        assert pos.check(), "add/remove left the road table changed"
    add_rate = ops / secs
    print(f"stone add+remove: {add_rate / 1e6:8.2f} M/s  ({secs / ops * 1e9:.1f} ns each)")

    # pair deltas in each mode, on the same pairs
    rates = {}
    totals = {}
    for scan in ("global", "local", "incremental"):
        n = 0
        secs = 0.0
        total = 0
        for b in boards:
            pos = b.position.copy()
            cand = movegen.candidates(pos, 2)
            pairs = list(itertools.combinations(cand, 2))[:1500]
            t, reps, out = _repeat(lambda r: cpos.time_pair_deltas(pos, pairs, pos.to_move, scan, r),
                                   args.seconds / (10 if scan == "global" else 1))
            n += reps * len(pairs)
            secs += t
            total += out[1] // reps
        rates[scan] = n / secs
        totals[scan] = total
        print(f"pair delta {scan:>11}: {rates[scan] / 1e6:8.3f} M/s  ({secs / n * 1e9:9.1f} ns each)")
    same = len(set(totals.values())) == 1
    print(f"local / global speed:       {rates['local'] / rates['global']:6.1f}x  (target >= 15x; paper eq. 5: 924 vs 48 roads)")
    print(f"incremental / global speed: {rates['incremental'] / rates['global']:6.1f}x")
    print(f"all modes gave the same deltas: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
