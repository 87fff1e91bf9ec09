# cython: language_level=3
"""Board state: stones, the road table and the Zobrist key, changed one stone at a time.

Search works only through these functions; it never touches the arrays of a
position directly except to read them.
"""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from engine_core.bitboard cimport bitboard_t
from engine_core.geometry cimport NUM_CELLS
from engine_core.roads cimport roadtable_t, score_t, weights_t

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
