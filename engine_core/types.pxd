# cython: language_level=3
"""Types and constants shared by every module of the core (a header only).

Scores, the win and infinity scores and the forced-result margin are defined
here once; so are the colours, the pair type the move lists hold, and the
walk over a set of roads kept as 64-bit words.
"""
from libc.stdint cimport int16_t, int64_t, uint64_t

# flag_get and flag_set are cimported from here by the search modules
from engine_core.portable cimport ctz64, flag_get, flag_set

ctypedef int64_t score_t

cdef enum:
    BLACK = 0
    WHITE = 1
    EMPTY = 2
    ROAD_WORDS = 15             # 924 roads as a bitset of 64-bit words

cdef extern from *:
    """
    #define C6_WIN_SCORE 1000000000000000LL
    #define C6_INF_SCORE 2000000000000000LL
    #define C6_FORCED_MARGIN 1000LL
    """
    const score_t WIN_SCORE "C6_WIN_SCORE"   # a six: WIN_SCORE minus turns from the root
    const score_t INF_SCORE "C6_INF_SCORE"
    const score_t FORCED_MARGIN "C6_FORCED_MARGIN"  # |score| within this of WIN_SCORE: a forced six


cdef inline bint is_forced_win(score_t v) noexcept nogil:
    return v >= WIN_SCORE - FORCED_MARGIN


cdef inline bint is_forced_loss(score_t v) noexcept nogil:
    return v <= -(WIN_SCORE - FORCED_MARGIN)


cdef inline bint is_forced(score_t v) noexcept nogil:
    """A forced six for either side: the value does not change with depth."""
    return is_forced_win(v) or is_forced_loss(v)


ctypedef struct pair_t:
    score_t score       # pair delta for the side it was generated for
    int16_t a           # lower cell
    int16_t b           # higher cell, or -1 for a single stone


cdef inline int pair_index(const pair_t* pairs, int n, int a, int b) noexcept nogil:
    """Index of the pair (a, b) in ``pairs[:n]``, or -1."""
    cdef int i
    for i in range(n):
        if pairs[i].a == a and pairs[i].b == b:
            return i
    return -1


ctypedef struct road_walk_t:
    const uint64_t* words       # ROAD_WORDS words, bit r = road r
    int w                       # current word
    uint64_t bits               # its bits not visited yet


cdef inline void walk_start(road_walk_t* it, const uint64_t* words) noexcept nogil:
    it.words = words
    it.w = 0
    it.bits = words[0]


cdef inline int walk_next(road_walk_t* it) noexcept nogil:
    """The next road of the set, in increasing order, or -1 at the end."""
    cdef int r
    while it.bits == 0:
        it.w += 1
        if it.w >= ROAD_WORDS:
            return -1
        it.bits = it.words[it.w]
    r = (it.w << 6) + ctz64(it.bits)
    it.bits &= it.bits - 1
    return r
