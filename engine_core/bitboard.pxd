# cython: language_level=3
"""A set of cells on the 19x19 board as 6 uint64 words (361 of 384 bits used).

Bit ``cell & 63`` of word ``cell >> 6`` is cell ``row * 19 + col``.  The small
operations are inline so every module that cimports this header gets them
without a call.
"""
from libc.stdint cimport int16_t, uint64_t

from engine_core.portable cimport ctz64, popcount64

cdef enum:
    BB_WORDS = 6

ctypedef struct bitboard_t:
    uint64_t w[BB_WORDS]


cdef inline void bb_zero(bitboard_t* b) noexcept nogil:
    cdef int i
    for i in range(BB_WORDS):
        b.w[i] = 0


cdef inline void bb_set(bitboard_t* b, int cell) noexcept nogil:
    b.w[cell >> 6] |= (<uint64_t>1) << (cell & 63)


cdef inline void bb_reset(bitboard_t* b, int cell) noexcept nogil:
    b.w[cell >> 6] &= ~((<uint64_t>1) << (cell & 63))


cdef inline bint bb_test(const bitboard_t* b, int cell) noexcept nogil:
    return (b.w[cell >> 6] >> (cell & 63)) & 1


cdef inline int bb_popcount(const bitboard_t* b) noexcept nogil:
    cdef int i, n = 0
    for i in range(BB_WORDS):
        n += popcount64(b.w[i])
    return n


cdef inline bint bb_is_empty(const bitboard_t* b) noexcept nogil:
    return (b.w[0] | b.w[1] | b.w[2] | b.w[3] | b.w[4] | b.w[5]) == 0


cdef inline void bb_or(bitboard_t* out, const bitboard_t* a, const bitboard_t* b) noexcept nogil:
    cdef int i
    for i in range(BB_WORDS):
        out.w[i] = a.w[i] | b.w[i]


cdef inline void bb_andnot(bitboard_t* out, const bitboard_t* a, const bitboard_t* b) noexcept nogil:
    """out = a & ~b"""
    cdef int i
    for i in range(BB_WORDS):
        out.w[i] = a.w[i] & ~b.w[i]


cdef inline int bb_to_array(const bitboard_t* b, int16_t* out) noexcept nogil:
    """Write the cells of ``b`` in increasing order to ``out``; return how many."""
    cdef int i, n = 0
    cdef uint64_t x
    for i in range(BB_WORDS):
        x = b.w[i]
        while x:
            out[n] = <int16_t>((i << 6) + ctz64(x))
            n += 1
            x &= x - 1
    return n


cdef inline int bb_next(const bitboard_t* b, int start) noexcept nogil:
    """The smallest cell >= ``start`` in ``b``, or -1."""
    cdef int i
    cdef uint64_t x
    if start < 0:
        start = 0
    i = start >> 6
    if i >= BB_WORDS:
        return -1
    x = b.w[i] & (~(<uint64_t>0) << (start & 63))
    while True:
        if x:
            return (i << 6) + ctz64(x)
        i += 1
        if i >= BB_WORDS:
            return -1
        x = b.w[i]


cdef void bb_dilate(const bitboard_t* src, int radius, bitboard_t* out) noexcept nogil
