# cython: language_level=3
"""A position's threat roads (the blocking rules are inline in threats.pxd; the solver is ``tss``)."""
from libc.stdlib cimport free, malloc

from engine_core.geometry cimport ROAD_LEN, geometry_t, get_geometry
from engine_core.position cimport Position
from engine_core.roads cimport EMPTY, ROAD_WORDS, code_count
from engine_core.types cimport road_walk_t, walk_next, walk_start

cdef const geometry_t* geo = get_geometry()


# ------------------------------------------------------------------ threats
cdef int collect_threats(const position_t* p, int color, threat_t* out) noexcept nogil:
    """The threat roads of ``color`` with their empty cells; returns how many."""
    cdef int r, n = 0
    cdef road_walk_t it
    walk_start(&it, p.rt.threat_roads[color])
    r = walk_next(&it)
    while r >= 0:
        n = add_threat_after(p, r, geo.road_cells[r], -1, -1, out, n)
        r = walk_next(&it)
    return n


cdef bint has_threat(const position_t* p, int color) noexcept nogil:
    cdef int w
    for w in range(ROAD_WORDS):
        if p.rt.threat_roads[color][w]:
            return True
    return False


cdef bint winning_stones(const position_t* p, int color, int16_t* a, int16_t* b) noexcept nogil:
    """Stones that complete a six for ``color`` now: the empty cells of its
    fullest threat road (b = -1 when one stone is enough).  False if none."""
    cdef int r, j, c, best = -1, best_n = 0
    cdef road_walk_t it
    walk_start(&it, p.rt.threat_roads[color])
    r = walk_next(&it)
    while r >= 0:
        if code_count(p.rt.code[r], color) > best_n:
            best_n = code_count(p.rt.code[r], color)
            best = r
        r = walk_next(&it)
    if best < 0:
        return False
    a[0] = -1
    b[0] = -1
    for j in range(ROAD_LEN):
        c = geo.road_cells[best][j]
        if p.cell[c] == EMPTY:
            if a[0] < 0:
                a[0] = <int16_t>c
            else:
                b[0] = <int16_t>c
    return True


# ----------------------------------------------------------------- Python view
def threats(Position pos not None, int color):
    """[(road, (empty cells))] for the threat roads of ``color``."""
    if color not in (0, 1):
        raise ValueError(f"colour must be 0 or 1, not {color}")
    cdef threat_t* buf = <threat_t*>malloc(MAX_THREATS * sizeof(threat_t))
    if buf == NULL:
        raise MemoryError()
    try:
        n = collect_threats(&pos.pos, color, buf)
        return [(buf[i].road, tuple(c for c in (buf[i].e0, buf[i].e1) if c >= 0)) for i in range(n)]
    finally:
        free(buf)


def blocking(Position pos not None, int color):
    """(blocking number, [(x, y)]) for the threats of ``color``; y = -1: a free second stone."""
    cdef threat_t* buf = <threat_t*>malloc(MAX_THREATS * sizeof(threat_t))
    cdef block_t out[MAX_BLOCKS]
    if color not in (0, 1):
        raise ValueError("colour must be 0 or 1")
    if buf == NULL:
        raise MemoryError()
    try:
        n = collect_threats(&pos.pos, color, buf)
        h = blocking_number(buf, n)
        m = blocking_moves(buf, n, out)
        return h, [(out[i].x, out[i].y) for i in range(m)]
    finally:
        free(buf)
