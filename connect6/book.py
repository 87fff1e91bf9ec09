"""An opening book: moves people played in a position, with how they fared.

A book maps a position (the stones on the board, whoever placed them in
whatever order) to the moves played from it, each with the number of games
and the games the mover won.  The eight symmetries of the board are one
position: a book built from ``j10,k11,i11`` answers ``j10,i9,k9`` too, its
moves turned the same way.  :func:`default_book` is the book shipped with the
package (``connect6/data/book.txt``, built from the human games by
``tools/make_book.py`` and checked by the engine's own search).

>>> import connect6
>>> from connect6.book import OpeningBook
>>> book = OpeningBook.from_games([["j10", "k11i11", "h11i10"], ["j10", "k11i11", "h11i10"]], min_games=2)
>>> board = connect6.Board(["j10"])
>>> book.probe(board).move == connect6.Move.parse("k11i11")
True
>>> [str(e.move) for e in book.entries(connect6.Board(["j10", "i9k9"]))]   # the same, turned half round
['l9k10']

The text form, one move per line, is what :meth:`OpeningBook.load` reads and
:meth:`OpeningBook.dumps` writes::

    # position (a stone list)   move    games  wins  score
    j10                         k11i11  57     30    +120
    j10,k11,i11                 h11i10  12     7     -

``score`` is the engine's value of the move for the mover when the book was
checked (``-`` when it was not).
"""
from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from connect6._files import write_file_atomic
from connect6.board import Board
from connect6.notation import IllegalMoveError, InvalidMoveError, Move, MoveLike, to_move
from connect6.records.core import RecordError, format_stone_list, parse_stone_list, replay

__all__ = ["BookEntry", "OpeningBook", "default_book", "DEFAULT_BOOK", "SYMMETRIES"]

#: the book shipped with the package
DEFAULT_BOOK = Path(__file__).resolve().parent / "data" / "book.txt"
#: the most lines a book file may have (far above any book built from the archives)
MAX_BOOK_LINES = 1_000_000

_SIZE = 19


def _symmetry_maps() -> Tuple[Tuple[int, ...], ...]:
    """The eight maps cell -> cell of the square board about its centre."""
    n = _SIZE - 1
    maps = []
    for k in range(8):
        image = []
        for cell in range(_SIZE * _SIZE):
            r, c = divmod(cell, _SIZE)
            for _ in range(k % 4):                  # k % 4 quarter turns, then a mirror for k >= 4
                r, c = c, n - r
            if k >= 4:
                c = n - c
            image.append(r * _SIZE + c)
        maps.append(tuple(image))
    return tuple(maps)


#: the eight maps cell -> cell of the board's symmetries (index 0 the identity)
SYMMETRIES = _symmetry_maps()
_INVERSE = tuple(tuple(sorted(range(_SIZE * _SIZE), key=m.__getitem__)) for m in SYMMETRIES)

Key = Tuple[Tuple[int, ...], Tuple[int, ...]]


def _canonical(black: Sequence[int], white: Sequence[int]) -> Tuple[Key, int]:
    """The position's key shared by its eight symmetric forms, and the map
    (an index of ``SYMMETRIES``) that takes this form to the key's."""
    best: Optional[Key] = None
    best_k = 0
    for k, m in enumerate(SYMMETRIES):
        key = (tuple(sorted(m[c] for c in black)), tuple(sorted(m[c] for c in white)))
        if best is None or key < best:
            best, best_k = key, k
    assert best is not None
    return best, best_k


def _stones(board: Board) -> Tuple[List[int], List[int]]:
    cells = board.position.cells_bytes()
    black = [i for i, v in enumerate(cells) if v == 0]
    white = [i for i, v in enumerate(cells) if v == 1]
    return black, white


@dataclasses.dataclass(frozen=True)
class BookEntry:
    """A book move in the board's orientation: ``games`` played it, the mover
    won ``wins`` of them; ``score`` is the engine's value of it for the mover
    when the book was checked (None: not checked)."""

    move: Move
    games: int
    wins: int
    score: Optional[int] = None

    @property
    def win_rate(self) -> float:
        """The mover's share of wins, pulled toward one half by one win and
        one loss more (so one lucky game does not make a move look best)."""
        return (self.wins + 1) / (self.games + 2)


class OpeningBook:
    """Positions and the moves played from them (see the module's doc).

    ``probe(board)`` is the move to play (the best :attr:`BookEntry.win_rate`,
    more games breaking ties) or None; ``entries(board)`` every move known,
    best first.  Only positions at the start of a turn are in a book.
    """

    def __init__(self) -> None:
        # canonical key -> canonical move stones -> [games, wins, score]
        self._moves: Dict[Key, Dict[Tuple[int, ...], List[Any]]] = {}
        self._shared = False        # default_book()'s: every engine reads it, so it is not changed

    def __len__(self) -> int:
        """The number of (position, move) entries."""
        return sum(len(v) for v in self._moves.values())

    @property
    def positions(self) -> int:
        return len(self._moves)

    def add(self, board: Board, move: MoveLike, games: int, wins: int, score: Optional[int] = None) -> None:
        """Add ``games`` games (the mover won ``wins``) of ``move`` from ``board``'s
        position; counts of a move already there add up, a score replaces it."""
        if self._shared:
            raise ValueError("this is the book every engine shares (default_book()): add to a copy of it, "
                             "OpeningBook.loads(book.dumps())")
        if not isinstance(board, Board):
            raise TypeError(f"board must be a connect6.Board, not {type(board).__name__}")
        m = to_move(move)
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ValueError(f"games must be an integer >= 1, not {games!r}")
        if isinstance(wins, bool) or not isinstance(wins, int) or not 0 <= wins <= games:
            raise ValueError(f"wins must be an integer in 0..games ({games}), not {wins!r}")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int)):
            raise ValueError(f"score must be an integer or None, not {score!r}")
        if board.is_game_over() or board.unfinished_turn:
            raise ValueError("a book position is the start of a turn in an unfinished game")
        try:
            board.copy().push(m)
        except IllegalMoveError as exc:
            raise ValueError(f"not a legal move in the position: {exc}") from None
        black, white = _stones(board)
        if not (len(black) == len(white) == 0 or (len(black) % 2 == 1 and abs(len(black) - len(white)) == 1)):
            raise ValueError(f"{len(black)} black and {len(white)} white stones: not a position of a game")
        key, k = _canonical(black, white)
        stones = tuple(sorted(SYMMETRIES[k][c] for c in m.stones))
        slot = self._moves.get(key, {}).get(stones, [0, 0, None])
        if slot[0] + games > MAX_COUNT or (score is not None and abs(score) > MAX_COUNT):
            raise ValueError(f"games and score are at most {MAX_COUNT} in size (what a book file can hold)")
        slot = self._moves.setdefault(key, {}).setdefault(stones, slot)
        slot[0] += games
        slot[1] += wins
        if score is not None:
            slot[2] = score

    def entries(self, board: Board) -> List[BookEntry]:
        """Every book move of ``board``'s position, turned to the board, best first."""
        if not isinstance(board, Board):
            raise TypeError(f"a book is probed with a connect6.Board, not {type(board).__name__}")
        if board.unfinished_turn or board.is_game_over():
            return []
        black, white = _stones(board)
        key, k = _canonical(black, white)
        found = self._moves.get(key)
        if not found:
            return []
        back = _INVERSE[k]
        out = [BookEntry(Move(tuple(back[c] for c in stones)), games, wins, score)
               for stones, (games, wins, score) in found.items()]
        out = [e for e in out if board.is_legal(e.move)]
        out.sort(key=lambda e: (-e.win_rate, -e.games, e.move.stones))
        return out

    def probe(self, board: Board) -> Optional[BookEntry]:
        """The book's move for ``board`` (None: the position is not in the book)."""
        found = self.entries(board)
        return found[0] if found else None

    # ------------------------------------------------------------ building
    @classmethod
    def from_games(cls, games: Iterable[Sequence[MoveLike]], *, winners: Optional[Iterable[Optional[int]]] = None,
                   max_turns: int = 8, min_games: int = 3) -> "OpeningBook":
        """A book of the first ``max_turns`` turns of ``games`` (each a list of
        moves): a move enters when at least ``min_games`` games played it from
        a position.  ``winners`` gives each game's winner (0 black, 1 white,
        None a draw or unknown; without it every game counts as no win)."""
        raw = cls()
        game_list = list(games)
        winner_list = [None] * len(game_list) if winners is None else list(winners)
        if len(winner_list) != len(game_list):
            raise ValueError(f"{len(game_list)} games but {len(winner_list)} winners")
        for i, winner in enumerate(winner_list):
            if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
                raise ValueError(f"winner of game {i + 1}: 0 (black), 1 (white) or None, not {winner!r}")
        for moves, winner in zip(game_list, winner_list):
            board = Board()
            for t, m in enumerate(list(moves)[:max_turns]):
                if t > 0:
                    raw.add(board, m, 1, int(winner is not None and winner == int(board.turn)))
                board.push(m)
                if board.is_game_over():
                    break
        book = cls()
        for key, found in raw._moves.items():
            kept = {s: v for s, v in found.items() if v[0] >= min_games}
            if kept:
                book._moves[key] = kept
        return book

    # ------------------------------------------------------------ text form
    def items(self) -> Iterator[Tuple[str, Move, int, int, Optional[int]]]:
        """Every entry as (position as a stone list, move, games, wins, score):
        positions by stone count, the most played move first."""
        for key in sorted(self._moves, key=lambda k: (len(k[0]) + len(k[1]), k)):
            position = _key_stones(key)
            for stones, (games, wins, score) in sorted(self._moves[key].items(), key=lambda kv: (-kv[1][0], kv[0])):
                yield position, Move(stones), games, wins, score

    def dumps(self) -> str:
        """The book as text (see the module's doc)."""
        lines = ["# connect6 opening book: position (stone list)  move  games  wins  score (mover's, engine)"]
        for position, move, games, wins, score in self.items():
            lines.append(f"{position}  {move}  {games}  {wins}  {'-' if score is None else f'{score:+d}'}")
        return "\n".join(lines) + "\n"

    @classmethod
    def loads(cls, text: str, *, file: Optional[str] = None) -> "OpeningBook":
        """Read a book from its text form; a broken line is a RecordError naming it."""
        if not isinstance(text, str):
            raise TypeError(f"a book is text, not {type(text).__name__}")
        book = cls()
        for number, line in enumerate(text.splitlines(), 1):
            if number > MAX_BOOK_LINES:
                raise RecordError(f"more than {MAX_BOOK_LINES} lines: not a book", file=file, line=number)
            body = line.split("#", 1)[0].strip()
            if not body:
                continue
            fields = body.split()
            if len(fields) != 5:
                raise RecordError(f"expected 5 fields (position move games wins score), found {len(fields)}",
                                  file=file, line=number, text=body)
            position, move, games, wins, score = fields
            try:
                board = position_board(position)
                book.add(board, Move.parse(move), _count(games, "games"), _count(wins, "wins"),
                         None if score == "-" else _count(score, "score", signed=True))
            except (RecordError, InvalidMoveError, ValueError) as exc:
                raise RecordError(str(exc), file=file, line=number, text=body) from None
        return book

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "OpeningBook":
        """Read a book file (text form)."""
        name = os.fspath(path)
        try:
            with open(name, encoding="utf-8") as fh:
                text = fh.read(64 * MAX_BOOK_LINES + 1)
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text ({exc.reason})", file=name) from None
        if len(text) > 64 * MAX_BOOK_LINES:
            raise RecordError(f"larger than {64 * MAX_BOOK_LINES} characters: not a book", file=name)
        return cls.loads(text, file=name)

    def dump(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Write the book (through a synced temporary file, so a failed write or a
        power cut leaves the old one)."""
        write_file_atomic(os.fspath(path), self.dumps())


def position_board(position: str) -> Board:
    """The board of a book position written as a stone list (``-``: the empty board)."""
    return Board() if position == "-" else replay(parse_stone_list(position))


#: The largest count or score magnitude a book holds (18 digits in its file).
MAX_COUNT = 10 ** 18 - 1


def _count(text: str, name: str, signed: bool = False) -> int:
    body = text[1:] if signed and text[:1] in "+-" and len(text) > 1 else text
    if not body.isascii() or not body.isdigit() or len(body) > 18:
        raise ValueError(f"{name} must be a{' signed' if signed else 'n'} integer, not {text!r}")
    return int(text)


def _key_stones(key: Key) -> str:
    """A stone list that plays the key's position (Black's first stone, then
    pairs in turn): any order reaches the same stones."""
    black, white = list(key[0]), list(key[1])
    if not black:
        return "-"
    turns: List[Move] = [Move((black[0],))]
    b, w = 1, 0
    while b < len(black) or w < len(white):
        if w < len(white):
            turns.append(Move(tuple(white[w:w + 2])))
            w += 2
        if b < len(black):
            turns.append(Move(tuple(black[b:b + 2])))
            b += 2
    return format_stone_list(turns)


@functools.lru_cache(maxsize=8)
def _cached(path: str, mtime_ns: int) -> OpeningBook:
    book = OpeningBook.load(path)
    book._shared = True
    return book


def default_book(path: Union[str, "os.PathLike[str]", None] = None) -> OpeningBook:
    """The shipped book (or the book at ``path``), read once and kept while the file is
    unchanged.  Every engine with ``book=True`` reads this one object, so it cannot be
    added to: ``OpeningBook.loads(default_book().dumps())`` is a copy that can."""
    name = os.fspath(DEFAULT_BOOK if path is None else path)
    try:
        mtime = os.stat(name).st_mtime_ns
        return _cached(name, mtime)
    except OSError as exc:
        raise type(exc)(exc.errno, f"opening book {name}: {exc.strerror}") from None
