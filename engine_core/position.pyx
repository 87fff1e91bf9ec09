# cython: language_level=3
"""Board state changed stone by stone, and its Python view :class:`Position`."""
import operator

import numpy as np

from libc.stdint cimport int16_t
from libc.string cimport memcmp, memcpy, memset
from engine_core.bitboard cimport bb_reset, bb_set, bb_zero, bb_to_array
from engine_core.geometry cimport NUM_ROADS, ROAD_LEN, geometry_t
from engine_core.roads cimport (
    BLACK, EMPTY, SCAN_GLOBAL, SCAN_INCREMENTAL, SCAN_LOCAL, WHITE, code_count, live_count,
    rt_add, rt_check, rt_delta_scan, rt_geometry, rt_has_six, rt_init, rt_remove,
    rt_scan_global, rt_set_order_weights, rt_set_weights, weights_init,
)

cdef uint64_t ZOBRIST[2][NUM_CELLS]
cdef uint64_t ZOBRIST_WHITE_TO_MOVE

cdef extern from *:
    """
    #include <stdio.h>
    #include <stdlib.h>
    #ifdef CONNECT6_DEBUG
    #define C6_DEBUG 1
    #else
    #define C6_DEBUG 0
    #endif
    static void c6_debug_fail(const char* what) {
        fprintf(stderr, "connect6 debug check failed: %s\\n", what);
        abort();
    }
    """
    const int C6_DEBUG      # 1 in a CONNECT6_DEBUG=1 build: every turn is checked against a full recompute
    void c6_debug_fail(const char* what) nogil


cdef uint64_t _splitmix64(uint64_t* state) noexcept nogil:
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void _init_zobrist() noexcept nogil:
    cdef uint64_t state = 20150326      # fixed seed: keys are the same in every run
    cdef int c, i
    global ZOBRIST_WHITE_TO_MOVE
    for c in range(2):
        for i in range(NUM_CELLS):
            ZOBRIST[c][i] = _splitmix64(&state)
    ZOBRIST_WHITE_TO_MOVE = _splitmix64(&state)


_init_zobrist()


cdef void pos_init(position_t* p, const weights_t* w) noexcept nogil:
    """An empty board, black to move."""
    cdef int i
    bb_zero(&p.stones[0])
    bb_zero(&p.stones[1])
    bb_zero(&p.occupied)
    for i in range(NUM_CELLS):
        p.cell[i] = EMPTY
    rt_init(&p.rt, w)
    p.key = 0
    p.nstones = 0
    p.to_move = BLACK


cdef void pos_add_stone(position_t* p, int cell, int color) noexcept nogil:
    bb_set(&p.stones[color], cell)
    bb_set(&p.occupied, cell)
    p.cell[cell] = <uint8_t>color
    p.key ^= ZOBRIST[color][cell]
    p.nstones += 1
    rt_add(&p.rt, cell, color)


cdef void pos_remove_stone(position_t* p, int cell, int color) noexcept nogil:
    bb_reset(&p.stones[color], cell)
    bb_reset(&p.occupied, cell)
    p.cell[cell] = EMPTY
    p.key ^= ZOBRIST[color][cell]
    p.nstones -= 1
    rt_remove(&p.rt, cell, color)


cdef void pos_set_to_move(position_t* p, int color) noexcept nogil:
    if color != p.to_move:
        p.key ^= ZOBRIST_WHITE_TO_MOVE
        p.to_move = <int8_t>color


cdef void pos_make_pair(position_t* p, int a, int b) noexcept nogil:
    """The side to move places ``a`` and ``b`` (``b`` = -1: one stone); the turn passes."""
    cdef int color = p.to_move
    pos_add_stone(p, a, color)
    if b >= 0:
        pos_add_stone(p, b, color)
    p.to_move = <int8_t>(1 - color)
    p.key ^= ZOBRIST_WHITE_TO_MOVE
    if C6_DEBUG and not pos_check(p):
        c6_debug_fail("incremental position differs from its rebuild after pos_make_pair")


cdef void pos_undo_pair(position_t* p, int a, int b) noexcept nogil:
    """Take back :func:`pos_make_pair` (same ``a``, ``b``)."""
    cdef int color = 1 - p.to_move
    p.to_move = <int8_t>color
    p.key ^= ZOBRIST_WHITE_TO_MOVE
    if b >= 0:
        pos_remove_stone(p, b, color)
    pos_remove_stone(p, a, color)
    if C6_DEBUG and not pos_check(p):
        c6_debug_fail("incremental position differs from its rebuild after pos_undo_pair")


cdef int pos_winner(const position_t* p) noexcept nogil:
    """BLACK or WHITE if that colour has six (or more) in a row, else -1."""
    if rt_has_six(&p.rt, BLACK):
        return BLACK
    if rt_has_six(&p.rt, WHITE):
        return WHITE
    return -1


cdef bint pos_check(const position_t* p) noexcept nogil:
    """Full-recompute twin of every incremental part of a position."""
    cdef int i, n = 0
    cdef uint64_t key = 0
    for i in range(NUM_CELLS):
        if p.cell[i] != EMPTY:
            n += 1
            key ^= ZOBRIST[p.cell[i]][i]
            if not ((p.stones[p.cell[i]].w[i >> 6] >> (i & 63)) & 1):
                return False
            if (p.stones[1 - p.cell[i]].w[i >> 6] >> (i & 63)) & 1:
                return False
        elif (p.occupied.w[i >> 6] >> (i & 63)) & 1:
            return False
    if p.to_move == WHITE:
        key ^= ZOBRIST_WHITE_TO_MOVE
    return n == p.nstones and key == p.key and rt_check(&p.rt, p.cell)


# ----------------------------------------------------------------- Python view
PAPER_F = (0, 1, 20, 40, 200, 200, 1000000)
PAPER_G = (0, 1, 25, 50, 6000, 6000, 1000000)

_SCANS = {"global": SCAN_GLOBAL, "local": SCAN_LOCAL, "incremental": SCAN_INCREMENTAL}


def scan_code(scan):
    """The C constant of a scan name ('global', 'local' or 'incremental')."""
    try:
        return _SCANS[scan]
    except (KeyError, TypeError):
        raise ValueError(f"unknown scan {scan!r}: expected one of {', '.join(_SCANS)}") from None


cdef int check_empty_cell(const position_t* p, int cell) except -1:
    """A cell from Python checked once at the boundary: on the board and empty."""
    if not 0 <= cell < NUM_CELLS:
        raise ValueError(f"cell {cell} is off the board (0..{NUM_CELLS - 1})")
    if p.cell[cell] != EMPTY:
        raise ValueError(f"cell {cell} is occupied")
    return 0


cdef int check_color(int color) except -1:
    """A colour from Python checked once at the boundary: 0 (black) or 1 (white)."""
    if color != BLACK and color != WHITE:
        raise ValueError(f"colour must be 0 (black) or 1 (white), not {color}")
    return 0


_COLUMNS = "abcdefghijklmnopqrs"


def _cell_text(int cell):
    return f"{_COLUMNS[cell % 19]}{cell // 19 + 1}"


cdef int _cell_arg_slow(object cell, str name) except -1:
    """A cell from any Python integer (numpy integers too), checked once here."""
    if isinstance(cell, bool) or not hasattr(type(cell), "__index__"):
        raise TypeError(f"{name} must be an int 0..{NUM_CELLS - 1}, not {type(cell).__name__}")
    v = operator.index(cell)
    if not 0 <= v < NUM_CELLS:
        raise ValueError(f"{name}={v} is off the board (0..{NUM_CELLS - 1})")
    return v


cdef inline int _cell_arg(object cell, str name) except -1:
    if type(cell) is int and 0 <= cell < 361:
        return cell
    return _cell_arg_slow(cell, name)


def _restore(f, g, order, bytes cells, int to_move, bytes history, bytes turn_end):
    """Rebuild a pickled :class:`Position` (see ``Position.__reduce__``)."""
    cdef Position p = Position(f, g)
    p.load(cells, to_move, history, turn_end)
    if order is not None:
        p.set_order_weights(*order)
    return p


#: The largest weight magnitude: 924 roads of it stay far below a forced result's score.
MAX_WEIGHT = 10 ** 11


def weight_vector(values, name):
    """``values``, six whole numbers (for 1..6 stones in a road; a leading 0 may
    be given), as the list of seven (index = stones) the core uses: the one
    check of a weight vector, for the core and for connect6.weights.  2.0,
    numpy's integers and digit strings are whole numbers; 1.9, True and inf
    are not.  ValueError naming ``name`` otherwise."""
    try:
        values = list(values)
        vals = [int(v) for v in values]
        whole = all(not isinstance(v, bool) and (isinstance(v, str) or n == v) for v, n in zip(values, vals))
    except (TypeError, ValueError, OverflowError):      # OverflowError: int(inf)
        whole = False
    if whole and len(vals) == 6:
        vals = [0] + vals
    if not whole or len(vals) != 7 or vals[0] != 0:
        raise ValueError(f"{name}: expected 6 whole numbers (for 1..6 stones in a road), got {values!r}")
    check_weight_vector(vals, name)
    return vals


def check_weight_vector(vals, name):
    """Raise ValueError naming the entry when a weight of ``vals`` (index = stones) is too large."""
    for n, v in enumerate(vals):
        if not -MAX_WEIGHT <= v <= MAX_WEIGHT:
            raise ValueError(f"{name}({n}) = {v} is out of range: a weight is at most {MAX_WEIGHT:,} in size "
                             "(so a sum over the 924 roads stays below a forced result's score)")


cdef int _fill_weights(weights_t* out, f, g) except -1:
    """Check the Python weight vectors f, g and build the C weight profile."""
    cdef score_t cf[7]
    cdef score_t cg[7]
    fv = weight_vector(f, "f")
    gv = weight_vector(g, "g")
    for i in range(7):
        cf[i] = fv[i]
        cg[i] = gv[i]
    weights_init(out, cf, cg)
    return 0


cdef class Position:
    """A 19x19 position with its incremental road table (the compiled core).

    This is the low-level object behind :class:`connect6.Board`; it checks its
    arguments but knows nothing of turns or game rules beyond stones.

    >>> p = Position()
    >>> p.add_stone(180, 0)
    >>> p.evaluate(0) == p.evaluate(0, "global")
    True
    """

    def __cinit__(self, f=PAPER_F, g=PAPER_G):
        _fill_weights(&self.weights, f, g)
        pos_init(&self.pos, &self.weights)

    def set_weights(self, f, g):
        """Change the weight profile; the value is recomputed from the 924 roads."""
        _fill_weights(&self.weights, f, g)
        rt_set_weights(&self.pos.rt, &self.weights)

    def set_order_weights(self, f, g):
        """Score moves (pair deltas) with these weights; the evaluation keeps its own."""
        cdef weights_t wo
        _fill_weights(&wo, f, g)
        rt_set_order_weights(&self.pos.rt, &wo)

    @property
    def weights(self):
        """(f, g): the weight profile, each a tuple for 0..6 stones."""
        return (tuple(self.weights.f[i] for i in range(7)), tuple(self.weights.g[i] for i in range(7)))

    def copy(self):
        """An independent copy: stones, road table, weights and the game history."""
        cdef Position other = Position.__new__(Position)
        other.weights = self.weights
        other.pos = self.pos
        memcpy(other.history, self.history, sizeof(self.history))
        memcpy(other.turn_end, self.turn_end, sizeof(self.turn_end))
        other.nhistory = self.nhistory
        other.placed = self.placed
        other.version = self.version
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        f = tuple(self.weights.f[i] for i in range(7))
        g = tuple(self.weights.g[i] for i in range(7))
        order = None
        if self.pos.rt.split_weights:
            order = (tuple(self.pos.rt.wo.f[i] for i in range(7)), tuple(self.pos.rt.wo.g[i] for i in range(7)))
        return (_restore, (f, g, order, self.cells_bytes(), self.pos.to_move,
                           (<char*>self.history)[:2 * self.nhistory],
                           (<char*>self.turn_end)[:self.nhistory]))

    def cells_bytes(self):
        """The 361 cells as bytes: 0 black, 1 white, 2 empty."""
        return (<char*>self.pos.cell)[:NUM_CELLS]

    def load(self, bytes cells, int to_move, bytes history=b"", bytes turn_end=b""):
        """Set the whole state: ``cells`` (361 bytes 0/1/2), the side to move, and the
        game history (int16 cells in native byte order, and one 0/1 byte per entry
        saying it ends its turn; trailing entries without an end are the unfinished
        turn).  Everything is checked before anything changes."""
        cdef int n = len(history) // 2, i, c
        cdef const int16_t* hist = <const int16_t*><const char*>history
        cdef uint8_t seen[NUM_CELLS]
        cdef int pending = 0
        if len(cells) != NUM_CELLS or any(v > 2 for v in cells):
            raise ValueError(f"cells must be {NUM_CELLS} bytes of 0 (black), 1 (white) or 2 (empty)")
        check_color(to_move)
        if len(history) % 2 or len(turn_end) != n or any(v > 1 for v in turn_end):
            raise ValueError("history must be int16 cells with one 0/1 turn-end byte each")
        memset(seen, 0, sizeof(seen))
        for i in range(n):
            c = hist[i]
            if not 0 <= c < NUM_CELLS or seen[c] or cells[c] == EMPTY:
                raise ValueError(f"history entry {i} ({c}) is not a distinct occupied cell")
            seen[c] = 1
            pending = 0 if turn_end[i] else pending + 1
        cdef weights_t wo = self.pos.rt.wo
        pos_init(&self.pos, &self.weights)
        rt_set_order_weights(&self.pos.rt, &wo)
        for i in range(NUM_CELLS):
            if cells[i] != EMPTY:
                pos_add_stone(&self.pos, i, cells[i])
        pos_set_to_move(&self.pos, to_move)
        memcpy(self.history, hist, 2 * n)
        memcpy(self.turn_end, <const char*>turn_end, n)
        self.nhistory = n
        self.placed = pending
        self.version += 1

    def add_stone(self, cell, int color):
        """Put a stone on the board, outside any game history (a low-level edit)."""
        cdef int c = _cell_arg(cell, "cell")
        check_color(color)
        if self.pos.cell[c] != EMPTY:
            raise ValueError(f"cell {c} is occupied")
        pos_add_stone(&self.pos, c, color)
        self.version += 1

    def remove_stone(self, cell, int color):
        """Take a stone off the board that :meth:`add_stone` put there (a
        low-level edit).  A stone of the game history is taken back with
        :meth:`pop_stone` instead: removing it here would leave the history
        naming an empty cell, and a cell pushed again would grow the history
        past the board."""
        cdef int c = _cell_arg(cell, "cell")
        cdef int i
        check_color(color)
        if self.pos.cell[c] != color:
            raise ValueError(f"cell {c} holds no stone of colour {color}")
        for i in range(self.nhistory):
            if self.history[i] == c:
                raise ValueError(f"cell {c} was played in the game history: take it back with pop_stone")
        pos_remove_stone(&self.pos, c, color)
        self.version += 1

    def stone_at(self, cell):
        """0 black, 1 white, 2 empty."""
        return self.pos.cell[_cell_arg(cell, "cell")]

    # ------------------------------------------------------------ the game, stone by stone
    cdef bint _over(self) noexcept:
        return pos_winner(&self.pos) >= 0 or self.pos.nstones == NUM_CELLS

    cdef int _turn_stones(self) noexcept:
        """Stones of the current turn: 1 on the first turn (or when one cell is left), else 2."""
        cdef int start = self.pos.nstones - self.placed
        return 1 if start == 0 or start == NUM_CELLS - 1 else 2

    cdef void _record(self, int cell, bint ends) noexcept:
        self.history[self.nhistory] = <int16_t>cell
        self.turn_end[self.nhistory] = ends
        self.nhistory += 1
        self.version += 1
        if ends:
            self.placed = 0
            pos_set_to_move(&self.pos, 1 - self.pos.to_move)
        else:
            self.placed += 1
        if C6_DEBUG and not pos_check(&self.pos):
            c6_debug_fail("incremental position differs from its rebuild after a Python push")

    cdef int _push_stone(self, int cell) noexcept:
        """0, or 1 when ``cell`` is taken, 2 when the game is over (nothing changes)."""
        cdef int color = self.pos.to_move
        cdef bint ends
        if self._over():
            return 2
        if self.pos.cell[cell] != EMPTY:
            return 1
        ends = self.placed + 1 >= self._turn_stones()
        pos_add_stone(&self.pos, cell, color)
        self._record(cell, ends or self._over())
        return 0

    def push_stone(self, cell):
        """The side to move places one stone; the turn passes after its last stone, or
        at once when the stone makes six or fills the board.  ValueError (the board
        unchanged) when the cell is taken or the game is over."""
        cdef int c = _cell_arg(cell, "cell")
        cdef int err = self._push_stone(c)
        if err:
            raise ValueError(f"{_cell_text(c)} is occupied" if err == 1 else "the game is over")

    cdef int _pop_stone(self) noexcept:
        """The last stone of the history taken back (its turn reopened): its cell, or -1."""
        cdef int n = self.nhistory - 1, k, c, color
        if n < 0:
            return -1
        c = self.history[n]
        color = self.pos.cell[c]
        if color == EMPTY:
            return -2
        if self.turn_end[n]:
            self.placed = 0
            k = n - 1
            while k >= 0 and not self.turn_end[k]:
                self.placed += 1
                k -= 1
            pos_set_to_move(&self.pos, color)
        else:
            self.placed -= 1
        pos_remove_stone(&self.pos, c, color)
        self.nhistory = n
        self.version += 1
        if n > 0 and not self.turn_end[n - 1] and pos_winner(&self.pos) >= 0:
            # the stone left last made six (the first of a pair pushed whole): a stone that
            # makes six ends its turn, as push_stone has it, so the board is the one it made
            self.turn_end[n - 1] = True
            self.placed = 0
            pos_set_to_move(&self.pos, 1 - color)
        return c

    def pop_stone(self):
        """Take back the last stone placed by :meth:`push_stone` or :meth:`push_move`
        and return its cell; a finished turn is reopened (its side is to move again),
        unless the stone left last makes six: that stone ends its turn."""
        cdef int c = self._pop_stone()
        if c >= 0:
            return c
        if c == -1:
            raise IndexError("pop from an empty move stack")
        raise ValueError("the history does not match the stones (changed with add_stone/remove_stone?)")

    def pop_turn(self):
        """Take back the unfinished turn if there is one, else the last turn: its cells in order."""
        cdef int n = self.nhistory, k = self.placed, i
        if n == 0:
            raise IndexError("pop from an empty move stack")
        if k == 0:
            k = 1
            while k < n and not self.turn_end[n - 1 - k]:
                k += 1
        cells = tuple([self.history[n - k + i] for i in range(k)])
        for i in range(k):
            if self._pop_stone() < 0:
                raise ValueError("the history does not match the stones (changed with add_stone/remove_stone?)")
        return cells

    def push_move(self, a, b=None):
        """A whole turn (or the rest of one): one stone ``a`` or two ``a, b`` for the side
        to move.  One stone in a two-stone turn only when it makes six.  ValueError,
        with nothing changed, when the rules forbid it."""
        cdef int ca = _cell_arg(a, "a"), cb = -1, n = 1, color = self.pos.to_move
        if b is not None:
            cb = _cell_arg(b, "b")
            n = 2
        if self._over():
            raise ValueError("the game is over")
        if self.pos.cell[ca] != EMPTY:
            raise ValueError(f"{_cell_text(ca)} is occupied")
        if cb >= 0 and self.pos.cell[cb] != EMPTY:
            raise ValueError(f"{_cell_text(cb)} is occupied")
        if ca == cb:
            raise ValueError(f"{_cell_text(ca)} twice")
        need = self._turn_stones() - self.placed
        if n != need and not (n == 1 and self._wins_at(ca, color)):
            raise ValueError(f"{need} stone{'s' if need > 1 else ''} to place this turn, not {n}")
        pos_add_stone(&self.pos, ca, color)
        if cb < 0:
            self._record(ca, True)
            return
        self._record(ca, False)
        pos_add_stone(&self.pos, cb, color)
        self._record(cb, True)

    cdef bint _wins_at(self, int cell, int color) noexcept:
        """Whether a stone of ``color`` on the empty ``cell`` makes six (a live road of 5 through it)."""
        cdef const geometry_t* geo = rt_geometry()
        cdef int k, five = 5 << (3 * color)
        for k in range(geo.cell_nroads[cell]):
            if self.pos.rt.code[geo.cell_roads[cell][k]] == five:
                return True
        return False

    def winning_cells(self, int color):
        """Empty cells where one stone of ``color`` makes six (or more) in a row."""
        check_color(color)
        return [c for c in range(NUM_CELLS) if self.pos.cell[c] == EMPTY and self._wins_at(c, color)]

    def is_over(self):
        """True when a side has six in a row or the board is full."""
        return self._over()

    @property
    def stones_left(self):
        """Stones the side to move still places this turn (0 when the game is over)."""
        return 0 if self._over() else self._turn_stones() - self.placed

    def unfinished(self):
        """The cells of the unfinished turn, in order (an empty tuple at the start of a turn)."""
        return tuple(self.history[i] for i in range(self.nhistory - self.placed, self.nhistory))

    def turns(self):
        """The finished turns of the history, each a tuple of cells in the order placed."""
        out = []
        cdef int i, start = 0
        for i in range(self.nhistory - self.placed):
            if self.turn_end[i]:
                out.append(tuple(self.history[j] for j in range(start, i + 1)))
                start = i + 1
        return out

    def same_position(self, Position other not None):
        """Same stones, side to move and stones left this turn (history and weights aside)."""
        return (memcmp(self.pos.cell, other.pos.cell, NUM_CELLS) == 0
                and self.pos.to_move == other.pos.to_move and self.placed == other.placed
                and self._over() == other._over())

    def position_key(self):
        """Bytes that identify the position exactly: the 361 cells, the side to move
        and the stones left this turn."""
        cdef int left = 0 if self._over() else self._turn_stones() - self.placed
        return (<char*>self.pos.cell)[:NUM_CELLS] + bytes((self.pos.to_move, left))

    def legal_mask(self, out=None):
        """(361,) bool numpy array: True on the empty cells, all False once the game is over."""
        if out is None:
            out = np.empty(NUM_CELLS, dtype=np.bool_)
        elif not isinstance(out, np.ndarray) or out.dtype != np.bool_ or out.shape != (NUM_CELLS,):
            raise TypeError(f"out must be a numpy bool array of shape ({NUM_CELLS},)")
        cdef unsigned char[::1] view = out.view(np.uint8)
        cdef int i
        cdef bint over = self._over()
        for i in range(NUM_CELLS):
            view[i] = 0 if over else self.pos.cell[i] == EMPTY
        return out

    def write_planes(self, out):
        """Fill ``out`` (int8, shape (4, 19, 19)) with the planes of :meth:`to_planes`."""
        if not isinstance(out, np.ndarray) or out.dtype != np.int8 or out.shape != (4, 19, 19):
            raise TypeError("out must be a numpy int8 array of shape (4, 19, 19)")
        cdef signed char[:, :, ::1] view = out
        cdef int i, me = self.pos.to_move, v
        for i in range(NUM_CELLS):
            v = self.pos.cell[i]
            view[0, i // 19, i % 19] = v == me
            view[1, i // 19, i % 19] = v == 1 - me
            view[2, i // 19, i % 19] = 0
            view[3, i // 19, i % 19] = me
        for i in range(self.nhistory - self.placed, self.nhistory):
            view[2, self.history[i] // 19, self.history[i] % 19] = 1
        return out

    def to_planes(self):
        """(4, 19, 19) int8 planes [plane, row, column]: the side to move's stones, the
        opponent's, the stones placed in the unfinished turn, and the side to move
        (all 1 when White is to move)."""
        return self.write_planes(np.empty((4, 19, 19), dtype=np.int8))

    @property
    def to_move(self):
        return self.pos.to_move

    @to_move.setter
    def to_move(self, int color):
        check_color(color)
        pos_set_to_move(&self.pos, color)

    @property
    def nstones(self):
        return self.pos.nstones

    @property
    def key(self):
        """Zobrist key: independent of the order stones were placed in."""
        return self.pos.key

    def winner(self):
        """0 or 1 if that colour has six or more in a row, else None."""
        cdef int w = pos_winner(&self.pos)
        return None if w < 0 else w

    def empty_cells(self):
        return [i for i in range(NUM_CELLS) if self.pos.cell[i] == EMPTY]

    def evaluate(self, int side, scan=None):
        """V(side): the incrementally kept value, or recomputed from all 924 roads (scan='global').

        'local' and 'incremental' both read the kept value: with no stone
        placed there is nothing to rescan locally.
        """
        check_color(side)
        if scan is None or scan_code(scan) != SCAN_GLOBAL:
            return self.pos.rt.value[side]
        return rt_scan_global(&self.pos.rt, self.pos.cell, side)

    def pair_delta(self, int a, int b, int color, int side, scan="local"):
        """Change of V(side) if ``color`` places stones at ``a`` and ``b`` (``b=-1``: one stone)."""
        cdef int mode = scan_code(scan)
        check_empty_cell(&self.pos, a)
        check_color(color)
        check_color(side)
        if b != -1:
            check_empty_cell(&self.pos, b)
            if b == a:
                raise ValueError(f"the two stones are both on cell {a}")
        return rt_delta_scan(&self.pos.rt, self.pos.cell, a, b, color, side, mode)

    def road_counts(self):
        """(924, 2) uint8 array: black and white stones in each road."""
        out = np.zeros((NUM_ROADS, 2), dtype=np.uint8)
        cdef unsigned char[:, ::1] view = out
        for r in range(NUM_ROADS):
            view[r, 0] = code_count(self.pos.rt.code[r], BLACK)
            view[r, 1] = code_count(self.pos.rt.code[r], WHITE)
        return out

    def histogram(self, int color):
        """Live roads of ``color`` by stone count: a list indexed 0..6 (index 0 unused, 0)."""
        check_color(color)
        return [0] + [self.pos.rt.code_hist[n << (3 * color)] for n in range(1, 7)]

    def threat_roads(self, int color):
        """Roads that are live for ``color`` and hold 4 or 5 of its stones."""
        check_color(color)
        return [r for r in range(NUM_ROADS)
                if (self.pos.rt.threat_roads[color][r >> 6] >> (r & 63)) & 1]

    def check(self):
        """True when every incremental structure equals its full recompute."""
        return bool(pos_check(&self.pos))

    def to_numpy(self):
        """(2, 19, 19) uint8 array: [colour][row][column], row 0 is row 1."""
        out = np.zeros((2, 19, 19), dtype=np.uint8)
        cdef unsigned char[:, :, ::1] view = out
        for i in range(NUM_CELLS):
            if self.pos.cell[i] != EMPTY:
                view[self.pos.cell[i], i // 19, i % 19] = 1
        return out


def debug_build():
    """True for a ``CONNECT6_DEBUG=1`` build (bounds checks, and every turn made
    or taken back in search is checked against a full recompute)."""
    return bool(C6_DEBUG)
