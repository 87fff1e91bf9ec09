# cython: language_level=3
"""Transposition table: two entries per bucket, one kept by depth, one always replaced."""
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from engine_core.types cimport is_forced_loss, is_forced_win


cdef int tt_alloc(tt_t* t, int bits) noexcept nogil:
    """2**bits entries; 0 on success, -1 when out of memory."""
    t.mask = ((<uint64_t>1) << bits) - 1
    t.entries = <tt_entry_t*>calloc(t.mask + 1, sizeof(tt_entry_t))
    t.stores = 0
    t.hits = 0
    return 0 if t.entries != NULL else -1


cdef void tt_free(tt_t* t) noexcept nogil:
    free(t.entries)
    t.entries = NULL


cdef void tt_clear(tt_t* t) noexcept nogil:
    memset(t.entries, 0, (t.mask + 1) * sizeof(tt_entry_t))
    t.stores = 0
    t.hits = 0


cdef tt_entry_t* tt_probe(tt_t* t, uint64_t key) noexcept nogil:
    """The entry for ``key``, or NULL."""
    cdef uint64_t i = key & t.mask & ~(<uint64_t>1)
    if t.entries[i].key == key and t.entries[i].flag != TT_NONE:
        t.hits += 1
        return &t.entries[i]
    if t.entries[i + 1].key == key and t.entries[i + 1].flag != TT_NONE:
        t.hits += 1
        return &t.entries[i + 1]
    return NULL


cdef void tt_store(tt_t* t, uint64_t key, int depth, int flag, score_t score, int a, int b) noexcept nogil:
    """Slot 0 of a bucket keeps the deepest entry; slot 1 takes the rest."""
    cdef uint64_t i = key & t.mask & ~(<uint64_t>1)
    cdef tt_entry_t* e
    if t.entries[i].key == key or t.entries[i].flag == TT_NONE or depth >= t.entries[i].depth:
        e = &t.entries[i]
    else:
        e = &t.entries[i + 1]
    e.key = key
    e.depth = <int8_t>depth
    e.flag = <int8_t>flag
    e.score = score
    e.a = <int16_t>a
    e.b = <int16_t>b
    t.stores += 1


cdef score_t score_to_tt(score_t score, int ply) noexcept nogil:
    """Forced results count their distance from the root; stored, from the node."""
    if is_forced_win(score):
        return score + ply
    if is_forced_loss(score):
        return score - ply
    return score


cdef score_t score_from_tt(score_t score, int ply) noexcept nogil:
    if is_forced_win(score):
        return score - ply
    if is_forced_loss(score):
        return score + ply
    return score
