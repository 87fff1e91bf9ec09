"""A memo in front of a deterministic protocol engine: replies it gave before
are answered at once, the others by the engine itself.

Cloudict keeps nothing from one move to the next (the protocol client sends
``new`` and the whole game before every move, and Cloudict clears its board
and its VCF table on each), and at a fixed depth it reads no clock: its reply
is a function of the position.  So a reply recorded in an earlier game is the
reply it would give again, and a match against it can take those replies from
the records and run the engine only where a game leaves them.  On a fixed
opening set most games of a candidate follow the previous run's moves for
many turns (`cloudict.py --pairs`), and Cloudict's share of a depth-6 game is
about 60% of its time, so a long keep test takes about half as long.

The memo is a JSON file made by :func:`build_memo` from game records::

    {"engine": "cloudict-d6", "name": "Cloudict.Connect6",
     "replies": {"<position digest>": ["JIKK", 29.65], ...}}

each reply with the seconds it took when it was played.  A match records the
time a move really took (close to 0 from the memo); :func:`with_memo_times`
gives a table Cloudict's own time back for the moves the memo answered.

    python bench/memo_engine.py MEMO.json -- ~/.cache/connect6-peers/cloudict 6

speaks the protocol on stdin/stdout: ``name`` is answered from the memo (or
the engine, started then); ``new``, ``black``/``white`` placements and
``next`` are followed on a board of its own, and ``next`` is answered from the
memo when it holds the position, else by the engine (started on first need,
given ``new`` and the whole game, its output passed on up to its move reply).
Any other command goes to the engine.  If the engine ends, so does this.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import _common  # noqa: F401  (connect6: the installed package, else this checkout built in place)
from connect6.board import Board
from connect6.match.store import read_results
from connect6.notation import Move
from connect6.protocol.wire import parse_move_reply, parse_name_reply, parse_protocol_move

Memo = Dict[str, Tuple[str, float]]
MEMO_FILE = "memo.json"        # in a match folder: the memo its engine's turns were answered from


def _key(board: Board) -> str:
    """The position's key in a memo: a digest of Board.position_key (the 361
    cells, the side to move and its stones left), 128 bits."""
    return hashlib.sha256(board.position_key()).hexdigest()[:32]


def _records(folders: Iterable[str]) -> Iterable[Tuple[str, dict]]:
    """(where, record) for the game records under ``folders``; a match folder
    played with a memo (it holds memo.json) gives its records the memo's
    times (see with_memo_times), so a memo made from it keeps the seconds the
    engine took to compute a reply, not the none it took to look it up."""
    for folder in folders:
        paths = [Path(folder)] if Path(folder).is_file() else sorted(Path(folder).rglob("games.jsonl"))
        for path in paths:
            memo = folder_memo(str(path.parent))
            # the runner's reader: a torn last line (a run cut short) is skipped as --resume skips it
            for record in read_results(str(path)):
                where = f"{path}, game {record.get('game')}"
                try:
                    if memo:
                        record = with_memo_times([record], memo)[0]
                except (ValueError, KeyError, TypeError, IndexError) as exc:
                    raise ValueError(f"{where}: not a game record: {exc}") from None
                yield where, record


def build_memo(folders: Sequence[str], label: str) -> dict:
    """The replies of the player labelled ``label`` (``cloudict-d6``) in the
    game records under ``folders`` (match folders, or games.jsonl files):
    for every turn it played, the position before it, its move in protocol
    letters and the seconds it took.  Two records that give one position two
    different replies end it with a ValueError naming both: the engine is not
    the deterministic one this memo assumes."""
    replies: Dict[str, Tuple[str, float, str]] = {}
    name = None
    for where, rec in _records(folders):
        turns = []
        for color in _colours(rec, label):
            name = name or (rec.get("names") or {}).get(color)
            try:
                turns += _engine_turns(rec, color)
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{where}: not a game record: {exc}") from None
        for i, key, letters, seconds in turns:
            seen = replies.get(key)
            if seen is not None and seen[0] != letters:
                raise ValueError(f"{label} answered one position with {seen[0]} ({seen[2]}) and with "
                                 f"{letters} ({where}, turn {i}): not a deterministic engine")
            if seen is None:
                replies[key] = (letters, float(seconds), f"{where}, turn {i}")
    return {"engine": label, "name": name, "replies": {k: [v[0], v[1]] for k, v in replies.items()}}


def _colours(rec: dict, label: str) -> List[str]:
    """The colours the player labelled ``label`` had in ``rec``: both in its games against itself (--self)."""
    return [c for c in ("black", "white") if rec.get(c) == label]


def _engine_turns(rec: dict, color: str) -> List[Tuple[int, str, str, float]]:
    """(turn, position key before it, move letters, seconds) of each turn the
    side ``color`` played in the record (the opening's turns have no time)."""
    out = []
    board = Board()
    for i, (text, seconds) in enumerate(zip(rec["moves"], rec["times"])):
        move = Move.parse(text)
        if str(board.turn) == color and seconds is not None:
            out.append((i, _key(board), move.to_protocol(), seconds))
        board.push(move)
    return out


def load_memo(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        memo = json.load(fh)
    if not isinstance(memo, dict) or not isinstance(memo.get("replies"), dict):
        raise ValueError(f"{path}: not a memo (a JSON object with 'replies')")
    return memo


def folder_memo(folder: str) -> Optional[dict]:
    """The memo a match folder was played with (its memo.json), or None."""
    path = Path(folder) / MEMO_FILE
    return load_memo(str(path)) if path.exists() else None


def with_memo_times(records: List[dict], memo: dict) -> List[dict]:
    """Copies of ``records`` in which each turn of the memo's engine that the
    memo holds takes the seconds the memo recorded for it (the engine's own
    time when it computed that reply; answered from the memo it took about
    none).  Records of other players, and turns the memo does not hold, are
    unchanged."""
    label, replies = memo.get("engine"), memo["replies"]
    out = []
    for rec in records:
        colors = _colours(rec, label)
        if not colors:
            out.append(rec)
            continue
        times = list(rec["times"])
        for color in colors:
            for i, key, letters, _ in _engine_turns(rec, color):
                hit = replies.get(key)
                if hit is not None and hit[0] == letters:
                    times[i] = hit[1]
        out.append({**rec, "times": times})
    return out


class MemoProxy:
    """The protocol loop of the script: ``handle`` one line at a time."""

    def __init__(self, memo: dict, command: Sequence[str], out=None):
        self.replies: Memo = {k: (v[0], v[1]) for k, v in memo["replies"].items()}
        self.name: Optional[str] = memo.get("name")
        self.command = list(command)
        self.out = sys.stdout if out is None else out
        self.engine: Optional[subprocess.Popen] = None
        self.board: Optional[Board] = Board()      # None after a placement it could not follow
        self.placements: List[str] = []
        self.hits = self.misses = 0

    def answer(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _start(self) -> subprocess.Popen:
        if self.engine is None:
            self.engine = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           text=True, bufsize=1)
        return self.engine

    def _send(self, line: str) -> None:
        engine = self._start()
        try:
            engine.stdin.write(line + "\n")
            engine.stdin.flush()
        except (BrokenPipeError, OSError):
            raise SystemExit(f"memo_engine: {self.command[0]} is gone")

    def _relay_until(self, done) -> None:
        """Pass the engine's output on until a line ``done`` accepts (included)."""
        for line in self.engine.stdout:
            line = line.rstrip("\n")
            self.answer(line)
            if done(line):
                return
        raise SystemExit(f"memo_engine: {self.command[0]} ended (exit status {self.engine.wait()})")

    def handle(self, line: str) -> bool:
        line = line.rstrip("\n")
        words = line.split()
        if not words:
            return True
        command = words[0].lower()
        if command in ("quit", "exit"):
            if self.engine is not None:
                self._send(line)
            return False
        if command == "name" and self.name:
            self.answer(f"name {self.name}")
        elif command == "name":
            self._send(line)
            self._relay_until(lambda text: parse_name_reply(text) is not None)
        elif command == "new":
            self.board = Board()
            self.placements = [line]
        elif command in ("black", "white"):
            self.placements.append(line)
            try:
                self.board.push(parse_protocol_move(words[1], self.board.stones_to_place))
            except Exception:       # the engine gets the line as sent and answers for itself
                self.board = None
        elif command == "next":
            hit = None if self.board is None else self.replies.get(_key(self.board))
            if hit is not None:
                self.hits += 1
                self.answer(f"move {hit[0]}")
            else:
                self.misses += 1
                for sent in self.placements + ["next"]:
                    self._send(sent)
                self._relay_until(lambda text: parse_move_reply(text.strip()) is not None)
        else:
            self._send(line)
        return True

    def close(self) -> None:
        if self.engine is not None:
            try:
                self.engine.stdin.close()
            except OSError:
                pass
            try:
                self.engine.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.engine.kill()
        print(f"memo_engine: {self.hits} replies from the memo, {self.misses} from the engine", file=sys.stderr)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 3 or args[1] != "--":
        print("usage: memo_engine.py MEMO.json -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    try:
        memo = load_memo(args[0])
    except (OSError, ValueError) as exc:
        print(f"memo_engine: {exc}", file=sys.stderr)
        return 2
    proxy = MemoProxy(memo, args[2:])
    try:
        for line in sys.stdin:
            if not proxy.handle(line):
                break
    finally:
        proxy.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
