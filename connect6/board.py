"""The game: a board, its move stack and the rules of connect(19, 19, 6, 2, 1)."""
from __future__ import annotations

import dataclasses
import enum
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from connect6._core import geometry as _geometry
from connect6._core import position as _position
from connect6.notation import (
    BOARD_SIZE, COLUMNS, NUM_CELLS, Color, IllegalMoveError, InvalidMoveError, Move, MoveLike,
    cell_name, parse_cell, to_move,
)
from connect6.options import SCANS
from connect6.weights import Vector, WeightsLike, resolve_weights

#: a side: connect6.BLACK or connect6.WHITE (a Color), or its int 0 or 1
SideLike = Union[Color, int]
#: the weights a board keeps: (f, g), the own-road and threat values by stone count
Weights = Tuple[Vector, Vector]

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


def _color(side: SideLike) -> Color:
    try:
        return Color(side)
    except ValueError:
        raise ValueError(f"side must be connect6.BLACK or connect6.WHITE, not {side!r}") from None


_SINGLE = tuple(Move(c) for c in range(NUM_CELLS))   # one-stone moves, made once


def _moves_arg(moves: object) -> List[MoveLike]:
    if isinstance(moves, str):
        return [m for m in moves.split()]
    if isinstance(moves, (bytes, int, float)) or not hasattr(moves, "__iter__"):
        raise TypeError(f"moves must be text like 'j10 j9l11' or an iterable of moves, not {type(moves).__name__}")
    return list(moves)


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

    A turn can also be played one stone at a time (fast, for bots and learning
    code): :meth:`push_stone` places one stone of the side to move, and the turn
    passes after its last stone; :meth:`pop_stone` takes one stone back.

    >>> board.push_stone(parse_cell("k11"))
    >>> board.stones_to_place, board.unfinished_turn
    (1, (200,))
    >>> board.push_stone(parse_cell("k9"))
    >>> board.move_stack[-1], board.turn
    (Move.parse('k11k9'), <Color.BLACK: 0>)

    Boards copy and pickle as independent values; ``==`` compares positions
    (stones, side to move and stones left this turn, not the history), and a
    board is unhashable: use :meth:`position_key` as a dictionary key.

    >>> import copy, pickle
    >>> other = copy.deepcopy(board)
    >>> other == board == pickle.loads(pickle.dumps(board))
    True
    >>> other.push("a1a2"); other == board
    False
    """

    __slots__ = ("_weights", "_pos", "_stack", "_stack_version", "_outcome", "_outcome_version", "__weakref__")

    def __init__(self, moves: Union[str, Iterable[MoveLike], None] = None, *, weights: WeightsLike = "paper") -> None:
        f, g = resolve_weights(weights)
        self._weights = (f, g)
        self._pos = _position.Position(f, g)
        self._stack: List[Move] = []
        self._stack_version = self._pos.version
        self._outcome_version = -1
        self._outcome: Optional[Outcome] = None
        if moves is not None:
            for m in _moves_arg(moves):
                if isinstance(m, str) and m.startswith("+"):
                    self.push_stone(parse_cell(m[1:]))      # a stone of an unfinished turn (see __repr__)
                else:
                    self.push(m)

    @classmethod
    def _from_position(cls, weights: Weights, pos: _position.Position) -> "Board":
        board = cls.__new__(cls)
        board._weights = weights
        board._pos = pos
        board._stack = []
        board._stack_version = -1
        board._outcome_version = -1
        board._outcome = None
        return board

    # ------------------------------------------------------------ state
    @property
    def turn(self) -> Color:
        """The side to move (it keeps the move while its turn is unfinished)."""
        return Color(self._pos.to_move)

    @property
    def position(self) -> _position.Position:
        """The compiled :class:`engine_core.position.Position` (read it, do not change it)."""
        return self._pos

    @property
    def weights(self) -> Weights:
        return self._weights

    @property
    def move_stack(self) -> List[Move]:
        """The finished turns, oldest first (a new list each time; an unfinished turn is
        in :attr:`unfinished_turn`)."""
        if self._stack_version != self._pos.version:
            self._stack = [Move(t) for t in self._pos.turns()]
            self._stack_version = self._pos.version
        return list(self._stack)

    @property
    def unfinished_turn(self) -> Tuple[int, ...]:
        """Cells placed so far in the turn being made stone by stone (``()`` at a turn's start)."""
        return self._pos.unfinished()

    @property
    def stones_to_place(self) -> int:
        """Stones the side to move still places this turn: 1 on the first turn, when one
        cell is left or after the first stone of a pair, else 2 (0 once the game is over).

        A turn may also be a single stone when that stone makes six: the game
        ends on it (Little Golem records such wins as one stone)."""
        return self._pos.stones_left

    def stone_at(self, cell: int) -> Optional[Color]:
        """The colour on ``cell`` (an int 0..360) or None."""
        c = self._pos.stone_at(cell)
        return None if c == 2 else Color(c)

    def legal_stones(self) -> List[int]:
        """The empty cells (as ints), or [] when the game is over."""
        if self._pos.is_over():
            return []
        return self._pos.empty_cells()

    def legal_mask(self, out: Optional[npt.NDArray[np.bool_]] = None) -> npt.NDArray[np.bool_]:
        """(361,) numpy bool array, True where :meth:`push_stone` may play (every empty
        cell; nothing once the game is over).  ``out`` reuses an array.

        >>> int(Board("j10").legal_mask().sum())
        360
        """
        return self._pos.legal_mask(out)

    @property
    def legal_moves(self) -> "LegalMoves":
        """A lazy view of the moves :meth:`push` accepts: ``len()``, iteration and ``in``.

        >>> board = Board("j10")
        >>> len(board.legal_moves) == 360 * 359 // 2
        True
        >>> "k10k11" in board.legal_moves, "j10k11" in board.legal_moves
        (True, False)
        """
        return LegalMoves(self)

    def is_game_over(self) -> bool:
        return self._pos.is_over()

    def outcome(self) -> Optional[Outcome]:
        if self._outcome_version != self._pos.version:
            self._outcome = self._compute_outcome()
            self._outcome_version = self._pos.version
        return self._outcome

    def peek(self) -> Move:
        stack = self.move_stack
        if not stack:
            raise IndexError("peek from an empty move stack")
        return stack[-1]

    def position_key(self) -> bytes:
        """An exact, hashable key of the position (what ``==`` compares): the 361 cells,
        the side to move and the stones it still places this turn.

        >>> Board("j10 k10k11").position_key() == Board("j10 k11k10").position_key()
        True
        """
        return self._pos.position_key()

    def zobrist(self) -> int:
        """The search's 64-bit Zobrist key of the stones and the side to move (it does
        not see how many stones are left in an unfinished turn)."""
        return self._pos.key

    # ------------------------------------------------------------ moves
    def _check(self, move: MoveLike) -> Move:
        m = to_move(move)
        if self._pos.is_over():
            outcome = self.outcome()
            raise IllegalMoveError(f"{m}: the game is over ({outcome.result() if outcome else 'over'})")
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
        return cell in self._pos.winning_cells(self._pos.to_move)

    def is_legal(self, move: MoveLike) -> bool:
        """Whether :meth:`push` would accept ``move`` (malformed text is not legal)."""
        try:
            self._check(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def push(self, move: MoveLike) -> None:
        """Play ``move`` (a Move or text like ``"j9l11"``) for the side to move: a whole
        turn, or the rest of a turn begun with :meth:`push_stone`.

        A single stone is accepted in a two-stone turn only when it makes six.
        Raises InvalidMoveError or IllegalMoveError, leaving the board unchanged.
        """
        m = move if type(move) is Move else to_move(move)
        whole = self._pos.placed == 0
        cached = self._stack_version == self._pos.version
        try:
            self._pos.push_move(*m._stones)
        except ValueError as exc:
            self._check(m)              # raises the full explanation
            raise IllegalMoveError(f"{m}: {exc}") from None
        if cached and whole:            # keep the move stack without rebuilding it
            self._stack.append(m)
            self._stack_version = self._pos.version

    def push_stone(self, cell: int) -> None:
        """Place one stone (a cell 0..360) for the side to move.

        The turn passes after its last stone (the first turn and a turn with
        one empty cell left have one stone, the others two), or at once when the
        stone makes six or fills the board.  IllegalMoveError on a taken cell or
        after the end, TypeError for a cell that is not an int; the board is then
        unchanged.
        """
        try:
            self._pos.push_stone(cell)
        except ValueError as exc:
            raise IllegalMoveError(f"push_stone({cell!r}): {exc}") from None

    def pop_stone(self) -> int:
        """Take back the last stone placed and return its cell.  Taking back the last
        stone of a finished turn reopens that turn: its side is to move again with
        that one stone left to place.  When the stone left last makes six (the first
        stone of a pair that won), the turn ends on it: the game stays over."""
        return self._pos.pop_stone()

    def pop(self) -> Move:
        """Take back the last turn and return it: the unfinished turn if one is being
        made stone by stone (its stones so far), else the last finished turn."""
        cached = self._stack_version == self._pos.version and self._pos.placed == 0
        cells = self._pos.pop_turn()
        if cached and self._stack:
            m = self._stack.pop()
            self._stack_version = self._pos.version
            return m
        return _SINGLE[cells[0]] if len(cells) == 1 else Move(cells)

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
    def evaluate(self, side: SideLike, scan: Optional[str] = None) -> int:
        """V(side) = sum f(own live roads) - sum g(opponent live roads).

        With ``scan=None`` (or 'incremental') the incrementally kept value,
        read in O(1); with ``scan="global"`` recomputed from all 924 roads.
        """
        if scan is not None and scan not in SCANS:
            raise ValueError(f"unknown scan {scan!r}: expected one of {', '.join(SCANS)}")
        return self._pos.evaluate(int(_color(side)), scan)

    def pair_delta(self, move: MoveLike, side: SideLike, scan: str = "local") -> int:
        """Change of V(side) if the side to move plays ``move``, by a local or global rescan
        (or the exact incremental method)."""
        if scan not in SCANS:
            raise ValueError(f"unknown scan {scan!r}: expected one of {', '.join(SCANS)}")
        m = to_move(move)
        for c in m.stones:
            if self._pos.stone_at(c) != 2:
                raise IllegalMoveError(f"{m}: {cell_name(c)} is occupied")
        a = m.stones[0]
        b = m.stones[1] if len(m) == 2 else -1
        return self._pos.pair_delta(a, b, self._pos.to_move, int(_color(side)), scan)

    # ------------------------------------------------------------ views
    def copy(self) -> "Board":
        """An independent copy with the same position, history and weights."""
        return Board._from_position(self._weights, self._pos.copy())

    def __copy__(self) -> "Board":
        return self.copy()

    def __deepcopy__(self, memo: Dict[int, object]) -> "Board":
        return self.copy()

    def __reduce__(self) -> Tuple[Any, Tuple[Weights, _position.Position]]:
        return (Board._from_position, (self._weights, self._pos))

    # ------------------------------------------------------------ arrays
    def to_planes(self) -> npt.NDArray[np.int8]:
        """(4, 19, 19) int8 planes ``[plane, row, column]`` (row 0 is row 1, column 0 is
        column a): the side to move's stones, the opponent's, the stones placed in
        the unfinished turn, and the side to move (all 1 when White is to move).

        >>> Board("j10").to_planes()[:, 9, 9].tolist()     # White to move
        [0, 1, 0, 1]
        """
        return self._pos.to_planes()

    @classmethod
    def from_numpy(cls, array: npt.NDArray[Any], turn: Optional[SideLike] = None, *,
                   weights: WeightsLike = "paper") -> "Board":
        """A board (with no move history) from :meth:`to_numpy`'s (2, 19, 19) stones
        or :meth:`to_planes`'s (4, 19, 19) planes; any integer, bool or float dtype
        holding only 0 and 1.

        With stones, ``turn`` is the side to move; left out, it is read from the
        counts when they are those of a turn's start (Black one more: White to
        move; White one more or none: Black).  Planes carry the side and the
        unfinished turn themselves, so ``Board.from_numpy(b.to_planes()) == b``.

        >>> b = Board("j10 k10k11")
        >>> Board.from_numpy(b.to_numpy()) == b == Board.from_numpy(b.to_planes())
        True
        """
        cells, to_move, pending = _cells_from_array(array, turn)
        board = cls(weights=weights)
        hist = np.asarray(pending, dtype=np.int16).tobytes()
        try:
            board._pos.load(cells, to_move, hist, bytes(len(pending)))
        except ValueError as exc:
            raise ValueError(f"array: {exc}") from None
        if board._pos.histogram(0)[6] and board._pos.histogram(1)[6]:
            raise ValueError("array: both colours have six in a row, which no game reaches (it ends at the first)")
        if pending and (board._pos.is_over() or board._pos.stones_left <= 0):
            raise ValueError(f"array: {len(pending)} stone(s) of an unfinished turn, but that turn would be over")
        return board

    def to_numpy(self) -> npt.NDArray[np.uint8]:
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
        parts = [str(m) for m in self.move_stack] + [f"+{cell_name(c)}" for c in self.unfinished_turn]
        if self._pos.nhistory < self._pos.nstones:      # stones set up without a history
            return f"<Board from an array, {self._pos.nstones} stones, {self.turn} to move>"
        moves = " ".join(parts)
        if self._weights != resolve_weights("paper"):
            return f"Board({moves!r}, weights={self._weights!r})"
        return f"Board({moves!r})" if moves else "Board()"

    def __eq__(self, other: object) -> bool:
        """Same position: stones, side to move and stones left this turn (the history
        and the weights are not compared, as python-chess compares positions)."""
        if not isinstance(other, Board):
            return NotImplemented
        return self._pos.same_position(other._pos)

    __hash__ = None  # type: ignore[assignment]


def _cells_from_array(array: object, turn: Optional[SideLike]) -> Tuple[bytes, int, List[int]]:
    """(cells bytes, side to move, stones of the unfinished turn) from stones or planes."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"array must be a numpy array, not {type(array).__name__}")
    if array.dtype.kind not in "biuf":
        raise TypeError(f"array must hold numbers (0 and 1), not dtype {array.dtype}")
    if array.shape not in ((2, BOARD_SIZE, BOARD_SIZE), (4, BOARD_SIZE, BOARD_SIZE)):
        raise ValueError(f"array must have shape (2, 19, 19) (stones) or (4, 19, 19) (planes), not {array.shape}")
    if not np.isin(array, (0, 1)).all():
        raise ValueError("array must hold only 0 and 1")
    a = array.astype(np.uint8).reshape(array.shape[0], NUM_CELLS)
    pending: List[int] = []
    if a.shape[0] == 4:
        if turn is not None:
            raise ValueError("turn comes from the planes themselves; leave it out")
        if a[3].min() != a[3].max():
            raise ValueError("array: the side-to-move plane must be all 0 or all 1")
        to_move = int(a[3, 0])
        if (a[2] & ~a[0]).any():
            raise ValueError("array: a stone of the unfinished turn is not the side to move's")
        stones = a[[to_move, 1 - to_move]] if to_move == 0 else a[[1, 0]]
        pending = [int(c) for c in np.flatnonzero(a[2])]
    else:
        stones = a
    if (stones[0] & stones[1]).any():
        raise ValueError("array: a cell holds both colours")
    if a.shape[0] == 2:
        to_move = _infer_turn(stones, turn)
    cells = np.full(NUM_CELLS, 2, dtype=np.uint8)
    cells[stones[0] == 1] = 0
    cells[stones[1] == 1] = 1
    return cells.tobytes(), to_move, pending


def _infer_turn(stones: npt.NDArray[Any], turn: Optional[SideLike]) -> int:
    if turn is not None:
        return int(_color(turn))
    nb, nw = int(stones[0].sum()), int(stones[1].sum())
    if nb == nw + 1:
        return 1
    if nw == nb + 1 or nb == nw == 0:
        return 0
    raise ValueError(f"turn is needed: {nb} black and {nw} white stones are not a turn's start")


def encode_planes(boards: Iterable[Board], out: Optional[npt.NDArray[np.int8]] = None) -> npt.NDArray[np.int8]:
    """Planes of many boards at once: an (N, 4, 19, 19) int8 array, ``out[i]`` being
    ``boards[i].to_planes()`` (``out`` reuses an array of that shape).

    >>> encode_planes([Board(), Board("j10")]).shape
    (2, 4, 19, 19)
    """
    boards = list(boards)
    if out is None:
        out = np.empty((len(boards), 4, BOARD_SIZE, BOARD_SIZE), dtype=np.int8)
    elif not isinstance(out, np.ndarray) or out.dtype != np.int8 or out.shape != (len(boards), 4, 19, 19):
        raise TypeError(f"out must be an int8 array of shape ({len(boards)}, 4, 19, 19)")
    for i, board in enumerate(boards):
        if not isinstance(board, Board):
            raise TypeError(f"boards[{i}] must be a Board, not {type(board).__name__}")
        board._pos.write_planes(out[i])
    return out


class LegalMoves:
    """The moves :meth:`Board.push` accepts now, computed on demand (a live view of its
    board, as python-chess's ``board.legal_moves``).

    In a two-stone turn they are every pair of empty cells (lower cell first)
    and, after them, every single stone that makes six; in a one-stone turn
    (the first, the rest of a turn begun stone by stone, one cell left) every
    empty cell.  Nothing once the game is over.
    """

    __slots__ = ("_board",)

    def __init__(self, board: Board):
        self._board = board

    def _parts(self) -> Tuple[int, List[int], List[int]]:
        pos = self._board._pos
        need = pos.stones_left
        empty = pos.empty_cells() if need else []
        wins = pos.winning_cells(pos.to_move) if need == 2 else []
        return need, empty, wins

    def __len__(self) -> int:
        need, empty, wins = self._parts()
        n = len(empty)
        return n * (n - 1) // 2 + len(wins) if need == 2 else n

    def __bool__(self) -> bool:
        return not self._board.is_game_over()

    def __iter__(self) -> Iterator[Move]:
        need, empty, wins = self._parts()
        if need == 1:
            for c in empty:
                yield _SINGLE[c]
            return
        for i, a in enumerate(empty):
            for b in empty[i + 1:]:
                yield Move((a, b))
        for c in wins:
            yield _SINGLE[c]

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, (Move, str)):
            return False
        return self._board.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoves ({len(self)}) of {self._board!r}>"
