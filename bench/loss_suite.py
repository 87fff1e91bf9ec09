"""The loss suite: positions from games our engine lost to Cloudict, each
just before our move that let the loss in (``bench/loss_positions.txt``).

This is a tool to find causes, not a target to tune to.  The positions are
few, chosen by our own losses, and a position "avoided" here only means that
the threat-space solvers find the opponent no forced win after the engine's
move; the judgement of a change stays the games (issue 40).

For each position the engine (``--engine``, the ``default`` profile unless
told) searches ``--time`` seconds from fresh tables, and its move is judged:

* ``same move``: it plays the move of the game, which let the loss in;
* ``sees a loss``: its search reports a forced loss (the position was lost
  already for this engine: the loss came in earlier);
* ``loses (vcdt)`` / ``loses (four)``: after its move the opponent has a
  VCDT (``engine_core.tss.solve_vcdt``) or a win by threats with up to two
  single fours anywhere in the line (``solve_vct``) within ``--budget``
  nodes a call;
* ``undecided``: a solver ran out of budget without an answer;
* ``avoided``: neither solver finds the opponent a win.  A win deeper or
  quieter than the solvers reach (two levels, for instance) may remain.

It prints a table and a summary line, and writes them as markdown to
``loss-suite-SECONDSs.md`` in ``--out`` (default ``bench/results/``; ``--out ''``
writes nothing), with the ``--note`` paragraphs under the command.  A part of
the suite (``--only``) or another positions file gets a name of its own
(``loss-suite-3s-only-2-5.md``), and so does another ``--budget`` (``-budget2000``)
or ``--engine`` (8 hex digits of its digest), so it never replaces the default's file.

``--prove`` instead checks each position's own record: is the opponent's
win after the move we played proved, and by which solver (the ``proof``
field of the data file)?  Besides the two solvers on their own, it plays the
first turn of the opponent's recorded line and asks the solvers after every
defence of ours (every pair that meets its threats; a quiet first turn
cannot be checked this way).

    python bench/loss_suite.py --time 3 [--budget 1000000] [--engine default] [--out DIR] [--note TEXT]
    python bench/loss_suite.py --prove [--budget 1000000]
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import hashlib
import time
from collections import Counter
from pathlib import Path
from typing import List, Optional, Tuple

from _common import ROOT, load_avg, machine

import connect6
from connect6.options import parse_engine_spec
from connect6.records import parse_stone_list, replay
from engine_core import threats as T
from engine_core import tss

DATA = ROOT / "bench" / "loss_positions.txt"
FIELDS = ("stones", "ours", "played", "line", "proof", "source", "note")
PROOFS = ("vcdt", "four", "line+vcdt", "line+four", "line+both", "no")
DEPTH = 16                  # attacker turns of each solver call
FOURS = 2                   # single fours a line may hold in the second solver call


@dataclasses.dataclass(frozen=True)
class LossPosition:
    stones: str             #: the turns before our move, a stone list
    ours: str               #: "black" or "white", the side to move
    played: str             #: our move in the game
    line: str               #: the opponent's winning line, turns separated by spaces ("-": not known)
    proof: str              #: how the opponent's win after ``played`` is proved (see PROOFS)
    source: str
    note: str

    def board(self) -> connect6.Board:
        return replay(parse_stone_list(self.stones))

    def line_moves(self) -> List[connect6.Move]:
        return [] if self.line == "-" else [connect6.Move.parse(t) for t in self.line.split()]


def read_positions(path=DATA) -> List[LossPosition]:
    """The positions of a loss-suite file; a bad line is a ValueError naming it."""
    out = []
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        parts = [p.strip() for p in text.split(" | ")]
        try:
            if len(parts) != len(FIELDS):
                raise ValueError(f"{len(parts)} fields, expected {len(FIELDS)}: {' | '.join(FIELDS)}")
            entry = LossPosition(*parts)
            if entry.ours not in ("black", "white") or entry.proof not in PROOFS:
                raise ValueError(f"ours must be black or white and proof one of {', '.join(PROOFS)}")
            board = entry.board()
            if board.is_game_over() or board.turn.name.lower() != entry.ours:
                raise ValueError(f"the game is over or {entry.ours} is not to move")
            if not board.is_legal(connect6.Move.parse(entry.played)):
                raise ValueError(f"{entry.played} is not legal here")
            entry.line_moves()
        except ValueError as exc:
            raise ValueError(f"{path}, line {number}: {exc}") from None
        out.append(entry)
    return out


def opponent_wins(pos, budget: int) -> Tuple[Optional[str], bool]:
    """The side to move's forced win found by the solvers: ("vcdt" | "four" |
    None, whether a solver ran out of budget)."""
    kind, _, undecided = tss.solve_forced(pos, DEPTH, FOURS, budget)
    return kind, undecided


def defences(pos, attacker: int) -> Optional[List[Tuple[int, int]]]:
    """Every pair of the defender (to move) that meets the attacker's threats;
    None when the attacker has no threat (a quiet move: every pair would
    do) or the defender can make six itself."""
    if T.blocking(pos, 1 - attacker)[0] > 0:
        return None                                 # the defender wins at once
    h, blocks = T.blocking(pos, attacker)
    if h == 0:
        return None
    empty = [c for c in range(361) if pos.stone_at(c) not in (0, 1)]
    return sorted({tuple(sorted((x, y))) for x, partner in blocks
                   for y in (empty if partner < 0 else [partner]) if y != x})


def prove(entry: LossPosition, budget: int) -> str:
    """How the opponent's forced win after the move played is proved (one of PROOFS)."""
    after = entry.board()
    after.push(connect6.Move.parse(entry.played))
    found, _ = opponent_wins(after.position, budget)
    if found or not entry.line_moves():
        return found or "no"
    attacker = int(after.turn)
    after.push(entry.line_moves()[0])
    if after.is_game_over():
        return "line+vcdt"
    pairs = defences(after.position, attacker)
    if pairs is None:
        return "no"
    kinds = set()
    for pair in pairs:
        pos = after.position.copy()
        pos.push_move(*pair)
        found, _ = opponent_wins(pos, budget)
        if found is None:
            return "no"
        kinds.add(found)
    return "line+" + (kinds.pop() if len(kinds) == 1 else "both") if kinds else "line+vcdt"


def judge(entry: LossPosition, spec: str, seconds: float, budget: int) -> dict:
    """Search the position and judge the engine's move (see the module's docstring)."""
    engine = connect6.make_engine(spec)          # the spec's depth, if any, caps the search
    board = entry.board()
    start = time.perf_counter()
    result = engine.search(board, time=seconds)
    elapsed = time.perf_counter() - start
    row = {"move": str(result.move), "score": result.score_text, "depth": result.depth, "seconds": elapsed}
    if sorted(result.move.stones) == sorted(connect6.Move.parse(entry.played).stones):
        return dict(row, verdict="same move")
    if result.win_in is not None and result.win_in < 0:
        return dict(row, verdict="sees a loss")
    board.push(result.move)
    if board.is_game_over():
        return dict(row, verdict="avoided")
    found, ran_out = opponent_wins(board.position, budget)
    verdict = f"loses ({found})" if found else "undecided" if ran_out else "avoided"
    return dict(row, verdict=verdict)


def run_suite(entries, spec: str, seconds: float, budget: int, numbers: Optional[List[int]] = None) -> List[str]:
    """Judge every position; the markdown table and summary lines (printed as they come)."""
    lines = ["| # | ours | played in the game | proof | engine's move | score @ depth | s | verdict | source |",
             "|---:|---|---|---|---|---|---:|---|---|"]
    for line in lines:
        print(line, flush=True)
    verdicts: Counter = Counter()
    for i, entry in zip(numbers or range(1, len(entries) + 1), entries):
        row = judge(entry, spec, seconds, budget)
        verdicts[row["verdict"]] += 1
        text = (f"| {i} | {entry.ours} | {entry.played} | {entry.proof} | {row['move']} | {row['score']} @ "
                f"{row['depth']} | {row['seconds']:.1f} | {row['verdict']} | {entry.source.split(';')[0]} |")
        print(text, flush=True)
        lines.append(text)
    others = ", ".join(f"{verdict} {n}" for verdict, n in sorted(verdicts.items()) if verdict != "avoided")
    summary = (f"{spec} at {seconds:g} s a position: avoided {verdicts['avoided']} of {len(entries)} losses "
               f"(solvers at {budget} nodes a call find the opponent no forced win after its move)"
               + (f"; {others}" if others else ""))
    print(summary)
    return lines + ["", summary]


#: the solvers' nodes a call by default: the budget the suite's published files were made with
BUDGET = 1_000_000


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", default=str(DATA), help="the loss-suite file")
    ap.add_argument("--time", type=float, default=3.0, help="seconds of search a position")
    ap.add_argument("--engine", default="default", help="engine spec (default: the default profile)")
    ap.add_argument("--budget", type=int, default=BUDGET, help="nodes of each solver call")
    ap.add_argument("--only", type=int, nargs="+", metavar="N", help="only these positions (1-based)")
    ap.add_argument("--prove", action="store_true", help="check each position's recorded proof instead")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"),
                    help="write loss-suite-SECONDSs.md here ('': nowhere)")
    ap.add_argument("--note", action="append", default=[], help="a paragraph for the markdown (repeatable)")
    args = ap.parse_args(argv)
    if args.time <= 0 or args.budget < 1:
        ap.error("--time must be above 0 and --budget at least 1")
    try:
        entries = read_positions(args.positions)
        parse_engine_spec(args.engine)
    except (OSError, ValueError) as exc:
        ap.error(str(exc))
    numbers = list(range(1, len(entries) + 1))
    if args.only:
        if not all(1 <= n <= len(entries) for n in args.only):
            ap.error(f"--only: positions are 1 to {len(entries)}")
        numbers = args.only
        entries = [entries[n - 1] for n in numbers]
    # the whole default suite writes loss-suite-3s.md; a part of it, or another
    # file, a name of its own, so that it never replaces the whole suite's results
    whole = Path(args.positions).resolve() == DATA.resolve()
    name = f"loss-suite-{args.time:g}s" + ("" if whole else f"-{Path(args.positions).stem}")
    if args.only:
        name += "-only-" + "-".join(map(str, args.only))
    if args.budget != BUDGET:           # another budget, or a candidate's engine, keeps the default's file
        name += f"-budget{args.budget}"
    if args.engine != "default":
        name += "-" + hashlib.sha256(args.engine.encode()).hexdigest()[:8]
    if args.out and not args.prove and not Path(args.out).is_dir():
        ap.error(f"--out {args.out}: not a folder")
    if args.prove:
        wrong = 0
        for number, entry in zip(numbers, entries):        # numbered as in the file, with --only too
            found = prove(entry, args.budget)
            wrong += found != entry.proof
            print(f"{number}: {entry.played}: {found} (recorded: {entry.proof})", flush=True)
        print(f"{len(entries) - wrong} of {len(entries)} proofs as recorded")
        return 1 if wrong else 0
    head = [f"# Loss suite: `{args.engine}` at {args.time:g} s a position",
            "", f"`python bench/loss_suite.py --time {args.time:g} --budget {args.budget}"
            f"{'' if args.engine == 'default' else ' --engine ' + args.engine}"
            f"{'' if whole else ' --positions ' + args.positions}"
            f"{' --only ' + ' '.join(map(str, args.only)) if args.only else ''}`, "
            f"{datetime.date.today().isoformat()}, {machine()}, {load_avg()}.", ""]
    head += [line for note in args.note for line in (note, "")]
    lines = run_suite(entries, args.engine, args.time, args.budget, numbers)
    if args.out:
        path = Path(args.out) / f"{name}.md"
        path.write_text("\n".join(head + lines) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
