# cython: language_level=3
"""Transposition table: two entries per bucket, one kept by depth, one always replaced."""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t
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


cdef inline uint64_t _contents(const tt_entry_t* e) noexcept nogil:
    """The entry's fields other than ``check``, as one word."""
    return (<uint64_t>e.score) ^ ((<uint64_t><uint16_t>e.a) | ((<uint64_t><uint16_t>e.b) << 16)
                                 | ((<uint64_t><uint8_t>e.depth) << 32) | ((<uint64_t><uint8_t>e.flag) << 40))


cdef inline bint _holds(const tt_entry_t* e, uint64_t key) noexcept nogil:
    return e.flag != TT_NONE and (e.check ^ _contents(e)) == key


cdef bint tt_probe(tt_t* t, uint64_t key, tt_entry_t* out) noexcept nogil:
    """Copy the entry for ``key`` to ``out`` (True), or False.  The copy is
    checked, not the table: another thread may write the entry meanwhile."""
    cdef uint64_t i = key & t.mask & ~(<uint64_t>1)
    cdef int k
    for k in range(2):
        out[0] = t.entries[i + k]
        if _holds(out, key):
            t.hits += 1
            return True
    return False


cdef void tt_store(tt_t* t, uint64_t key, int depth, int flag, score_t score, int a, int b) noexcept nogil:
    """Slot 0 of a bucket keeps the deepest entry; slot 1 takes the rest."""
    cdef uint64_t i = key & t.mask & ~(<uint64_t>1)
    cdef tt_entry_t e
    cdef tt_entry_t first = t.entries[i]
    e.depth = <int8_t>depth
    e.flag = <int8_t>flag
    e.score = score
    e.a = <int16_t>a
    e.b = <int16_t>b
    e.check = key ^ _contents(&e)
    if _holds(&first, key) or first.flag == TT_NONE or depth >= first.depth:
        t.entries[i] = e
    else:
        t.entries[i + 1] = e
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
