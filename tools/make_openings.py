"""Build an openings file from the openings people actually play.

Random openings (``connect6.match.random_openings``) often hand one side a
lost game: a black pair dropped far from the centre lets White, moving next,
build a threat-space win that no reply stops.  A match then measures which
colour drew the lucky openings as much as which engine is stronger.  This
script takes the first ``--turns`` turns of the human games instead
(tests/data/human-games.csv, Little Golem), merges the eight symmetric
versions of each opening (the centre stone is fixed), and keeps an opening
when

* at least ``--min-games`` games started from it (people chose it again),
* each colour won at least ``--min-wins`` of them (neither side is lost), and
* the side to move has no win by continuous double threats (VCDT) that the
  solver finds within ``--budget`` nodes (the game is not decided already).

The most played ``--count`` of these are written, most played first, each
in the form it was played most often.

    python tools/make_openings.py [--count 40] [--turns 3] [--min-games 4]
                                  [--out data/openings-human.txt]
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
import _common  # noqa: E402,F401  (connect6: the installed package, else this checkout)

from connect6.records import RecordError, format_stone_list, parse_stone_list, read_games_csv, replay  # noqa: E402
from connect6.book import SYMMETRIES  # noqa: E402
from engine_core.tss import solve_vcdt  # noqa: E402

DATA = ROOT / "tests" / "data" / "human-games.csv"


def canonical(moves):
    """A key shared by the eight symmetric versions of a list of turns: per
    turn the sorted cells, the least such tuple over the symmetries."""
    return min(tuple(tuple(sorted(m[c] for c in turn.stones)) for turn in moves) for m in SYMMETRIES)


def select(games, turns, min_games, min_wins, budget, depth):
    """The kept openings as (stone list, games, black wins, white wins), most played first."""
    stats = collections.defaultdict(lambda: {"n": 0, "wins": [0, 0], "forms": collections.Counter()})
    for g in games:
        if len(g.moves) <= turns + 2 or g.winner is None:
            continue                      # too short to be about the opening, or drawn
        head = g.moves[:turns]
        s = stats[canonical(head)]
        s["n"] += 1
        s["wins"][int(g.winner)] += 1
        s["forms"][format_stone_list(head)] += 1
    kept = []
    for s in sorted(stats.values(), key=lambda s: (-s["n"], s["forms"].most_common(1)[0][0])):
        if s["n"] < min_games or min(s["wins"]) < min_wins:
            continue
        text = s["forms"].most_common(1)[0][0]
        board = replay(parse_stone_list(text))
        result, _, _ = solve_vcdt(board.position, depth, budget)
        if result != 0:
            continue                      # a win for the side to move (or not ruled out)
        kept.append((text, s["n"], s["wins"][0], s["wins"][1]))
    return kept


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=str(DATA), help="the games (archive CSV)")
    ap.add_argument("--count", type=int, default=40, help="openings to write")
    ap.add_argument("--turns", type=int, default=3, help="turns per opening (3: j10, a white pair, a black pair)")
    ap.add_argument("--min-games", type=int, default=4, help="games from an opening to keep it")
    ap.add_argument("--min-wins", type=int, default=1, help="wins each colour needs from it")
    ap.add_argument("--budget", type=int, default=200_000, help="VCDT nodes for the side to move")
    ap.add_argument("--depth", type=int, default=12, help="VCDT depth (attacker turns)")
    ap.add_argument("--out", default=str(ROOT / "data" / "openings-human.txt"))
    args = ap.parse_args(argv)
    if args.count < 1 or args.turns < 2 or args.min_games < 1 or args.min_wins < 0:
        ap.error("--count and --min-games must be >= 1, --turns >= 2, --min-wins >= 0")
    try:
        games = read_games_csv(args.games)
    except (OSError, RecordError) as exc:
        ap.error(f"cannot read the games: {exc}")
    kept = select(games, args.turns, args.min_games, args.min_wins, args.budget, args.depth)
    if len(kept) < args.count:
        print(f"only {len(kept)} openings pass; writing those", file=sys.stderr)
    kept = kept[:args.count]
    total = sum(k[1] for k in kept)
    black = sum(k[2] for k in kept)
    lines = [
        f"# {len(kept)} openings of {args.turns} turns from the human games ({Path(args.games).name}), written by",
        f"# tools/make_openings.py --turns {args.turns} --min-games {args.min_games} --min-wins {args.min_wins}"
        f" --budget {args.budget}: the most played (symmetric forms merged), each colour winning at least",
        f"# {args.min_wins} game from it, no VCDT for the side to move.  People went on from these in {total} games;",
        f"# Black won {black} ({100 * black / max(total, 1):.0f}%).  Play each in a colour-swapped pair.",
        "# opening  (games, black wins, white wins)",
    ]
    lines += [f"{text}  # {n}, {b}, {w}" for text, n, b, w in kept]
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(kept)} openings to {args.out} ({total} human games, Black won {black})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
