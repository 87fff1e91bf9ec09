"""What helper threads buy: the default engine with 1 and N threads on the
same positions, by wall-clock time.

Lazy SMP does not search one tree faster; the helpers fill the shared
transposition table and the main search goes deeper in the same time.  So
two figures are printed for each thread count, over the positions of
``--games`` human games (turns 5 to ``--turns``, the side to move's search
each, tables kept from move to move as in timed play):

* time to depth: the wall-clock seconds to finish ``--depth`` (a timed
  search capped at that depth), their sum and the ratio to one thread;
* depth in time: the deepest finished iteration in ``--time`` seconds a
  move (mean), and the nodes per wall-clock second of all threads.

The machine must be otherwise idle: every thread needs a core of its own.

    python bench/threads_speed.py [--threads 2] [--games 2] [--turns 20] [--depth 8] [--time 2]
"""
from __future__ import annotations

import argparse
import statistics
import time

from _common import long_games, machine, position_after

FIRST_TURN = 5
TIME_CAP = 3600.0       # a timed search's limit that a fixed depth reaches first


def run(threads: int, games: int, turns: int, depth: int, seconds: float) -> dict:
    """Both measurements for one thread count."""
    import connect6
    to_depth, reached, nodes, wall = [], [], 0, 0.0
    for _, moves in long_games(games, turns):
        capped = connect6.make_engine(threads=threads)
        timed = connect6.make_engine(threads=threads)
        for turn in range(FIRST_TURN, turns + 1):
            board = position_after(moves, turn - 1)
            start = time.perf_counter()
            capped.search(board, depth=depth, time=TIME_CAP)
            to_depth.append(time.perf_counter() - start)
            start = time.perf_counter()
            r = timed.search(board, time=seconds)
            wall += time.perf_counter() - start
            reached.append(r.depth)
            nodes += r.nodes + r.tss_nodes
    return {"to_depth": to_depth, "reached": reached, "nps": nodes / wall if wall > 0 else 0.0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, nargs="+", default=[2], help="thread counts compared with 1")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--turns", type=int, default=20, help="the last turn searched in each game")
    ap.add_argument("--depth", type=int, default=8, help="the depth timed (time to depth)")
    ap.add_argument("--time", type=float, default=2.0, help="seconds a move (depth in time)")
    args = ap.parse_args(argv)
    if not (args.games >= 1 and args.turns >= FIRST_TURN and 1 <= args.depth <= 30 and args.time > 0
            and all(1 <= t <= 64 for t in args.threads)):
        ap.error(f"need --games >= 1, --turns >= {FIRST_TURN}, --depth 1..30, --time > 0, --threads 1..64")
    print(f"# threads: depth {args.depth} and {args.time:g} s a move, turns {FIRST_TURN}-{args.turns} of "
          f"{args.games} human games; {machine()}")
    one = run(1, args.games, args.turns, args.depth, args.time)
    print("| threads | time to depth (s, sum) | ratio to 1 | median ratio | depth in time (mean) | nodes/s (wall) |")
    print("|---|---:|---:|---:|---:|---:|")
    for n, r in [(1, one)] + [(t, run(t, args.games, args.turns, args.depth, args.time)) for t in args.threads]:
        ratios = [b / a for a, b in zip(r["to_depth"], one["to_depth"]) if a > 0]
        print(f"| {n} | {sum(r['to_depth']):.2f} | {sum(one['to_depth']) / sum(r['to_depth']):.2f}x | "
              f"{statistics.median(ratios):.2f}x | {statistics.mean(r['reached']):.2f} | {r['nps']:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
