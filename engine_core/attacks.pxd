# cython: language_level=3
"""The attacker's candidate pairs at a node of the threat-space solver (``tss``).

``gen_attacks`` lists the pairs that meet every defender threat and leave a
blocking number of at least 2 (double threats), ordered for the proof
search; ``gen_fours`` the pairs that leave exactly 1 (single fours);
``gen_forcing`` the first few of each, for the alpha-beta search's lists.  The
candidates are read off the attacker's live 2- and 3-roads without placing
stones: a pair can make two threats only through 3-roads of its cells or
2-roads through both.
"""
from libc.stdint cimport int16_t, uint8_t, uint32_t
from engine_core.geometry cimport MAX_ROADS_PER_CELL, NUM_CELLS
from engine_core.position cimport position_t
from engine_core.threats cimport block_t, threat_t
from engine_core.types cimport pair_t

cdef enum:
    MAX_ATTACKS = 768           # attacking pairs kept per node
    MAX_FOUR_ATTACKS = 16       # single-four pairs tried per node
    MAX_FORCING = 8             # gen_forcing's k at most: k double threats and k single fours

ctypedef struct attack_t:
    int16_t a
    int16_t b
    int16_t order               # sort key: lower first

ctypedef struct live_cache_t:   # the attacker's live 2- and 3-roads through a cell, at one node
    uint32_t stamp              # the node's number; a cell's list is valid when its stamp matches
    uint32_t stamp_of[NUM_CELLS]
    uint8_t n[NUM_CELLS]
    int16_t roads[NUM_CELLS][MAX_ROADS_PER_CELL]    # 4 * road + live count, in cell_roads order
    uint32_t fours_stamp[NUM_CELLS]                 # as stamp_of, for fours[c]
    uint8_t n_fours[NUM_CELLS]
    threat_t fours[NUM_CELLS][MAX_ROADS_PER_CELL]   # the threats a stone at the cell alone makes (its 3-roads)

ctypedef struct gen_scratch_t:  # the solver's scratch that the generators use
    threat_t* threats           # MAX_THREATS
    int16_t* mark               # per cell, kept 0 between uses
    live_cache_t* live          # see threats_after_pair

cdef int gen_scratch_alloc(gen_scratch_t* g) noexcept nogil
cdef void gen_scratch_free(gen_scratch_t* g) noexcept nogil
cdef void live_next_node(live_cache_t* lc) noexcept nogil
cdef int threats_after_pair(live_cache_t* lc, const position_t* p, int att, int x, int y,
                            threat_t* out) noexcept nogil
cdef int gen_attacks(gen_scratch_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                     attack_t* out) noexcept nogil
cdef bint gen_win(gen_scratch_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                  attack_t* out) noexcept nogil
cdef int gen_fours(gen_scratch_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                   attack_t* out, bint both) noexcept nogil
cdef int gen_forcing(gen_scratch_t* t, attack_t* work, position_t* p, int att, int k,
                     pair_t* out, bint both) noexcept nogil
