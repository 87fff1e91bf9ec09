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
(a loss), or threats that must be blocked (only blocking pairs are searched,
the order of a node's pairs: movepick).  Near the root a VCDT threat-space
search looks for a forced win of the side to move (see defence); which
move the search plays, and why, root decides.  A transposition table, killer pairs
and aspiration windows are switchable; fixed-depth search stays
deterministic.  The search's state is ``search_state.search_t``; its clock
is kept by ``timeman``.
"""
from libc.stdint cimport int16_t
from engine_core.search_state cimport search_t
from engine_core.types cimport score_t

cdef score_t negamax(search_t* s, int depth, int ply, score_t alpha, score_t beta) noexcept nogil
cdef int search_run(search_t* s, int* depth_done) noexcept nogil


cdef class SearchContext:
    """Search tables kept between searches (the transposition and VCDT tables)."""
    cdef search_t* s
