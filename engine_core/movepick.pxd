# cython: language_level=3
"""Move ordering and the move lists of special nodes.

The width-limited pair list of a node comes from ``movegen``; here it is
reordered (previous PV, transposition-table move, killer pairs first), or
replaced by the pairs that block the opponent's threats; and the pair that
completes a six is found.
"""
from libc.stdint cimport int16_t
from engine_core.search_state cimport search_t
from engine_core.types cimport pair_t, score_t

cdef int order_front(search_t* s, pair_t* pairs, int n, int ply, int tt_a, int tt_b) noexcept nogil
cdef void reverse_pairs(pair_t* pairs, int n) noexcept nogil
cdef void killer_store(search_t* s, int ply, int a, int b) noexcept nogil
cdef void win_pair(search_t* s, int16_t* a, int16_t* b) noexcept nogil
cdef int gen_blocks(search_t* s, pair_t* out, int nt) noexcept nogil
cdef void insert_new(pair_t* out, int* n, int cap, score_t sc, int x, int y) noexcept nogil
cdef int append_new(pair_t* dst, int n, const pair_t* src, int nsrc) noexcept nogil
cdef int best_by_score(const pair_t* pairs, int n) noexcept nogil
