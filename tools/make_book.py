"""Build the opening book from the human games, checked by the engine's own search.

The first ``--turns`` turns of every decided game of the archive
(tests/data/human-games.csv, Little Golem) are counted by position, the
eight symmetric forms of a position together, and a move enters the book
when at least ``--min-games`` games played it from there.  Each such move is
then checked by the default engine; it stays only when

* the opponent, moving next, has no win by continuous double threats that
  the solver finds within ``--budget`` nodes,
* a ``--depth``-turn search after it finds no forced result for either side, and
* that search values it no more than ``--margin`` below the engine's own
  move from the same position, searched the same way (so a move people liked
  that the engine sees losing a road battle is dropped).

Fixed-depth searches make the book the same on every machine.  The engine's
value of each kept move (for the mover) is written with it; positions where
no move passes are left out, and there the engine searches.

    python tools/make_book.py [--turns 8] [--min-games 3] [--depth 4] [--margin 300]
                              [--jobs 1] [--out connect6/data/book.txt]
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
import _common  # noqa: E402,F401  (connect6: the installed package, else this checkout)

from connect6.book import DEFAULT_BOOK, OpeningBook, position_board  # noqa: E402
from connect6.records import RecordError, read_games_csv  # noqa: E402

DATA = ROOT / "tests" / "data" / "human-games.csv"

Candidate = Tuple[str, str, int, int]          # position (stone list), move, games, mover's wins
BELOW = "below the engine's move by more than the margin"


def candidates(book: OpeningBook) -> Dict[str, List[Candidate]]:
    """The unchecked book by position: {stone list: [(position, move, games, wins), ...]}."""
    out: Dict[str, List[Candidate]] = collections.defaultdict(list)
    for position, move, games, wins, _ in book.items():
        out[position].append((position, str(move), games, wins))
    return out


def _mover_value(engine, board, move, depth: int) -> Optional[int]:
    """The value of ``move`` for the side playing it: minus a ``depth``-turn
    search of the opponent's reply; None when that search finds a forced result."""
    board = board.copy()
    board.push(move)
    if board.is_game_over():
        return None
    result = engine.search(board, depth=depth)
    return None if result.win_in is not None else -result.score


def check_position(position: str, moves: List[Candidate], depth: int, margin: int,
                   budget: int) -> List[Tuple[Candidate, Optional[int], str]]:
    """Each candidate with its value for the mover (None: dropped) and why."""
    import connect6
    from engine_core.tss import solve_vcdt

    board = position_board(position)
    engine = connect6.make_engine(book=False)
    own = engine.search(board, depth=depth)
    reference = _mover_value(engine, board, own.move, depth) if own.win_in is None else None
    out = []
    for cand in moves:
        move = connect6.Move.parse(cand[1])
        after = board.copy()
        after.push(move)
        if after.is_game_over():
            out.append((cand, None, "a forced result"))     # a six: the search finds it without a book
            continue
        result, _, _ = solve_vcdt(after.position, 12, budget)
        if result != 0:
            out.append((cand, None, "the opponent has a VCDT" if result == 1 else "the solver ran out"))
            continue
        value = _mover_value(engine, board, move, depth)
        if value is None:
            out.append((cand, None, "a forced result"))
        elif reference is not None and value < reference - margin:
            out.append((cand, None, BELOW))
        else:
            out.append((cand, value, "kept"))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=str(DATA), help="the human games (archive CSV)")
    ap.add_argument("--turns", type=int, default=8, help="turns of each game counted")
    ap.add_argument("--min-games", type=int, default=3, help="games that played a move from a position")
    ap.add_argument("--depth", type=int, default=4, help="turns of each checking search")
    ap.add_argument("--margin", type=int, default=300, help="how far below the engine's own move a book move may be")
    ap.add_argument("--budget", type=int, default=20_000, help="VCDT nodes for the opponent after a book move")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=str(DEFAULT_BOOK))
    args = ap.parse_args(argv)
    if args.turns < 2 or args.min_games < 1 or args.depth < 1 or args.margin < 0 or args.budget < 1 or args.jobs < 1:
        ap.error("--turns >= 2, --min-games, --depth, --budget, --jobs >= 1 and --margin >= 0")
    try:
        games = read_games_csv(args.games)
    except (OSError, RecordError) as exc:
        ap.error(f"cannot read the games: {exc}")
    decided = [g for g in games if g.winner is not None]
    raw = OpeningBook.from_games([g.moves for g in decided], winners=[int(g.winner) for g in decided],
                                 max_turns=args.turns, min_games=args.min_games)
    todo = candidates(raw)
    print(f"{len(raw)} moves in {raw.positions} positions from {len(decided)} decided games; checking",
          file=sys.stderr)
    start = time.monotonic()
    book = OpeningBook()
    reasons: Dict[str, int] = collections.Counter()
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check_position, pos, moves, args.depth, args.margin, args.budget)
                   for pos, moves in todo.items()]
        for done, future in enumerate(futures, 1):
            for (position, move, games_n, wins), value, why in future.result():
                reasons[why] += 1
                if value is not None:
                    book.add(position_board(position), move, games_n, wins, value)
            if done % 50 == 0:
                print(f"  {done}/{len(futures)} positions, {time.monotonic() - start:.0f} s", file=sys.stderr)
    header = [
        f"# Opening book: {len(book)} moves in {book.positions} positions, written by tools/make_book.py",
        f"# --turns {args.turns} --min-games {args.min_games} --depth {args.depth} --margin {args.margin}"
        f" --budget {args.budget} from {Path(args.games).name} ({len(decided)} decided human games).",
        f"# Checked: {dict(sorted(reasons.items()))}.",
    ]
    text = "\n".join(header) + "\n" + book.dumps()
    tmp = Path(args.out + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(args.out)
    print(f"wrote {len(book)} moves in {book.positions} positions to {args.out} "
          f"({time.monotonic() - start:.0f} s); {dict(reasons)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
