# cython: language_level=3
"""Alpha-beta (negamax) over width-limited move pairs, with iterative deepening.

One ply is one turn (a pair of stones).  The value of a leaf is the road
evaluation of the side that made the last move, seen from the side to move
(negated): so with threat logic off, the frontier's children are ordered
exactly by their pair score and the best of them is the first.  A six ends
the game: WIN_SCORE minus the number of turns from the root, so faster wins
and slower losses score higher.

With ``threats`` on, every node first asks: can the side to move complete a
six now (a win), does the opponent have threats that two stones cannot block
(a loss), or threats that must be blocked (only blocking pairs are searched).
Near the root a VCDT threat-space search looks for a forced win of the side
to move.  A transposition table, killer pairs and aspiration windows are
switchable; fixed-depth search stays deterministic.
"""
from libc.stdint cimport int16_t, int64_t
from engine_core.bitboard cimport bitboard_t
from engine_core.movegen cimport movegen_t, pair_t
from engine_core.position cimport position_t
from engine_core.roads cimport score_t
from engine_core.threats cimport threat_t, tss_t
from engine_core.tt cimport tt_t

cdef enum:
    MAX_PLY = 64
    MAX_FORCED = 8              # extra room in a ply's pair list for forced blocks
    MAX_ZONE_PAIRS = 48         # root pairs added against the opponent's threats: with a zone stone,
    MAX_COUNTER_PAIRS = 48      # ... and making a threat of the mover's own (a counter-threat)
    MAX_ROOT_EXTRA = MAX_ZONE_PAIRS + MAX_COUNTER_PAIRS
    ZONE_ROUNDS = 3             # times an all-lost root is searched again with a grown zone

cdef extern from *:
    """
    #define C6_WIN_SCORE 1000000000000000LL
    #define C6_INF_SCORE 2000000000000000LL
    """
    const score_t WIN_SCORE "C6_WIN_SCORE"   # a six: WIN_SCORE minus turns from the root
    const score_t INF_SCORE "C6_INF_SCORE"

ctypedef struct search_params_t:
    int depth                   # turns to search (>= 1)
    int width                   # pairs kept per node
    int radius                  # candidate radius
    int scan                    # SCAN_GLOBAL, SCAN_LOCAL or SCAN_INCREMENTAL
    double time_limit           # seconds; <= 0: fixed depth, no clock read
    bint iterative              # iterative deepening with the previous PV first (always on with a time limit)
    bint threats                # threat-aware nodes (win now, lost, forced blocks)
    int tss_plies               # VCDT for the side to move at nodes with ply < tss_plies
    int tss_depth               # VCDT attacker turns
    int64_t tss_budget          # VCDT nodes per call below the root
    int64_t tss_root_budget     # VCDT nodes for the root's own search and its threat-zone analysis
    int64_t tss_leaf_budget     # VCDT nodes at the other nodes, leaves included (0: none there)
    bint defend                 # root threat-zone defence: pairs against the opponent's VCDT
    int tt_bits                 # transposition table of 2**tt_bits entries (0: none)
    bint killers                # killer pairs first
    score_t aspiration          # half-width of the root window in iterative deepening (0: full window)

ctypedef struct search_t:
    position_t pos
    search_params_t prm
    movegen_t* mg
    pair_t* pairs               # (MAX_PLY + 1) * (width + MAX_FORCED) pair lists, one per ply
    threat_t* threats           # scratch for threat lists
    tss_t tss
    bint have_tss               # the VCDT tables are allocated
    bint tss_on                 # ... and this search uses them
    tt_t tt
    bint have_tt                # the transposition table is allocated
    bint tt_on                  # ... and this search uses it
    int cap_width               # width the pair lists were allocated for
    int cap_tt_bits             # size of the allocated transposition table
    int64_t nodes
    int64_t leaves
    double start
    double deadline
    bint clock_armed            # the clock is read (not during the first iteration)
    bint stop
    int16_t pv[MAX_PLY + 1][MAX_PLY + 1][2]
    int pv_len[MAX_PLY + 1]
    int16_t follow[MAX_PLY + 1][2]   # previous iteration's PV, tried first
    int follow_len
    bint following
    int16_t killer[MAX_PLY + 1][2][2]
    bitboard_t zone             # cells of the opponent's winning lines seen at the root
    bint zone_grew
    pair_t* root_extra          # pairs against the opponent's threats, searched at the root too
    int n_root_extra
    int root_done               # root moves fully searched in the current iteration
    int16_t root_best[2]        # the best of them so far, and its value
    score_t root_best_value

cdef int search_init(search_t* s, const position_t* pos, const search_params_t* prm) noexcept nogil
cdef void search_clear_tables(search_t* s) noexcept nogil
cdef void search_free(search_t* s) noexcept nogil
cdef score_t negamax(search_t* s, int depth, int ply, score_t alpha, score_t beta) noexcept nogil
cdef int search_run(search_t* s, int16_t* best, score_t* score, int* depth_done) noexcept nogil


cdef class SearchContext:
    """Search tables kept between searches (the transposition and VCDT tables)."""
    cdef search_t* s
