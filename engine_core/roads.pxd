# cython: language_level=3
"""The incremental 924-road table and the road evaluation.

Each road keeps one byte, its *code* ``nb | (nw << 3)`` (black and white stones
in it), updated stone by stone.  A weight table maps a code to the road's value for each side:
``f(n)`` when the side owns the only stones in it, ``-g(n)`` when the opponent
does, 0 when it is empty or dead (both colours).  The global and local scans
(over all 924 roads, or over the roads through the placed stones) read road
values through :func:`road_value` only, and recount each road they visit from the
board's cells (:func:`scan_road`), exactly as the paper's rescans do.  The
incremental mode trusts the kept codes and reads the differences it needs, a
road's one-stone step and two-stone term, from tables derived once per weight
set (:func:`road_step`, :func:`road_pair_term`), as does the update of one stone.
"""
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t
from engine_core.geometry cimport NUM_ROADS, geometry_t

from engine_core.types cimport BLACK, EMPTY, ROAD_WORDS, WHITE, score_t

cdef enum:
    NUM_CODES = 64
    MAX_SCAN_ROADS = 48         # roads through two stones

cdef enum:
    SCAN_GLOBAL = 0
    SCAN_LOCAL = 1
    SCAN_INCREMENTAL = 2

ctypedef struct weights_t:
    score_t f[7]                    # own value of a live road with n stones (f[0] = 0)
    score_t g[7]                    # threat value of an opponent's live road with n stones
    score_t value[2][NUM_CODES]     # value[side][code]: road value for side (derived from f, g)
    score_t step1[2][2][NUM_CODES]  # [side][color][code]: v(code + a stone of color) - v(code)
    score_t step2[2][2][NUM_CODES]  # [side][color][code]: v(code + 2 stones) - 2 v(code + 1) + v(code)

ctypedef struct roadtable_t:
    uint8_t code[NUM_ROADS]             # nb | (nw << 3) per road
    int32_t code_hist[NUM_CODES]        # roads per code (a colour's live n-roads: code n, or n << 3)
    score_t value[2]                    # V(black), V(white), kept incrementally
    uint64_t threat_roads[2][ROAD_WORDS]  # live roads holding 4 or 5 stones of a colour
    uint64_t build_roads[2][ROAD_WORDS]   # live roads holding 2 or 3 stones of a colour
    weights_t w                         # evaluation weights (the kept values)
    weights_t wo                        # weights that score moves (pair deltas); w unless set apart
    bint split_weights                  # wo differs from w: a pair score is not a value change

cdef inline int stone_inc(int color) noexcept nogil:
    """What one stone of ``color`` adds to a road's code."""
    return 1 << (3 * color)

cdef inline score_t road_value(const weights_t* w, int code, int side) noexcept nogil:
    return w.value[side][code]

cdef inline score_t road_step(const weights_t* w, int code, int color, int side) noexcept nogil:
    """What one more stone of ``color`` in a road with this code adds to its value for ``side``
    (the road has an empty cell, so at most 5 stones of ``color``)."""
    return w.step1[side][color][code]

cdef inline score_t road_pair_term(const weights_t* w, int code, int color, int side) noexcept nogil:
    """What a road gaining two stones of ``color`` at once adds beyond twice one stone's step:
    v(code + 2 inc) - 2 v(code + inc) + v(code) (the road has two empty cells)."""
    return w.step2[side][color][code]

cdef inline int code_count(int code, int color) noexcept nogil:
    """Stones of ``color`` in a road with this code."""
    return (code >> (3 * color)) & 7

cdef inline int live_count(int code, int color) noexcept nogil:
    """Stones of ``color`` if the road is live for it (no opponent stone), else 0."""
    if (code >> (3 * (1 - color))) & 7:
        return 0
    return (code >> (3 * color)) & 7

cdef inline score_t rt_eval(const roadtable_t* rt, int side) noexcept nogil:
    return rt.value[side]

cdef inline int rt_live_roads(const roadtable_t* rt, int color, int n) noexcept nogil:
    """Number of live roads of ``color`` holding exactly ``n`` (1..6) stones."""
    return rt.code_hist[n << (3 * color)]

cdef inline bint rt_has_six(const roadtable_t* rt, int color) noexcept nogil:
    return rt.code_hist[6 << (3 * color)] > 0

cdef inline int rt_threat_roads(const roadtable_t* rt, int color) noexcept nogil:
    """Live roads of ``color`` holding 4 or 5 stones."""
    return rt.code_hist[4 << (3 * color)] + rt.code_hist[5 << (3 * color)]

cdef const geometry_t* rt_geometry() noexcept nogil
cdef void weights_init(weights_t* w, const score_t* f, const score_t* g) noexcept nogil
cdef void rt_init(roadtable_t* rt, const weights_t* w) noexcept nogil
cdef void rt_set_weights(roadtable_t* rt, const weights_t* w) noexcept nogil
cdef void rt_set_order_weights(roadtable_t* rt, const weights_t* wo) noexcept nogil
cdef void rt_add(roadtable_t* rt, int cell, int color) noexcept nogil
cdef void rt_remove(roadtable_t* rt, int cell, int color) noexcept nogil
cdef int scan_road(const uint8_t* cells, int road) noexcept nogil
cdef void rt_rebuild(roadtable_t* rt, const uint8_t* cells) noexcept nogil
cdef bint rt_check(const roadtable_t* rt, const uint8_t* cells) noexcept nogil
cdef score_t rt_scan_global(const roadtable_t* rt, const uint8_t* cells, int side) noexcept nogil
cdef score_t rt_stone_delta(const roadtable_t* rt, int cell, int color, int side) noexcept nogil
cdef int shared_roads(int a, int b, int16_t* out) noexcept nogil
cdef score_t rt_shared_correction(const roadtable_t* rt, int a, int b, int color, int side) noexcept nogil
cdef score_t rt_delta_scan(const roadtable_t* rt, uint8_t* cells, int a, int b, int color, int side, int scan) noexcept nogil
