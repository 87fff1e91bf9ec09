"""Build an openings file that is balanced for engines, not only for people.

Human openings (``tools/make_openings.py``) are won by both colours in human
play, but an engine may still win one of them with one colour every time.
This script takes the most played openings of ``--turns`` turns from the
human games (the same filters: played at least ``--min-games`` times, each
colour winning some, no VCDT for the side to move), plays each in self-play
with several fixed-depth configurations of the ``default`` engine (each a
different engine, so each game is a different sample; fixed depth keeps the
file reproducible), and keeps the openings where Black won between
``--low`` and ``--high`` of those games.  Most balanced first, then most
played.

Shallow self-play misses wins that a strong engine finds at once: an
opening can be a forced win for the side to move two turns deep (a quiet
pair, then a VCDT), which both engines of a match then win with the same
colour, so the pair says nothing.  So the openings that pass are also
searched, most balanced first until ``--count`` pass, for ``--verify-time``
seconds (default 8; 0 skips it) by the ``default`` engine, and again after
its best move; an opening where either search proves a forced result is
dropped.  A timed search reaches a different depth from run to run (a forced
win found at depth 9 in one run is missed at depth 8 in another), so each
opening is verified ``--verify-rounds`` times (default 2).  It is a filter,
not a proof: a win deeper than the searches reach stays hidden, and the file
is reproducible only up to the machine's speed.  ``--check FILE`` verifies
an existing openings file once and prints each verdict.

``data/openings-verified.txt`` was written with ``--turns 4 --candidates 160
--configs 2:10,2:14,3:10 --low 1 --high 2 --jobs 1`` (7 of the first 47 openings
that passed self-play were dropped, 40 kept);
``data/openings-engine.txt`` is the same tool's earlier output, without the
verification, kept for the results measured on it.

``--seed N`` draws a random sample instead of taking the most played: the
candidates that pass the human filters are shuffled by a generator seeded
with N, the first ``--candidates`` of them are played in self-play, and
those that pass are verified in the drawn order (not most balanced first)
until ``--count`` pass.  ``--exclude FILE`` (repeatable) drops every
candidate whose position, in any of its eight symmetric forms, is an
opening of FILE.  ``data/openings-holdout.txt`` was drawn this way; its
header gives the command.

    python tools/make_engine_openings.py [--count 40] [--turns 4] [--candidates 120]
                                         [--configs 2:10,2:14,3:10,3:14] [--jobs 2]
                                         [--verify-time 8] [--out data/openings-verified.txt]
    python tools/make_engine_openings.py --seed 40 --count 20 --exclude data/openings-verified.txt ...
    python tools/make_engine_openings.py --check data/openings-engine.txt [--verify-time 8]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import random
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
import _common  # noqa: E402,F401  (connect6: the installed package, else this checkout)
sys.path.insert(0, str(ROOT / "tools"))

from make_openings import DATA, select  # noqa: E402

from connect6.book import SYMMETRIES  # noqa: E402
from connect6.records import RecordError, load_openings, parse_stone_list, read_games_csv, replay  # noqa: E402

PositionKey = Tuple[Tuple[int, ...], Tuple[int, ...]]


def position_key(text: str) -> PositionKey:
    """A key shared by the eight symmetric forms of an opening's position (its
    black and its white cells, in whatever order the turns placed them)."""
    turns = parse_stone_list(text)
    black = [c for i, turn in enumerate(turns) if i % 2 == 0 for c in turn.stones]
    white = [c for i, turn in enumerate(turns) if i % 2 == 1 for c in turn.stones]
    return min((tuple(sorted(m[c] for c in black)), tuple(sorted(m[c] for c in white))) for m in SYMMETRIES)


def excluded_keys(paths: Sequence[str]) -> Set[PositionKey]:
    """The position keys of every opening of the openings files ``paths``."""
    return {position_key(text) for path in paths for text in load_openings(path)}


def draw(candidates: list, seed: Optional[int], exclude: Set[PositionKey], limit: int) -> list:
    """The candidates to play: those not in ``exclude``, the most played
    ``limit`` (no seed) or a random ``limit`` drawn with ``seed``."""
    kept = [c for c in candidates if position_key(c[0]) not in exclude]
    if seed is not None:
        random.Random(seed).shuffle(kept)
    return kept[:limit]


def self_play(opening: str, depth: int, width: int) -> str:
    """'black', 'white' or 'draw': the default engine at this depth and width against itself."""
    import connect6
    board = replay(parse_stone_list(opening))
    engine = connect6.make_engine(depth=depth, width=width)
    while not board.is_game_over():
        board.push(engine.search(board).move)
    winner = board.outcome().winner
    return "draw" if winner is None else winner.name.lower()


def verify(opening: str, seconds: float) -> Optional[str]:
    """The scores of a ``seconds`` search from the opening and after its best
    move (each for the side to move), as text, or None when either is a forced result."""
    import connect6
    board = replay(parse_stone_list(opening))
    engine = connect6.make_engine()
    scores = []
    for _ in range(2):
        result = engine.search(board, time=seconds)
        if result.win_in is not None:
            return None
        scores.append(f"{result.score:+d}@{result.depth}")
        board.push(result.move)
    return " ".join(scores)


def verify_rounds(opening: str, seconds: float, rounds: int) -> Optional[str]:
    """:func:`verify` ``rounds`` times (timed searches reach different depths
    from run to run): the last scores, or None as soon as one finds a forced result."""
    scores = None
    for _ in range(rounds):
        scores = verify(opening, seconds)
        if scores is None:
            return None
    return scores


def verified_openings(texts: List[str], seconds: float, rounds: int, count: int,
                      jobs: int) -> Dict[str, Optional[str]]:
    """Verify ``texts`` in order until ``count`` pass: {text: scores or None} for those tried."""
    out: Dict[str, Optional[str]] = {}
    with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        futures = [(text, pool.submit(verify_rounds, text, seconds, rounds)) for text in texts]
        for text, future in futures:
            if sum(v is not None for v in out.values()) >= count:
                future.cancel()
                continue
            out[text] = future.result()
    return out


def check_file(path: str, seconds: float, jobs: int) -> int:
    """Verify every opening of an openings file; print each verdict and how many are decided."""
    openings = load_openings(path)
    with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        verdicts = list(pool.map(verify, openings, [seconds] * len(openings)))
    for text, scores in zip(openings, verdicts):
        print(f"{text}  {'forced result' if scores is None else scores}")
    decided = sum(v is None for v in verdicts)
    print(f"{decided} of {len(openings)} openings have a forced result within {seconds:g} s a search")
    return 0


def header(args, kept: list, configs: list, high: int, verified: dict) -> List[str]:
    """The comment lines at the head of the written file."""
    command = (f"tools/make_engine_openings.py --turns {args.turns} --candidates {args.candidates}"
               f" --configs {args.configs} --low {args.low} --high {high} --verify-time {args.verify_time:g}"
               f" --verify-rounds {args.verify_rounds}")
    if args.seed is not None:
        command += f" --seed {args.seed} --count {args.count}" + "".join(f" --exclude {e}" for e in args.exclude)
    how = "a random draw (seeded) of the" if args.seed is not None else "the most played of the"
    lines = [
        f"# {len(kept)} openings of {args.turns} turns from the human games, balanced for engines: {how}",
        "# openings that pass the filters below, written by",
        f"# {command}" + (f"  ({datetime.date.today().isoformat()})" if args.seed is not None else ""),
    ]
    if args.exclude:
        lines.append("# None is, in any of its 8 symmetric forms, an opening of " + ", ".join(args.exclude) + ".")
    lines += [
        f"# Each is a human opening (played >= {args.min_games} times, won by both colours, no VCDT for the side",
        f"# to move) after which the default engine at depth:width {args.configs} won with Black in",
        f"# {args.low}..{high} of {len(configs)} self-play games.  "
        + ("In the drawn order." if args.seed is not None else "Most balanced first.")
        + "  Play each in a colour-swapped pair.",
    ]
    if args.verify_time > 0:
        lines.append(f"# Verified: {args.verify_rounds} times, a {args.verify_time:g} s search from the opening and after its"
                     " best move finds no forced result (scores of the last, for the side to move @ depth).")
    if args.note:
        lines += [f"# {line}" for line in args.note]
    lines.append("# opening  (human games, self-play black wins of " + str(len(configs)) + ")"
                 + (", verification scores" if verified else ""))
    return lines


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=str(DATA), help="the human games (archive CSV)")
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--candidates", type=int, default=120, help="human openings tried")
    ap.add_argument("--min-games", type=int, default=3)
    ap.add_argument("--configs", default="2:10,2:14,3:10,3:14", help="depth:width of each self-play engine")
    ap.add_argument("--low", type=int, default=1, help="fewest black wins to keep an opening")
    ap.add_argument("--high", type=int, default=None, help="most black wins (default: configs - 1)")
    ap.add_argument("--verify-time", type=float, default=8.0,
                    help="seconds of a default search from each opening and after its best move (0: none)")
    ap.add_argument("--verify-rounds", type=int, default=2,
                    help="independent verifications an opening must pass (timed searches vary)")
    ap.add_argument("--seed", type=int, default=None,
                    help="draw the --candidates at random with this seed instead of the most played")
    ap.add_argument("--exclude", action="append", default=[], metavar="FILE",
                    help="drop the openings of this openings file, up to symmetry (repeatable)")
    ap.add_argument("--note", action="append", default=[], help="a line for the file's header (repeatable)")
    ap.add_argument("--check", metavar="FILE",
                    help="only verify the openings of FILE (--verify-time, default 8 s) and print each verdict")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "data" / "openings-verified.txt"))
    args = ap.parse_args(argv)
    try:
        args.config_list = [tuple(int(x) for x in c.split(":")) for c in args.configs.split(",")]
        if not args.config_list or any(len(c) != 2 or min(c) < 1 for c in args.config_list):
            raise ValueError
    except ValueError:
        ap.error(f"--configs: expected depth:width,... with positive numbers, not {args.configs!r}")
    if args.verify_rounds < 1 or args.verify_time < 0:
        ap.error("--verify-rounds must be at least 1 and --verify-time at least 0")
    if args.check and args.verify_time <= 0:
        ap.error("--check needs --verify-time > 0")
    try:
        args.games_list = None if args.check else read_games_csv(args.games)
        args.exclude_keys = excluded_keys(args.exclude)
    except (OSError, RecordError, ValueError) as exc:
        ap.error(f"cannot read the games or an --exclude file: {exc}")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.check:
        return check_file(args.check, args.verify_time, args.jobs)
    configs = args.config_list
    high = len(configs) - 1 if args.high is None else args.high
    candidates = draw(select(args.games_list, args.turns, args.min_games, 1, 200_000, 12), args.seed,
                      args.exclude_keys, args.candidates)
    print(f"{len(candidates)} candidate openings, {len(configs)} self-play games each", file=sys.stderr)
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        futures = {(text, c): pool.submit(self_play, text, *c) for text, *_ in candidates for c in configs}
        results = {key: f.result() for key, f in futures.items()}
    kept = []
    for order, (text, n, b, w) in enumerate(candidates):
        black = sum(results[(text, c)] == "black" for c in configs)
        if args.low <= black <= high:
            balance = 0 if args.seed is not None else abs(2 * black - len(configs))
            kept.append((balance, order, text, n, black))
    kept.sort()
    verified = {}
    if args.verify_time > 0:
        print(f"verifying {len(kept)} openings in order until {args.count} pass, {args.verify_rounds} x"
              f" {2 * args.verify_time:g} s each", file=sys.stderr)
        verified = verified_openings([k[2] for k in kept], args.verify_time, args.verify_rounds, args.count,
                                     args.jobs)
        dropped = [text for text, scores in verified.items() if scores is None]
        print(f"dropped {len(dropped)} of {len(verified)} with a forced result: {'; '.join(dropped)}",
              file=sys.stderr)
        kept = [k for k in kept if verified.get(k[2]) is not None]
    kept = kept[:args.count]
    if len(kept) < args.count:
        print(f"only {len(kept)} openings pass; writing those", file=sys.stderr)
    lines = header(args, kept, configs, high, verified)
    lines += [f"{text}  # {n}, {black}" + (f", {verified[text]}" if verified else "") for _, _, text, n, black in kept]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {len(kept)} openings to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
