# cython: language_level=3
"""Threats and the stones that block them.

A *threat* of a colour is a live road holding 4 or 5 of its stones: the
opponent must put a stone in it or lose.  The *blocking number* of a set of
threats is the least number of stones that meets every threat road (0, 1, 2,
or 3 meaning "three or more": with two stones per turn that is lost).  The
threat-space search built on them is ``tss``.
"""
from libc.stdint cimport int16_t
from engine_core.geometry cimport ROAD_LEN
from engine_core.position cimport position_t
from engine_core.roads cimport EMPTY

cdef enum:
    MAX_THREATS = 924           # a colour cannot have more threat roads than roads
    MAX_BLOCKS = 4              # ways to meet every threat: x from the first road, y from the first road x misses

ctypedef struct threat_t:
    int16_t road
    int16_t e0                  # an empty cell of the road
    int16_t e1                  # the other empty cell, -1 when the road holds five

ctypedef struct block_t:
    int16_t x
    int16_t y                   # -1: x alone meets every threat, the second stone is free

cdef int collect_threats(const position_t* p, int color, threat_t* out) noexcept nogil
cdef bint has_threat(const position_t* p, int color) noexcept nogil
cdef bint winning_stones(const position_t* p, int color, int16_t* a, int16_t* b) noexcept nogil


# Inline, so that the solver (``tss``), which calls them for every candidate
# pair, and the search pay no call between modules.
cdef inline int add_threat_after(const position_t* p, int r, const int16_t* cells, int x, int y, threat_t* out,
                                 int n) noexcept nogil:
    """Append road r (its six cells: ``cells``) with its empty cells once x and y hold stones."""
    cdef int j, c
    out[n].road = <int16_t>r
    out[n].e0 = -1
    out[n].e1 = -1
    for j in range(ROAD_LEN):
        c = cells[j]
        if p.cell[c] == EMPTY and c != x and c != y:
            if out[n].e0 < 0:
                out[n].e0 = <int16_t>c
            else:
                out[n].e1 = <int16_t>c
    return n + 1


cdef inline bint _meets(const threat_t* t, int x) noexcept nogil:
    return t.e0 == x or t.e1 == x


cdef inline int _first_missed(const threat_t* t, int n, int x) noexcept nogil:
    """Index of the first threat that ``x`` does not meet, or -1."""
    cdef int i
    for i in range(n):
        if not _meets(&t[i], x):
            return i
    return -1


cdef inline bint _pair_meets_all(const threat_t* t, int n, int x, int y) noexcept nogil:
    cdef int i
    for i in range(n):
        if not (_meets(&t[i], x) or _meets(&t[i], y)):
            return False
    return True


cdef inline int blocking_moves(const threat_t* t, int n, block_t* out) noexcept nogil:
    """Every way to meet all threats with at most two stones, as (x, y) with x < y,
    or (x, -1) when x alone meets them all.  Returns how many (0: impossible).

    Any blocking set holds an empty cell x of the first road; the roads x
    misses must all be met by one more stone, which must be an empty cell of
    the first road x misses.  So at most 2 + 4 candidates are tried.
    """
    cdef int k, m, x, y, i, j, cnt = 0, lo, hi
    cdef int16_t xs[2]
    cdef int16_t ys[2]
    cdef bint dup
    if n == 0:
        return 0
    xs[0] = t[0].e0
    xs[1] = t[0].e1
    for k in range(2):
        x = xs[k]
        if x < 0:
            continue
        m = _first_missed(t, n, x)
        if m < 0:
            out[cnt].x = <int16_t>x
            out[cnt].y = -1
            cnt += 1
            continue
        ys[0] = t[m].e0
        ys[1] = t[m].e1
        for i in range(2):
            y = ys[i]
            if y < 0 or not _pair_meets_all(t, n, x, y):
                continue
            lo = x if x < y else y
            hi = y if x < y else x
            dup = False
            for j in range(cnt):
                if out[j].x == lo and out[j].y == hi:
                    dup = True
            if not dup:
                out[cnt].x = <int16_t>lo
                out[cnt].y = <int16_t>hi
                cnt += 1
    return cnt


cdef inline int number_of_ways(int n, const block_t* ways, int cnt) noexcept nogil:
    """The blocking number of ``n`` threats whose ways to block them
    (``blocking_moves``) are ways[0:cnt]."""
    cdef int i
    if n == 0:
        return 0
    if cnt == 0:
        return 3
    for i in range(cnt):
        if ways[i].y < 0:
            return 1
    return 2


cdef inline int blocking_number(const threat_t* t, int n) noexcept nogil:
    """Fewest stones meeting every threat: 0, 1, 2, or 3 for three or more."""
    cdef block_t ways[MAX_BLOCKS]
    return number_of_ways(n, ways, blocking_moves(t, n, ways))
