# cython: language_level=3
"""The staged move picker (the stages and their order: movepick.pxd)."""
from libc.stdint cimport int16_t

from engine_core.attacks cimport MAX_FORCING, gen_forcing
from engine_core.defence cimport block_defence, gen_blocks, merge_root_extra, reply_zone_pairs
from engine_core.geometry cimport NUM_CELLS
from engine_core.movegen cimport MAX_POTENTIAL, append_new, gen_moves, gen_potential, stones_to_place
from engine_core.position cimport pos_is_empty, pos_scores_are_deltas, pos_threat_roads
from engine_core.threats cimport has_threat
from engine_core.search_state cimport ply_stride, ply_width
from engine_core.types cimport pair_index, pair_t


cdef void pick_init(movepick_t* mp, search_t* s, int ply, int depth, int nt, int h,
                    const int16_t* tt_move) noexcept nogil:
    """A picker for the node at ``ply``, searched ``depth`` turns, facing
    ``nt`` threat roads of the opponent (blocking number ``h``)."""
    mp.pairs = s.pairs + ply * ply_stride(&s.opt)
    mp.n = 0
    mp.next = 0
    mp.stage = PICK_TT
    mp.ply = ply
    mp.depth = depth
    mp.nt = nt
    mp.h = h
    mp.tt[0] = tt_move[0]
    mp.tt[1] = tt_move[1]
    mp.tt_tried = False
    mp.reverse = ply == 0 and s.lim.helper


cdef bint frontier_by_score(search_t* s, int mover) noexcept nogil:
    """Without threat logic, when no pair can make six and pair scores are
    value changes, each child's value at depth 1 is V(mover) + its pair score."""
    return not s.opt.threats and pos_scores_are_deltas(&s.pos) and pos_threat_roads(&s.pos, mover) == 0


cdef bint frontier_with_threats(search_t* s, int ply, int h) noexcept nogil:
    """With threat logic (option ``threat_frontier``), a depth-1 node's
    children need not be searched one by one when they are all leaves read
    off the pair scores: below the root (ply > 0, no root extras), the
    opponent has no threat to block (``h`` 0, so the mover's pair leaves it
    none), the children run no solver (ply + 1 >= tss_plies, no VCDT line's
    zone), no pairs are added to the list beyond the best by score
    (potential, reply_zone, forcing), pair scores are value changes and no leaf term
    is on.  Then a child's value is V(mover) + its pair score, unless the
    pair leaves threats that two stones cannot block (a win): see
    search._threat_frontier.  The mover has no threat (the node would have
    won at once), so no pair makes six."""
    return (s.opt.threat_frontier and s.opt.threats and s.tss_on and ply > 0 and h == 0
            and ply + 1 >= s.opt.tss_plies and s.opt.tss_leaf_budget <= 0
            and (ply > 1 or (s.opt.potential == 0 and s.opt.reply_zone == 0))
            and (ply >= s.opt.forcing_plies or (s.opt.forcing_replies == 0 and s.opt.forcing_own == 0))
            and pos_scores_are_deltas(&s.pos) and s.opt.shape2 == 0 and s.opt.shape3 == 0
            and s.opt.cross_f == 0 and s.opt.cross_g == 0 and s.opt.initiative == 0)


# ------------------------------------------------------------ stage PICK_TT
cdef bint pick_tt(movepick_t* mp, search_t* s, int mover) noexcept nogil:
    """Stage 1: True when the list would begin with the table's pair, so it is
    searched first, before the list is made: below the root, not following
    the last iteration's line, on the plain move list (a block list reads the
    node's threats, which a child overwrites), and the pair is a legal turn.
    The pair was the best of this position's list when stored, so it is in
    the list again (same position, same options) unless the key collided or
    the width changed between timed searches; then it is still legal."""
    cdef int a = mp.tt[0], b = mp.tt[1]
    mp.stage = PICK_GENERATE
    if mp.ply == 0 or not s.tt_on or s.following or a < 0 or b < 0 or a == b:
        return False
    if a >= NUM_CELLS or b >= NUM_CELLS or not pos_is_empty(&s.pos, a) or not pos_is_empty(&s.pos, b):
        return False
    if stones_to_place(&s.pos) != 2 or (s.opt.threats and 0 < mp.h < 3):
        return False
    mp.tt_tried = not (mp.depth == 1 and frontier_by_score(s, mover))
    return mp.tt_tried


# ------------------------------------------------------ stage PICK_GENERATE
cdef inline bint _quiet(search_t* s) noexcept nogil:
    """A node where the solver may add pairs: it is on, two stones are due
    and neither side has a threat.  Asked only when an option adds pairs, so
    the default's nodes do not pay for it."""
    return s.tss_on and stones_to_place(&s.pos) == 2 and not has_threat(&s.pos, 0) and not has_threat(&s.pos, 1)


cdef int _generate(movepick_t* mp, search_t* s) noexcept nogil:
    """Stage 2: the node's list (see movepick.pxd)."""
    cdef pair_t built[MAX_POTENTIAL]
    cdef pair_t forcing[2 * MAX_FORCING]
    cdef int n, k, forcing_k
    if s.opt.threats and 0 < mp.h < 3 and stones_to_place(&s.pos) == 2:
        n = gen_blocks(s, mp.pairs, mp.nt, s.opt.width)
        if mp.ply == 0:                            # (block_defence adds nothing at the root)
            return append_new(mp.pairs, n, s.rescue, s.n_rescue)
        return block_defence(s, mp.ply, mp.nt, mp.pairs, n) if mp.h == 1 else n
    n = gen_moves(&s.pos, s.mg, s.opt.radius, ply_width(&s.opt, mp.ply), s.opt.scan, s.pos.to_move, mp.pairs)
    if mp.ply <= 1 and s.opt.potential > 0 and stones_to_place(&s.pos) == 2:
        n = append_new(mp.pairs, n, built, gen_potential(&s.pos, s.opt.potential, s.pos.to_move, built))
    # the solver is idle while a list is made: its scratch and ply-0 attack room are free
    forcing_k = s.opt.forcing_replies if mp.ply % 2 == 1 else s.opt.forcing_own
    if forcing_k > 0 and mp.ply < s.opt.forcing_plies and _quiet(s):
        k = gen_forcing(&s.tss.gen, s.tss.attacks, &s.pos, s.pos.to_move, forcing_k, forcing, s.opt.tss_both_fours)
        n = append_new(mp.pairs, n, forcing, k)
    if mp.ply == 1 and s.opt.reply_zone > 0 and _quiet(s):
        n = reply_zone_pairs(s, mp.pairs, n)
    if mp.ply == 0:
        n = merge_root_extra(s, mp.pairs, n)
        n = append_new(mp.pairs, n, s.rescue, s.n_rescue)
    return n


# --------------------------------------------------------- stage PICK_ORDER
cdef int _promote(pair_t* pairs, int n, int front, int a, int b) noexcept nogil:
    """Move (a, b) to index ``front`` if it is in pairs[front:n]; return the new front."""
    cdef int i
    cdef pair_t tmp
    if a < 0:
        return front
    i = pair_index(pairs + front, n - front, a, b)
    if i < 0:
        return front
    i += front
    tmp = pairs[i]
    while i > front:
        pairs[i] = pairs[i - 1]
        i -= 1
    pairs[front] = tmp
    return front + 1


cdef void _order(movepick_t* mp, search_t* s) noexcept nogil:
    """Stage 3: to the front, in this order: the previous iteration's PV pair
    (while the search follows it), the table's pair, the two killer pairs."""
    cdef int front = 0, ply = mp.ply
    cdef pair_t* pairs = mp.pairs
    if s.following:
        if ply < s.follow_len:
            front = _promote(pairs, mp.n, front, s.follow[ply][0], s.follow[ply][1])
        if front == 0:
            s.following = False
    if s.tt_on:
        front = _promote(pairs, mp.n, front, mp.tt[0], mp.tt[1])
    if s.opt.killers:
        front = _promote(pairs, mp.n, front, s.killer[ply][0][0], s.killer[ply][0][1])
        front = _promote(pairs, mp.n, front, s.killer[ply][1][0], s.killer[ply][1][1])


cdef int pick_list(movepick_t* mp, search_t* s) noexcept nogil:
    """Stages 2 and 3: make the list and order it; its length (0: no pair,
    a full board).  The list is mp.pairs[0:n]; pick_next hands it out."""
    mp.n = _generate(mp, s)
    if mp.n == 0:
        mp.stage = PICK_DONE
        return 0
    _order(mp, s)
    if mp.tt_tried and mp.pairs[0].a == mp.tt[0] and mp.pairs[0].b == mp.tt[1]:
        mp.next = 1                             # searched in stage 1
    mp.stage = PICK_LIST
    return mp.n


# ---------------------------------------------------------- stage PICK_LIST
cdef void _reverse(pair_t* pairs, int n) noexcept nogil:
    cdef int i
    cdef pair_t tmp
    for i in range(n // 2):
        tmp = pairs[i]
        pairs[i] = pairs[n - 1 - i]
        pairs[n - 1 - i] = tmp


cdef bint pick_next(movepick_t* mp, int* a, int* b) noexcept nogil:
    """Stage 4: the next pair of the list in (a, b); False when none is left."""
    if mp.reverse:
        # a helper takes the root pairs after the first in another order
        _reverse(mp.pairs + mp.next + 1, mp.n - mp.next - 1)
        mp.reverse = False
    if mp.stage != PICK_LIST or mp.next >= mp.n:
        mp.stage = PICK_DONE
        return False
    a[0] = mp.pairs[mp.next].a
    b[0] = mp.pairs[mp.next].b
    mp.next += 1
    return True


# ---------------------------------------------------------------- helpers
cdef int best_by_score(const pair_t* pairs, int n) noexcept nogil:
    """Index of the first pair with the highest score (n >= 1)."""
    cdef int i, best_i = 0
    for i in range(1, n):
        if pairs[i].score > pairs[best_i].score:
            best_i = i
    return best_i


cdef void killer_store(search_t* s, int ply, int a, int b) noexcept nogil:
    """(a, b) caused a cutoff at ``ply``: it becomes the first killer."""
    if not s.opt.killers or (a == s.killer[ply][0][0] and b == s.killer[ply][0][1]):
        return
    s.killer[ply][1][0] = s.killer[ply][0][0]
    s.killer[ply][1][1] = s.killer[ply][0][1]
    s.killer[ply][0][0] = <int16_t>a
    s.killer[ply][0][1] = <int16_t>b
