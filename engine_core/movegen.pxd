# cython: language_level=3
"""Candidate points and width-limited move pairs (the paper's ``Localscanning``).

Every pair of candidate points is scored by the change of the mover's value
(the pair delta) and the best ``width`` pairs are kept, best first; equal
scores are ordered by the lower cell, then the higher cell.  The three scan
modes give identical lists.
"""
from libc.stdint cimport int16_t, int64_t, uint8_t
from engine_core.geometry cimport NUM_CELLS
from engine_core.position cimport position_t
from engine_core.types cimport pair_t, score_t

cdef enum:
    MAX_POTENTIAL = 8           # pairs gen_potential returns at most
    PLACE_CHUNK = 16            # candidates put in order at a time (a node reads about the best 15)
    KEY_SPAN = 512              # > NUM_CELLS: a key's low bits hold the candidate index


ctypedef struct movegen_t:
    int16_t cand[NUM_CELLS]                 # candidate cells, increasing
    int ncand
    int16_t index_of[NUM_CELLS]             # candidate index of a cell, -1 if none (kept all -1 between calls)
    score_t d1[NUM_CELLS]                   # single-stone delta per candidate index
    score_t bound[NUM_CELLS]                # >= 0 and >= a candidate's correction with any cell on its lines
    int64_t key[NUM_CELLS]                  # d1 * KEY_SPAN + KEY_SPAN - 1 - index: the higher, the earlier in order
    int16_t order[NUM_CELLS]                # candidate indices, best single delta first: order[0:nplaced]
    int nplaced
    score_t corr_row[NUM_CELLS]             # scratch: corrections of one candidate, by index (kept 0)
    int64_t pairs_scored                    # statistics: pair scores computed

cdef void mg_init(movegen_t* mg) noexcept nogil
cdef int gen_candidates(const position_t* p, int radius, int16_t* out) noexcept nogil
cdef int stones_to_place(const position_t* p) noexcept nogil
cdef int gen_moves(position_t* p, movegen_t* mg, int radius, int width, int scan, int side,
                   pair_t* out) noexcept nogil
cdef score_t pair_score(const position_t* p, int x, int z, int color, int side) noexcept nogil
cdef int gen_pairs_with(position_t* p, movegen_t* mg, const int16_t* xs, int nx, int radius, int width,
                        int side, pair_t* out, int n) noexcept nogil
cdef bint pair_better(score_t s, int a, int b, const pair_t* q) noexcept nogil
cdef void pairs_insert(pair_t* out, int* n, int width, score_t s, int a, int b) noexcept nogil
cdef void insert_new(pair_t* out, int* n, int cap, score_t sc, int x, int y) noexcept nogil
cdef int append_new(pair_t* dst, int n, const pair_t* src, int nsrc) noexcept nogil
cdef void win_pair(position_t* p, movegen_t* mg, int16_t* a, int16_t* b) noexcept nogil
cdef int three_gain(const position_t* p, int color, int x, int y) noexcept nogil
cdef int gen_potential(const position_t* p, int k, int color, pair_t* out) noexcept nogil
