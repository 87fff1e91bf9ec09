# cython: language_level=3
"""Alpha-beta over width-limited move pairs; the GIL is released for the whole search."""
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc

from engine_core.bitboard cimport bb_set, bb_test, bb_to_array, bb_zero
from engine_core.clock cimport now
from engine_core.geometry cimport NUM_CELLS, ROAD_LEN, geometry_t, get_geometry
from engine_core.movegen cimport (
    gen_candidates, gen_moves, gen_pairs_with, mg_init, pair_score, pairs_insert, stones_to_place,
)
from engine_core.position cimport Position, pos_make_pair, pos_set_to_move, pos_undo_pair, pos_winner
from engine_core.roads cimport (
    EMPTY, ROAD_WORDS, SCAN_GLOBAL, SCAN_INCREMENTAL, SCAN_LOCAL, code_count, rt_delta_scan, rt_eval,
    rt_threat_roads,
)
from engine_core.threats cimport (
    MAX_BLOCKS, MAX_THREATS, block_t, blocking_moves, blocking_number, collect_threats, has_threat,
    tss_alloc, tss_clear, tss_free, vcdt, winning_stones,
)
from engine_core.tt cimport (
    TT_EXACT, TT_LOWER, TT_UPPER, score_from_tt, score_to_tt, tt_alloc, tt_clear, tt_entry_t, tt_free,
    tt_probe, tt_store,
)

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

cdef const geometry_t* geo = get_geometry()


cdef inline bint _out_of_time(search_t* s) noexcept nogil:
    if s.clock_armed and now() >= s.deadline:
        s.stop = True
    return s.stop


cdef inline bint _forced(score_t v) noexcept nogil:
    """A forced six (connect6.engine.FORCED_MARGIN is the same margin)."""
    return v >= WIN_SCORE - 1000 or v <= -(WIN_SCORE - 1000)


cdef inline int _stride(const search_params_t* prm) noexcept nogil:
    """Room for one ply's pair list: width, forced blocks, and the root's zone pairs."""
    return prm.width + MAX_FORCED + MAX_ROOT_EXTRA


cdef int search_init(search_t* s, const position_t* pos, const search_params_t* prm) noexcept nogil:
    """Set up a search of ``pos``, reusing the tables of ``s`` when they fit
    (``s`` zeroed before its first use).  The transposition and VCDT tables
    keep their contents; 0 on success, -1 when out of memory."""
    cdef int ply
    if s.mg == NULL or s.cap_width < prm.width:
        free(s.mg)
        free(s.pairs)
        s.mg = <movegen_t*>malloc(sizeof(movegen_t))
        s.pairs = <pair_t*>malloc((MAX_PLY + 2) * _stride(prm) * sizeof(pair_t))
        s.cap_width = prm.width
        if s.mg == NULL or s.pairs == NULL:
            search_free(s)
            return -1
        mg_init(s.mg)
    if s.threats == NULL:
        s.threats = <threat_t*>malloc(MAX_THREATS * sizeof(threat_t))
        s.root_extra = <pair_t*>malloc(MAX_ROOT_EXTRA * sizeof(pair_t))
        if s.threats == NULL or s.root_extra == NULL:
            search_free(s)
            return -1
    if prm.threats and prm.tss_plies > 0 and not s.have_tss:
        if tss_alloc(&s.tss, 18) != 0:
            search_free(s)
            return -1
        s.have_tss = True
    if prm.tt_bits > 0 and (not s.have_tt or s.cap_tt_bits != prm.tt_bits):
        if s.have_tt:
            tt_free(&s.tt)
            s.have_tt = False
        if tt_alloc(&s.tt, prm.tt_bits) != 0:
            search_free(s)
            return -1
        s.have_tt = True
        s.cap_tt_bits = prm.tt_bits
    s.pos = pos[0]
    s.prm = prm[0]
    s.tss_on = s.have_tss and prm.threats and prm.tss_plies > 0
    s.tt_on = s.have_tt and prm.tt_bits > 0
    s.nodes = 0
    s.leaves = 0
    s.follow_len = 0
    s.following = False
    s.clock_armed = False
    s.stop = False
    s.n_root_extra = 0
    bb_zero(&s.zone)
    s.zone_grew = False
    s.mg.pairs_scored = 0
    if s.have_tss:
        s.tss.nodes = 0
    for ply in range(MAX_PLY + 1):
        s.killer[ply][0][0] = -1
        s.killer[ply][0][1] = -1
        s.killer[ply][1][0] = -1
        s.killer[ply][1][1] = -1
    return 0


cdef void search_clear_tables(search_t* s) noexcept nogil:
    """Forget everything learnt in earlier searches."""
    if s.have_tss:
        tss_clear(&s.tss)
    if s.have_tt:
        tt_clear(&s.tt)


cdef void search_free(search_t* s) noexcept nogil:
    free(s.mg)
    free(s.pairs)
    free(s.threats)
    free(s.root_extra)
    s.mg = NULL
    s.pairs = NULL
    s.threats = NULL
    s.root_extra = NULL
    s.cap_width = 0
    if s.have_tss:
        tss_free(&s.tss)
        s.have_tss = False
    if s.have_tt:
        tt_free(&s.tt)
        s.have_tt = False


cdef inline void _pv_set(search_t* s, int ply, int a, int b) noexcept nogil:
    """pv[ply] = (a, b) followed by pv[ply + 1]."""
    cdef int k
    s.pv[ply][0][0] = <int16_t>a
    s.pv[ply][0][1] = <int16_t>b
    for k in range(s.pv_len[ply + 1]):
        s.pv[ply][k + 1][0] = s.pv[ply + 1][k][0]
        s.pv[ply][k + 1][1] = s.pv[ply + 1][k][1]
    s.pv_len[ply] = s.pv_len[ply + 1] + 1


cdef inline void _pv_single(search_t* s, int ply, int a, int b) noexcept nogil:
    s.pv_len[ply + 1] = 0
    _pv_set(s, ply, a, b)


cdef int _promote(pair_t* pairs, int n, int front, int a, int b) noexcept nogil:
    """Move (a, b) to index ``front`` if it is in pairs[front:n]; return the new front."""
    cdef int i
    cdef pair_t tmp
    if a < 0:
        return front
    for i in range(front, n):
        if pairs[i].a == a and pairs[i].b == b:
            tmp = pairs[i]
            while i > front:
                pairs[i] = pairs[i - 1]
                i -= 1
            pairs[front] = tmp
            return front + 1
    return front


cdef void _win_pair(search_t* s, int16_t* a, int16_t* b) noexcept nogil:
    """The stones that complete a six for the side to move, as a full turn."""
    cdef int i, n, x
    winning_stones(&s.pos, s.pos.to_move, a, b)
    if b[0] < 0 and stones_to_place(&s.pos) == 2:
        # one stone makes six; the turn still has a second stone: the nearest free cell
        n = gen_candidates(&s.pos, 1, s.mg.cand)
        for i in range(n):
            if s.mg.cand[i] != a[0]:
                b[0] = s.mg.cand[i]
                break
    if b[0] >= 0 and b[0] < a[0]:
        x = a[0]
        a[0] = b[0]
        b[0] = <int16_t>x


cdef int _gen_blocks(search_t* s, pair_t* out, int nt) noexcept nogil:
    """Pairs that meet every opponent threat (s.threats[:nt]): every forced pair,
    and for a stone that blocks alone the best ``width`` second stones."""
    cdef block_t blocks[MAX_BLOCKS]
    cdef int nb = blocking_moves(s.threats, nt, blocks)
    cdef int color = s.pos.to_move
    cdef int k, i, n = 0, nfree = 0
    cdef int cap = s.prm.width + MAX_FORCED
    cdef pair_t* free_pairs = out + _stride(&s.prm)    # scratch: the next ply's list is not in use yet
    cdef score_t sc
    for k in range(nb):
        if blocks[k].y >= 0:
            sc = rt_delta_scan(&s.pos.rt, s.pos.cell, blocks[k].x, blocks[k].y, color, color, SCAN_INCREMENTAL)
            pairs_insert(out, &n, cap, sc, blocks[k].x, blocks[k].y)
        else:
            nfree = gen_pairs_with(&s.pos, s.mg, blocks[k].x, s.prm.radius, s.prm.width, color,
                                   free_pairs, nfree)
    for i in range(nfree):
        _insert_new(out, &n, cap, free_pairs[i].score, free_pairs[i].a, free_pairs[i].b)
    return n


cdef void _zone_add_line(search_t* s) noexcept nogil:
    """Add the cells of the VCDT line just found to the threat zone."""
    cdef int k, j, c
    for k in range(s.tss.line_len):
        for j in range(2):
            c = s.tss.line[k][j]
            if c >= 0 and not bb_test(&s.zone, c):
                bb_set(&s.zone, c)
                s.zone_grew = True


cdef int _counter_threats(search_t* s, const int16_t* zone, int nz, pair_t* out) noexcept nogil:
    """The best MAX_COUNTER_PAIRS root pairs that make a threat of the mover's
    own (one of its live roads reaches 4 or 5 stones): the opponent must answer
    it first, which can break an attack that no stone in the zone stops.
    Two empty cells of a live 2- or 3-road, or an empty cell of a live 3-road
    with an empty zone cell."""
    cdef int mover = s.pos.to_move, w, r, i, j, k, ne, n = 0
    cdef int16_t e[ROAD_LEN]
    cdef uint64_t bits
    for w in range(ROAD_WORDS):
        bits = s.pos.rt.build_roads[mover][w]
        while bits:
            r = (w << 6) + <int>__builtin_ctzll(bits)
            bits &= bits - 1
            ne = 0
            for j in range(ROAD_LEN):
                if s.pos.cell[geo.road_cells[r][j]] == EMPTY:
                    e[ne] = geo.road_cells[r][j]
                    ne += 1
            for i in range(ne):
                for j in range(i + 1, ne):
                    _insert_new(out, &n, MAX_COUNTER_PAIRS,
                                pair_score(&s.pos, e[i], e[j], mover, mover), e[i], e[j])
                if code_count(s.pos.rt.code[r], mover) == 3:
                    for k in range(nz):
                        if zone[k] != e[i]:
                            _insert_new(out, &n, MAX_COUNTER_PAIRS,
                                        pair_score(&s.pos, e[i], zone[k], mover, mover), e[i], zone[k])
    return n


cdef inline void _insert_new(pair_t* out, int* n, int cap, score_t sc, int x, int y) noexcept nogil:
    """pairs_insert the pair {x, y}, unless it is in the list already."""
    cdef int i
    cdef int a = x if x < y else y, b = y if x < y else x
    for i in range(n[0]):
        if out[i].a == a and out[i].b == b:
            return
    pairs_insert(out, n, cap, sc, a, b)


cdef void _build_zone_pairs(search_t* s) noexcept nogil:
    """Root pairs against the opponent's threat zone: a zone cell and its best
    partners (which include the other zone cells near the stones), the best
    MAX_ZONE_PAIRS by pair score; then counter-threats (see _counter_threats)."""
    cdef int16_t zone[NUM_CELLS]
    cdef pair_t counter[MAX_COUNTER_PAIRS]
    cdef int nz, i, nc, m = 0, color = s.pos.to_move
    s.n_root_extra = 0
    nz = bb_to_array(&s.zone, zone)
    for i in range(nz):
        if s.pos.cell[zone[i]] == EMPTY:
            zone[m] = zone[i]
            m += 1
    for i in range(m):
        s.n_root_extra = gen_pairs_with(&s.pos, s.mg, zone[i], s.prm.radius, MAX_ZONE_PAIRS, color,
                                        s.root_extra, s.n_root_extra)
    nc = _counter_threats(s, zone, m, counter)
    s.n_root_extra = _append_new(s.root_extra, s.n_root_extra, counter, nc)
    s.zone_grew = False


cdef int _append_new(pair_t* dst, int n, const pair_t* src, int nsrc) noexcept nogil:
    """Append to dst[0:n] the pairs of src[0:nsrc] it does not hold yet; the new length."""
    cdef int i, j
    cdef bint dup
    for i in range(nsrc):
        dup = False
        for j in range(n):
            if dst[j].a == src[i].a and dst[j].b == src[i].b:
                dup = True
                break
        if not dup:
            dst[n] = src[i]
            n += 1
    return n


cdef inline int _merge_root_extra(search_t* s, pair_t* pairs, int n) noexcept nogil:
    """Append the zone and counter-threat pairs that are not in the root list yet."""
    return _append_new(pairs, n, s.root_extra, s.n_root_extra)


cdef enum:
    ROOT_TSS_PERCENT = 20       # share of a timed move for the root's own VCDT (and as much again for
                                # the opponent's null-move VCDT): the rest is for alpha-beta
    RESIST_PERCENT = 15         # share kept back, when the opponent threatens a VCDT, for _resist
    RESIST_BUDGET = 20000       # VCDT nodes to clear one alternative in _resist

cdef double ROOT_TSS_SHARE = ROOT_TSS_PERCENT / 100.0
cdef double RESIST_SHARE = RESIST_PERCENT / 100.0


cdef inline double _root_deadline(const search_t* s, double share) noexcept nogil:
    """In a timed search, a root VCDT search stops after ``share`` of the
    move's time from now (0: no clock, the node budget alone)."""
    if s.prm.time_limit <= 0:
        return 0.0
    return now() + share * s.prm.time_limit


cdef int _vcdt_after(search_t* s, int a, int b, int64_t budget, double deadline) noexcept nogil:
    """The opponent's VCDT after the mover plays {a, b}: 1 win, 0 none, -1 unknown."""
    cdef int r
    pos_make_pair(&s.pos, a, b)
    r = vcdt(&s.tss, &s.pos, s.pos.to_move, s.prm.tss_depth, budget, deadline)
    pos_undo_pair(&s.pos, a, b)
    return r


cdef bint _resist(search_t* s) noexcept nogil:
    """The opponent threatens a VCDT, or every root move lost in the
    width-limited tree (which proves little unless the opponent's VCDT follows
    the move at once).  If the solver, with the root's budget, finds the
    opponent a VCDT after the chosen move (s.follow[0]), play instead the first
    root move, pairs against the threat zone and counter-threats first, after
    which it finds none; True if the move changed.  Spends what is left of the
    move's time; the VCDT checks inside the search have a smaller budget."""
    cdef pair_t* pairs = s.pairs
    cdef int n, nw, k, i
    cdef double deadline = s.start + s.prm.time_limit if s.prm.time_limit > 0 else 0.0
    if _vcdt_after(s, s.follow[0][0], s.follow[0][1], s.prm.tss_root_budget, deadline) != 1:
        return False
    nw = gen_moves(&s.pos, s.mg, s.prm.radius, s.prm.width, s.prm.scan, s.pos.to_move, pairs)
    n = _merge_root_extra(s, pairs, nw)
    for k in range(n):
        i = nw + k if k < n - nw else k - (n - nw)          # the extra pairs first
        if pairs[i].a == s.follow[0][0] and pairs[i].b == s.follow[0][1]:
            continue
        if deadline > 0 and now() >= deadline:
            break
        if _vcdt_after(s, pairs[i].a, pairs[i].b, RESIST_BUDGET, deadline) == 0:
            s.follow[0][0] = pairs[i].a
            s.follow[0][1] = pairs[i].b
            return True
    return False


cdef bint _root_vcdt(search_t* s) noexcept nogil:
    """The side to move's own VCDT, once per search: True on a win (its line is
    the PV).  A win now (a live 4 or 5) is left to the search itself."""
    cdef int k, mover = s.pos.to_move
    if (not s.tss_on or stones_to_place(&s.pos) != 2 or has_threat(&s.pos, mover)
            or s.prm.tss_root_budget <= 0):
        return False
    if vcdt(&s.tss, &s.pos, mover, s.prm.tss_depth, s.prm.tss_root_budget,
            _root_deadline(s, ROOT_TSS_SHARE)) != 1:
        return False
    s.follow_len = 0
    for k in range(s.tss.line_len):             # the line is the PV, up to a turn with no defence
        if s.tss.line[k][0] < 0 or s.follow_len > MAX_PLY:
            break
        s.follow[s.follow_len][0] = s.tss.line[k][0]
        s.follow[s.follow_len][1] = s.tss.line[k][1]
        s.follow_len += 1
    return True


cdef void _root_zone(search_t* s) noexcept nogil:
    """If the opponent, moving now, would have a VCDT win, its line is the
    first threat zone and the root also searches pairs against it."""
    cdef int mover = s.pos.to_move
    cdef int r
    if has_threat(&s.pos, mover) or has_threat(&s.pos, 1 - mover) or stones_to_place(&s.pos) != 2:
        return
    pos_set_to_move(&s.pos, 1 - mover)
    r = vcdt(&s.tss, &s.pos, 1 - mover, s.prm.tss_depth, s.prm.tss_root_budget,
             _root_deadline(s, ROOT_TSS_SHARE))
    if r == 1:
        _zone_add_line(s)
    pos_set_to_move(&s.pos, mover)
    if s.zone_grew:
        _build_zone_pairs(s)


cdef bint _tss_win(search_t* s, int ply, int mover) noexcept nogil:
    """Run VCDT for the side to move if this ply calls for it; True on a win
    (the PV holds its first pair).  The clock cuts a search short (no win
    found) even in the first iteration."""
    cdef int64_t budget
    cdef int r
    if not s.tss_on or stones_to_place(&s.pos) != 2 or ply == 0:
        return False                    # the root's own VCDT runs once, before the iterations
    if ply < s.prm.tss_plies:
        budget = s.prm.tss_budget
    else:
        budget = s.prm.tss_leaf_budget
    if budget <= 0:
        return False
    r = vcdt(&s.tss, &s.pos, mover, s.prm.tss_depth, budget, s.deadline if s.prm.time_limit > 0 else 0.0)
    if r == 1:
        if ply == 1 and s.prm.defend:
            _zone_add_line(s)
        _pv_single(s, ply, s.tss.line[0][0], s.tss.line[0][1])
        return True
    if r < 0 and s.clock_armed:
        _out_of_time(s)
    return False


cdef score_t negamax(search_t* s, int depth, int ply, score_t alpha, score_t beta) noexcept nogil:
    """Value of the position for the side to move, searched ``depth`` turns."""
    cdef pair_t* pairs
    cdef int n, i, mover, nt = 0, h = 0, front, best_i, r
    cdef score_t v, best, orig_alpha = alpha, top
    cdef int16_t a, b, tt_a = -1, tt_b = -1
    cdef tt_entry_t* e
    s.nodes += 1
    s.pv_len[ply] = 0
    if s.clock_armed and _out_of_time(s):
        return 0
    mover = s.pos.to_move
    if s.prm.threats:
        if has_threat(&s.pos, mover):
            _win_pair(s, &a, &b)
            _pv_single(s, ply, a, b)
            return WIN_SCORE - (ply + 1)
        nt = collect_threats(&s.pos, 1 - mover, s.threats)
        h = blocking_number(s.threats, nt)
        if h >= 3 and ply > 0:
            return -(WIN_SCORE - (ply + 2))     # any turn: the opponent makes six next
    if depth == 0 or ply >= MAX_PLY:
        if _tss_win(s, ply, mover):
            return WIN_SCORE - (ply + s.tss.line_len)
        s.leaves += 1
        return -rt_eval(&s.pos.rt, 1 - mover)
    if s.tt_on:
        e = tt_probe(&s.tt, s.pos.key)
        if e != NULL:
            tt_a = e.a
            tt_b = e.b
            if e.depth >= depth and ply > 0:
                v = score_from_tt(e.score, ply)
                if (e.flag == TT_EXACT or (e.flag == TT_LOWER and v >= beta)
                        or (e.flag == TT_UPPER and v <= alpha)):
                    if tt_a >= 0:
                        _pv_single(s, ply, tt_a, tt_b)
                    return v
    if _tss_win(s, ply, mover):
        return WIN_SCORE - (ply + s.tss.line_len)
    if s.stop:
        return 0
    pairs = s.pairs + ply * _stride(&s.prm)
    if s.prm.threats and 0 < h < 3 and stones_to_place(&s.pos) == 2:
        n = _gen_blocks(s, pairs, nt)
    else:
        n = gen_moves(&s.pos, s.mg, s.prm.radius, s.prm.width, s.prm.scan, mover, pairs)
        if ply == 0:
            n = _merge_root_extra(s, pairs, n)
    if n == 0:
        return 0                                   # full board: a draw
    front = 0
    if s.following:
        if ply < s.follow_len:
            front = _promote(pairs, n, front, s.follow[ply][0], s.follow[ply][1])
        if front == 0:
            s.following = False
    if s.tt_on:
        front = _promote(pairs, n, front, tt_a, tt_b)
    if s.prm.killers:
        front = _promote(pairs, n, front, s.killer[ply][0][0], s.killer[ply][0][1])
        front = _promote(pairs, n, front, s.killer[ply][1][0], s.killer[ply][1][1])
    if depth == 1 and not s.prm.threats and not s.pos.rt.split_weights and rt_threat_roads(&s.pos.rt, mover) == 0:
        # No pair can make six, and each child's value is V(mover) + its pair
        # score: the best child is the first pair with the highest score.
        best_i = 0
        top = pairs[0].score
        for i in range(1, n):
            if pairs[i].score > top:
                top = pairs[i].score
                best_i = i
        s.nodes += 1
        s.leaves += 1
        s.following = False
        _pv_single(s, ply, pairs[best_i].a, pairs[best_i].b)
        return rt_eval(&s.pos.rt, mover) + top
    best = -INF_SCORE
    best_i = -1
    for i in range(n):
        pos_make_pair(&s.pos, pairs[i].a, pairs[i].b)
        if pos_winner(&s.pos) == mover:
            v = WIN_SCORE - (ply + 1)
            s.nodes += 1
            s.pv_len[ply + 1] = 0
        else:
            v = -negamax(s, depth - 1, ply + 1, -beta, -alpha)
        pos_undo_pair(&s.pos, pairs[i].a, pairs[i].b)
        s.following = False
        if s.stop:
            return 0
        if ply == 0:
            s.root_done += 1
            if v > best:
                s.root_best[0] = pairs[i].a
                s.root_best[1] = pairs[i].b
                s.root_best_value = v
        if v > best:
            best = v
            best_i = i
            _pv_set(s, ply, pairs[i].a, pairs[i].b)
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    if s.prm.killers and not (pairs[i].a == s.killer[ply][0][0] and pairs[i].b == s.killer[ply][0][1]):
                        s.killer[ply][1][0] = s.killer[ply][0][0]
                        s.killer[ply][1][1] = s.killer[ply][0][1]
                        s.killer[ply][0][0] = pairs[i].a
                        s.killer[ply][0][1] = pairs[i].b
                    break
    if s.tt_on:
        tt_store(&s.tt, s.pos.key, depth,
                 TT_UPPER if best <= orig_alpha else (TT_LOWER if best >= beta else TT_EXACT),
                 score_to_tt(best, ply), pairs[best_i].a, pairs[best_i].b)
    return best


cdef int search_run(search_t* s, int16_t* best, score_t* score, int* depth_done) noexcept nogil:
    """Search to ``prm.depth`` (iteratively if asked or timed); the deepest finished
    iteration's move, score and PV.  Returns the PV length (0: no move)."""
    cdef int d, first, k, rounds, pv_len = 0
    cdef bint defending = False
    cdef score_t v, lo, hi
    s.start = now()
    s.deadline = s.start + s.prm.time_limit
    s.stop = False
    s.follow_len = 0
    depth_done[0] = 0
    first = 1 if (s.prm.iterative or s.prm.time_limit > 0) else s.prm.depth
    if _root_vcdt(s):
        score[0] = WIN_SCORE - s.tss.line_len
        depth_done[0] = 1
        best[0] = s.follow[0][0]
        best[1] = s.follow[0][1]
        return s.follow_len
    if s.prm.defend and s.tss_on:
        _root_zone(s)
        defending = s.n_root_extra > 0          # the opponent, moving now, would win by VCDT
        if defending and s.prm.time_limit > 0:
            s.deadline = s.start + (1.0 - RESIST_SHARE) * s.prm.time_limit
    rounds = 0
    d = first
    while d <= s.prm.depth:
        s.clock_armed = s.prm.time_limit > 0 and d > first
        lo = -INF_SCORE
        hi = INF_SCORE
        if s.prm.aspiration > 0 and d > first and not _forced(score[0]):
            lo = score[0] - s.prm.aspiration
            hi = score[0] + s.prm.aspiration
        while True:
            s.following = s.follow_len > 0
            s.root_done = 0
            v = negamax(s, d, 0, lo, hi)
            if s.stop or (lo < v < hi) or (lo == -INF_SCORE and hi == INF_SCORE):
                break
            lo = -INF_SCORE                 # outside the window: search again with a full one
            hi = INF_SCORE
        if s.stop:
            # An unfinished iteration: its first root move is the previous best;
            # a later one that finished with a higher value is better at this
            # depth, so it is played (the depth reported stays the last full one).
            if (s.root_done >= 2 and pv_len > 0 and lo == -INF_SCORE
                    and not (s.root_best[0] == s.follow[0][0] and s.root_best[1] == s.follow[0][1])):
                s.follow[0][0] = s.root_best[0]
                s.follow[0][1] = s.root_best[1]
                s.follow_len = 1
                pv_len = 1
                score[0] = s.root_best_value
            break
        if s.pv_len[0] == 0:
            break
        score[0] = v
        depth_done[0] = d
        pv_len = s.pv_len[0]
        for k in range(pv_len):
            s.follow[k][0] = s.pv[0][k][0]
            s.follow[k][1] = s.pv[0][k][1]
        s.follow_len = pv_len
        if s.prm.time_limit > 0 and now() >= s.deadline:
            break
        if v <= -(WIN_SCORE - 1000) and s.zone_grew and rounds < ZONE_ROUNDS:
            # every move lost: search again with pairs against the refutations seen
            _build_zone_pairs(s)
            rounds += 1
            continue
        if _forced(v):
            break                           # a forced result does not change with depth
        d += 1
    if (pv_len and s.tss_on and s.prm.defend and stones_to_place(&s.pos) == 2
            and (defending or score[0] <= -(WIN_SCORE - 1000)) and _resist(s)):
        pv_len = 1
    best[0] = s.follow[0][0] if pv_len else -1
    best[1] = s.follow[0][1] if pv_len else -1
    return pv_len


# ----------------------------------------------------------------- Python view
cdef class SearchContext:
    """The C tables of a search, kept between searches.

    An :class:`connect6.Engine` owns one: its transposition table and VCDT
    table carry over from move to move in timed play.  Not for use by two
    threads at once (the Engine holds a lock around it).
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


def search(Position pos, int depth, int width=10, int radius=2, int scan=SCAN_INCREMENTAL,
           double time_limit=0.0, bint iterative=False, bint threats=False, int tss_plies=0,
           int tss_depth=10, long tss_budget=20000, long tss_root_budget=200000, long tss_leaf_budget=0,
           bint defend=False,
           int tt_bits=0, bint killers=False, long long aspiration=0, SearchContext context=None,
           bint keep_tables=False):
    """Search ``pos`` for the side to move.

    Returns a dict: ``move`` (a, b) with b = -1 for one stone, ``score``,
    ``pv`` [(a, b), ...], ``depth`` (deepest finished iteration), ``nodes``,
    ``leaves``, ``tss_nodes``, ``time_s``.  With a ``context`` its tables are
    reused, and kept from earlier searches if ``keep_tables``; otherwise the
    search starts from empty tables (so a fixed-depth search is reproducible).
    Raises ValueError for bad arguments.
    """
    if depth < 1 or depth > MAX_PLY:
        raise ValueError(f"depth must be 1..{MAX_PLY}, not {depth}")
    if width < 1:
        raise ValueError(f"width must be >= 1, not {width}")
    if radius < 1:
        raise ValueError(f"radius must be >= 1, not {radius}")
    if scan not in (SCAN_GLOBAL, SCAN_LOCAL, SCAN_INCREMENTAL):
        raise ValueError(f"unknown scan code {scan}")
    if time_limit != time_limit or time_limit < 0:
        raise ValueError(f"time limit must be >= 0 seconds, not {time_limit}")
    if not 0 <= tt_bits <= 30:
        raise ValueError(f"tt_bits must be 0..30, not {tt_bits}")
    if tss_plies < 0 or tss_depth < 1 or tss_budget < 0 or tss_root_budget < 0 or tss_leaf_budget < 0:
        raise ValueError("tss_plies must be >= 0, tss_depth >= 1 and the VCDT budgets >= 0")
    if aspiration < 0:
        raise ValueError("aspiration must be >= 0")
    cdef search_params_t prm
    prm.depth = depth
    prm.width = width
    prm.radius = radius
    prm.scan = scan
    prm.time_limit = time_limit
    prm.iterative = iterative
    prm.threats = threats
    prm.tss_plies = tss_plies
    prm.tss_depth = tss_depth
    prm.tss_budget = tss_budget
    prm.tss_root_budget = tss_root_budget
    prm.tss_leaf_budget = tss_leaf_budget
    prm.defend = defend
    prm.tt_bits = tt_bits
    prm.killers = killers
    prm.aspiration = aspiration
    if context is None:
        context = SearchContext()
        keep_tables = False
    cdef search_t* s = context.s
    cdef int16_t best[2]
    cdef score_t score = 0
    cdef int depth_done = 0, pv_len = 0, rc
    cdef double elapsed
    with nogil:
        rc = search_init(s, &pos.pos, &prm)
        if rc == 0 and not keep_tables:
            search_clear_tables(s)
    if rc != 0:
        raise MemoryError("not enough memory for the search tables")
    with nogil:
        pv_len = search_run(s, best, &score, &depth_done)
        elapsed = now() - s.start
    if pv_len == 0:
        raise ValueError("no move to search: the board is full")
    return {
        "move": (best[0], best[1]),
        "score": score,
        "pv": [(s.follow[k][0], s.follow[k][1]) for k in range(pv_len)],
        "depth": depth_done,
        "nodes": s.nodes,
        "leaves": s.leaves,
        "tss_nodes": s.tss.nodes if s.tss_on else 0,
        "time_s": elapsed,
        "pairs_scored": s.mg.pairs_scored,
    }


WIN = WIN_SCORE
MAX_DEPTH = MAX_PLY
