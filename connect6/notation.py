"""Cells, colours, moves and their text forms.

A cell is an int ``row * 19 + col``: ``col`` 0..18 is the Little Golem column
letter a..s (``i`` included) and ``row`` 0..18 is the row number 1..19, so the
centre ``j10`` is cell 180.  The engine protocol writes a stone as two letters
A..S, column then row (row A is row 1): ``JJ`` is the centre.
"""
from __future__ import annotations

import enum
import itertools
import re
from typing import Iterable, Iterator, NoReturn, Tuple, Type, Union

BOARD_SIZE = 19
NUM_CELLS = BOARD_SIZE * BOARD_SIZE
CENTER = 180
COLUMNS = "abcdefghijklmnopqrs"


class Color(enum.IntEnum):
    """A side.  ``BLACK`` moves first."""

    BLACK = 0
    WHITE = 1

    @property
    def other(self) -> "Color":
        return Color(1 - self)

    def __str__(self) -> str:
        return self.name.lower()


BLACK = Color.BLACK
WHITE = Color.WHITE


class InvalidMoveError(ValueError):
    """Text that is not a move at all (malformed notation)."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid here (off board, occupied,
    repeated stone, wrong number of stones, game over)."""


_CELL_RE = re.compile(r"([a-zA-Z])([0-9]{1,2})")
_MOVE_RE = re.compile(r"(?:[a-zA-Z][0-9]{1,2})+")


def _cell_from_parts(col_letter: str, row_text: str, text: str) -> int:
    col = ord(col_letter.lower()) - ord("a")
    row = int(row_text) - 1
    if not (0 <= col < BOARD_SIZE and 0 <= row < BOARD_SIZE):
        raise IllegalMoveError(f"{text!r}: {col_letter}{row_text} is off the board (a1..s19)")
    return row * BOARD_SIZE + col


def parse_cell(text: str) -> int:
    """``"j10"`` -> 180.

    >>> parse_cell("a1"), parse_cell("j10"), parse_cell("s19")
    (0, 180, 360)
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a cell must be a string like 'j10', not {type(text).__name__}")
    m = _CELL_RE.fullmatch(text.strip())
    if not m:
        raise InvalidMoveError(f"{text!r} is not a cell (expected a column a..s and a row 1..19, e.g. 'j10')")
    return _cell_from_parts(m.group(1), m.group(2), text)


def cell_name(cell: int) -> str:
    """180 -> ``"j10"``.

    >>> cell_name(0), cell_name(180), cell_name(360)
    ('a1', 'j10', 's19')
    """
    cell = _check_cell(cell)
    return f"{COLUMNS[cell % BOARD_SIZE]}{cell // BOARD_SIZE + 1}"


def _check_cell(cell: object) -> int:
    if isinstance(cell, int) and not isinstance(cell, bool):
        value = cell
    else:
        import numpy as np  # numpy integers are fine
        if not isinstance(cell, np.integer):
            raise IllegalMoveError(f"a cell is an int 0..{NUM_CELLS - 1}, not {cell!r}")
        value = int(cell)
    if not 0 <= value < NUM_CELLS:
        raise IllegalMoveError(f"cell {value} is off the board (0..{NUM_CELLS - 1})")
    return value


def protocol_cell(cell: int) -> str:
    """180 -> ``"JJ"`` (engine-protocol letters: column, then row; row A is row 1).

    >>> protocol_cell(180), protocol_cell(201)
    ('JJ', 'LK')
    """
    cell = _check_cell(cell)
    return chr(ord("A") + cell % BOARD_SIZE) + chr(ord("A") + cell // BOARD_SIZE)


def parse_protocol_cell(text: str) -> int:
    """``"JJ"`` -> 180.

    >>> parse_protocol_cell("JJ"), parse_protocol_cell("lk")
    (180, 201)
    """
    if not isinstance(text, str) or len(text) != 2 or not text.isalpha() or not text.isascii():
        raise InvalidMoveError(f"{text!r} is not a protocol stone (two letters A..S)")
    col = ord(text[0].upper()) - ord("A")
    row = ord(text[1].upper()) - ord("A")
    if not (0 <= col < BOARD_SIZE and 0 <= row < BOARD_SIZE):
        raise IllegalMoveError(f"{text!r} is off the board (letters A..S)")
    return row * BOARD_SIZE + col


def _is_cell_int(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    import numpy as np
    return isinstance(value, np.integer)


def _stones_argument(stones: object) -> Tuple[object, ...]:
    """The ``stones`` argument of :class:`Move` as a tuple; TypeError naming it if it has the wrong type."""
    if _is_cell_int(stones):
        return (stones,)
    if isinstance(stones, (str, bytes)):
        raise TypeError(f"Move(stones): stones are int cells, not text {stones!r}; use Move.parse({stones!r})")
    try:
        iterator = iter(stones)  # type: ignore[call-overload]  # any object: TypeError names it
    except TypeError:
        raise TypeError(f"Move(stones): stones must be an int cell or 1 or 2 int cells, "
                        f"not {type(stones).__name__}") from None
    items = tuple(itertools.islice(iterator, 3))  # a third stone is already too many
    for i, c in enumerate(items):
        if not _is_cell_int(c):
            raise TypeError(f"Move(stones): stone {i} must be an int cell 0..{NUM_CELLS - 1}, "
                            f"not {type(c).__name__} {c!r}")
    return items


class Move:
    """One turn: one stone (Black's first move) or two.

    Immutable and hashable.  A pair is unordered for equality and hashing
    (``j9l11`` and ``l11j9`` are the same turn) but keeps the order it was
    written in.

    >>> m = Move.parse("j9l11")
    >>> m
    Move.parse('j9l11')
    >>> m.stones
    (161, 201)
    >>> m.to_protocol()
    'JILK'
    >>> Move.from_protocol("JILK") == m
    True
    >>> Move.parse("l11j9") == m, str(Move.parse("l11j9"))
    (True, 'l11j9')
    >>> Move(180), len(Move(180))
    (Move.parse('j10'), 1)

    ``Move(stones)`` takes cells (ints); text goes through :meth:`parse`:

    >>> Move(None)
    Traceback (most recent call last):
    ...
    TypeError: Move(stones): stones must be an int cell or 1 or 2 int cells, not NoneType
    """

    __slots__ = ("_stones", "_key")
    _stones: Tuple[int, ...]      # as written
    _key: Tuple[int, ...]         # sorted: equality and hashing

    def __init__(self, stones: Union[int, Iterable[int]]) -> None:
        cells: Tuple[int, ...]
        if type(stones) is int and 0 <= stones < NUM_CELLS:     # the common cases, checked cheaply
            cells = (stones,)
        elif (type(stones) is tuple or type(stones) is list) and 1 <= len(stones) <= 2 and \
                all(type(c) is int and 0 <= c < NUM_CELLS for c in stones):
            cells = tuple(stones)
        else:
            cells = tuple(_check_cell(c) for c in _stones_argument(stones))
        if not 1 <= len(cells) <= 2:
            count = "more than 2" if len(cells) > 2 else "none"
            raise IllegalMoveError(f"a move has 1 or 2 stones, not {count}")
        if len(cells) == 2 and cells[0] == cells[1]:
            raise IllegalMoveError(f"{cell_name(cells[0])}{cell_name(cells[1])}: the same stone twice")
        object.__setattr__(self, "_stones", cells)
        object.__setattr__(self, "_key", tuple(sorted(cells)))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("Move is immutable")

    @property
    def stones(self) -> Tuple[int, ...]:
        return self._stones

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Little Golem notation: ``"j10"`` or ``"j9l11"``."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text like 'j9l11', not {type(text).__name__}")
        t = text.strip()
        if not _MOVE_RE.fullmatch(t):
            raise InvalidMoveError(f"{text!r} is not a move (expected one or two cells, e.g. 'j10' or 'j9l11')")
        parts = _CELL_RE.findall(t)
        if len(parts) > 2:
            raise IllegalMoveError(f"{text!r}: a move has 1 or 2 stones, not {len(parts)}")
        return cls([_cell_from_parts(c, r, text) for c, r in parts])

    @classmethod
    def from_protocol(cls, text: str) -> "Move":
        """Engine-protocol letters: ``"JJ"`` or ``"JIKL"``."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a protocol move must be text like 'JIKL', not {type(text).__name__}")
        t = text.strip()
        if len(t) not in (2, 4) or not t.isalpha() or not t.isascii():
            raise InvalidMoveError(f"{text!r} is not a protocol move (2 or 4 letters A..S)")
        return cls([parse_protocol_cell(t[i:i + 2]) for i in range(0, len(t), 2)])

    def to_protocol(self) -> str:
        return "".join(protocol_cell(c) for c in self._stones)

    def __str__(self) -> str:
        return "".join(cell_name(c) for c in self._stones)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __len__(self) -> int:
        return len(self._stones)

    def __iter__(self) -> Iterator[int]:
        return iter(self._stones)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._key == other._key
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self) -> Tuple[Type[Move], Tuple[Tuple[int, ...]]]:
        return (Move, (self._stones,))


MoveLike = Union[Move, str]


def to_move(move: MoveLike) -> Move:
    """A Move from a Move or Little Golem text."""
    if isinstance(move, Move):
        return move
    return Move.parse(move)
