"""Where did we lose?  For each lost game of a match directory, the first of
our turns after which the threat-space solver finds the opponent a forced win
(a VCDT, or with ``--fours N`` > 0 a win by threats with up to N single fours,
within ``--budget`` nodes a call), with the game's colour and length.

A win deeper or quieter than the solver reaches escapes it, so the loss may
start earlier.  With ``--emit FILE`` each lost game whose first losing turn
was found is appended to FILE as a line of the loss suite
(``bench/loss_positions.txt``'s format: the position before that turn, our
move, the opponent's first turn of the win, and how it was proved), for
``bench/loss_suite.py`` to read.  With ``--search SECONDS`` each of our turns is also
searched again by the default engine (fresh tables), and the table gives the
first turn at which it sees a forced loss, with the opponent's move just
before it and that move's rank in our pair list (the default searches the
best ``width``, 12): a winning move ranked far down is one the width-limited
search could not consider.  When the records hold our engine's reports
(``evals``, written by matches since they keep them), the table also gives
the turn at which it first reported a forced loss during the game itself,
with the opponent's move just before it and that move's rank in the
opponent's pair list (no search needed: a turning move ranked beyond the
width is one the search and its reply check never tried).

A first losing turn may come after the game was already lost.  With
``--refuted NODES`` the tool walks back over our turns from it and asks the
engine's reply check (``engine_core.search.reply_refuted``, that many solver
nodes a call) about the move we played and our best ``width`` pairs: the
last of our turns where the played move is refuted but some other pair is
not is where the loss could still have been avoided, as far as the check
can tell (it is width-limited both ways, so not a proof).  If every pair is
refuted back to the opening, the game was lost from the opening on that
evidence.

    python tools/first_loss.py bench/out/cloudict/d5-default-t3 [--player a] [--budget 300000] [--search 5]
    python tools/first_loss.py bench/out/cloudict/d5-default-t3 --refuted 5000
    python tools/first_loss.py bench/out/cloudict/d5-default-t3 --fours 2 --emit bench/loss_positions.txt
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "bench"))
from _common import output_problem  # noqa: E402  (and connect6: the installed package, else this checkout)

import connect6  # noqa: E402
from connect6.engine import win_in  # noqa: E402
from connect6.match import read_results  # noqa: E402
from connect6.records import format_stone_list  # noqa: E402
from engine_core.movegen import best_moves, pairs_with  # noqa: E402
from engine_core.position import scan_code  # noqa: E402
from engine_core.search import reply_refuted  # noqa: E402
from engine_core.threats import blocking, threats  # noqa: E402
from engine_core.tss import solve_forced  # noqa: E402

ALL_PAIRS = 65536       # a width above any position's number of pairs: the whole ranked list


def first_losing_turn(moves, ours: connect6.Color, budget: int, depth: int, fours: int = 0):
    """(turn index, move, the opponent's winning line, "vcdt" or "four") of
    our first turn after which the opponent has a VCDT, or with ``fours`` a
    win with up to that many single fours; None if there is none."""
    board = connect6.Board()
    for i, text in enumerate(moves):
        move = connect6.Move.parse(text)
        mover = board.turn
        board.push(move)
        if board.is_game_over():
            return None
        if mover == ours:
            kind, line, _ = solve_forced(board.position, depth, fours, budget)
            if kind is not None:
                return i, move, line, kind
    return None


def suite_line(moves, found, colour: str, source: str) -> str:
    """A line of bench/loss_positions.txt for a game's first losing turn."""
    i, move, line, proof = found
    stones = format_stone_list(moves[:i])
    first = connect6.Move(tuple(c for c in line[0] if c >= 0))
    return (f"{stones} | {colour} | {move} | {first} | {proof} | {source} | "
            f"found by tools/first_loss.py: after {move} the solver finds the opponent a win starting {first}")


def pair_rank(board: connect6.Board, move: connect6.Move) -> int:
    """The place of ``move`` (1 = best) in the pair list of the side to move
    (the engine's pair scores: the paper's weights, radius 2), 0 if absent."""
    cells = tuple(sorted(move.stones))
    for i, (_, a, b) in enumerate(best_moves(board.position, ALL_PAIRS, 2, scan_code("incremental"))):
        if (a, b) == cells:
            return i + 1
    return 0


def _refuted(board: connect6.Board, cells, options) -> int:
    """The reply check's verdict on the pair ``cells`` of the side to move:
    1 refuted, 0 not, -1 undecided.  A pair after which the opponent makes
    six next (the check leaves those to the search) is refuted too."""
    a, b = cells
    after = board.position.copy()
    after.push_move(a, b)
    if threats(after, 1 - board.position.to_move):
        return 1
    return reply_refuted(board.position, options, a, b)


def our_pairs(board: connect6.Board):
    """The pairs of the side to move as the engine lists them: its best
    ``width`` pairs by pair score, or, when the opponent has threats, the
    pairs that meet them all (every blocking pair, and each stone that
    blocks alone with its best ``width`` partners, as gen_blocks does)."""
    width = connect6.options.profile("default").width
    pos = board.position
    h, blocks = blocking(pos, 1 - pos.to_move)
    if h == 0:
        return [(a, b) for _, a, b in best_moves(pos, width, 2, scan_code("incremental"))]
    forced = [tuple(sorted(block)) for block in blocks if block[1] >= 0]
    alone = [x for x, y in blocks if y < 0]
    partnered = [(a, b) for _, a, b in pairs_with(pos, alone, width)] if alone else []
    return forced + [p for p in partnered if p not in forced]


def last_avoidable_turn(moves, opening: int, ours: connect6.Color, last: int, budget: int):
    """Walk back over our turns from turn ``last`` (the first losing one) to
    the first after the ``opening`` turns.  Returns (turn, the move played, a
    pair of ours the reply check does not refute, how many of our best pairs
    (see our_pairs) it refutes, how many it checked) for the last turn where
    the move played is refuted and another pair is not; (turn, move, None, ...) for the turn
    after which the played move stops being refuted (the loss starts later
    than the check can see, so nothing earlier is blamed); None if every
    turn back to the opening is lost on this evidence."""
    options = connect6.options.profile("default", reply_check=budget).core_fields()
    boards = []
    board = connect6.Board()
    for text in moves[:last + 1]:
        boards.append(board.copy())
        board.push(connect6.Move.parse(text))
    for t in range(last, opening - 1, -1):
        board = boards[t]
        if board.turn != ours:
            continue
        played = tuple(sorted(connect6.Move.parse(moves[t]).stones))
        if _refuted(board, played, options) != 1:
            return t, moves[t], None, 0, 0
        pairs = [p for p in our_pairs(board) if p != played]
        verdicts = [_refuted(board, p, options) for p in pairs]
        for p, v in zip(pairs, verdicts):
            if v == 0:
                return t, moves[t], connect6.Move(p), verdicts.count(1), len(pairs)
    return None


def first_seen_loss(moves, ours: connect6.Color, seconds: float):
    """(turn index, turns to the six, the opponent's move before, its rank) for
    the first of our turns at which the default engine, searching ``seconds``
    from fresh tables, sees a forced loss; None if it never does."""
    engine = connect6.make_engine()
    board = connect6.Board()
    before = None
    for i, text in enumerate(moves):
        move = connect6.Move.parse(text)
        if board.turn == ours and before is not None:
            engine.new_game()
            found = engine.search(board, time=seconds).win_in
            if found is not None and found < 0:
                prev_board, prev_move = before
                return i, -found, prev_move, pair_rank(prev_board, prev_move)
        if board.turn != ours:
            before = (board.copy(), move)
        board.push(move)
        if board.is_game_over():
            return None
    return None


def rank_of_turn(moves, i: int) -> int:
    """The rank of turn ``i``'s move in the pair list of the side that played
    it (see pair_rank)."""
    return pair_rank(connect6.Board(" ".join(moves[:i])), connect6.Move.parse(moves[i]))


def seen_in_play(record, ours: connect6.Color):
    """(turn index, turns to the six) of the first of our turns at which our
    engine, in the game itself, reported a forced loss (the record's
    ``evals``, kept since match records have them); None if it never did or
    the record has none."""
    first = 0 if ours == connect6.BLACK else 1
    for i, e in enumerate(record.get("evals") or []):
        if i % 2 == first and isinstance(e, dict):
            w = win_in(e["score"])
            if w is not None and w < 0:
                return i, -w
    return None


def _avoidable_cells(record, ours, found, budget: int) -> str:
    """The --refuted columns of one lost game's row."""
    if found is None:
        return "| | | | "
    opening = len(record["opening"].split(",")) if record.get("opening") else 0
    turns = 1 + opening // 2 if opening else 0      # the first turn places 1 stone, later ones 2
    at = last_avoidable_turn(record["moves"], turns, ours, found[0], budget)
    if at is None:
        return "| lost from the opening | | | "
    t, played, alternative, refuted, checked = at
    if alternative is None:
        return f"| after turn {t} | {played} (not refuted) | | "
    return f"| {t} | {played} | {alternative} | {refuted} of {checked} "


def player_colour(record, player: str) -> str:
    """The colour ``player`` (a or b) had in ``record``."""
    return record["a_color"] if player == "a" else ("white" if record["a_color"] == "black" else "black")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="a match results directory (games.jsonl)")
    ap.add_argument("--player", default="a", choices=("a", "b"), help="whose losses (default a)")
    ap.add_argument("--budget", type=int, default=300_000)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--search", type=float, default=0.0, metavar="SECONDS",
                    help="also search each of our turns this long and report where the engine first sees the loss")
    ap.add_argument("--fours", type=int, default=0, help="single fours the opponent's win may hold (0: VCDT)")
    ap.add_argument("--emit", metavar="FILE", help="append each found position to FILE as a loss-suite line")
    ap.add_argument("--refuted", type=int, default=0, metavar="NODES",
                    help="also walk back with the reply check (NODES a solver call) to the last avoidable turn")
    args = ap.parse_args(argv)
    if not (args.budget >= 1 and 1 <= args.depth <= 24 and 0 <= args.search <= 3600
            and 0 <= args.refuted <= 10_000_000 and 0 <= args.fours <= 24):
        ap.error("need --budget >= 1, --depth 1..24, --fours 0..24, --search 0..3600 and --refuted 0..10000000")
    if args.emit and output_problem(args.emit):
        ap.error(f"--emit: {output_problem(args.emit)}")
    emitted = []
    if not os.path.isfile(os.path.join(args.dir, "games.jsonl")):
        ap.error(f"{args.dir} is not a match directory: it has no games.jsonl")
    try:
        records = read_results(os.path.join(args.dir, "games.jsonl"))
    except (OSError, ValueError) as exc:
        ap.error(str(exc))
    for r in records:
        if not isinstance(r.get("moves"), list) or r.get("a_color") not in ("black", "white"):
            ap.error(f"{args.dir}, game {r['game']}: not a record of the match runner (no moves or a_color)")
    other = "b" if args.player == "a" else "a"
    tally = collections.Counter()
    in_play = any(isinstance(e, dict) and (i % 2 == 0) == (player_colour(r, args.player) == "black")
                  for r in records for i, e in enumerate(r.get("evals") or []))
    extra = "| the loss seen in play " if in_play else ""
    extra += ("| our search first sees the loss | the opponent's move before | its rank in our pairs "
              if args.search else "")
    extra += "| last avoidable turn | move played | a pair not refuted | refuted of our best " if args.refuted else ""
    print("| game | our colour | turns | first losing turn (ours) | move | opponent's win after it " + extra + "|")
    print("|---|---|---|---|---|---" + ("|---" if in_play else "") + ("|---|---|---" if args.search else "")
          + ("|---|---|---|---" if args.refuted else "") + "|")
    for r in records:
        if r["winner"] != other:
            continue
        colour = player_colour(r, args.player)
        ours = connect6.BLACK if colour == "black" else connect6.WHITE
        found = first_losing_turn(r["moves"], ours, args.budget, args.depth, args.fours)
        tally[colour] += 1
        cells = "| none found | | "
        if found is not None:
            i, move, line, proof = found
            cells = f"| {i} | {move} | {proof}, {len(line)} plies "
            emitted.append(suite_line(r["moves"], found, colour, f"{args.dir} game {r['game']} (pair {r['pair']})"))
        if in_play:
            shown = seen_in_play(r, ours)
            if shown is None:
                cells += "| never "
            elif shown[0] == 0:
                cells += f"| turn 0 (loss in {shown[1]}) "
            else:
                before = r["moves"][shown[0] - 1]
                rank = rank_of_turn(r["moves"], shown[0] - 1)
                cells += f"| turn {shown[0]} (loss in {shown[1]}), after {before} (rank {rank or 'not listed'}) "
        if args.search:
            seen = first_seen_loss(r["moves"], ours, args.search)
            cells += ("| never | | " if seen is None else
                      f"| turn {seen[0]} (loss in {seen[1]}) | {seen[2]} | {seen[3] or 'not listed'} ")
        if args.refuted:
            cells += _avoidable_cells(r, ours, found, args.refuted)
        print(f"| {r['game']} | {colour} | {len(r['moves'])} " + cells + "|")
    print(f"\nlost games: {dict(tally)}")
    if args.emit and emitted:
        with open(args.emit, "a", encoding="utf-8") as out:
            out.write("".join(text + "\n" for text in emitted))
        print(f"{len(emitted)} positions appended to {args.emit}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
