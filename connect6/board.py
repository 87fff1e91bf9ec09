"""The game: a board, its move stack and the rules of connect(19, 19, 6, 2, 1)."""
from __future__ import annotations

import dataclasses
import enum
from typing import Iterable, List, Optional, Tuple, Union

from connect6._core import geometry as _geometry
from connect6._core import position as _position
from connect6.notation import (
    BOARD_SIZE, COLUMNS, NUM_CELLS, Color, IllegalMoveError, InvalidMoveError, Move, MoveLike,
    cell_name, to_move,
)
from connect6.weights import WeightsLike, resolve_weights

_SCANS = ("global", "local", "incremental")
_DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Termination(enum.Enum):
    SIX = "six"                 #: a side made six (or more) in a row
    BOARD_FULL = "board_full"   #: no empty cell left and no six: a draw


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a finished game ended.  ``winner`` is None on a draw; ``line`` is the
    winning row of stones (six or more cells, in line order)."""

    winner: Optional[Color]
    termination: Termination
    line: Optional[Tuple[int, ...]] = None

    def result(self) -> str:
        """``"black"``, ``"white"`` or ``"draw"``."""
        return "draw" if self.winner is None else str(self.winner)


def _color(side) -> Color:
    try:
        return Color(side)
    except ValueError:
        raise ValueError(f"side must be connect6.BLACK or connect6.WHITE, not {side!r}") from None


class Board:
    """A Connect6 game position with its move history.

    >>> board = Board()
    >>> board.push("j10")
    >>> board.push("j9l11")
    >>> board.turn
    <Color.BLACK: 0>
    >>> board
    Board('j10 j9l11')
    >>> board.pop()
    Move.parse('j9l11')
    """

    def __init__(self, moves: Union[str, Iterable[MoveLike], None] = None, *, weights: WeightsLike = "paper"):
        f, g = resolve_weights(weights)
        self._weights = (f, g)
        self._pos = _position.Position(f, g)
        self.move_stack: List[Move] = []
        self._outcome: Optional[Outcome] = None
        if moves is not None:
            if isinstance(moves, str):
                moves = moves.split()
            for m in moves:
                self.push(m)

    # ------------------------------------------------------------ state
    @property
    def turn(self) -> Color:
        """The side to move."""
        return Color(self._pos.to_move)

    @property
    def position(self):
        """The compiled :class:`engine_core.position.Position` (read it, do not change it)."""
        return self._pos

    @property
    def weights(self):
        return self._weights

    @property
    def stones_to_place(self) -> int:
        """Stones the side to move places this turn: 1 on the first turn or when one cell is left.

        A turn may also be a single stone when that stone makes six: the game
        ends on it (Little Golem records such wins as one stone)."""
        empty = NUM_CELLS - self._pos.nstones
        if self._pos.nstones == 0 or empty == 1:
            return 1
        return 2

    def stone_at(self, cell: int) -> Optional[Color]:
        """The colour on ``cell`` or None."""
        c = self._pos.stone_at(int(cell))
        return None if c == 2 else Color(c)

    def legal_stones(self) -> List[int]:
        """The empty cells (as ints), or [] when the game is over."""
        if self._outcome is not None:
            return []
        return self._pos.empty_cells()

    def is_game_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Optional[Outcome]:
        return self._outcome

    def peek(self) -> Move:
        if not self.move_stack:
            raise IndexError("peek from an empty move stack")
        return self.move_stack[-1]

    # ------------------------------------------------------------ moves
    def _check(self, move: MoveLike) -> Move:
        m = to_move(move)
        if self._outcome is not None:
            raise IllegalMoveError(f"{m}: the game is over ({self._outcome.result()})")
        need = self.stones_to_place
        for c in m.stones:
            if self._pos.stone_at(c) != 2:
                raise IllegalMoveError(f"{m}: {cell_name(c)} is occupied")
        if len(m) != need and not (len(m) == 1 and self._wins_with(m.stones[0])):
            raise IllegalMoveError(
                f"{m}: {self.turn} must place {need} stone{'s' if need > 1 else ''} this turn, not {len(m)}"
                + (" (one stone ends a turn only when it makes six)" if len(m) == 1 else ""))
        return m

    def _wins_with(self, cell: int) -> bool:
        """Whether one stone of the side to move at (empty) ``cell`` makes six."""
        color = self._pos.to_move
        self._pos.add_stone(cell, color)
        try:
            return self._pos.winner() == color
        finally:
            self._pos.remove_stone(cell, color)

    def is_legal(self, move: MoveLike) -> bool:
        """Whether :meth:`push` would accept ``move`` (malformed text is not legal)."""
        try:
            self._check(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def push(self, move: MoveLike) -> None:
        """Play ``move`` (a Move or text like ``"j9l11"``) for the side to move.

        A single stone is accepted in a two-stone turn only when it makes six.
        Raises InvalidMoveError or IllegalMoveError, leaving the board unchanged.
        """
        m = self._check(move)
        color = self._pos.to_move
        for c in m.stones:
            self._pos.add_stone(c, color)
        self._pos.to_move = 1 - color
        self.move_stack.append(m)
        self._outcome = self._compute_outcome()

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        m = self.move_stack.pop()
        color = 1 - self._pos.to_move
        for c in reversed(m.stones):
            self._pos.remove_stone(c, color)
        self._pos.to_move = color
        self._outcome = self._compute_outcome()
        return m

    def _compute_outcome(self) -> Optional[Outcome]:
        w = self._pos.winner()
        if w is not None:
            return Outcome(Color(w), Termination.SIX, self._winning_line(w))
        if self._pos.nstones == NUM_CELLS:
            return Outcome(None, Termination.BOARD_FULL, None)
        return None

    def _winning_line(self, color: int) -> Tuple[int, ...]:
        counts = self._pos.road_counts()
        for road in range(len(counts)):
            if counts[road, color] == 6:
                cells = _geometry.road_cells(road)
                dc, dr = _DIRS[_geometry.road_direction(road)]
                col, row = cells[0] % BOARD_SIZE, cells[0] // BOARD_SIZE
                # back up to the first stone of the run, then walk to its end
                while 0 <= col - dc < BOARD_SIZE and 0 <= row - dr < BOARD_SIZE and \
                        self._pos.stone_at((row - dr) * BOARD_SIZE + col - dc) == color:
                    col, row = col - dc, row - dr
                line = []
                while 0 <= col < BOARD_SIZE and 0 <= row < BOARD_SIZE and \
                        self._pos.stone_at(row * BOARD_SIZE + col) == color:
                    line.append(row * BOARD_SIZE + col)
                    col, row = col + dc, row + dr
                return tuple(line)
        raise AssertionError("a winner without a six")  # pragma: no cover

    # ------------------------------------------------------------ evaluation
    def evaluate(self, side, scan: Optional[str] = None) -> int:
        """V(side) = sum f(own live roads) - sum g(opponent live roads).

        With ``scan=None`` (or 'incremental') the incrementally kept value,
        read in O(1); with ``scan="global"`` recomputed from all 924 roads.
        """
        if scan is not None and scan not in _SCANS:
            raise ValueError(f"unknown scan {scan!r}: expected one of {', '.join(_SCANS)}")
        return self._pos.evaluate(int(_color(side)), scan)

    def pair_delta(self, move: MoveLike, side, scan: str = "local") -> int:
        """Change of V(side) if the side to move plays ``move``, by a local or global rescan
        (or the exact incremental method)."""
        if scan not in _SCANS:
            raise ValueError(f"unknown scan {scan!r}: expected one of {', '.join(_SCANS)}")
        m = to_move(move)
        for c in m.stones:
            if self._pos.stone_at(c) != 2:
                raise IllegalMoveError(f"{m}: {cell_name(c)} is occupied")
        a = m.stones[0]
        b = m.stones[1] if len(m) == 2 else -1
        return self._pos.pair_delta(a, b, self._pos.to_move, int(_color(side)), scan)

    # ------------------------------------------------------------ views
    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other._weights = self._weights
        other._pos = self._pos.copy()
        other.move_stack = list(self.move_stack)
        other._outcome = self._outcome
        return other

    def to_numpy(self):
        """(2, 19, 19) uint8 array of black and white stones, indexed [colour, row, column]
        with row 0 = row 1 and column 0 = column a."""
        return self._pos.to_numpy()

    def __str__(self) -> str:
        header = "   " + " ".join(COLUMNS)
        lines = [header]
        last = set(self.move_stack[-1].stones) if self.move_stack else set()
        for row in range(BOARD_SIZE - 1, -1, -1):
            cells = []
            for col in range(BOARD_SIZE):
                c = self._pos.stone_at(row * BOARD_SIZE + col)
                ch = "X" if c == 0 else "O" if c == 1 else "."
                if row * BOARD_SIZE + col in last:
                    ch = ch.lower()
                cells.append(ch)
            lines.append(f"{row + 1:2d} {' '.join(cells)} {row + 1:d}")
        lines.append(header)
        return "\n".join(lines)

    def __repr__(self) -> str:
        moves = " ".join(str(m) for m in self.move_stack)
        if self._weights != resolve_weights("paper"):
            return f"Board({moves!r}, weights={self._weights!r})"
        return f"Board({moves!r})" if moves else "Board()"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.move_stack == other.move_stack and self._weights == other._weights

    __hash__ = None  # type: ignore[assignment]
