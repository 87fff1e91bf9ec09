"""Search speed by scan mode: the paper's timing experiment at step 9.

For each depth (default 3, 4, 5) at width 10, searches positions after 8
turns of the human games (the paper's "step 9") with the paper's search
(profile "paper": Table 1 weights, plain alpha-beta) in every scan mode and
prints the median time per search, the global/local and global/incremental
ratios, nodes per second, and leaves visited against the Knuth-Moore minimum
w^ceil(d/2) + w^floor(d/2) - 1 of a uniform tree of that width and depth.

Leaves here are static evaluations.  At the frontier (one turn left) the
engine does not expand children: each child's value is its parent's plus its
pair score, and pairs are sorted, so the first is the best.  One evaluation
per frontier node is therefore enough, and the ratio to the Knuth-Moore
minimum can fall below 1.

    python bench/search_speed.py [--depths 3,4,5] [--positions 5] [--modes global,local,incremental]
"""
from __future__ import annotations

import argparse
import math

from _common import machine, median, step_positions

import connect6

PAPER_STEP9 = {3: (23.030, 2.010), 4: (269.902, 31.855), 5: (640.780, 36.301)}  # (global, local) seconds


def km_minimum(width: int, depth: int) -> int:
    return width ** math.ceil(depth / 2) + width ** (depth // 2) - 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depths", default="3,4,5")
    ap.add_argument("--width", type=int, default=10)
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--modes", default="global,local,incremental")
    ap.add_argument("--step", type=int, default=9)
    args = ap.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    modes = args.modes.split(",")
    boards = step_positions(args.positions, step=args.step)
    print(f"# search speed: width {args.width}, {len(boards)} positions at step {args.step}; {machine()}")
    print(f"{'depth':>5} {'mode':>12} {'median s':>10} {'nodes/s':>10} {'leaves':>8} {'KM min':>7} "
          f"{'leaves/KM':>9} {'paper s':>9}")
    ok = True
    for d in depths:
        med = {}
        moves = {}
        for mode in modes:
            engine = connect6.make_engine("paper", depth=d, width=args.width, scan=mode)
            times, nodes, leaves, chosen = [], 0, [], []
            for b in boards:
                r = engine.search(b)
                times.append(r.time_s)
                nodes += r.nodes
                leaves.append(r.leaves)
                chosen.append((r.move, r.score, r.nodes))
            med[mode] = median(times)
            moves[mode] = chosen
            km = km_minimum(args.width, d)
            paper = PAPER_STEP9.get(d)
            paper_s = {"global": paper[0], "local": paper[1]}.get(mode) if paper else None
            print(f"{d:>5} {mode:>12} {med[mode]:>10.4f} {nodes / sum(times):>10.0f} {median(leaves):>8.0f} "
                  f"{km:>7} {median(leaves) / km:>9.3f} {paper_s if paper_s else '':>9}")
        if len({tuple(v) for v in moves.values()}) != 1:
            ok = False
            print(f"      MODES DISAGREE at depth {d}")
        if "global" in med and "local" in med:
            print(f"      depth {d}: global/local = {med['global'] / med['local']:.1f}x"
                  + (f" (paper {PAPER_STEP9[d][0] / PAPER_STEP9[d][1]:.1f}x)" if d in PAPER_STEP9 else ""))
        if "global" in med and "incremental" in med:
            print(f"      depth {d}: global/incremental = {med['global'] / med['incremental']:.0f}x")
    print("all modes chose the same moves with the same node counts" if ok else "MODES DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
