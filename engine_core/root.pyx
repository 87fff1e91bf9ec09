# cython: language_level=3
"""The root's moves and its choice of the move to play (see root.pxd)."""
from libc.stdint cimport int16_t

from engine_core.clock cimport now
from engine_core.defence cimport gen_blocks, reply_refutation, resist
from engine_core.movegen cimport gen_moves, stones_to_place
from engine_core.search_state cimport (
    MAX_CHECKED, MAX_PLY, MAX_RESCUE, SOURCE_NONE, SOURCE_RESIST, SOURCE_SEARCH, SOURCE_SOLVER, SOURCE_UNFINISHED,
    ply_stride,
)
from engine_core.threats cimport blocking_number, collect_threats
from engine_core.timeman cimport out_of_time, search_deadline
from engine_core.types cimport WIN_SCORE, is_forced, is_forced_loss, pair_t

#: taken off a refuted root pair's value to rank it below every unrefuted one
cdef score_t REFUTED = WIN_SCORE // 4


# ------------------------------------------------------------ the root moves
cdef root_move_t* _known_move(search_t* s, int a, int b) noexcept nogil:
    """The table's entry of root pair {a, b} (searched, or added by
    root_rescue); NULL if it has none."""
    cdef int k
    for k in range(s.n_root_moves):
        if s.root_moves[k].a == a and s.root_moves[k].b == b:
            return &s.root_moves[k]
    return NULL


cdef root_move_t* _root_move(search_t* s, int a, int b) noexcept nogil:
    """The table's entry of root pair {a, b}, added if new; NULL when the
    table is full (it holds a root list's worth of pairs)."""
    cdef root_move_t* rm = _known_move(s, a, b)
    if rm != NULL:
        return rm
    if s.n_root_moves >= ply_stride(&s.opt):
        return NULL
    rm = &s.root_moves[s.n_root_moves]
    s.n_root_moves += 1
    rm.a = <int16_t>a
    rm.b = <int16_t>b
    rm.value = 0
    rm.depth = 0
    rm.checked = False
    rm.refuted = False
    rm.reply[0] = -1
    rm.reply[1] = -1
    rm.source = SOURCE_NONE
    return rm


cdef void _keep_verdict(search_t* s, root_move_t* rm, int r, const int16_t* reply) noexcept nogil:
    """Keep the reply check's verdict ``r`` (1 refuted, 0 not) on ``rm`` with
    the refuting ``reply``, while fewer than MAX_CHECKED are kept."""
    if rm != NULL and s.n_checked < MAX_CHECKED:
        rm.checked = True
        rm.refuted = r == 1
        rm.reply[0] = reply[0]
        rm.reply[1] = reply[1]
        s.n_checked += 1


cdef bint _reply_check(search_t* s, root_move_t* rm, int a, int b) noexcept nogil:
    """Whether a reply of the opponent refutes root pair {a, b} (see
    defence.reply_refutation), judged once per pair and search for the
    first MAX_CHECKED pairs (the verdict is kept in ``rm``); a check the
    clock cut short refutes nothing."""
    cdef int16_t reply[2]
    cdef int r
    if rm != NULL and rm.checked:
        return rm.refuted
    r = reply_refutation(s, a, b, reply)
    if r < 0:
        if s.clock_armed:
            out_of_time(s)
        return False
    _keep_verdict(s, rm, r, reply)
    return r == 1


cdef inline void _set_best(search_t* s, int a, int b, score_t v, bint refuted, int depth) noexcept nogil:
    s.root_best.a = <int16_t>a
    s.root_best.b = <int16_t>b
    s.root_best.value = v
    s.root_best.refuted = refuted
    s.root_best.depth = depth


cdef void root_iteration_start(search_t* s) noexcept nogil:
    """A new search of the root (an iteration, or its search again outside the window)."""
    s.root_done = 0
    s.root_best.a = -1
    s.root_best.b = -1


cdef score_t root_consider(search_t* s, int a, int b, score_t v, int depth, score_t best) noexcept nogil:
    """Root child {a, b} searched ``depth`` turns has value ``v`` (``best``:
    the highest rank so far): record it, check it against the opponent's
    replies if it would become the best, and return its rank (``v``, or ``v``
    less REFUTED when refuted).  The solver's verdict is not a proof (the
    mover's defences are width-limited), so a refuted pair ranks below every
    other but keeps its order among the refuted ones.  When the check runs out
    of time (s.stop) the caller returns without using the rank."""
    cdef root_move_t* rm = _root_move(s, a, b)
    cdef bint refuted = False
    if rm != NULL:
        rm.value = v
        rm.depth = depth
    if v > best and s.opt.reply_check > 0 and s.tss_on and not is_forced(v):
        refuted = _reply_check(s, rm, a, b)
        if s.stop:
            return v
    s.root_done += 1
    if refuted:
        v -= REFUTED
    if v > best:
        _set_best(s, a, b, v + REFUTED if refuted else v, refuted, depth)
    return v


cdef void root_tentative(search_t* s, int a, int b, score_t v, root_move_t* kept) noexcept nogil:
    """Principal variation search: a later root pair beat the best with a null
    window (``v``, unchecked) and is searched again with the whole window;
    until that ends it counts as searched and best, so that a stop in between
    plays it (the best so far is kept in ``kept``).  Its value is unchecked,
    but a pair an earlier reply check refuted does not become the best: a
    stop in between plays the best so far, as the pair's own rank would once
    searched (see root_consider)."""
    cdef root_move_t* rm = _root_move(s, a, b)
    kept[0] = s.root_best
    s.root_done += 1
    if rm != NULL and rm.checked and rm.refuted:
        return
    _set_best(s, a, b, v, False, s.root_best.depth)


cdef void root_untentative(search_t* s, const root_move_t* kept) noexcept nogil:
    """The search again finished: root_consider counts it and takes its value."""
    s.root_done -= 1
    s.root_best = kept[0]


# ------------------------------------------------------------ the choice
cdef void _choose(search_t* s, const root_move_t* rm, int source) noexcept nogil:
    """Play ``rm``, alone as its line."""
    s.chosen.a = rm.a
    s.chosen.b = rm.b
    s.chosen.value = rm.value
    s.chosen.refuted = rm.refuted
    s.chosen.source = source
    s.line[0][0] = rm.a
    s.line[0][1] = rm.b
    s.line_len = 1


cdef void root_report(search_t* s, int depth) noexcept nogil:
    if s.report != NULL:
        s.report(s.report_ctx, depth, s.chosen.value)


cdef void root_finish_iteration(search_t* s, int depth, score_t v) noexcept nogil:
    """A finished iteration of value (rank) ``v``: its best pair, the head of
    the PV, is the move; its value is the pair's own, and whether the reply
    check refuted it is the table's verdict as applied in this iteration.
    The PV is followed first by the next iteration."""
    cdef int k, n = s.pv_len[0]
    cdef root_move_t head
    head.a = s.pv[0][0][0]
    head.b = s.pv[0][0][1]
    head.value = v
    head.refuted = False
    if s.root_best.a == head.a and s.root_best.b == head.b:
        head.value = s.root_best.value
        head.refuted = s.root_best.refuted
    _choose(s, &head, SOURCE_SEARCH)
    s.chosen.depth = depth
    for k in range(n):
        s.follow[k][0] = s.pv[0][k][0]
        s.follow[k][1] = s.pv[0][k][1]
        s.line[k][0] = s.pv[0][k][0]
        s.line[k][1] = s.pv[0][k][1]
    s.follow_len = n
    s.line_len = n
    root_report(s, depth)


cdef void root_take_unfinished(search_t* s, bint full_window) noexcept nogil:
    """The clock stopped an iteration.  Its first root move was the previous
    best; a later one that finished with a higher value is better at this
    depth, so it is played (the depth reported stays the last full one),
    unless the reply check refuted it and not the previous best."""
    cdef int depth = s.chosen.depth
    if (s.root_done >= 2 and s.chosen.source != SOURCE_NONE and full_window
            and not (s.root_best.a == s.chosen.a and s.root_best.b == s.chosen.b)
            and (s.chosen.refuted or not s.root_best.refuted)):
        _choose(s, &s.root_best, SOURCE_UNFINISHED)
        s.chosen.depth = depth


cdef void root_adopt_solver(search_t* s) noexcept nogil:
    """The root's solver proved a win (its line in s.tss.line): the line is
    the move and its line, up to the first turn that is not a whole pair."""
    cdef int k
    s.line_len = 0
    for k in range(s.tss.line_len):
        if s.tss.line[k][0] < 0 or s.tss.line[k][1] < 0 or s.line_len > MAX_PLY:
            break
        s.line[s.line_len][0] = s.tss.line[k][0]
        s.line[s.line_len][1] = s.tss.line[k][1]
        s.line_len += 1
    s.chosen.a = s.line[0][0]
    s.chosen.b = s.line[0][1]
    s.chosen.value = WIN_SCORE - s.tss.line_len
    s.chosen.refuted = False
    s.chosen.depth = 1
    s.chosen.source = SOURCE_SOLVER
    root_report(s, 1)


cdef inline void _copy_line(int16_t (*dst)[2], const int16_t (*src)[2], int n) noexcept nogil:
    cdef int k
    for k in range(n):
        dst[k][0] = src[k][0]
        dst[k][1] = src[k][1]


cdef void root_keep_even(search_t* s, int depth) noexcept nogil:
    """After a finished iteration of ``depth`` turns: an even one's move and
    line are kept for root_even."""
    if depth % 2:
        return
    s.even = s.chosen
    _copy_line(s.even_line, s.line, s.line_len)
    s.even_len = s.line_len


cdef void root_even(search_t* s, int decided) noexcept nogil:
    """The ``even_decide`` option, after the search: the move was decided
    by values of ``decided`` turns.  When that is odd (the root mover placed
    the last pair: the opponent's answer to it is past the horizon), the
    move of the deepest finished even-depth iteration is played instead,
    unless either value is a forced result."""
    if (decided % 2 == 0 or s.even_len == 0 or is_forced(s.chosen.value) or is_forced(s.even.value)
            or s.chosen.source not in (SOURCE_SEARCH, SOURCE_UNFINISHED)):
        return
    s.chosen = s.even
    _copy_line(s.line, s.even_line, s.even_len)
    s.line_len = s.even_len


cdef void root_resist(search_t* s, bint defending) noexcept nogil:
    """After the search: when the opponent threatened a VCDT at the root
    (``defending``) or every move lost, and the solver still finds the
    opponent a VCDT after the chosen move, play a root pair after which it
    finds none (defence.resist); its value stays the search's."""
    cdef int16_t alt[2]
    cdef root_move_t rm
    if not (s.line_len and s.tss_on and s.opt.defend and stones_to_place(&s.pos) == 2
            and (defending or is_forced_loss(s.chosen.value))):
        return
    if resist(s, s.chosen.a, s.chosen.b, alt):
        rm = s.chosen
        rm.a = alt[0]
        rm.b = alt[1]
        rm.refuted = False              # another move than the one searched and checked
        _choose(s, &rm, SOURCE_RESIST)


cdef int root_rescue(search_t* s) noexcept nogil:
    """After a finished iteration whose best pair the reply check refuted
    (so it refuted every root pair it judged): the root's list holds the
    best ``width`` pairs by pair score (or, when one stone meets every
    threat of the opponent's, that stone with its best ``width`` partners),
    and a pair further down may hold where they all lose.  Once a search,
    with ``rescue_width`` above ``width``, the pairs down to
    ``rescue_width`` that were not searched are checked in order until
    MAX_RESCUE are found that the check does not refute; they join the
    root's list (movepick), their verdict kept, so that the search sees
    them and, unrefuted, ranks them above every refuted pair.  Returns how
    many were found (then the caller searches the same depth again)."""
    cdef pair_t* cand
    cdef int16_t reply[2]
    cdef int n, k, r, h, nt, mover = s.pos.to_move
    cdef double deadline = search_deadline(s)
    if (s.rescued or s.opt.rescue_width <= s.opt.width or not s.chosen.refuted or s.opt.reply_check <= 0
            or not s.tss_on or stones_to_place(&s.pos) != 2):
        return 0
    s.rescued = True
    nt = collect_threats(&s.pos, 1 - mover, s.threats)
    h = blocking_number(s.threats, nt)
    if h >= 2:
        return 0                                            # both stones block: the list has every pair
    cand = s.pairs + MAX_PLY * ply_stride(&s.opt)           # free between iterations (the reply check uses plies 1-3)
    if h == 1:
        n = gen_blocks(s, cand, nt, s.opt.rescue_width)
    else:
        n = gen_moves(&s.pos, s.mg, s.opt.radius, s.opt.rescue_width, s.opt.scan, mover, cand)
    for k in range(n):
        if s.n_rescue >= MAX_RESCUE or (deadline > 0 and now() >= deadline):
            break
        if _known_move(s, cand[k].a, cand[k].b) != NULL:
            continue
        r = reply_refutation(s, cand[k].a, cand[k].b, reply)
        if r < 0:
            break                                           # the clock ran out
        if r == 1:
            continue
        s.rescue[s.n_rescue] = cand[k]
        s.n_rescue += 1
        _keep_verdict(s, _root_move(s, cand[k].a, cand[k].b), 0, reply)
    return s.n_rescue
