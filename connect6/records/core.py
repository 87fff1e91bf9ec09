"""What every record format shares: :class:`RecordError`, the structure of a
record (turns and colours), Little Golem stone lists, the size limit of one
game, and :func:`replay` onto a board."""
from __future__ import annotations

import os
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Type, TypeVar, Union

from connect6.board import Board
from connect6.notation import (
    Color, IllegalMoveError, InvalidMoveError, Move, MoveLike, cell_name, parse_cell, to_move,
)
from connect6.weights import WeightsLike



class RecordError(ValueError):
    """A game record that cannot be read, written or replayed.

    The message starts with where it broke; the same facts are kept as
    attributes (each None when it does not apply): ``file`` (the file read),
    ``game`` (a game id),
    ``line`` and ``column`` (1-based) and ``offset`` (0-based character index)
    in the text, ``node`` (SGF node index, the root is node 0), ``move``
    (1-based turn number), ``stone`` (1-based index in a stone list) and
    ``text`` (the offending text).

    >>> try:
    ...     parse_stone_list("j10,k11,z99")
    ... except RecordError as exc:
    ...     print(exc)
    ...     print(exc.stone, exc.offset)
    stone 3 (offset 8) 'z99': 'z99': z99 is off the board (a1..s19)
    3 8
    """

    _FIELDS = ("file", "game", "line", "column", "offset", "node", "move", "stone", "text")

    def __init__(self, message: str, *, file: Union[str, os.PathLike[str], None] = None, game: Optional[str] = None,
                 line: Optional[int] = None,
                 column: Optional[int] = None, offset: Optional[int] = None, node: Optional[int] = None,
                 move: Optional[int] = None, stone: Optional[int] = None, text: Optional[str] = None):
        self.reason = message
        self.file = None if file is None else os.fspath(file)
        self.game = game
        self.line = line
        self.column = column
        self.offset = offset
        self.node = node
        self.move = move
        self.stone = stone
        self.text = text
        super().__init__(self._compose())

    def _compose(self) -> str:
        parts = []
        if self.file is not None:
            parts.append(self.file)
        if self.game is not None:
            parts.append(f"game {self.game}")
        if self.line is not None:
            parts.append(f"line {self.line}" + (f", column {self.column}" if self.column is not None else ""))
        if self.node is not None:
            parts.append(f"node {self.node}")
        if self.move is not None:
            parts.append(f"move {self.move}")
        if self.stone is not None:
            parts.append(f"stone {self.stone}")
        where = ", ".join(parts)
        if self.offset is not None:
            where += f" (offset {self.offset})" if where else f"offset {self.offset}"
        if self.text is not None:
            where += f" {self.text!r}" if where else repr(self.text)
        return f"{where}: {self.reason}" if where else self.reason

    def __reduce__(self) -> Tuple[Type[RecordError], Tuple[str], Dict[str, object]]:
        # rebuilt from the reason, then the location facts restored (__setstate__)
        return (type(self), (self.reason,), dict(self.__dict__))

    def __setstate__(self, state: Optional[Dict[str, object]]) -> None:
        self.__dict__.update(state or {})
        self.args = (self._compose(),)

    def located(self, *, file: Optional[str] = None, game: Optional[str] = None, line: Optional[int] = None,
                column: Optional[int] = None, offset: Optional[int] = None, node: Optional[int] = None,
                move: Optional[int] = None, stone: Optional[int] = None,
                text: Optional[str] = None) -> "RecordError":
        """A copy with more location facts filled in (existing ones are kept)."""
        return RecordError(
            self.reason, file=_first(self.file, file), game=_first(self.game, game),
            line=_first(self.line, line), column=_first(self.column, column),
            offset=_first(self.offset, offset), node=_first(self.node, node), move=_first(self.move, move),
            stone=_first(self.stone, stone), text=_first(self.text, text))


_T = TypeVar("_T")


def _first(mine: Optional[_T], other: Optional[_T]) -> Optional[_T]:
    return mine if mine is not None else other


# ---------------------------------------------------------------- structure
def _check_structure(moves: Sequence[Move]) -> None:
    """Turn sizes: 1 stone first, then 2, the last turn may be 1 (a game won mid-turn)."""
    for i, m in enumerate(moves):
        if i == 0:
            if len(m) != 1:
                raise RecordError(f"Black's first turn is one stone, not {len(m)}", move=1, text=str(m))
        elif len(m) != 2 and i != len(moves) - 1:
            raise RecordError(
                f"{_turn_color(i)}'s turn must be two stones, not {len(m)} "
                "(only the last turn of a record may be a single stone)", move=i + 1, text=str(m))


def _turn_color(index: int) -> Color:
    """The colour of the turn with 0-based ``index``."""
    return Color.BLACK if index % 2 == 0 else Color.WHITE


def _moves(moves: Iterable[MoveLike]) -> List[Move]:
    out = []
    for i, m in enumerate(moves):
        try:
            out.append(to_move(m))
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise RecordError(str(exc), move=i + 1, text=str(m)) from exc
    return out


# ---------------------------------------------------------------- stone lists
def parse_stone_list(text: str) -> List[Move]:
    """Read the archive's stone list: the first stone alone, then two stones per turn.

    Spaces around stones are ignored and cells may be upper case.  An empty
    text is a game with no moves.  The last turn may be a single stone (see
    the module docstring).

    >>> [str(m) for m in parse_stone_list("j10, K11,i11, h11")]
    ['j10', 'k11i11', 'h11']
    >>> parse_stone_list("")
    []
    >>> parse_stone_list("j10,j10,j10")
    Traceback (most recent call last):
    ...
    connect6.records.RecordError: move 2, stone 2 (offset 4) 'j10,j10': j10j10: the same stone twice
    """
    if not isinstance(text, str):
        raise TypeError(f"a stone list is text like 'j10,k11,i11', not {type(text).__name__}")
    _check_size(text, "this stone list")
    if not text.strip():
        return []
    cells: List[int] = []
    offsets: List[int] = []
    pos = 0
    for k, token in enumerate(text.split(",")):
        stripped = token.strip()
        where = pos + (len(token) - len(token.lstrip()))
        if not stripped:
            raise RecordError("empty stone (two commas in a row, or a comma at an end)",
                              stone=k + 1, offset=where)
        try:
            cells.append(parse_cell(stripped))
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise RecordError(str(exc), stone=k + 1, offset=where, text=stripped) from exc
        offsets.append(where)
        pos += len(token) + 1
    moves: List[Move] = []
    groups = [(0, 1)] + [(i, min(i + 2, len(cells))) for i in range(1, len(cells), 2)]
    for turn, (lo, hi) in enumerate(groups):
        try:
            moves.append(Move(cells[lo:hi]))
        except IllegalMoveError as exc:
            end = offsets[hi - 1] + len(text.split(",")[hi - 1].strip())
            raise RecordError(str(exc), move=turn + 1, stone=lo + 1, offset=offsets[lo],
                              text=text[offsets[lo]:end]) from exc
    return moves


def format_stone_list(moves: Iterable[MoveLike]) -> str:
    """The archive's stone list of ``moves`` (the inverse of :func:`parse_stone_list`).

    >>> format_stone_list(["j10", "k11i11", "h11"])
    'j10,k11,i11,h11'
    >>> format_stone_list(["j10k11"])
    Traceback (most recent call last):
    ...
    connect6.records.RecordError: move 1 'j10k11': Black's first turn is one stone, not 2
    """
    ms = _moves(moves)
    _check_structure(ms)
    return ",".join(cell_name(c) for m in ms for c in m.stones)




#: The largest SGF game or stone list read, in characters (1 MB).  A Connect6
#: game has at most 181 turns, a few kilobytes even with comments; anything
#: bigger is refused before it is read.
MAX_GAME_CHARS = 1_000_000


def _check_size(text: str, what: str) -> None:
    if len(text) > MAX_GAME_CHARS:
        raise RecordError(f"{what} is {len(text):,} characters; one game is at most {MAX_GAME_CHARS:,} "
                          "(1 MB): refused without reading it")


# ---------------------------------------------------------------- replay
def replay(moves: Iterable[MoveLike], *, weights: WeightsLike = "paper") -> Board:
    """Play ``moves`` on a new :class:`~connect6.Board` and return it.

    Raises :class:`RecordError` naming the move number (1-based) when a move
    is malformed or illegal (occupied cell, wrong number of stones, a move
    after the game was won).  A single stone ends a two-stone turn only when
    it makes six (:meth:`connect6.Board.push` decides).  The board is built privately and only returned
    when every move was played.

    >>> board = replay(parse_stone_list("j10,k11,i11,h11,i10"))
    >>> board.turn, len(board.move_stack)
    (<Color.WHITE: 1>, 3)
    >>> replay(["j10", "k11j10"])
    Traceback (most recent call last):
    ...
    connect6.records.RecordError: move 2 'k11j10': white: k11j10: j10 is occupied
    """
    board = Board(weights=weights)
    ms = list(moves)
    for i, raw in enumerate(ms):
        try:
            m = to_move(raw)
            board.push(m)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise RecordError(f"{_turn_color(i)}: {exc}", move=i + 1, text=str(raw)) from exc
    return board


