# cython: language_level=3
"""Alpha-beta (negamax) over width-limited move pairs, with iterative deepening.

One ply is one turn (a pair of stones).  The value of a leaf is the road
evaluation of the side that made the last move, seen from the side to move
(negated): so the frontier's children are ordered exactly by their pair
score, and the best of them is the first.  A six ends the game: WIN_SCORE
minus the number of turns from the root, so faster wins and slower losses
score higher.
"""
from libc.stdint cimport int16_t, int64_t
from engine_core.movegen cimport movegen_t, pair_t
from engine_core.position cimport position_t
from engine_core.roads cimport score_t

cdef enum:
    MAX_PLY = 64

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

ctypedef struct search_t:
    position_t pos
    search_params_t prm
    movegen_t* mg
    pair_t* pairs               # (MAX_PLY + 1) * width pair lists, one per ply
    int64_t nodes
    int64_t leaves
    double start
    double deadline
    bint clock_armed             # the clock is read (not during the first iteration)
    bint stop
    int16_t pv[MAX_PLY + 1][MAX_PLY + 1][2]
    int pv_len[MAX_PLY + 1]
    int16_t follow[MAX_PLY + 1][2]   # previous iteration's PV, tried first
    int follow_len
    bint following

cdef score_t negamax(search_t* s, int depth, int ply, score_t alpha, score_t beta) noexcept nogil
cdef int search_run(search_t* s, int16_t* best, score_t* score, int* depth_done) noexcept nogil
