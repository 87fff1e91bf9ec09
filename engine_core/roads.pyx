# cython: language_level=3
"""Incremental road table, evaluation and the three ways of scoring a move."""
from libc.stdint cimport int16_t
from libc.string cimport memset
from engine_core.geometry cimport (
    BOARD_SIZE, LINE_REACH, MAX_ROADS_PER_CELL, NUM_CELLS, NUM_ROADS, ROAD_LEN,
    geometry_t, get_geometry,
)

cdef const geometry_t* geo = get_geometry()

# bit 0/1: the code is a live black/white 4 or 5 (a threat);
# bit 2/3: a live black/white 2 or 3 (where new threats can come from)
cdef uint8_t THREAT_FLAGS[NUM_CODES]


cdef void _init_flags() noexcept nogil:
    cdef int code, color, n
    for code in range(NUM_CODES):
        THREAT_FLAGS[code] = 0
        for color in range(2):
            n = live_count(code, color)
            if 4 <= n <= 5:
                THREAT_FLAGS[code] |= 1 << color
            elif 2 <= n <= 3:
                THREAT_FLAGS[code] |= 4 << color


_init_flags()


cdef const geometry_t* rt_geometry() noexcept nogil:
    return geo


cdef void weights_init(weights_t* w, const score_t* f, const score_t* g) noexcept nogil:
    """Fill the per-code value tables from f(1..6) and g(1..6) (index 0 unused)."""
    cdef int code, nb, nw, side, color, inc
    w.f[0] = 0
    w.g[0] = 0
    for nb in range(1, 7):
        w.f[nb] = f[nb]
        w.g[nb] = g[nb]
    for code in range(NUM_CODES):
        nb = code & 7
        nw = code >> 3
        w.value[BLACK][code] = 0
        w.value[WHITE][code] = 0
        if nb > 6 or nw > 6:
            continue
        if nw == 0 and nb > 0:
            w.value[BLACK][code] = w.f[nb]
            w.value[WHITE][code] = -w.g[nb]
        elif nb == 0 and nw > 0:
            w.value[WHITE][code] = w.f[nw]
            w.value[BLACK][code] = -w.g[nw]
    # the steps of a road gaining one or two stones, for the codes that can gain them
    # (room for the stones in the 3 bits of the colour; other entries are 0, never read)
    for side in range(2):
        for color in range(2):
            inc = 1 << (3 * color)
            for code in range(NUM_CODES):
                w.step1[side][color][code] = 0
                w.step2[side][color][code] = 0
                if ((code >> (3 * color)) & 7) <= 6:
                    w.step1[side][color][code] = w.value[side][code + inc] - w.value[side][code]
                if ((code >> (3 * color)) & 7) <= 5:
                    w.step2[side][color][code] = (w.value[side][code + 2 * inc] - 2 * w.value[side][code + inc]
                                                  + w.value[side][code])


cdef void rt_init(roadtable_t* rt, const weights_t* w) noexcept nogil:
    memset(rt, 0, sizeof(roadtable_t))
    rt.w = w[0]
    rt.wo = w[0]
    rt.split_weights = False
    rt.code_hist[0] = NUM_ROADS


cdef inline void _toggle_threat(roadtable_t* rt, int road, int flags) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << (road & 63)
    if flags & 1:
        rt.threat_roads[BLACK][road >> 6] ^= bit
    if flags & 2:
        rt.threat_roads[WHITE][road >> 6] ^= bit
    if flags & 4:
        rt.build_roads[BLACK][road >> 6] ^= bit
    if flags & 8:
        rt.build_roads[WHITE][road >> 6] ^= bit


cdef inline void _rt_step(roadtable_t* rt, int cell, int color, bint add) noexcept nogil:
    """Add a stone of ``color`` at ``cell`` to every road through it (``add`` false: take it
    away), keeping histograms, values and threat bitsets."""
    cdef int k, r, old, new, flags, inc = stone_inc(color)
    cdef const int16_t* roads = geo.cell_roads[cell]
    cdef score_t dv0 = 0, dv1 = 0
    for k in range(geo.cell_nroads[cell]):
        r = roads[k]
        old = rt.code[r]
        if add:
            new = old + inc
            dv0 += road_step(&rt.w, old, color, BLACK)
            dv1 += road_step(&rt.w, old, color, WHITE)
        else:
            new = old - inc
            dv0 -= road_step(&rt.w, new, color, BLACK)
            dv1 -= road_step(&rt.w, new, color, WHITE)
        rt.code[r] = <uint8_t>new
        rt.code_hist[old] -= 1
        rt.code_hist[new] += 1
        flags = THREAT_FLAGS[old] ^ THREAT_FLAGS[new]
        if flags:
            _toggle_threat(rt, r, flags)
    rt.value[BLACK] += dv0
    rt.value[WHITE] += dv1


cdef void rt_add(roadtable_t* rt, int cell, int color) noexcept nogil:
    _rt_step(rt, cell, color, True)


cdef void rt_remove(roadtable_t* rt, int cell, int color) noexcept nogil:
    _rt_step(rt, cell, color, False)


# what one cell (BLACK, WHITE, EMPTY) adds to a road code
cdef uint8_t CELL_CODE[3]
CELL_CODE[:] = [1, 8, 0]


cdef int scan_road(const uint8_t* cells, int road) noexcept nogil:
    """Recount a road's stones from the board: its code."""
    cdef const int16_t* rc = geo.road_cells[road]
    return (CELL_CODE[cells[rc[0]]] + CELL_CODE[cells[rc[1]]] + CELL_CODE[cells[rc[2]]]
            + CELL_CODE[cells[rc[3]]] + CELL_CODE[cells[rc[4]]] + CELL_CODE[cells[rc[5]]])


cdef inline score_t _scan_all(const weights_t* w, const uint8_t* cells, int side) noexcept nogil:
    cdef int r
    cdef score_t total = 0
    for r in range(NUM_ROADS):
        total += road_value(w, scan_road(cells, r), side)
    return total


cdef score_t rt_scan_global(const roadtable_t* rt, const uint8_t* cells, int side) noexcept nogil:
    """V(side) recomputed by rescanning all 924 roads of the board."""
    return _scan_all(&rt.w, cells, side)


cdef void rt_rebuild(roadtable_t* rt, const uint8_t* cells) noexcept nogil:
    """Recompute every code, histogram, threat set and value from a cell array."""
    cdef int r, code
    memset(rt.code_hist, 0, sizeof(rt.code_hist))
    memset(rt.threat_roads, 0, sizeof(rt.threat_roads))
    memset(rt.build_roads, 0, sizeof(rt.build_roads))
    rt.value[BLACK] = 0
    rt.value[WHITE] = 0
    for r in range(NUM_ROADS):
        code = scan_road(cells, r)
        rt.code[r] = <uint8_t>code
        rt.code_hist[code] += 1
        _toggle_threat(rt, r, THREAT_FLAGS[code])
        rt.value[BLACK] += road_value(&rt.w, code, BLACK)
        rt.value[WHITE] += road_value(&rt.w, code, WHITE)


cdef void rt_set_weights(roadtable_t* rt, const weights_t* w) noexcept nogil:
    """New weights for both evaluation and move scoring; values recomputed."""
    cdef int r
    rt.w = w[0]
    rt.wo = w[0]
    rt.split_weights = False
    rt.value[BLACK] = 0
    rt.value[WHITE] = 0
    for r in range(NUM_ROADS):
        rt.value[BLACK] += road_value(&rt.w, rt.code[r], BLACK)
        rt.value[WHITE] += road_value(&rt.w, rt.code[r], WHITE)


cdef void rt_set_order_weights(roadtable_t* rt, const weights_t* wo) noexcept nogil:
    """Score moves (pair deltas, all scan modes) with ``wo``; the evaluation keeps ``w``."""
    cdef int i, side
    rt.wo = wo[0]
    rt.split_weights = False
    for side in range(2):
        for i in range(NUM_CODES):
            if rt.wo.value[side][i] != rt.w.value[side][i]:
                rt.split_weights = True


cdef bint rt_check(const roadtable_t* rt, const uint8_t* cells) noexcept nogil:
    """The full-recompute twin: True when the incremental table equals a rebuild."""
    cdef roadtable_t fresh
    cdef int i
    fresh.w = rt.w
    rt_rebuild(&fresh, cells)
    for i in range(NUM_ROADS):
        if fresh.code[i] != rt.code[i]:
            return False
    for i in range(NUM_CODES):
        if fresh.code_hist[i] != rt.code_hist[i]:
            return False
    for i in range(ROAD_WORDS):
        if (fresh.threat_roads[0][i] != rt.threat_roads[0][i]
                or fresh.threat_roads[1][i] != rt.threat_roads[1][i]
                or fresh.build_roads[0][i] != rt.build_roads[0][i]
                or fresh.build_roads[1][i] != rt.build_roads[1][i]):
            return False
    return fresh.value[0] == rt.value[0] and fresh.value[1] == rt.value[1]


# ------------------------------------------------------------- move scoring
cdef score_t rt_stone_delta(const roadtable_t* rt, int cell, int color, int side) noexcept nogil:
    """Change of V(side) if one stone of ``color`` is added at ``cell``."""
    cdef int k
    cdef const int16_t* roads = geo.cell_roads[cell]
    cdef score_t d = 0
    for k in range(geo.cell_nroads[cell]):
        d += road_step(&rt.wo, rt.code[roads[k]], color, side)
    return d


cdef int shared_roads(int a, int b, int16_t* out) noexcept nogil:
    """Write the roads holding both cells to ``out`` (at most 5); return how many."""
    cdef int ca = a % BOARD_SIZE, ra = a // BOARD_SIZE
    cdef int dc = b % BOARD_SIZE - ca, dr = b // BOARD_SIZE - ra
    cdef int d, k, j, n = 0, r, tmp
    if dr == 0:
        d = 0
        k = dc
    elif dc == 0:
        d = 1
        k = dr
    elif dc == dr:
        d = 2
        k = dc
    elif dc == -dr:
        d = 3
        k = dc
    else:
        return 0
    if k < 0:
        k = -k
        a = b           # walk from the cell that comes first on the line
    if k == 0 or k > LINE_REACH:
        return 0
    for j in range(ROAD_LEN - k):
        r = geo.cell_line_road[a][d][j]
        if r >= 0:
            out[n] = <int16_t>r
            n += 1
    return n


cdef score_t rt_shared_correction(const roadtable_t* rt, int a, int b, int color, int side) noexcept nogil:
    """What the pair delta adds to the two single-stone deltas.

    A road through both stones gains two stones at once; the single deltas each
    counted it with one stone.  The difference is
    v(code + 2 inc) - 2 v(code + inc) + v(code) per shared road.
    """
    cdef int16_t roads[ROAD_LEN]
    cdef int n = shared_roads(a, b, roads)
    cdef int i
    cdef score_t corr = 0
    for i in range(n):
        corr += road_pair_term(&rt.wo, rt.code[roads[i]], color, side)
    return corr


cdef inline score_t _scan_local(const roadtable_t* rt, const uint8_t* cells, int a, int b,
                                const int16_t* shared, int nshared, int side) noexcept nogil:
    """Sum of road values over the roads through ``a`` and ``b``, a shared road once."""
    cdef int k, i, r
    cdef score_t total = 0
    cdef const int16_t* roads = geo.cell_roads[a]
    for k in range(geo.cell_nroads[a]):
        total += road_value(&rt.wo, scan_road(cells, roads[k]), side)
    if b < 0:
        return total
    roads = geo.cell_roads[b]
    for k in range(geo.cell_nroads[b]):
        r = roads[k]
        for i in range(nshared):
            if shared[i] == r:
                break
        else:
            total += road_value(&rt.wo, scan_road(cells, r), side)
    return total


cdef score_t rt_delta_scan(const roadtable_t* rt, uint8_t* cells, int a, int b, int color, int side, int scan) noexcept nogil:
    """Change of V(side) when ``color`` places stones at ``a`` and ``b`` (``b`` = -1: one stone),
    under the move-scoring weights (the evaluation weights unless set apart).

    SCAN_GLOBAL rescans all 924 roads of the board before and after the
    simulated move (the paper's eq. 4); SCAN_LOCAL rescans only the roads
    through the placed stones, a road through both counted once (eq. 6);
    SCAN_INCREMENTAL adds the two single-stone deltas read off the kept road
    codes and the shared-road correction.  All three give the same number.
    The move is simulated in ``cells`` and taken back before returning.
    """
    cdef int16_t shared[ROAD_LEN]
    cdef int nshared = 0
    cdef score_t pre, post
    if scan == SCAN_INCREMENTAL:
        if b < 0:
            return rt_stone_delta(rt, a, color, side)
        return (rt_stone_delta(rt, a, color, side) + rt_stone_delta(rt, b, color, side)
                + rt_shared_correction(rt, a, b, color, side))
    if scan == SCAN_GLOBAL:
        pre = _scan_all(&rt.wo, cells, side)
    else:
        if b >= 0:
            nshared = shared_roads(a, b, shared)
        pre = _scan_local(rt, cells, a, b, shared, nshared, side)
    cells[a] = <uint8_t>color
    if b >= 0:
        cells[b] = <uint8_t>color
    if scan == SCAN_GLOBAL:
        post = _scan_all(&rt.wo, cells, side)
    else:
        post = _scan_local(rt, cells, a, b, shared, nshared, side)
    cells[a] = EMPTY
    if b >= 0:
        cells[b] = EMPTY
    return post - pre
