"""Would more time on our first move out of the opening have changed the game?

For games of a match folder (by default the games our engine, player ``a``,
lost), search the position of our first searched move again, from empty
tables, for ``--time`` seconds, and print the game's move beside the probe's
(score @ depth each).  Where the probe plays another move, the position after
it is written to ``--openings-out`` as an opening (stones joined by commas,
the format of ``data/openings-*.txt``), so that a play-out measures the
difference, e.g. against Cloudict at the match's time:

    python tools/first_move_probe.py bench/results/games/change-claim-zone/d5-default_claim_zone=1000-t6.5 \\
        --time 60 --openings-out /tmp/probe.txt
    python bench/cloudict.py --depths 5 --games 12 --time 6.5 --openings /tmp/probe.txt --no-calibrate

Each opening is played as a colour-swapped pair there; the game that answers
the question is the one where our engine has the colour it had in the lost
game (the comment of each opening line names it).  ``--pairs 6B,17W`` picks
games by opening pair and our colour (B or W), won or lost.

Turns count from 0 (the first stone, j10), as in tools/first_loss.py.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
from _common import output_problem  # noqa: E402  (and connect6: the installed package, else this checkout)

import connect6  # noqa: E402
from connect6.match import read_results  # noqa: E402
from connect6.records import format_stone_list  # noqa: E402
from move_stats import our_reports  # noqa: E402  (tools/, beside this script)
from connect6.result import score_text  # noqa: E402

def parse_pairs(text: str) -> Set[Tuple[int, str]]:
    """``"6B,17W"`` -> {(6, "black"), (17, "white")}."""
    out = set()
    for item in text.split(","):
        m = re.fullmatch(r"\s*(\d+)([BbWw])\s*", item)
        if not m:
            raise ValueError(f"--pairs: {item!r} is not a pair number and B or W (e.g. 6B)")
        out.add((int(m.group(1)), "black" if m.group(2) in "Bb" else "white"))
    return out


def first_searched_turn(record: Dict[str, Any]) -> Optional[int]:
    """The turn of our first move with a search report (the opening's turns and
    the opponent's have none)."""
    return next(iter(our_reports(record)), None)


def selected(record: Dict[str, Any], pairs: Optional[Set[Tuple[int, str]]]) -> bool:
    if pairs is not None:
        return (int(record["pair"]), record["a_color"]) in pairs
    return record["winner"] == "b"


def probe(record: Dict[str, Any], seconds: float, engine: str = "default") -> Optional[Dict[str, Any]]:
    """Search our first move of one game again for ``seconds`` with a fresh ``engine``."""
    turn = first_searched_turn(record)
    if turn is None:
        return None
    board = connect6.Board(record["moves"][:turn])
    result = connect6.make_engine(engine).search(board, time=seconds)
    game_move = connect6.Move.parse(record["moves"][turn])
    report = record["evals"][turn]
    after = board.copy()
    after.push(result.move)
    return {"turn": turn, "game_move": str(game_move), "game": f"{score_text(report['score'])} @ "
            f"{report['depth']}", "move": str(result.move), "probe": f"{result.score_text} @ {result.depth}",
            "same": set(result.move.stones) == set(game_move.stones), "opening": format_stone_list(after.move_stack)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a match folder (with a games.jsonl)")
    ap.add_argument("--time", type=float, default=60.0, help="seconds for each probe (default 60)")
    ap.add_argument("--engine", default="default", help="the engine that probes (a spec; default: default)")
    ap.add_argument("--pairs", help="games by opening pair and our colour, e.g. 6B,17W (default: the games we lost)")
    ap.add_argument("--openings-out", type=Path, help="write the positions after the probe's other moves here")
    args = ap.parse_args(argv)
    if not (args.folder / "games.jsonl").is_file():
        ap.error(f"{args.folder}: no games.jsonl here")
    if not 0 < args.time <= 3600:
        ap.error(f"--time must be in (0, 3600] seconds, not {args.time}")
    if args.openings_out is not None and output_problem(args.openings_out):
        ap.error(f"--openings-out: {output_problem(args.openings_out)}")
    try:
        pairs = None if args.pairs is None else parse_pairs(args.pairs)
        connect6.make_engine(args.engine)
    except ValueError as exc:
        ap.error(str(exc))
    probed = 0
    openings: List[str] = []
    print(f"| pair | we | turn | game's move | its score | {args.time:g} s move | its score | same |")
    print("|---|---|---|---|---|---|---|---|")
    try:
        for record in read_results(str(args.folder / "games.jsonl")):
            if not selected(record, pairs):
                continue
            p = probe(record, args.time, args.engine)
            if p is None:
                continue
            colour = record["a_color"]
            row = (f"| {record['pair']} | {colour} | {p['turn']} | {p['game_move']} | {p['game']} | {p['move']} | "
                   f"{p['probe']} | {'yes' if p['same'] else 'no'} |")
            print(row, flush=True)
            probed += 1
            if not p["same"]:
                openings.append(f"{p['opening']}  # pair {record['pair']}, ours {colour}, turn {p['turn']}: "
                                f"{p['move']} at {args.time:g} s (the game: {p['game_move']})")
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        ap.error(f"{args.folder}: not a match record this tool can read ({type(exc).__name__}: {exc})")
    if args.openings_out is not None:
        args.openings_out.write_text("".join(line + "\n" for line in openings))
        print(f"\n{len(openings)} of {probed} probes played another move: {args.openings_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
