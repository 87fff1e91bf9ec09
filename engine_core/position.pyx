# cython: language_level=3
"""Board state changed stone by stone, and its Python view :class:`Position`."""
import numpy as np

from libc.stdint cimport int16_t
from libc.string cimport memset
from engine_core.bitboard cimport bb_reset, bb_set, bb_zero, bb_to_array
from engine_core.geometry cimport NUM_ROADS, ROAD_LEN
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


cdef int _check_cell(int cell) except -1:
    if not 0 <= cell < NUM_CELLS:
        raise ValueError(f"cell {cell} is off the board (0..{NUM_CELLS - 1})")
    return 0


cdef int _check_color(int color) except -1:
    if color != BLACK and color != WHITE:
        raise ValueError(f"colour must be 0 (black) or 1 (white), not {color}")
    return 0


def _weight_vector(values, name):
    vals = [int(v) for v in values]
    if len(vals) == 6:
        vals = [0] + vals
    if len(vals) != 7 or vals[0] != 0:
        raise ValueError(f"{name} needs 6 values, for 1..6 stones in a road")
    return vals


cdef int _fill_weights(weights_t* out, f, g) except -1:
    """Check the Python weight vectors f, g and build the C weight profile."""
    cdef score_t cf[7]
    cdef score_t cg[7]
    fv = _weight_vector(f, "f")
    gv = _weight_vector(g, "g")
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
        cdef Position other = Position.__new__(Position)
        other.weights = self.weights
        other.pos = self.pos
        return other

    def add_stone(self, int cell, int color):
        _check_cell(cell)
        _check_color(color)
        if self.pos.cell[cell] != EMPTY:
            raise ValueError(f"cell {cell} is occupied")
        pos_add_stone(&self.pos, cell, color)

    def remove_stone(self, int cell, int color):
        _check_cell(cell)
        _check_color(color)
        if self.pos.cell[cell] != color:
            raise ValueError(f"cell {cell} holds no stone of colour {color}")
        pos_remove_stone(&self.pos, cell, color)

    def stone_at(self, int cell):
        """0 black, 1 white, 2 empty."""
        _check_cell(cell)
        return self.pos.cell[cell]

    @property
    def to_move(self):
        return self.pos.to_move

    @to_move.setter
    def to_move(self, int color):
        _check_color(color)
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
        _check_color(side)
        if scan is None or scan_code(scan) != SCAN_GLOBAL:
            return self.pos.rt.value[side]
        return rt_scan_global(&self.pos.rt, self.pos.cell, side)

    def pair_delta(self, int a, int b, int color, int side, scan="local"):
        """Change of V(side) if ``color`` places stones at ``a`` and ``b`` (``b=-1``: one stone)."""
        cdef int mode = scan_code(scan)
        _check_cell(a)
        _check_color(color)
        _check_color(side)
        if self.pos.cell[a] != EMPTY:
            raise ValueError(f"cell {a} is occupied")
        if b != -1:
            _check_cell(b)
            if self.pos.cell[b] != EMPTY:
                raise ValueError(f"cell {b} is occupied")
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
        _check_color(color)
        return [0] + [self.pos.rt.code_hist[n << (3 * color)] for n in range(1, 7)]

    def threat_roads(self, int color):
        """Roads that are live for ``color`` and hold 4 or 5 of its stones."""
        _check_color(color)
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
