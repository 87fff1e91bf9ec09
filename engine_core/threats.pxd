# cython: language_level=3
"""Threats and threat-space search.

A *threat* of a colour is a live road holding 4 or 5 of its stones: the
opponent must put a stone in it or lose.  The *blocking number* of a set of
threats is the least number of stones that meets every threat road (0, 1, 2,
or 3 meaning "three or more": with two stones per turn that is lost).

VCDT (victory by continuous double threats): the attacker plays pairs that
leave a blocking number of at least 2, so the defender must spend both
stones blocking, until the blocking number reaches 3 or the attacker can
complete a six.  Every defender reply is searched, so a win found is a proof.
"""
from libc.stdint cimport int8_t, int16_t, int64_t, uint8_t, uint32_t, uint64_t
from engine_core.geometry cimport MAX_ROADS_PER_CELL, NUM_CELLS
from engine_core.position cimport position_t
from engine_core.roads cimport score_t

cdef enum:
    MAX_THREATS = 924           # a colour cannot have more threat roads than roads
    MAX_BLOCKS = 4              # ways to meet every threat: x from the first road, y from the first road x misses
    MAX_TSS_DEPTH = 24          # attacker turns
    MAX_ATTACKS = 768           # attacking pairs kept per node

ctypedef struct threat_t:
    int16_t road
    int16_t e0                  # an empty cell of the road
    int16_t e1                  # the other empty cell, -1 when the road holds five

ctypedef struct block_t:
    int16_t x
    int16_t y                   # -1: x alone meets every threat, the second stone is free

ctypedef struct attack_t:
    int16_t a
    int16_t b
    int16_t order               # sort key: lower first

ctypedef struct tss_entry_t:
    uint64_t key
    int16_t a                   # attacker's winning pair (when result is a win)
    int16_t b
    int8_t depth                # attacker turns searched (failures hold up to this depth)
    int8_t result               # 1 win, 0 no win found

ctypedef struct live_cache_t:   # the attacker's live 2- and 3-roads through a cell, at one node
    uint32_t stamp              # the node's number; a cell's list is valid when its stamp matches
    uint32_t stamp_of[NUM_CELLS]
    uint8_t n[NUM_CELLS]
    int16_t roads[NUM_CELLS][MAX_ROADS_PER_CELL]    # 4 * road + live count, in cell_roads order

ctypedef struct tss_t:
    position_t* pos             # the position searched (changed and restored)
    int attacker
    int64_t nodes
    int64_t budget              # node budget per call (<= 0: none)
    int64_t call_start          # nodes at the start of the current call
    double deadline             # <= 0: no clock
    int* stop_flag              # a stop request read with the clock (NULL: none)
    int64_t clock_at            # node count at which the clock is read next
    bint aborted
    tss_entry_t* tt
    uint64_t tt_mask
    threat_t* threats           # scratch: MAX_THREATS
    attack_t* attacks           # (MAX_TSS_DEPTH + 1) * MAX_ATTACKS
    int16_t* mark               # scratch per cell (kept 0 between uses)
    live_cache_t* live          # scratch: see _threats_after
    int16_t line[2 * MAX_TSS_DEPTH + 2][2]
    int line_len

cdef int collect_threats(const position_t* p, int color, threat_t* out) noexcept nogil
cdef int blocking_number(const threat_t* t, int n) noexcept nogil
cdef int blocking_moves(const threat_t* t, int n, block_t* out) noexcept nogil
cdef bint has_threat(const position_t* p, int color) noexcept nogil
cdef bint winning_stones(const position_t* p, int color, int16_t* a, int16_t* b) noexcept nogil

cdef int tss_alloc(tss_t* t, int tt_bits) noexcept nogil
cdef void tss_free(tss_t* t) noexcept nogil
cdef void tss_clear(tss_t* t) noexcept nogil
cdef int vcdt(tss_t* t, position_t* p, int attacker, int depth, int64_t budget, double deadline) noexcept nogil
cdef int vct_four(tss_t* t, position_t* p, int attacker, int depth, int64_t budget, double deadline,
                  int16_t* four) noexcept nogil
