# cython: language_level=3
"""Threat-space search in alpha-beta and the root's defence (see defence.pxd)."""
from libc.stdint cimport int16_t, int64_t

from engine_core.bitboard cimport bb_andnot, bb_is_empty, bb_or, bb_set, bb_to_array, bb_zero, bitboard_t
from engine_core.clock cimport now
from engine_core.geometry cimport NUM_CELLS, ROAD_LEN
from engine_core.movegen cimport gen_moves, gen_pairs_with, pair_score, stones_to_place
from engine_core.movepick cimport append_new, insert_new
from engine_core.position cimport (
    pos_build_roads, pos_is_empty, pos_make_pair, pos_road_count, pos_road_empties, pos_set_to_move,
    pos_undo_pair,
)
from engine_core.search_state cimport MAX_COUNTER_PAIRS, MAX_PLY, MAX_ZONE_PAIRS, ply_stride, pv_single
from engine_core.threats cimport MAX_BLOCKS, block_t, blocking_moves, has_threat, vcdt
from engine_core.timeman cimport move_deadline, out_of_time, root_tss_deadline, search_deadline
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


cdef void build_zone_pairs(search_t* s) noexcept nogil:
    """Root pairs against the opponent's threat zone: a zone cell and its best
    partners (which include the other zone cells near the stones), the best
    MAX_ZONE_PAIRS by pair score; then counter-threats (see _counter_threats)."""
    cdef int16_t zone[NUM_CELLS]
    cdef pair_t counter[MAX_COUNTER_PAIRS]
    cdef int nz, i, nc, m = 0, color = s.pos.to_move
    s.n_root_extra = 0
    nz = bb_to_array(&s.zone, zone)
    for i in range(nz):
        if pos_is_empty(&s.pos, zone[i]):
            zone[m] = zone[i]
            m += 1
    for i in range(m):
        s.n_root_extra = gen_pairs_with(&s.pos, s.mg, zone[i], s.opt.radius, MAX_ZONE_PAIRS, color,
                                        s.root_extra, s.n_root_extra)
    nc = _counter_threats(s, zone, m, counter)
    s.n_root_extra = append_new(s.root_extra, s.n_root_extra, counter, nc)
    s.zone_grew = False


cdef int block_defence(search_t* s, int ply, int nt, pair_t* pairs, int n) noexcept nogil:
    """Below the root (0 < ply < defend_plies), at a node where one stone
    meets every opponent threat: the second stone of such a block is free,
    and the block's best partners by pair score may all leave the opponent
    a VCDT.  For each such stone, if the opponent (to move after it) would
    win by VCDT, the pairs of the stone with every empty cell of that line
    are added, and the children look for the opponent's VCDT.  Returns the
    node's new pair count."""
    cdef block_t blocks[MAX_BLOCKS]
    cdef int16_t cells[NUM_CELLS]
    cdef bitboard_t zone
    cdef int nb, k, i, nz, x, z, lo, hi, r, color = s.pos.to_move
    cdef int cap = ply_stride(&s.opt)
    if not s.tss_on or not s.opt.defend or ply <= 0 or ply >= s.opt.defend_plies or s.opt.tss_budget <= 0:
        return n
    nb = blocking_moves(s.threats, nt, blocks)
    for k in range(nb):
        x = blocks[k].x
        if blocks[k].y >= 0:
            continue
        pos_make_pair(&s.pos, x, -1)
        r = vcdt(&s.tss, &s.pos, 1 - color, s.opt.tss_depth, s.opt.tss_budget, search_deadline(s))
        pos_undo_pair(&s.pos, x, -1)
        if r != 1:
            continue
        s.zone_node[ply] = True
        _zone_of_line(s, &zone)
        nz = bb_to_array(&zone, cells)
        for i in range(nz):
            z = cells[i]
            lo = x if x < z else z
            hi = z if x < z else x
            if z != x and pos_is_empty(&s.pos, z) and n < cap and pair_index(pairs, n, lo, hi) < 0:
                pairs[n].a = lo
                pairs[n].b = hi
                pairs[n].score = pair_score(&s.pos, x, z, color, color)
                n += 1
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


cdef bint resist(search_t* s) noexcept nogil:
    """The opponent threatens a VCDT, or every root move lost in the
    width-limited tree (which proves little unless the opponent's VCDT follows
    the move at once).  If the solver, with the root's budget, finds the
    opponent a VCDT after the chosen move (s.follow[0]), play instead the first
    root move, pairs against the threat zone and counter-threats first, after
    which it finds none; True if the move changed.  Spends what is left of the
    move's time; the VCDT checks inside the search have a smaller budget."""
    cdef pair_t* pairs = s.pairs
    cdef int n, nw, k, i
    cdef double deadline = move_deadline(s)
    if _vcdt_after(s, s.follow[0][0], s.follow[0][1], s.opt.tss_root_budget, deadline) != 1:
        return False
    nw = gen_moves(&s.pos, s.mg, s.opt.radius, s.opt.width, s.opt.scan, s.pos.to_move, pairs)
    n = merge_root_extra(s, pairs, nw)
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


cdef bint root_vcdt(search_t* s) noexcept nogil:
    """The side to move's own VCDT, once per search: True on a win (its line is
    the PV).  A win now (a live 4 or 5) is left to the search itself."""
    cdef int k, mover = s.pos.to_move
    if (not s.tss_on or stones_to_place(&s.pos) != 2 or has_threat(&s.pos, mover)
            or s.opt.tss_root_budget <= 0):
        return False
    if vcdt(&s.tss, &s.pos, mover, s.opt.tss_depth, s.opt.tss_root_budget, root_tss_deadline(s)) != 1:
        return False
    s.follow_len = 0
    for k in range(s.tss.line_len):             # the line is the PV, up to a turn with no defence
        if s.tss.line[k][0] < 0 or s.follow_len > MAX_PLY:
            break
        s.follow[s.follow_len][0] = s.tss.line[k][0]
        s.follow[s.follow_len][1] = s.tss.line[k][1]
        s.follow_len += 1
    return True


cdef void root_zone(search_t* s) noexcept nogil:
    """If the opponent, moving now, would have a VCDT win, its line is the
    first threat zone and the root also searches pairs against it."""
    cdef int mover = s.pos.to_move
    cdef int r
    if has_threat(&s.pos, mover) or has_threat(&s.pos, 1 - mover) or stones_to_place(&s.pos) != 2:
        return
    pos_set_to_move(&s.pos, 1 - mover)
    r = vcdt(&s.tss, &s.pos, 1 - mover, s.opt.tss_depth, s.opt.tss_root_budget, root_tss_deadline(s))
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
    if ply < s.opt.tss_plies or s.zone_node[ply - 1]:
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
