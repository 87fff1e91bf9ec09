# cython: language_level=3
"""Threat-space search inside alpha-beta, and the root's defence.

At the root: the side to move's own VCDT (once per search), the opponent's
VCDT as if it moved now (its winning line is the *threat zone*), root pairs
against the zone and counter-threats, and after the search a check that the
move played does not allow the opponent a VCDT (else the first move that
does not).  Below the root: VCDT for the side to move near the root, and
near the root (``defend_plies``), where one stone blocks the opponent's
threats, the pairs of that stone with the cells of the opponent's VCDT line.
"""
from libc.stdint cimport int16_t
from engine_core.search_state cimport search_t
from engine_core.types cimport pair_t

cdef bint root_vcdt(search_t* s) noexcept nogil
cdef void root_zone(search_t* s) noexcept nogil
cdef void build_zone_pairs(search_t* s) noexcept nogil
cdef int merge_root_extra(search_t* s, pair_t* pairs, int n) noexcept nogil
cdef int reply_zone_pairs(search_t* s, pair_t* pairs, int n) noexcept nogil
cdef int block_defence(search_t* s, int ply, int nt, pair_t* pairs, int n) noexcept nogil
cdef bint tss_win(search_t* s, int ply, int mover) noexcept nogil
cdef bint resist(search_t* s, int a, int b, int16_t* alt) noexcept nogil
cdef int reply_refutation(search_t* s, int a, int b, int16_t* reply) noexcept nogil
cdef int gen_blocks(search_t* s, pair_t* out, int nt, int width) noexcept nogil
