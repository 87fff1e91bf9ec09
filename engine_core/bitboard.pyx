# cython: language_level=3
"""Bitboard dilation (the rest of the bitboard is inline in bitboard.pxd)."""
from libc.stdint cimport int16_t, uint64_t

cdef bitboard_t _NOT_COL0      # every board cell except column a
cdef bitboard_t _NOT_COL18     # every board cell except column s
cdef bitboard_t _BOARD         # the 361 board cells


cdef void _init_masks() noexcept nogil:
    cdef int cell
    bb_zero(&_NOT_COL0)
    bb_zero(&_NOT_COL18)
    bb_zero(&_BOARD)
    for cell in range(361):
        bb_set(&_BOARD, cell)
        if cell % 19 != 0:
            bb_set(&_NOT_COL0, cell)
        if cell % 19 != 18:
            bb_set(&_NOT_COL18, cell)


cdef inline void _shl(const bitboard_t* a, int n, bitboard_t* out) noexcept nogil:
    """out = a << n (towards higher cells), 0 < n < 64."""
    cdef int i
    for i in range(BB_WORDS - 1, 0, -1):
        out.w[i] = (a.w[i] << n) | (a.w[i - 1] >> (64 - n))
    out.w[0] = a.w[0] << n


cdef inline void _shr(const bitboard_t* a, int n, bitboard_t* out) noexcept nogil:
    """out = a >> n (towards lower cells), 0 < n < 64."""
    cdef int i
    for i in range(BB_WORDS - 1):
        out.w[i] = (a.w[i] >> n) | (a.w[i + 1] << (64 - n))
    out.w[BB_WORDS - 1] = a.w[BB_WORDS - 1] >> n


cdef void bb_dilate(const bitboard_t* src, int radius, bitboard_t* out) noexcept nogil:
    """Every cell within Chebyshev distance ``radius`` of a cell of ``src``."""
    cdef bitboard_t cur, t
    cdef int i, step
    cur = src[0]
    for step in range(radius):
        # one step east and west, never wrapping across a row end
        _shl(&cur, 1, &t)
        for i in range(BB_WORDS):
            t.w[i] &= _NOT_COL0.w[i]
        out[0] = t
        _shr(&cur, 1, &t)
        for i in range(BB_WORDS):
            cur.w[i] |= out.w[i] | (t.w[i] & _NOT_COL18.w[i])
        # then one step north and south
        _shl(&cur, 19, &t)
        _shr(&cur, 19, out)
        for i in range(BB_WORDS):
            cur.w[i] = (cur.w[i] | t.w[i] | out.w[i]) & _BOARD.w[i]
    out[0] = cur


_init_masks()


cdef class Bitboard:
    """A Python view of a bitboard, for tests and exploration.

    >>> b = Bitboard([180])
    >>> len(b.dilate(1))
    9
    """
    cdef bitboard_t bb

    def __cinit__(self, cells=()):
        bb_zero(&self.bb)
        for c in cells:
            self.set(c)

    cdef int _check(self, int cell) except -1:
        if not 0 <= cell < 361:
            raise ValueError(f"cell {cell} is off the board (0..360)")
        return 0

    def set(self, int cell):
        self._check(cell)
        bb_set(&self.bb, cell)

    def reset(self, int cell):
        self._check(cell)
        bb_reset(&self.bb, cell)

    def test(self, int cell):
        self._check(cell)
        return bool(bb_test(&self.bb, cell))

    def __len__(self):
        return bb_popcount(&self.bb)

    def __iter__(self):
        cdef int c = bb_next(&self.bb, 0)
        while c >= 0:
            yield c
            c = bb_next(&self.bb, c + 1)

    def cells(self):
        cdef int16_t buf[384]
        cdef int n = bb_to_array(&self.bb, buf)
        return [buf[i] for i in range(n)]

    def dilate(self, int radius):
        if radius < 0:
            raise ValueError("radius must be >= 0")
        cdef Bitboard out = Bitboard()
        bb_dilate(&self.bb, radius, &out.bb)
        return out

    def words(self):
        return tuple(self.bb.w[i] for i in range(BB_WORDS))
