# cython: language_level=3
"""The order in which a node tries its pairs: one staged move picker.

negamax (search.pyx) takes a node's pairs from a :c:type:`movepick_t`, stage
by stage, and never orders a list itself:

1. ``PICK_TT``: the transposition table's pair, searched before the list is
   made when it would head the list anyway (:c:func:`pick_tt`): a cutoff
   there saves generating the list.
2. ``PICK_GENERATE`` (:c:func:`pick_list`): the list itself.  When the
   opponent has one or two threats, the pairs that block them all (forced
   blocks, ``defence.gen_blocks``), with, where one stone blocks, that
   stone paired with the cells of the opponent's VCDT line
   (``defence.block_defence``).  Otherwise the best ``width`` pairs by
   their local-scan score (``movegen.gen_moves``; ``reply_width`` at ply 1);
   at the root and ply 1, with ``potential``, the pairs that add the most
   live 3-roads (``movegen.gen_potential``: the set-ups of a double threat,
   which the pair score can rank far down); at the nodes below
   ``forcing_plies``, the mover's first double threats and single fours
   (``attacks.gen_forcing``: the turns that start a threat sequence),
   with ``forcing_replies`` at the opponent's (plies 1, 3, ...) and
   ``forcing_own`` at the root mover's (the root, plies 2, 4, ...);
   and, at the root, the pairs
   against the opponent's threat zone and the counter-threats
   (``defence.merge_root_extra``).
3. ``PICK_ORDER`` (:c:func:`pick_list`): brought to the front, in this
   order, the previous iteration's PV pair while the search follows it,
   the table's pair, the two killer pairs.  The table's pair is skipped
   when stage 1 searched it already.
4. ``PICK_LIST`` (:c:func:`pick_next`): the list in that order; a helper
   thread of a parallel search takes the root pairs after the first in
   reverse order, to work elsewhere than the main thread.

A node at depth 1 whose pair scores are exact value changes (no threat
logic) does not search its list: the best score wins
(:c:func:`frontier_by_score`).  The winning pair of a node that can make
six at once comes from ``movegen.win_pair``, before any stage.
"""
from libc.stdint cimport int16_t
from engine_core.search_state cimport search_t
from engine_core.types cimport pair_t

cdef enum:
    PICK_TT = 0
    PICK_GENERATE = 1
    PICK_ORDER = 2
    PICK_LIST = 3
    PICK_DONE = 4

ctypedef struct movepick_t:
    pair_t* pairs               # this ply's list (s.pairs + ply * stride)
    int n                       # pairs in it (after PICK_GENERATE)
    int next                    # index of the next pair handed out
    int stage                   # the stage to run next
    int ply
    int depth
    int nt                      # the opponent's threat roads in s.threats
    int h                       # ... and their blocking number
    int16_t tt[2]               # the table's pair (-1: none)
    bint tt_tried               # ... searched in stage PICK_TT
    bint reverse                # a helper's root: the pairs after the first in reverse order

cdef void pick_init(movepick_t* mp, search_t* s, int ply, int depth, int nt, int h,
                    const int16_t* tt_move) noexcept nogil
cdef bint pick_tt(movepick_t* mp, search_t* s, int mover) noexcept nogil
cdef int pick_list(movepick_t* mp, search_t* s) noexcept nogil
cdef bint pick_next(movepick_t* mp, int* a, int* b) noexcept nogil
cdef bint frontier_by_score(search_t* s, int mover) noexcept nogil
cdef bint frontier_with_threats(search_t* s, int ply, int h) noexcept nogil
cdef int best_by_score(const pair_t* pairs, int n) noexcept nogil
cdef void killer_store(search_t* s, int ply, int a, int b) noexcept nogil
