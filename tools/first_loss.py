"""Where did we lose?  For each lost game of a match directory, the first of
our turns after which the threat-space solver finds the opponent a forced win
(a VCDT within ``--budget`` nodes), with the game's colour and length, and
what our engine said at that move when it is searched again.

    python tools/first_loss.py bench/out/cloudict/d5-default-t3 [--player a] [--budget 300000]
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import connect6  # noqa: E402
from connect6.match import read_results  # noqa: E402
from connect6.records import parse_stone_list  # noqa: E402
from engine_core.threats import solve_vcdt  # noqa: E402


def first_losing_turn(moves, ours: connect6.Color, budget: int, depth: int):
    """(turn index, move) of our first turn after which the opponent has a VCDT, or None."""
    board = connect6.Board()
    for i, text in enumerate(moves):
        move = connect6.Move.parse(text)
        mover = board.turn
        board.push(move)
        if board.is_game_over():
            return None
        if mover == ours and solve_vcdt(board.position, depth, budget)[0] == 1:
            return i, move, board
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="a match results directory (games.jsonl)")
    ap.add_argument("--player", default="a", choices=("a", "b"), help="whose losses (default a)")
    ap.add_argument("--budget", type=int, default=300_000)
    ap.add_argument("--depth", type=int, default=12)
    args = ap.parse_args(argv)
    records = read_results(os.path.join(args.dir, "games.jsonl"))
    other = "b" if args.player == "a" else "a"
    tally = collections.Counter()
    print("| game | our colour | turns | first losing turn (ours) | move | opponent's VCDT after it |")
    print("|---|---|---|---|---|---|")
    for r in records:
        if r["winner"] != other:
            continue
        colour = r["a_color"] if args.player == "a" else ("white" if r["a_color"] == "black" else "black")
        ours = connect6.BLACK if colour == "black" else connect6.WHITE
        found = first_losing_turn(r["moves"], ours, args.budget, args.depth)
        tally[colour] += 1
        if found is None:
            print(f"| {r['game']} | {colour} | {len(r['moves'])} | none found | | |")
            continue
        i, move, board = found
        line = solve_vcdt(board.position, args.depth, args.budget)[1]
        print(f"| {r['game']} | {colour} | {len(r['moves'])} | {i} | {move} | {len(line)} plies |")
    print(f"\nlost games: {dict(tally)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
