# cython: language_level=3
"""Transposition table for alpha-beta: Zobrist key -> depth, bound, score, best pair.

Searches on several threads share one table without locks: an entry keeps
its key xor its contents, so an entry half written by another thread does
not match its key and reads as absent.

The key does not depend on the order stones were placed in, so positions
reached by the same pairs in another order (or the same stones in other
pairs) share an entry.  Forced-result scores are stored relative to the
node (distance from it, not from the root).
"""
from libc.stdint cimport int8_t, int16_t, uint64_t
from engine_core.roads cimport score_t

cdef enum:
    TT_NONE = 0
    TT_EXACT = 1
    TT_LOWER = 2                # the value is at least score (a beta cutoff)
    TT_UPPER = 3                # the value is at most score (no move raised alpha)

ctypedef struct tt_entry_t:
    uint64_t check              # the key xor the rest of the entry (see tt_probe)
    score_t score
    int16_t a                   # best pair found (-1 if none)
    int16_t b
    int8_t depth
    int8_t flag

ctypedef struct tt_t:
    tt_entry_t* entries
    uint64_t mask               # entries - 1 (a power of two)
    long long stores
    long long hits

cdef int tt_alloc(tt_t* t, int bits) noexcept nogil
cdef void tt_free(tt_t* t) noexcept nogil
cdef void tt_clear(tt_t* t) noexcept nogil
cdef bint tt_probe(tt_t* t, uint64_t key, tt_entry_t* out) noexcept nogil
cdef void tt_store(tt_t* t, uint64_t key, int depth, int flag, score_t score, int a, int b) noexcept nogil
cdef score_t score_to_tt(score_t score, int ply) noexcept nogil
cdef score_t score_from_tt(score_t score, int ply) noexcept nogil
