# cython: language_level=3
"""Threat-space search in alpha-beta and the root's defence (see defence.pxd)."""
from libc.stdint cimport int16_t, int64_t

from engine_core.bitboard cimport bb_andnot, bb_is_empty, bb_or, bb_set, bb_to_array, bb_zero, bitboard_t
from engine_core.clock cimport now
from engine_core.geometry cimport NUM_CELLS, ROAD_LEN
from engine_core.movegen cimport (
    append_new, gen_moves, gen_pairs_with, insert_new, pair_score, pairs_insert, stones_to_place,
)
from engine_core.position cimport (
    pos_build_roads, pos_pair_delta, pos_is_empty, pos_make_pair, pos_road_count, pos_road_empties, pos_set_to_move,
    pos_undo_pair,
)
from engine_core.search_state cimport (
    MAX_COUNTER_PAIRS, MAX_FORCED, MAX_PLY, MAX_ROOT_EXTRA, MAX_ZONE_PAIRS, ply_stride, pv_single,
)
from engine_core.threats cimport MAX_BLOCKS, block_t, blocking_moves, blocking_number, collect_threats, has_threat
from engine_core.tss cimport vcdt, vct
from engine_core.timeman cimport move_deadline, out_of_time, root_tss_cap, root_tss_deadline, search_deadline
from engine_core.types cimport pair_index, road_walk_t, walk_next, walk_start

cdef enum:
    RESIST_BUDGET = 20000       # VCDT nodes to clear one alternative in resist()


cdef void _zone_of_line(search_t* s, bitboard_t* zone) noexcept nogil:
    """The cells of the VCDT line just found, as a bitboard."""
    cdef int k, j, c
    bb_zero(zone)
    for k in range(s.tss.line_len):
        for j in range(2):
            c = s.tss.line[k][j]
            if c >= 0:
                bb_set(zone, c)


cdef void _zone_add_line(search_t* s) noexcept nogil:
    """Add the cells of the VCDT line just found to the threat zone."""
    cdef bitboard_t line, new_cells
    _zone_of_line(s, &line)
    bb_andnot(&new_cells, &line, &s.zone)
    if not bb_is_empty(&new_cells):
        bb_or(&s.zone, &s.zone, &line)
        s.zone_grew = True


cdef int _counter_threats(search_t* s, const int16_t* zone, int nz, pair_t* out) noexcept nogil:
    """The best MAX_COUNTER_PAIRS root pairs that make a threat of the mover's
    own (one of its live roads reaches 4 or 5 stones): the opponent must answer
    it first, which can break an attack that no stone in the zone stops.
    Two empty cells of a live 2- or 3-road, or an empty cell of a live 3-road
    with an empty zone cell."""
    cdef int mover = s.pos.to_move, r, i, j, k, ne, n = 0
    cdef int16_t e[ROAD_LEN]
    cdef road_walk_t it
    walk_start(&it, pos_build_roads(&s.pos, mover))
    r = walk_next(&it)
    while r >= 0:
        ne = pos_road_empties(&s.pos, r, e)
        for i in range(ne):
            for j in range(i + 1, ne):
                insert_new(out, &n, MAX_COUNTER_PAIRS, pair_score(&s.pos, e[i], e[j], mover, mover), e[i], e[j])
            if pos_road_count(&s.pos, r, mover) == 3:
                for k in range(nz):
                    if zone[k] != e[i]:
                        insert_new(out, &n, MAX_COUNTER_PAIRS,
                                   pair_score(&s.pos, e[i], zone[k], mover, mover), e[i], zone[k])
        r = walk_next(&it)
    return n


cdef int _zone_defences(search_t* s, const bitboard_t* zone_bb, pair_t* out) noexcept nogil:
    """Pairs for the side to move against a threat zone: a zone cell and its
    best partners (which include the other zone cells near the stones), the
    best MAX_ZONE_PAIRS by pair score; then counter-threats (see
    _counter_threats).  At most MAX_ROOT_EXTRA pairs go to ``out``; returns
    how many."""
    cdef int16_t zone[NUM_CELLS]
    cdef pair_t counter[MAX_COUNTER_PAIRS]
    cdef int nz, i, nc, n = 0, m = 0, color = s.pos.to_move
    nz = bb_to_array(zone_bb, zone)
    for i in range(nz):
        if pos_is_empty(&s.pos, zone[i]):
            zone[m] = zone[i]
            m += 1
    n = gen_pairs_with(&s.pos, s.mg, zone, m, s.opt.radius, MAX_ZONE_PAIRS, color, out, n)
    nc = _counter_threats(s, zone, m, counter)
    return append_new(out, n, counter, nc)


cdef void build_zone_pairs(search_t* s) noexcept nogil:
    """The root's pairs against the opponent's threat zone (see _zone_defences)."""
    s.n_root_extra = _zone_defences(s, &s.zone, s.root_extra)
    s.zone_grew = False


cdef int reply_zone_pairs(search_t* s, pair_t* pairs, int n) noexcept nogil:
    """At ply 1, the root mover's opponent to move and no threat on the
    board: if the root mover, moving again, would win by VCDT within
    ``reply_zone`` nodes, the opponent's pairs against that line's zone and
    its counter-threats (_zone_defences) join pairs[:n], as the root's do
    against the opponent's threat zone.  Without them the replies by pair
    score can all lose to the VCDT while a zone pair holds, and the search
    claims a win that is none.  Returns the new count."""
    cdef bitboard_t zone
    cdef pair_t extra[MAX_ROOT_EXTRA]
    cdef int r, mover = s.pos.to_move
    pos_set_to_move(&s.pos, 1 - mover)
    r = vcdt(&s.tss, &s.pos, 1 - mover, s.opt.tss_depth, s.opt.reply_zone, search_deadline(s))
    pos_set_to_move(&s.pos, mover)
    if r != 1:
        if r < 0 and s.clock_armed:
            out_of_time(s)
        return n
    _zone_of_line(s, &zone)
    return append_new(pairs, n, extra, _zone_defences(s, &zone, extra))


cdef inline int _pair_with(search_t* s, pair_t* pairs, int n, int cap, int x, int z) noexcept nogil:
    """Append {x, z} to pairs[:n], scored for the side to move, unless z is x
    or not empty, the pair is there already or the list holds ``cap``; the new count."""
    cdef int lo = x if x < z else z, hi = z if x < z else x, color = s.pos.to_move
    if z != x and pos_is_empty(&s.pos, z) and n < cap and pair_index(pairs, n, lo, hi) < 0:
        pairs[n].a = lo
        pairs[n].b = hi
        pairs[n].score = pair_score(&s.pos, x, z, color, color)
        n += 1
    return n


cdef int _lone_block_line(search_t* s, int x, int64_t budget, double deadline, pair_t* pairs, int* n,
                          int cap) noexcept nogil:
    """The mover places only ``x``, a stone that meets every opponent threat
    alone: the opponent's VCDT after it (1 win, 0 none, -1 unknown).  On a
    win, the pairs of ``x`` with every empty cell of the line found are
    appended to pairs[:n] (no repeats, at most ``cap`` in all)."""
    cdef bitboard_t line
    cdef int16_t cells[NUM_CELLS]
    cdef int i, nz, r, color = s.pos.to_move
    pos_make_pair(&s.pos, x, -1)
    r = vcdt(&s.tss, &s.pos, 1 - color, s.opt.tss_depth, budget, deadline)
    pos_undo_pair(&s.pos, x, -1)
    if r != 1:
        return r
    _zone_of_line(s, &line)
    nz = bb_to_array(&line, cells)
    for i in range(nz):
        n[0] = _pair_with(s, pairs, n[0], cap, x, cells[i])
    return 1


cdef int block_defence(search_t* s, int ply, int nt, pair_t* pairs, int n) noexcept nogil:
    """Below the root (0 < ply < defend_plies), at a node where one stone
    meets every opponent threat: the second stone of such a block is free,
    and the block's best partners by pair score may all leave the opponent
    a VCDT.  For each such stone, if the opponent (to move after it) would
    win by VCDT, the pairs of the stone with every empty cell of that line
    are added, and the children look for the opponent's VCDT.  Returns the
    node's new pair count."""
    cdef block_t blocks[MAX_BLOCKS]
    cdef int nb, k
    if not s.tss_on or not s.opt.defend or ply <= 0 or ply >= s.opt.defend_plies or s.opt.tss_budget <= 0:
        return n
    nb = blocking_moves(s.threats, nt, blocks)
    for k in range(nb):
        if blocks[k].y < 0 and _lone_block_line(s, blocks[k].x, s.opt.tss_budget, search_deadline(s), pairs, &n,
                                                ply_stride(&s.opt)) == 1:
            s.zone_node[ply] = True
    return n


cdef int merge_root_extra(search_t* s, pair_t* pairs, int n) noexcept nogil:
    """Append the zone and counter-threat pairs that are not in the root list yet."""
    return append_new(pairs, n, s.root_extra, s.n_root_extra)


cdef int _vcdt_after(search_t* s, int a, int b, int64_t budget, double deadline) noexcept nogil:
    """The opponent's VCDT after the mover plays {a, b}: 1 win, 0 none, -1 unknown."""
    cdef int r
    pos_make_pair(&s.pos, a, b)
    r = vcdt(&s.tss, &s.pos, s.pos.to_move, s.opt.tss_depth, budget, deadline)
    pos_undo_pair(&s.pos, a, b)
    return r


cdef bint resist(search_t* s, int a, int b, int16_t* alt) noexcept nogil:
    """The opponent threatens a VCDT, or every root move lost in the
    width-limited tree (which proves little unless the opponent's VCDT follows
    the move at once).  If the solver, with the root's budget, finds the
    opponent a VCDT after the chosen root pair {a, b}, find instead the first
    root pair, pairs against the threat zone and counter-threats first, after
    which it finds none: True with that pair in ``alt``.  Spends what is left of
    the move's time; the VCDT checks inside the search have a smaller budget."""
    cdef pair_t* pairs = s.pairs
    cdef int n, nw, k, i
    cdef double deadline = move_deadline(s)
    if _vcdt_after(s, a, b, s.opt.tss_root_budget, deadline) != 1:
        return False
    nw = gen_moves(&s.pos, s.mg, s.opt.radius, s.opt.width, s.opt.scan, s.pos.to_move, pairs)
    n = merge_root_extra(s, pairs, nw)
    for k in range(n):
        i = nw + k if k < n - nw else k - (n - nw)          # the extra pairs first
        if pairs[i].a == a and pairs[i].b == b:
            continue
        if deadline > 0 and now() >= deadline:
            break
        if _vcdt_after(s, pairs[i].a, pairs[i].b, RESIST_BUDGET, deadline) == 0:
            alt[0] = pairs[i].a
            alt[1] = pairs[i].b
            return True
    return False


cdef int _fours_win(search_t* s, int attacker, int64_t budget, double deadline) noexcept nogil:
    """A win with single fours for ``attacker`` (the side to move; no VCDT
    was found): one four allowed, then two, up to ``tss_fours``, each call
    with ``budget`` nodes.  The fewest fours first: allowing more makes every
    attacker turn branch more, so one search allowing many can spend its
    budget before reaching a win with one four that it would contain (game 11
    of the 50 s run in change-reply-fours.md: a win with two fours, 0.2
    million nodes, none with one).  1 (s.tss.line holds the line), 0 or -1
    (a budget ran out, or the deadline passed: then no more calls)."""
    cdef int f, r, result = 0
    for f in range(1, s.opt.tss_fours + 1):
        r = vct(&s.tss, &s.pos, attacker, s.opt.tss_depth, f, budget, deadline)
        if r == 1:
            return 1
        if r < 0:
            result = -1
            if deadline > 0 and now() >= deadline:
                break
    return result


cdef int _root_solve(search_t* s, int attacker) noexcept nogil:
    """The root's threat-space search for ``attacker`` (the side to move in
    s.pos): a VCDT, then, when none exists and ``tss_four_budget`` allows, a
    win with up to ``tss_fours`` single fours (tss.vct).  Both within one
    share of the move's time or node limit; the fours' budget grows with the
    move's time as the reply check's does, and with ``tss_root_grows`` the
    VCDT's too.
    1 (s.tss.line holds the line; after a single four the defender's entry
    is its lone block), 0, or -1 (stopped)."""
    cdef double deadline = root_tss_deadline(s)
    cdef int64_t budget = _timed_budget(s, s.opt.tss_root_budget) if s.opt.tss_root_grows else s.opt.tss_root_budget
    cdef int64_t whole = s.tss.cap
    cdef int r
    s.tss.cap = root_tss_cap(s)
    r = vcdt(&s.tss, &s.pos, attacker, s.opt.tss_depth, budget, deadline)
    if r == 0 and s.opt.tss_four_budget > 0:
        r = _fours_win(s, attacker, _timed_budget(s, s.opt.tss_four_budget), deadline)
    s.tss.cap = whole
    return r


cdef bint root_vcdt(search_t* s) noexcept nogil:
    """The side to move's own threat-space win (see _root_solve), once per
    search: True on a win, whose line is left in s.tss.line (root.pyx plays
    it).  A win now (a live 4 or 5) is left to the search itself."""
    cdef int mover = s.pos.to_move
    if (not s.tss_on or stones_to_place(&s.pos) != 2 or has_threat(&s.pos, mover)
            or s.opt.tss_root_budget <= 0):
        return False
    return _root_solve(s, mover) == 1


cdef void root_zone(search_t* s) noexcept nogil:
    """If the opponent, moving now, would have a threat-space win (see
    _root_solve), its line is the first threat zone and the root also
    searches pairs against it."""
    cdef int mover = s.pos.to_move
    cdef int r
    if has_threat(&s.pos, mover) or has_threat(&s.pos, 1 - mover) or stones_to_place(&s.pos) != 2:
        return
    pos_set_to_move(&s.pos, 1 - mover)
    r = _root_solve(s, 1 - mover)
    if r == 1:
        _zone_add_line(s)
    pos_set_to_move(&s.pos, mover)
    if s.zone_grew:
        build_zone_pairs(s)


cdef bint tss_win(search_t* s, int ply, int mover) noexcept nogil:
    """Run VCDT for the side to move if this ply calls for it; True on a win
    (the PV holds its first pair).  The clock cuts a search short (no win
    found) even in the first iteration."""
    cdef int64_t budget
    cdef int r
    if not s.tss_on or stones_to_place(&s.pos) != 2 or ply == 0:
        return False                    # the root's own VCDT runs once, before the iterations
    if (ply < s.opt.tss_plies or s.zone_node[ply - 1]
            or (s.block_node[ply - 1] and ply < s.opt.tss_block_plies)):     # the attack goes on after a block
        budget = s.opt.tss_reply_budget if ply == 1 else s.opt.tss_budget
    else:
        budget = s.opt.tss_leaf_budget
    if budget <= 0:
        return False
    r = vcdt(&s.tss, &s.pos, mover, s.opt.tss_depth, budget, search_deadline(s))
    if r == 1:
        if ply == 1 and s.opt.defend:
            _zone_add_line(s)
        pv_single(s, ply, s.tss.line[0][0], s.tss.line[0][1])
        return True
    if r < 0 and s.clock_armed:
        out_of_time(s)
    return False


cdef int64_t _timed_budget(const search_t* s, int64_t budget) noexcept nogil:
    """Solver nodes a call that grows with the move's time (``reply_four_budget``,
    ``tss_four_budget``, ``tss_root_budget`` with ``tss_root_grows``): ``budget``
    up to 3 s a move, in proportion to the move's time above (at most 10**15:
    a year a move cannot overflow it)."""
    cdef double scaled
    if s.lim.time > 3.0:
        scaled = budget * (s.lim.time / 3.0)
        return <int64_t>(scaled if scaled < 1e15 else 1e15)
    return budget


cdef int _side_to_move_wins(search_t* s, int64_t budget, double deadline, bint fours) noexcept nogil:
    """The side to move in s.pos (the root mover's opponent, in the reply
    check) wins by VCDT, or, with ``fours`` and ``reply_four_budget``, by
    threats with up to ``tss_fours`` single fours (tss.vct): 1 (s.tss.line
    holds the line), 0 none found, -1 unknown."""
    cdef int r = vcdt(&s.tss, &s.pos, s.pos.to_move, s.opt.tss_depth, budget, deadline)
    if r != 0 or not fours or s.opt.reply_four_budget <= 0:
        return r
    return _fours_win(s, s.pos.to_move, _timed_budget(s, s.opt.reply_four_budget), deadline)


cdef int _first_stopper(search_t* s, const pair_t* pairs, int n, int64_t budget, double deadline) noexcept nogil:
    """1 if one of the mover's ``pairs`` leaves the opponent no VCDT, 0 if
    every one does, -1 if the solver could not tell for one of them."""
    cdef int k, r
    for k in range(n):
        pos_make_pair(&s.pos, pairs[k].a, pairs[k].b)
        r = _side_to_move_wins(s, budget, deadline, False)
        pos_undo_pair(&s.pos, pairs[k].a, pairs[k].b)
        if r != 1:
            return 1 if r == 0 else -1
    return 0


cdef int _stops_threat(search_t* s, const bitboard_t* zone, pair_t* work, int64_t budget,
                       double deadline) noexcept nogil:
    """The side to move faces the opponent's VCDT threat (``zone``: its line)
    with no four to block: 1 if it has a VCDT of its own, or one of its pairs
    against the zone, its counter-threats or its best ``width`` pairs leaves
    the opponent no VCDT; 0 if none does; -1 unknown.  ``work``: a free pair
    list."""
    cdef int n, r
    r = vcdt(&s.tss, &s.pos, s.pos.to_move, s.opt.tss_depth, budget, deadline)
    if r != 0:
        return r
    n = _zone_defences(s, zone, work)
    n += gen_moves(&s.pos, s.mg, s.opt.radius, s.opt.width, s.opt.scan, s.pos.to_move, work + n)
    return _first_stopper(s, work, n, budget, deadline)


cdef int _stops_four(search_t* s, int nt, pair_t* work, int64_t budget, double deadline) noexcept nogil:
    """The side to move must block the opponent's threats (s.threats[:nt]): 1
    if a blocking pair leaves the opponent no VCDT, 0 if none does, -1
    unknown.  The pairs: the search's own blocks (gen_blocks; it uses the list
    after ``work`` as scratch), then each stone that blocks alone with every
    cell of the opponent's VCDT line after that stone alone."""
    cdef block_t blocks[MAX_BLOCKS]
    cdef int n, nb, k, r
    nb = blocking_moves(s.threats, nt, blocks)
    n = gen_blocks(s, work, nt, s.opt.width)
    r = _first_stopper(s, work, n, budget, deadline)
    if r != 0:
        return r
    for k in range(nb):
        if blocks[k].y >= 0:
            continue
        n = 0
        r = _lone_block_line(s, blocks[k].x, budget, deadline, work, &n, ply_stride(&s.opt))
        if r != 1:
            return 1 if r == 0 else -1
        r = _first_stopper(s, work, n, budget, deadline)
        if r != 0:
            return r
    return 0


cdef bint _reply_wins(search_t* s, pair_t* work, int64_t budget, double deadline) noexcept nogil:
    """The opponent's reply to the root pair is on the board (the root's
    mover to move): True if it wins by force, as reply_refutation tells."""
    cdef int mover = s.pos.to_move, opp = 1 - mover, nt, h
    cdef bitboard_t zone
    cdef int r
    if has_threat(&s.pos, mover):             # the mover makes six at once
        return False
    nt = collect_threats(&s.pos, opp, s.threats)
    h = blocking_number(s.threats, nt)
    if h >= 3:
        return True
    if h > 0:
        return _stops_four(s, nt, work, budget, deadline) == 0
    pos_set_to_move(&s.pos, opp)
    r = vcdt(&s.tss, &s.pos, opp, s.opt.tss_depth, budget, deadline)
    pos_set_to_move(&s.pos, mover)
    if r != 1:
        return False
    _zone_of_line(s, &zone)
    return _stops_threat(s, &zone, work, budget, deadline) == 0


cdef int reply_refutation(search_t* s, int a, int b, int16_t* reply) noexcept nogil:
    """Whether the root pair {a, b} loses to one of the opponent's best
    ``reply_check_width`` (0: ``width``) replies by force, as far as the
    solver (``opt.reply_check`` nodes a call) can tell:

    * the opponent wins by VCDT at once (the searches below the root try
      that with a smaller budget);
    * a reply that makes a four or five: the mover must block, and after
      every block pair (lone blocking stones paired with the cells of the
      opponent's line too) the opponent wins by VCDT;
    * with ``reply_four_budget``, the opponent's win at once may also hold
      single fours (tss.vct): a double threat whose every block loses to a
      four and a VCDT is seen (two levels deep).  Only there: the checks
      of the mover's answers below use VCDT alone (with vct in them the
      check took so much of a 2 s move that the search lost a turn of depth
      and 2-9 against the default, change-reply-vct.md);
    * a quiet reply: the opponent, if it moved again, would win by VCDT, and
      nothing the mover tries stops it (see _stops_threat).

    When {a, b} makes a four, the replies are the opponent's block pairs
    (gen_blocks): the block's free stone often makes the opponent's own four,
    and the mover's block of that four leaves a VCDT.

    The searches below the root look for the opponent's VCDT at ply 1 only,
    with a small budget, so these wins (from ply 3, or a single four and then
    a VCDT) are beyond them.  Returns 1 (refuted; the opponent's refuting
    turn in ``reply``: the reply, or the first turn of its VCDT), 0 (no
    refutation found) or -1 (the clock ran out).  Called at the root
    between children, so the pair lists of plies 1-3 are free to use."""
    cdef int stride = ply_stride(&s.opt)
    cdef pair_t* replies = s.pairs + stride
    cdef pair_t* work = s.pairs + 2 * stride
    cdef int mover = s.pos.to_move, opp = 1 - mover, n, k, nt, found = 0
    cdef int64_t budget = s.opt.reply_check
    cdef double deadline = search_deadline(s)
    reply[0] = -1
    reply[1] = -1
    pos_make_pair(&s.pos, a, b)
    if has_threat(&s.pos, opp) or stones_to_place(&s.pos) != 2:
        pos_undo_pair(&s.pos, a, b)           # the opponent wins at once: the search sees it
        return 0
    if _side_to_move_wins(s, budget, deadline, True) == 1:
        pos_undo_pair(&s.pos, a, b)
        reply[0] = s.tss.line[0][0]
        reply[1] = s.tss.line[0][1]
        return 1
    if has_threat(&s.pos, mover):
        # the pair makes a four: the replies are the opponent's blocks, whose
        # free stone may make a four of its own
        nt = collect_threats(&s.pos, mover, s.threats)
        if blocking_number(s.threats, nt) >= 3:
            pos_undo_pair(&s.pos, a, b)       # no block: the mover makes six next
            return 0
        n = gen_blocks(s, replies, nt, s.opt.width)
    else:
        n = gen_moves(&s.pos, s.mg, s.opt.radius,
                      s.opt.reply_check_width if s.opt.reply_check_width > 0 else s.opt.width,
                      s.opt.scan, opp, replies)
    for k in range(n):
        if deadline > 0 and now() >= deadline:
            found = -1
            break
        pos_make_pair(&s.pos, replies[k].a, replies[k].b)
        found = _reply_wins(s, work, budget, deadline)
        pos_undo_pair(&s.pos, replies[k].a, replies[k].b)
        if found:
            if found == 1:
                reply[0] = replies[k].a
                reply[1] = replies[k].b
            break
    pos_undo_pair(&s.pos, a, b)
    return found


cdef int gen_blocks(search_t* s, pair_t* out, int nt, int width) noexcept nogil:
    """Pairs that meet every opponent threat (s.threats[:nt]): every forced pair,
    and for a stone that blocks alone the best ``width`` second stones (the
    search's nodes: the ``width`` option), then, with ``block_partners``, its
    pairs with the cells where the second stone makes a four of the mover's
    own (_counter_fours).
    ``out`` holds ``width`` + MAX_FORCED + MAX_COUNTER_PAIRS pairs (within a
    ply's stride), and the list after it is scratch."""
    cdef block_t blocks[MAX_BLOCKS]
    cdef int16_t alone[MAX_BLOCKS]                          # stones that block alone
    cdef int nb = blocking_moves(s.threats, nt, blocks)
    cdef int color = s.pos.to_move
    cdef int k, i, n = 0, nalone = 0, nfree
    cdef int cap = width + MAX_FORCED
    cdef pair_t* free_pairs = out + ply_stride(&s.opt)    # scratch: the next ply's list is not in use yet
    for k in range(nb):
        if blocks[k].y >= 0:
            pairs_insert(out, &n, cap, pos_pair_delta(&s.pos, blocks[k].x, blocks[k].y, color),
                         blocks[k].x, blocks[k].y)
        else:
            alone[nalone] = blocks[k].x
            nalone += 1
    nfree = gen_pairs_with(&s.pos, s.mg, alone, nalone, s.opt.radius, width, color, free_pairs, 0)
    for i in range(nfree):
        insert_new(out, &n, cap, free_pairs[i].score, free_pairs[i].a, free_pairs[i].b)
    if s.opt.block_partners:
        cap = n + MAX_COUNTER_PAIRS
        for k in range(nalone):
            n = _counter_fours(s, alone[k], out, n, cap)
    return n


cdef int _counter_fours(search_t* s, int x, pair_t* out, int n, int cap) noexcept nogil:
    """Append to out[:n] (no repeats, at most ``cap`` in all) the pairs of
    ``x``, a stone that meets every opponent threat alone, with each cell
    where the mover's free stone makes a four of its own: an empty cell of a
    live road of the mover's that holds 3 of its stones with ``x``.  The
    opponent must then block before it goes on, so such a pair can hold
    where every pair by score loses, and a list without them can make a
    won-looking four that is not a win.  Returns the new count."""
    cdef int mover = s.pos.to_move, r, j, ne, cnt
    cdef int16_t e[ROAD_LEN]
    cdef road_walk_t it
    walk_start(&it, pos_build_roads(&s.pos, mover))
    r = walk_next(&it)
    while r >= 0 and n < cap:
        ne = pos_road_empties(&s.pos, r, e)
        cnt = pos_road_count(&s.pos, r, mover)
        for j in range(ne):
            if e[j] == x:
                cnt += 1
        if cnt == 3:
            for j in range(ne):
                n = _pair_with(s, out, n, cap, x, e[j])
        r = walk_next(&it)
    return n
