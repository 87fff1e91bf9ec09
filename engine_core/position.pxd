# cython: language_level=3
"""Board state: stones, the road table and the Zobrist key, changed one stone at a time.

Search works only through these functions; it never touches the arrays of a
position directly except to read them.
"""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from engine_core.bitboard cimport bitboard_t
from engine_core.geometry cimport NUM_CELLS
from engine_core.geometry cimport ROAD_LEN, geometry_t, get_geometry
from engine_core.roads cimport (
    EMPTY, SCAN_INCREMENTAL, code_count, roadtable_t, rt_delta_scan, rt_eval, rt_threat_roads, score_t, weights_t,
)

ctypedef struct position_t:
    bitboard_t stones[2]          # black, white
    bitboard_t occupied
    uint8_t cell[NUM_CELLS]       # BLACK, WHITE or EMPTY
    roadtable_t rt
    uint64_t key                  # Zobrist key of the stones and the side to move
    int16_t nstones
    int8_t to_move                # BLACK or WHITE

cdef void pos_init(position_t* p, const weights_t* w) noexcept nogil
cdef void pos_add_stone(position_t* p, int cell, int color) noexcept nogil
cdef void pos_remove_stone(position_t* p, int cell, int color) noexcept nogil
cdef void pos_set_to_move(position_t* p, int color) noexcept nogil
cdef void pos_make_pair(position_t* p, int a, int b) noexcept nogil
cdef void pos_undo_pair(position_t* p, int a, int b) noexcept nogil
cdef int pos_winner(const position_t* p) noexcept nogil
cdef bint pos_check(const position_t* p) noexcept nogil
cdef int check_color(int color) except -1
cdef int check_empty_cell(const position_t* p, int cell) except -1


# Read-only views for search (it never reads the arrays of a position itself).
cdef inline score_t pos_eval(const position_t* p, int side) noexcept nogil:
    """The road evaluation of the position for ``side`` (kept incrementally)."""
    return rt_eval(&p.rt, side)


cdef inline score_t pos_pair_delta(position_t* p, int a, int b, int color) noexcept nogil:
    """The change of ``color``'s value if ``color`` placed a and b (order weights)."""
    return rt_delta_scan(&p.rt, p.cell, a, b, color, color, SCAN_INCREMENTAL)


cdef inline int pos_threat_roads(const position_t* p, int color) noexcept nogil:
    """Live roads of ``color`` holding 4 or 5 stones."""
    return rt_threat_roads(&p.rt, color)


cdef inline bint pos_scores_are_deltas(const position_t* p) noexcept nogil:
    """Whether a pair's score is the change of the mover's value (the order
    weights are the evaluation weights)."""
    return not p.rt.split_weights


cdef inline const uint64_t* pos_build_roads(const position_t* p, int color) noexcept nogil:
    """The live roads of ``color`` holding 2 or 3 stones, as ROAD_WORDS words."""
    return p.rt.build_roads[color]


cdef inline int pos_road_count(const position_t* p, int road, int color) noexcept nogil:
    """Stones of ``color`` in ``road``."""
    return code_count(p.rt.code[road], color)


cdef inline int pos_road_empties(const position_t* p, int road, int16_t* out) noexcept nogil:
    """The empty cells of ``road`` in order; returns how many."""
    cdef const geometry_t* geo = get_geometry()
    cdef int j, c, n = 0
    for j in range(ROAD_LEN):
        c = geo.road_cells[road][j]
        if p.cell[c] == EMPTY:
            out[n] = <int16_t>c
            n += 1
    return n


cdef inline bint pos_is_empty(const position_t* p, int cell) noexcept nogil:
    return p.cell[cell] == EMPTY


cdef class Position:
    cdef position_t pos
    cdef weights_t weights
    # the game played on it through push_stone/push_move (stones set up otherwise are not in it)
    cdef int16_t history[NUM_CELLS]   # stones in the order they were placed
    cdef uint8_t turn_end[NUM_CELLS]  # 1 where history[i] is the last stone of its turn
    cdef readonly int nhistory        # entries of history in use
    cdef readonly int placed          # stones of the unfinished turn (the last entries of history)
    cdef readonly unsigned long long version  # counts changes: caches of connect6.Board key on it

    cdef bint _over(self) noexcept
    cdef int _turn_stones(self) noexcept
    cdef void _record(self, int cell, bint ends) noexcept
    cdef int _push_stone(self, int cell) noexcept
    cdef int _pop_stone(self) noexcept
    cdef bint _wins_at(self, int cell, int color) noexcept
