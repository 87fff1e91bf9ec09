# cython: language_level=3
"""Threat-space search: one solver for double threats and single fours.

VCDT (victory by continuous double threats): the attacker plays pairs that
leave a blocking number (see ``threats``) of at least 2, so the defender
must spend both stones blocking, until the blocking number reaches 3 or the
attacker can complete a six.  Every defender reply is searched, so a win
found is a proof.

A single four leaves a blocking number of 1: one stone of the defender
blocks, and its other stone is free.  ``vct`` allows up to ``fours`` of them
in a line, anywhere in it (a double threat whose every block is met by a
single four and then a VCDT is two levels deep).  The free stone is tried
on the relevance zone of the win found without it: the cells of that
proof tree and the cells where the defender would make a four, counting
the free stones of later single fours with it.  A stone anywhere else
leaves that proof as it is, so a win with single fours is a proof too.
"""
from libc.stdint cimport int8_t, int16_t, int64_t, uint64_t
from engine_core.attacks cimport attack_t, gen_scratch_t
from engine_core.position cimport position_t

cdef enum:
    MAX_TSS_DEPTH = 24          # attacker turns

ctypedef struct tss_entry_t:
    uint64_t key
    int16_t a                   # attacker's winning pair (when result is a win)
    int16_t b
    int8_t depth                # attacker turns searched (failures hold up to this depth)
    int8_t fours                # single fours allowed (a failure holds for up to this many, a win for this many or more)
    int8_t result               # 1 win, 0 no win found

ctypedef struct tss_t:
    position_t* pos             # the position searched (changed and restored)
    int attacker
    int64_t nodes
    int64_t budget              # node budget per call (<= 0: none)
    int64_t call_start          # nodes at the start of the current call
    int64_t cap                 # the move's node limit, counted with *outside (<= 0: none)
    const int64_t* outside      # the caller's own nodes for the move (alpha-beta's), read with cap
    double deadline             # <= 0: no clock
    int* stop_flag              # a stop request read with the clock (NULL: none)
    int64_t clock_at            # node count at which the clock is read next
    bint aborted
    bint both_fours             # single fours made by both stones at a line's first turn (gen_fours); a
                                # failure stored deeper in a line, or in a call without them, is read
                                # as a failure when that position opens a later call (a win missed, never
                                # a false one)
    tss_entry_t* tt
    uint64_t tt_mask
    attack_t* attacks           # (MAX_TSS_DEPTH + 1) * MAX_ATTACKS
    gen_scratch_t gen           # scratch: threats, marks and live roads (see attacks)
    int16_t line[2 * MAX_TSS_DEPTH + 2][2]
    int line_len

cdef int tss_alloc(tss_t* t, int tt_bits) noexcept nogil
cdef void tss_free(tss_t* t) noexcept nogil
cdef void tss_clear(tss_t* t) noexcept nogil
cdef int vcdt(tss_t* t, position_t* p, int attacker, int depth, int64_t budget, double deadline) noexcept nogil
cdef int vct(tss_t* t, position_t* p, int attacker, int depth, int fours, int64_t budget,
             double deadline) noexcept nogil
