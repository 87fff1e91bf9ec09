# cython: language_level=3
"""Alpha-beta over width-limited move pairs; the GIL is released for the whole search."""
from libc.stdint cimport int16_t
from libc.stdlib cimport calloc, free

from engine_core.attacks cimport gen_win
from engine_core.clock cimport now
from engine_core.defence cimport build_zone_pairs, reply_refutation, root_vcdt, root_zone, tss_win
from engine_core.geometry cimport NUM_CELLS
from engine_core.movegen cimport gen_moves, stones_to_place, win_pair
from engine_core.movepick cimport (
    best_by_score, frontier_by_score, frontier_with_threats, killer_store, movepick_t, pick_init, pick_list,
    pick_next, pick_tt,
)
from engine_core.position cimport Position, pos_eval, pos_is_empty, pos_make_pair, pos_undo_pair, pos_winner
from engine_core.roads cimport SCAN_GLOBAL, SCAN_INCREMENTAL, SCAN_LOCAL
from engine_core.root cimport (
    root_adopt_solver, root_consider, root_finish_iteration, root_iteration_start, root_rescue, root_resist,
    root_even, root_keep_even, root_take_unfinished, root_tentative, root_untentative,
)
from engine_core.search_state cimport (
    MAX_HELPERS, MAX_PLY, SOURCE_NONE, SOURCE_RESIST, SOURCE_SEARCH, SOURCE_SOLVER, SOURCE_UNFINISHED,
    ZONE_ROUNDS, pv_set, pv_single, root_move_t, search_clear_tables, search_free, search_init,
    search_limits_t, search_options_t, search_own_table, search_share_table,
)
from engine_core.shape cimport cross_term, initiative_term, shape_bonus
from engine_core.threats cimport blocking_number, collect_threats, has_threat
from engine_core.timeman cimport (
    clock_arm, clock_start, iteration_time_up, keep_back_for_defence, out_of_time, settled,
)
from engine_core.tt cimport (
    TT_EXACT, TT_LOWER, TT_UPPER, score_from_tt, score_to_tt, tt_entry_t, tt_probe, tt_store,
)
from engine_core.types cimport (
    FORCED_MARGIN, INF_SCORE, WIN_SCORE, flag_get, flag_set, is_forced, is_forced_loss, pair_t,
)

# Set once the interpreter exits (connect6.engine's atexit hook): a search still running in a
# daemon thread then never takes the GIL again for its reports, which would crash the process
# once the interpreter is torn down.
cdef int _reports_closed = 0


def close_reports():
    """No search reports an iteration to Python from now on (called as the interpreter exits)."""
    flag_set(&_reports_closed, 1)


# --------------------------------------------------------------- alpha-beta
cdef bint _threat_outcome(search_t* s, int ply, int mover, int* nt, int* h, score_t* value) noexcept nogil:
    """A node decided by threats: the mover completes a six now, or faces
    three or more threats (below the root).  Otherwise counts the opponent's
    threats (``nt`` roads in s.threats, blocking number ``h``)."""
    cdef int16_t a, b
    if has_threat(&s.pos, mover):
        win_pair(&s.pos, s.mg, &a, &b)
        pv_single(s, ply, a, b)
        value[0] = WIN_SCORE - (ply + 1)
        return True
    nt[0] = collect_threats(&s.pos, 1 - mover, s.threats)
    h[0] = blocking_number(s.threats, nt[0])
    if h[0] >= 3 and ply > 0:
        value[0] = -(WIN_SCORE - (ply + 2))     # any turn: the opponent makes six next
        return True
    return False


cdef bint _tt_cutoff(search_t* s, int depth, int ply, score_t alpha, score_t beta, int16_t* tt_move,
                     score_t* value) noexcept nogil:
    """Probe the table: its pair goes to ``tt_move``; True (with ``value``)
    when its bound decides this node."""
    cdef tt_entry_t e
    cdef score_t v
    if not tt_probe(&s.tt, s.pos.key, &e):
        return False
    tt_move[0] = e.a
    tt_move[1] = e.b
    if e.depth < depth or ply == 0 or (s.opt.tt_parity and (e.depth - depth) % 2):
        return False
    v = score_from_tt(e.score, ply)
    if e.flag == TT_EXACT or (e.flag == TT_LOWER and v >= beta) or (e.flag == TT_UPPER and v <= alpha):
        if e.a >= 0:
            pv_single(s, ply, e.a, e.b)
        value[0] = v
        return True
    return False


cdef score_t _frontier_best(search_t* s, const pair_t* pairs, int n, int ply, int mover) noexcept nogil:
    cdef int best_i = best_by_score(pairs, n)
    s.nodes += 1
    s.leaves += 1
    s.following = False
    pv_single(s, ply, pairs[best_i].a, pairs[best_i].b)
    return pos_eval(&s.pos, mover) + pairs[best_i].score - s.opt.tempo


cdef score_t _threat_frontier(search_t* s, int ply, int mover) noexcept nogil:
    """A depth-1 node of movepick.frontier_with_threats: a win when one of the
    mover's pairs leaves threats that two stones cannot block (the child
    would be lost for the opponent at ply + 1), else V(mover) plus the best
    pair score, as the children would each be valued.  One leaf, as for
    _frontier_best; 0 on a full board."""
    cdef pair_t best
    s.nodes += 1
    s.leaves += 1
    s.following = False
    if gen_win(&s.tss.gen, &s.pos, mover, NULL, 0, s.tss.attacks):
        pv_single(s, ply, s.tss.attacks[0].a, s.tss.attacks[0].b)
        return WIN_SCORE - (ply + 3)
    if gen_moves(&s.pos, s.mg, s.opt.radius, 1, s.opt.scan, mover, &best) == 0:
        return 0
    pv_single(s, ply, best.a, best.b)
    return pos_eval(&s.pos, mover) + best.score - s.opt.tempo


cdef score_t _child_value(search_t* s, int a, int b, int depth, int ply, score_t alpha, score_t beta,
                          int mover) noexcept nogil:
    cdef score_t v
    pos_make_pair(&s.pos, a, b)
    if pos_winner(&s.pos) == mover:
        v = WIN_SCORE - (ply + 1)
        s.nodes += 1
        s.pv_len[ply + 1] = 0
    else:
        v = -negamax(s, depth - 1, ply + 1, -beta, -alpha)
    pos_undo_pair(&s.pos, a, b)
    return v


cdef score_t _scout_value(search_t* s, int a, int b, int depth, int ply, score_t alpha, score_t beta,
                          int mover) noexcept nogil:
    """A later child's value (principal variation search): first with a
    null window at alpha, and again with the whole window only when it may
    raise alpha.  At the root a pair that beats the best so far is the
    unfinished iteration's choice while it is searched again."""
    cdef score_t v = _child_value(s, a, b, depth, ply, alpha, alpha + 1, mover)
    cdef root_move_t kept
    if s.stop or v <= alpha or v >= beta:
        return v
    if ply == 0:
        root_tentative(s, a, b, v, &kept)
    s.following = False
    v = _child_value(s, a, b, depth, ply, alpha, beta, mover)
    if ply == 0 and not s.stop:
        root_untentative(s, &kept)
    return v


cdef inline bint _take_child(search_t* s, int ply, score_t v, int a, int b, score_t* best, int* best_a,
                             int* best_b, score_t* alpha, score_t beta) noexcept nogil:
    """Child (a, b) has value ``v``: a new best goes to the PV and may raise
    alpha; True on a beta cutoff (the pair becomes a killer)."""
    if v <= best[0]:
        return False
    best[0] = v
    best_a[0] = a
    best_b[0] = b
    pv_set(s, ply, a, b)
    if v > alpha[0]:
        alpha[0] = v
        if v >= beta:
            killer_store(s, ply, a, b)
            return True
    return False


cdef score_t negamax(search_t* s, int depth, int ply, score_t alpha, score_t beta) noexcept nogil:
    """Value of the position for the side to move, searched ``depth`` turns."""
    cdef movepick_t mp
    cdef int a, b, mover, nt = 0, h = 0, best_a = -1, best_b = -1
    cdef bint cut, table_loss = False
    cdef score_t v, best = -INF_SCORE, orig_alpha = alpha
    cdef int16_t tt_move[2]
    s.nodes += 1
    s.pv_len[ply] = 0
    if s.clock_armed and out_of_time(s):
        return 0
    if flag_get(&s.abandoned):                  # given up by its caller (Ctrl-C): no result is wanted
        s.stop = True
        return 0
    mover = s.pos.to_move
    if s.opt.threats and _threat_outcome(s, ply, mover, &nt, &h, &v):
        return v
    s.block_node[ply] = 0 < h < 3              # the children may look for the mover's VCDT (tss_win)
    s.zone_node[ply] = False                   # set by block_defence once the list is made, not before
    if depth == 0 or ply >= MAX_PLY:
        if tss_win(s, ply, mover):
            return WIN_SCORE - (ply + s.tss.line_len)
        s.leaves += 1
        return (s.opt.tempo - pos_eval(&s.pos, 1 - mover) - shape_bonus(&s.pos, 1 - mover, s.opt.shape2, s.opt.shape3)
                - cross_term(&s.pos, 1 - mover, s.opt.cross_f, s.opt.cross_g, s.opt.cross_three)
                + initiative_term(&s.pos, mover, h, s.opt.initiative))
    tt_move[0] = -1
    tt_move[1] = -1
    if s.tt_on and _tt_cutoff(s, depth, ply, alpha, beta, tt_move, &v):
        # A loss from the table may come from a node where the mover's own
        # VCDT was not looked for: stored deeper in an earlier move's search
        # (timed play keeps the table), below the plies that run tss_win.
        # With table_loss_check it stands only if tss_win below finds none.
        if not (s.opt.table_loss_check and is_forced_loss(v)):
            return v
        table_loss = True
    if tss_win(s, ply, mover):
        return WIN_SCORE - (ply + s.tss.line_len)
    if table_loss:
        return v
    if s.stop:
        return 0
    if depth == 1 and frontier_with_threats(s, ply, h):
        return _threat_frontier(s, ply, mover)
    cut = False
    pick_init(&mp, s, ply, depth, nt, h, tt_move)
    if pick_tt(&mp, s, mover):
        # the table's pair heads the list; searched before the list is made,
        # a cutoff saves making it (the search is the same)
        v = _child_value(s, tt_move[0], tt_move[1], depth, ply, alpha, beta, mover)
        s.following = False
        if s.stop:
            return 0
        cut = _take_child(s, ply, v, tt_move[0], tt_move[1], &best, &best_a, &best_b, &alpha, beta)
    if not cut:
        if pick_list(&mp, s) == 0:
            return 0                               # full board: a draw
        if depth == 1 and frontier_by_score(s, mover):
            return _frontier_best(s, mp.pairs, mp.n, ply, mover)
        while pick_next(&mp, &a, &b):
            if s.opt.pvs and best_a >= 0 and beta - alpha > 1:
                v = _scout_value(s, a, b, depth, ply, alpha, beta, mover)
            else:
                v = _child_value(s, a, b, depth, ply, alpha, beta, mover)
            s.following = False
            if s.stop:
                return 0
            if ply == 0:
                v = root_consider(s, a, b, v, depth, best)
                if s.stop:
                    return 0
            if _take_child(s, ply, v, a, b, &best, &best_a, &best_b, &alpha, beta):
                break
    if s.tt_on:
        tt_store(&s.tt, s.pos.key, depth,
                 TT_UPPER if best <= orig_alpha else (TT_LOWER if best >= beta else TT_EXACT),
                 score_to_tt(best, ply), best_a, best_b)
    return best


# ------------------------------------------------------- iterative deepening
cdef score_t _iteration(search_t* s, int d, int first, score_t last, bint* full_window) noexcept nogil:
    """Search the root to depth ``d``: within the aspiration window around
    the last value when asked, again with a full window when it fails."""
    cdef score_t v, lo = -INF_SCORE, hi = INF_SCORE
    if s.opt.aspiration > 0 and d > first and not is_forced(last):
        lo = last - s.opt.aspiration
        hi = last + s.opt.aspiration
    while True:
        s.following = s.follow_len > 0
        root_iteration_start(s)
        v = negamax(s, d, 0, lo, hi)
        if s.stop or (lo < v < hi) or (lo == -INF_SCORE and hi == INF_SCORE):
            full_window[0] = lo == -INF_SCORE
            return v
        lo = -INF_SCORE                 # outside the window: search again with a full one
        hi = INF_SCORE


cdef int search_run(search_t* s, int* depth_done) noexcept nogil:
    """Search to ``lim.depth`` (iteratively if asked, timed or stoppable).
    The move to play, its value and where it came from are left in
    s.chosen, its line in s.line (root.pyx decides them); returns the
    line's length (0: no move) and the deepest finished iteration in ``depth_done``."""
    cdef int d, first, prev_a, prev_b, rounds = 0, decided = 0
    cdef bint defending = False, full_window = True
    cdef score_t v
    clock_start(s)
    s.follow_len = 0
    s.line_len = 0
    s.chosen.a = -1
    s.chosen.b = -1
    s.chosen.value = 0
    s.chosen.refuted = False
    s.chosen.depth = 0
    s.chosen.source = SOURCE_NONE
    s.even_len = 0
    depth_done[0] = 0
    first = 1 if (s.lim.iterative or s.lim.time > 0 or s.lim.nodes > 0 or s.lim.stoppable) else s.lim.depth
    if s.lim.helper and first < 2 <= s.lim.depth:
        first = 2                           # a helper starts one iteration ahead
    if root_vcdt(s):
        root_adopt_solver(s)
        depth_done[0] = 1
        return s.line_len
    if s.opt.defend and s.tss_on:
        root_zone(s)
        defending = s.n_root_extra > 0          # the opponent, moving now, would win by VCDT
        if defending:
            keep_back_for_defence(s)
    d = first
    while d <= s.lim.depth:
        clock_arm(s, d == first)
        v = _iteration(s, d, first, s.chosen.value, &full_window)
        if s.stop:
            root_take_unfinished(s, full_window)
            if s.root_done >= 1:
                decided = d                 # the previous best, or a pair that beat it, valued at depth d
            break
        if s.pv_len[0] == 0:
            break
        prev_a = s.chosen.a
        prev_b = s.chosen.b
        root_finish_iteration(s, d, v)
        root_keep_even(s, d)
        depth_done[0] = d
        decided = d
        if iteration_time_up(s):
            break
        if root_rescue(s) > 0:
            continue                        # every pair refuted: again, with the pairs beyond the width that hold
        if is_forced_loss(v) and s.zone_grew and rounds < ZONE_ROUNDS:
            build_zone_pairs(s)             # every move lost: again, with pairs against the refutations seen
            rounds += 1
            continue
        if is_forced(v) or (d > first and settled(s, prev_a, prev_b)):
            break                           # a forced result does not change with depth; a settled move
        d += 1
    if s.opt.even_decide:
        root_even(s, decided)
    root_resist(s, defending)
    return s.line_len


# ----------------------------------------------------------------- Python view
cdef class CoreResult:
    """What the compiled search found (``connect6.Engine`` turns it into a
    ``SearchResult``): ``move`` (a, b) with b = -1 for one stone, ``score``
    for the side to move, ``pv`` [(a, b), ...], ``depth`` (deepest finished
    iteration), ``nodes``, ``leaves``, ``tss_nodes``, ``pairs_scored``,
    ``time_s``, ``refuted`` (the reply check refuted the move: every root
    pair it checked was refuted), ``source`` (where the move came from:
    "search", "solver", "unfinished" or "resist"; see root.pxd) and
    ``root_moves``, the root pairs of the search as tuples ``(a, b, value,
    depth, refuted, reply)`` (``refuted``: True, False, or None when the
    reply check did not judge the pair; ``reply``: the refuting reply (a, b)
    or None)."""
    cdef readonly tuple move
    cdef readonly long long score
    cdef readonly list pv
    cdef readonly int depth
    cdef readonly long long nodes, leaves, tss_nodes, pairs_scored
    cdef readonly double time_s
    cdef readonly bint refuted
    cdef readonly str source
    cdef readonly list root_moves


cdef class SearchContext:
    """The C tables of a search, kept between searches.

    An :class:`connect6.Engine` owns one: its transposition table and VCDT
    table carry over from move to move in timed play.  Not for use by two
    searches at once (the Engine holds a lock around it); :meth:`request_stop`
    may be called from any thread while a search runs.
    """

    def __cinit__(self):
        self.s = <search_t*>calloc(1, sizeof(search_t))
        if self.s == NULL:
            raise MemoryError()

    def __dealloc__(self):
        if self.s != NULL:
            search_free(self.s)
            free(self.s)
            self.s = NULL

    def clear(self):
        """Forget the tables' contents."""
        search_clear_tables(self.s)

    def request_stop(self):
        """Ask a running stoppable search to end (thread-safe, returns at once);
        it returns the best move found so far (the first iteration always finishes)."""
        flag_set(&self.s.stop_request, 1)

    def abandon(self):
        """End the search running on this context at its next node, even in
        its first iteration, and every later one at once (thread-safe): for a
        search whose caller has gone (Ctrl-C), whose result is not wanted.
        The context is not to be searched on again."""
        flag_set(&self.s.abandoned, 1)

    def clear_stop(self):
        """Withdraw a stop request (before a search starts)."""
        flag_set(&self.s.stop_request, 0)

    @property
    def nodes(self):
        """Alpha-beta nodes of the last search run on this context (as main search or helper)."""
        return self.s.nodes


cdef void _report_iteration(void* ctx, int depth, score_t score) noexcept nogil:
    """Hand a finished iteration to the Python callback (the GIL is taken once
    per iteration); an exception in it stops the search and is kept.  Nothing
    once the interpreter exits (close_reports)."""
    if flag_get(&_reports_closed):
        return
    with gil:
        _call_report(<object>ctx, depth, score)


cdef _call_report(object reporter, int depth, score_t score):
    cdef SearchContext context = reporter[0]
    cdef search_t* s = context.s
    try:
        reporter[1](depth, score, [(s.line[k][0], s.line[k][1]) for k in range(s.line_len)],
                    s.nodes, s.tss.nodes if s.tss_on else 0, now() - s.start)
    except BaseException as exc:           # kept, raised by search() when it returns
        reporter[2].append(exc)
        flag_set(&s.stop_request, 1)


cdef int _check_core_options(const search_options_t* opt, int depth) except -1:
    """A last guard of memory safety for direct callers; connect6.options
    checks every value with a clear message before it gets here."""
    if not (1 <= depth <= MAX_PLY and 1 <= opt.width <= 4096 and 0 <= opt.reply_width <= 4096
            and 1 <= opt.radius <= 18 and 0 <= opt.potential <= 8
            and 0 <= opt.forcing_replies <= 8 and 0 <= opt.forcing_own <= 8
            and 0 <= opt.forcing_plies <= MAX_PLY
            and opt.scan in (SCAN_GLOBAL, SCAN_LOCAL, SCAN_INCREMENTAL) and 0 <= opt.tt_bits <= 28
            and 0 <= opt.tss_plies and 1 <= opt.tss_depth and opt.tss_budget >= 0
            and opt.tss_reply_budget >= 0 and opt.tss_root_budget >= 0 and opt.tss_leaf_budget >= 0
            and 0 <= opt.tempo <= 1000000000 and 0 <= opt.shape2 <= 1000000000 and 0 <= opt.shape3 <= 1000000000
            and 0 <= opt.initiative <= 1000000000
            and 0 <= opt.cross_f <= 1000000 and 0 <= opt.cross_g <= 1000000
            and opt.tss_block_plies >= 0 and opt.tss_four_budget >= 0 and 1 <= opt.tss_fours <= 24
            and opt.aspiration >= 0 and opt.reply_check >= 0 and opt.reply_zone >= 0 and opt.reply_four_budget >= 0
            and 0 <= opt.reply_check_width <= 4096
            and 0 <= opt.settle_percent <= 100 and opt.defend_reserve_ms >= 0):
        raise ValueError("search options out of range: build them with connect6.options.EngineOptions")
    return 0


cdef list _helper_contexts(object helpers, SearchContext context):
    """``helpers`` checked: SearchContexts, none of them ``context``, none twice."""
    cdef list out = list(helpers)
    if len(out) > MAX_HELPERS:
        raise ValueError(f"at most {MAX_HELPERS} helper contexts, not {len(out)}")
    for h in out:
        if not isinstance(h, SearchContext):
            raise TypeError(f"helpers must be SearchContext objects, not {type(h).__name__}")
        if h is context or sum(1 for other in out if other is h) > 1:
            raise ValueError("each helper needs a SearchContext of its own, apart from the main one")
    return out


def _run_helper(SearchContext helper):
    """A helper thread's whole search (its result is not used: what it leaves
    in the shared table is)."""
    cdef int depth_done = 0
    with nogil:
        search_run(helper.s, &depth_done)


cdef list _start_helpers(list helpers, SearchContext context, Position pos, const search_options_t* opt,
                         const search_limits_t* lim, bint keep_tables):
    """Lazy SMP: each helper searches the same position on a thread of its
    own until the main search ends and stops it, sharing the main search's
    transposition table: what it stores is all it gives.  So that it works
    ahead of the main search and elsewhere, it deepens from depth 2 and
    takes the root pairs after the first in reverse order; it leaves out the
    reply check, which only picks its own root move.  (On 20 positions of
    human games, one helper cut the time to depth 8 by 1.46x; without the
    reverse order and with the check, 1.05x.)  Returns the started threads."""
    import threading
    cdef search_limits_t hlim = lim[0]
    cdef search_options_t hopt = opt[0]
    cdef SearchContext h
    cdef int rc
    hopt.reply_check = 0
    hlim.iterative = True
    hlim.nodes = 0                      # the main search's limit; it stops the helpers
    hlim.stoppable = True
    hlim.helper = True
    for h in helpers:
        with nogil:
            search_share_table(h.s, context.s)
            rc = search_init(h.s, &pos.pos, &hopt, &hlim)
            if rc == 0 and not keep_tables:
                search_clear_tables(h.s)
        if rc != 0:
            raise MemoryError("not enough memory for a helper's search tables")
        flag_set(&h.s.stop_request, 0)
        h.s.report = NULL
    threads = [threading.Thread(target=_run_helper, args=(h,), name="connect6-helper", daemon=True)
               for h in helpers]
    for th in threads:
        th.start()
    return threads


cdef void _stop_helpers(list helpers, list threads):
    cdef SearchContext h
    for h in helpers:
        flag_set(&h.s.stop_request, 1)
    for th in threads:
        th.join()


SOURCES = {SOURCE_SEARCH: "search", SOURCE_SOLVER: "solver", SOURCE_UNFINISHED: "unfinished",
           SOURCE_RESIST: "resist"}


cdef list _root_moves(search_t* s):
    cdef list out = []
    cdef int k
    for k in range(s.n_root_moves):
        rm = &s.root_moves[k]
        out.append((rm.a, rm.b, rm.value, rm.depth, (bool(rm.refuted) if rm.checked else None),
                    ((rm.reply[0], rm.reply[1]) if rm.checked and rm.refuted and rm.reply[0] >= 0 else None)))
    return out


cdef CoreResult _core_result(search_t* s, int depth_done, list helpers):
    """The finished search's result: the main search's chosen move, its value,
    line, depth and source, with every thread's nodes counted."""
    cdef SearchContext h
    cdef CoreResult r = CoreResult.__new__(CoreResult)
    r.move = (s.chosen.a, s.chosen.b)
    r.score = s.chosen.value
    r.pv = [(s.line[k][0], s.line[k][1]) for k in range(s.line_len)]
    r.depth = depth_done
    r.nodes = s.nodes
    r.leaves = s.leaves
    r.tss_nodes = s.tss.nodes if s.tss_on else 0
    r.pairs_scored = s.mg.pairs_scored
    r.refuted = s.chosen.refuted
    r.source = SOURCES[s.chosen.source]
    r.root_moves = _root_moves(s)
    for h in helpers:
        r.nodes += h.s.nodes
        r.leaves += h.s.leaves
        r.tss_nodes += h.s.tss.nodes if h.s.tss_on else 0
        r.pairs_scored += h.s.mg.pairs_scored
    r.time_s = now() - s.start
    return r


def search(Position pos not None, options, int depth, double time=0.0, bint iterative=False,
           SearchContext context=None, bint keep_tables=False, bint stoppable=False, report=None, helpers=(),
           long long nodes=0):
    """Search ``pos`` for the side to move; a :class:`CoreResult`.

    ``options`` maps every field of the core's option struct to its value
    (``connect6.options.EngineOptions.core_fields()``).  ``depth`` is the
    deepest iteration, ``time`` the seconds for the move (0: none), ``nodes``
    the nodes for the move, alpha-beta's and the solver's (0: none; like a
    time, it deepens iteratively, and the first iteration always finishes).  With a
    ``context`` its tables are reused, and kept from earlier searches if
    ``keep_tables``.  A ``stoppable`` search ends when
    ``context.request_stop()`` is called (the caller clears the request
    before); ``report(depth, score, pv, nodes, tss_nodes, seconds)`` is called
    after every finished iteration.  Each of ``helpers`` (SearchContexts
    of their own) searches too, on a thread of its own, sharing the
    transposition table (lazy SMP); the result is the main search's, with
    every thread's nodes counted.  With helpers the search is not
    reproducible.
    """
    cdef search_options_t opt = options
    cdef search_limits_t lim
    _check_core_options(&opt, depth)
    if not (time >= 0 and time <= 1e12):
        raise ValueError(f"time must be 0..1e12 seconds, not {time}")
    if nodes < 0:
        raise ValueError(f"nodes must be 0 (no limit) or more, not {nodes}")
    lim.depth = depth
    lim.time = time
    lim.nodes = nodes
    lim.iterative = iterative
    lim.stoppable = stoppable
    lim.helper = False
    if context is None:
        context = SearchContext()
        keep_tables = False
    cdef list helper_list = _helper_contexts(helpers, context)
    cdef list threads = []
    cdef search_t* s = context.s
    cdef int depth_done = 0, line_len = 0, rc
    reporter = (context, report, [])
    with nogil:
        search_own_table(s)
        rc = search_init(s, &pos.pos, &opt, &lim)
        if rc == 0 and not keep_tables:
            search_clear_tables(s)
    if rc != 0:
        raise MemoryError("not enough memory for the search tables")
    if not stoppable:
        flag_set(&s.stop_request, 0)
    s.report = NULL
    if report is not None:
        s.report = _report_iteration
    s.report_ctx = <void*>reporter
    try:
        threads = _start_helpers(helper_list, context, pos, &opt, &lim, keep_tables)
        with nogil:
            line_len = search_run(s, &depth_done)
    finally:
        _stop_helpers(helper_list, threads)
        s.report = NULL
        s.report_ctx = NULL
    if reporter[2]:
        raise reporter[2][0]
    if line_len == 0:
        raise ValueError("no move to search: the board is full")
    return _core_result(s, depth_done, helper_list)


def reply_refuted(Position pos not None, options, int a, int b):
    """Whether the pair {a, b} of the side to move loses by force to one of
    the opponent's best ``reply_check_width`` (0: ``width``) replies, as far
    as the threat-space solver can tell with ``options['reply_check']``
    nodes a call (the check of the ``reply_check`` option; see
    defence.reply_refutation): 1 refuted, 0 no
    refutation found, -1 undecided (a solver call ran out of nodes).  Not a
    proof either way: the side's defences after the reply are width-limited.
    As in the search, a pair after which the opponent makes six at once, or
    the side makes six next whatever the opponent blocks, is left to
    alpha-beta: 0."""
    cdef search_options_t opt = options
    cdef search_limits_t lim
    cdef SearchContext context
    cdef int16_t reply[2]
    cdef int rc, r
    _check_core_options(&opt, 1)
    if opt.reply_check <= 0 or not opt.threats or opt.tss_plies <= 0:
        raise ValueError("reply_refuted needs options with threats on, tss_plies >= 1 and reply_check >= 1")
    if not (0 <= a < NUM_CELLS and 0 <= b < NUM_CELLS and a != b):
        raise ValueError(f"need two different cells 0..{NUM_CELLS - 1}, not {a} and {b}")
    if pos_winner(&pos.pos) >= 0 or stones_to_place(&pos.pos) != 2:
        raise ValueError("reply_refuted needs a game in progress with two stones to place")
    if not (pos_is_empty(&pos.pos, a) and pos_is_empty(&pos.pos, b)):
        raise ValueError(f"cells {a} and {b} must both be empty")
    lim.depth = 1
    lim.time = 0.0
    lim.nodes = 0
    lim.iterative = False
    lim.stoppable = False
    lim.helper = False
    context = SearchContext()
    with nogil:
        rc = search_init(context.s, &pos.pos, &opt, &lim)
    if rc != 0:
        raise MemoryError("not enough memory for the search tables")
    with nogil:
        search_clear_tables(context.s)
        clock_start(context.s)
        r = reply_refutation(context.s, a, b, reply)
    return r


WIN = WIN_SCORE
FORCED = FORCED_MARGIN
MAX_DEPTH = MAX_PLY
MAX_THREADS = MAX_HELPERS + 1
