# cython: language_level=3
"""Threat-space search: double threats and single fours (see tss.pxd)."""
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from engine_core.clock cimport now
from engine_core.geometry cimport BOARD_SIZE, LINE_REACH, NUM_CELLS, ROAD_LEN, geometry_t, get_geometry, road_has
from engine_core.portable cimport ctz64
from engine_core.position cimport Position, pos_make_pair, pos_undo_pair
from engine_core.roads cimport EMPTY, code_count, live_count, rt_live_roads
from engine_core.threats cimport (
    MAX_BLOCKS, MAX_THREATS, add_threat_after, block_t, blocking_moves, blocking_number, collect_threats,
    has_threat, number_of_ways, winning_stones,
)
from engine_core.types cimport flag_get, road_walk_t, walk_next, walk_start

cdef const geometry_t* geo = get_geometry()


# ----------------------------------------------------------------- VCDT
cdef int tss_alloc(tss_t* t, int tt_bits) noexcept nogil:
    """Allocate a solver's tables; 0 on success, -1 when out of memory."""
    t.tt_mask = ((<uint64_t>1) << tt_bits) - 1
    t.tt = <tss_entry_t*>calloc(t.tt_mask + 1, sizeof(tss_entry_t))
    t.threats = <threat_t*>malloc(MAX_THREATS * sizeof(threat_t))
    t.attacks = <attack_t*>malloc((MAX_TSS_DEPTH + 1) * MAX_ATTACKS * sizeof(attack_t))
    t.mark = <int16_t*>calloc(NUM_CELLS, sizeof(int16_t))
    t.live = <live_cache_t*>calloc(1, sizeof(live_cache_t))
    t.nodes = 0
    t.line_len = 0
    t.aborted = False
    t.stop_flag = NULL
    if t.tt == NULL or t.threats == NULL or t.attacks == NULL or t.mark == NULL or t.live == NULL:
        tss_free(t)
        return -1
    return 0


cdef void tss_free(tss_t* t) noexcept nogil:
    free(t.tt)
    free(t.threats)
    free(t.attacks)
    free(t.mark)
    free(t.live)
    t.live = NULL
    t.tt = NULL
    t.threats = NULL
    t.attacks = NULL
    t.mark = NULL


cdef void tss_clear(tss_t* t) noexcept nogil:
    memset(t.tt, 0, (t.tt_mask + 1) * sizeof(tss_entry_t))
    t.nodes = 0


cdef inline void _tt_store(tss_t* t, uint64_t key, int depth, int fours, int result, int a, int b) noexcept nogil:
    cdef tss_entry_t* e = &t.tt[key & t.tt_mask]
    e.key = key
    e.depth = <int8_t>depth
    e.fours = <int8_t>fours
    e.result = <int8_t>result
    e.a = <int16_t>a
    e.b = <int16_t>b


cdef enum:
    CLOCK_EVERY = 256           # solver nodes between readings of the clock


cdef inline bint _stop(tss_t* t) noexcept nogil:
    if t.aborted:
        return True
    if t.budget > 0 and t.nodes - t.call_start >= t.budget:
        t.aborted = True
    elif t.nodes >= t.clock_at:
        t.clock_at = t.nodes + CLOCK_EVERY
        if (t.stop_flag != NULL and flag_get(t.stop_flag)) or (t.deadline > 0 and now() >= t.deadline):
            t.aborted = True
    return t.aborted


cdef inline bint _offset_near_on_line(int dr, int dc) noexcept nogil:
    """Whether a cell dr rows and dc columns from another lies on one line
    with it, at most 5 cells apart."""
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    if dr > LINE_REACH or dc > LINE_REACH:
        return False
    return dr == 0 or dc == 0 or dr == dc


cdef inline bint _near_on_line(int x, int y) noexcept nogil:
    """Whether x and y lie on one line at most 5 cells apart (so may share a road)."""
    return _offset_near_on_line(y // BOARD_SIZE - x // BOARD_SIZE, y % BOARD_SIZE - x % BOARD_SIZE)


cdef int _add_attack(attack_t* out, int n, int a, int b, int order) noexcept nogil:
    """Append (a, b) once (a < b); returns the new count."""
    cdef int i, lo = a if a < b else b, hi = b if a < b else a
    if n >= MAX_ATTACKS:
        return n
    for i in range(n):
        if out[i].a == lo and out[i].b == hi:
            return n
    out[n].a = <int16_t>lo
    out[n].b = <int16_t>hi
    out[n].order = <int16_t>order
    return n + 1


cdef void _live_next_node(live_cache_t* lc) noexcept nogil:
    """Forget every cell's list (a new node, or the position changed)."""
    lc.stamp += 1
    if lc.stamp == 0:                   # wrapped: no old stamp may match
        memset(lc.stamp_of, 0, sizeof(lc.stamp_of))
        memset(lc.fours_stamp, 0, sizeof(lc.fours_stamp))
        lc.stamp = 1


cdef void _live_list(live_cache_t* lc, const position_t* p, int att, int c) noexcept nogil:
    """Make the list of _live_roads for cell ``c`` at this node."""
    cdef int k, r, cnt, m = 0
    for k in range(geo.cell_nroads[c]):
        r = geo.cell_roads[c][k]
        cnt = live_count(p.rt.code[r], att)
        if cnt == 2 or cnt == 3:
            lc.roads[c][m] = <int16_t>(4 * r + cnt)
            m += 1
    lc.n[c] = <uint8_t>m
    lc.stamp_of[c] = lc.stamp


cdef inline const int16_t* _live_roads(live_cache_t* lc, const position_t* p, int att, int c,
                                       int* n) noexcept nogil:
    """The live roads of ``att`` through ``c`` holding 2 or 3 of its stones,
    each as 4 * road + count, in the order of geo.cell_roads[c]; made once
    per node and cell (_relevant_cells makes those of its cells)."""
    if lc.stamp_of[c] != lc.stamp:
        _live_list(lc, p, att, c)
    n[0] = lc.n[c]
    return lc.roads[c]


cdef inline const threat_t* _fours_of(live_cache_t* lc, const position_t* p, int att, int c,
                                      int* n) noexcept nogil:
    """The threats a stone of ``att`` at ``c`` alone would make (its live
    3-roads through c become fours), in the order of _live_roads; made once
    per node and cell."""
    cdef int k, nl, m = 0
    cdef const int16_t* lc_roads
    if lc.fours_stamp[c] != lc.stamp:
        lc_roads = _live_roads(lc, p, att, c, &nl)
        for k in range(nl):
            if (lc_roads[k] & 3) == 3:
                m = add_threat_after(p, lc_roads[k] >> 2, geo.road_cells[lc_roads[k] >> 2], c, c, lc.fours[c], m)
        lc.n_fours[c] = <uint8_t>m
        lc.fours_stamp[c] = lc.stamp
    n[0] = lc.n_fours[c]
    return lc.fours[c]


cdef int _threats_after(live_cache_t* lc, const position_t* p, int att, int x, int y,
                        threat_t* out) noexcept nogil:
    """The threat roads ``att`` would have after placing x and y, without placing
    them.  Precondition: ``att`` has no threat now (true at an attacker's node,
    which would otherwise be a win), so no live road of ``att`` holds 4 or 5
    stones, and a threat after the pair is a live 3-road through x or y, or a
    live 2-road through both; listed in the order of x's roads, then y's.
    The roads through each cell come from ``lc`` (valid for this position);
    when no road holds both cells, the threats are each cell's own fours."""
    cdef int k, r, cnt, nx, ny, n = 0
    cdef const int16_t* lx
    cdef const int16_t* ly
    cdef const threat_t* fx
    cdef const threat_t* fy
    if not _near_on_line(x, y):
        fx = _fours_of(lc, p, att, x, &nx)
        fy = _fours_of(lc, p, att, y, &ny)
        memcpy(out, fx, nx * sizeof(threat_t))
        memcpy(&out[nx], fy, ny * sizeof(threat_t))
        return nx + ny
    lx = _live_roads(lc, p, att, x, &nx)
    ly = _live_roads(lc, p, att, y, &ny)
    for k in range(nx):
        r = lx[k] >> 2
        cnt = lx[k] & 3
        if cnt == 3 or road_has(geo, r, y):
            n = add_threat_after(p, r, geo.road_cells[r], x, y, out, n)
    for k in range(ny):
        r = ly[k] >> 2
        if (ly[k] & 3) == 3 and not road_has(geo, r, x):
            n = add_threat_after(p, r, geo.road_cells[r], x, y, out, n)
    return n


cdef int _relevant_cells(tss_t* t, const position_t* p, int att, int16_t* rel) noexcept nogil:
    """The empty cells of the attacker's live 2- and 3-roads, into ``rel``;
    t.mark[c] becomes 1 + the number of 3-roads through c (the caller
    clears it).  Returns how many.  t.live starts a new node with the
    live-road list of every such cell made in the same walk (roads in
    increasing number, the order of geo.cell_roads, as _live_roads makes them)."""
    cdef int r, j, c, cnt, n_rel = 0
    cdef road_walk_t it
    cdef live_cache_t* lc = t.live
    _live_next_node(lc)
    walk_start(&it, p.rt.build_roads[att])
    r = walk_next(&it)
    while r >= 0:
        cnt = code_count(p.rt.code[r], att)
        for j in range(ROAD_LEN):
            c = geo.road_cells[r][j]
            if p.cell[c] == EMPTY:
                if t.mark[c] == 0:
                    t.mark[c] = 1
                    rel[n_rel] = <int16_t>c
                    n_rel += 1
                    lc.stamp_of[c] = lc.stamp
                    lc.n[c] = 0
                lc.roads[c][lc.n[c]] = <int16_t>(4 * r + cnt)
                lc.n[c] += 1
                if cnt == 3:
                    t.mark[c] += 1
        r = walk_next(&it)
    return n_rel


cdef enum:
    REL_WORDS = (NUM_CELLS + 63) // 64      # a set of places in rel, one bit each


cdef int _free_attacks(tss_t* t, const position_t* p, int att, const int16_t* rel, int n_rel,
                       attack_t* out) noexcept nogil:
    """Candidate pairs when the defender has no threat: pairs of relevant
    cells x, y (x before y in rel) that may make two threats: the 3-roads
    through either and the live 2-roads through both add up to 2 or more.
    Listed by x's place in rel, then y's; at most MAX_ATTACKS.  The pairs
    that need a shared 2-road are found by walking x's 2-roads, not by
    trying every y.  t.live must be valid for this position (see _live_roads)."""
    cdef int i, k, j, w, x, c, r, nlx, gx, n = 0
    cdef const int16_t* lx
    cdef uint64_t bits, upto
    cdef uint8_t g[NUM_CELLS]               # by place in rel: 3-roads through the cell
    cdef uint8_t shared[NUM_CELLS]          # by place in rel: x's 2-roads through the cell
    cdef int16_t place[NUM_CELLS]           # by cell: its place in rel (set for rel's cells only)
    cdef uint64_t one3[REL_WORDS]           # places with a 3-road
    cdef uint64_t two3[REL_WORDS]           # places with two or more
    cdef uint64_t cand[REL_WORDS]
    cdef int words = (n_rel + 63) >> 6
    for w in range(words):
        one3[w] = 0
        two3[w] = 0
    for i in range(n_rel):
        x = rel[i]
        g[i] = <uint8_t>(t.mark[x] - 1)
        shared[i] = 0
        place[x] = <int16_t>i
        if g[i] >= 1:
            one3[i >> 6] |= (<uint64_t>1) << (i & 63)
        if g[i] >= 2:
            two3[i >> 6] |= (<uint64_t>1) << (i & 63)
    for i in range(n_rel):
        x = rel[i]
        gx = g[i]
        for w in range(words):              # the places after i whose 3-roads give two with x's
            cand[w] = (~(<uint64_t>0)) if gx >= 2 else (one3[w] if gx == 1 else two3[w])
        for w in range((i >> 6) + 1):
            upto = (~(<uint64_t>0)) if w < (i >> 6) else ((<uint64_t>2) << (i & 63)) - 1
            cand[w] &= ~upto
        if gx < 2:                          # the live 2-roads through x and a later cell add one each
            lx = _live_roads(t.live, p, att, x, &nlx)
            for j in range(nlx):
                if (lx[j] & 3) != 2:
                    continue
                r = lx[j] >> 2
                for k in range(ROAD_LEN):
                    c = geo.road_cells[r][k]
                    if c != x and p.cell[c] == EMPTY and place[c] > i:
                        shared[place[c]] += 1
            for j in range(nlx):
                if (lx[j] & 3) != 2:
                    continue
                r = lx[j] >> 2
                for k in range(ROAD_LEN):
                    c = geo.road_cells[r][k]
                    if c != x and p.cell[c] == EMPTY and place[c] > i:
                        if gx + g[place[c]] + shared[place[c]] >= 2:
                            cand[place[c] >> 6] |= (<uint64_t>1) << (place[c] & 63)
                        shared[place[c]] = 0
        for w in range(words):
            bits = cand[w]
            while bits:
                k = (w << 6) + ctz64(bits)
                bits &= bits - 1
                if k >= n_rel:
                    break
                c = rel[k]
                out[n].a = <int16_t>(x if x < c else c)
                out[n].b = <int16_t>(c if x < c else x)
                n += 1
                if n == MAX_ATTACKS:
                    return n
    return n


cdef void _sort_by_order(attack_t* out, int n) noexcept nogil:
    """Insertion sort of out[0:n] by order, stable."""
    cdef int i, j
    cdef attack_t tmp
    for i in range(1, n):
        tmp = out[i]
        j = i
        while j > 0 and out[j - 1].order > tmp.order:
            out[j] = out[j - 1]
            j -= 1
        out[j] = tmp


cdef int _block_attacks(const block_t* blocks, int nblocks, const int16_t* rel, int n_rel,
                        attack_t* out) noexcept nogil:
    """Pairs that meet every defender threat: each blocking pair, and each
    stone that blocks alone with every relevant cell; returns how many."""
    cdef int i, k, x, n = 0
    for i in range(nblocks):
        x = blocks[i].x
        if blocks[i].y >= 0:
            n = _add_attack(out, n, x, blocks[i].y, 0)
        else:
            for k in range(n_rel):
                if rel[k] != x:
                    n = _add_attack(out, n, x, rel[k], 0)
    return n


cdef int _keep_double_threats(tss_t* t, const position_t* p, int att, attack_t* out, int n) noexcept nogil:
    """Keep the pairs that leave a blocking number of at least 2 (read off the
    road codes), ordered: immediate wins (3) first, then by fewest defender
    replies; stable among equals.  Returns how many are kept.  t.live must be
    valid for this position."""
    cdef int i, k = 0, nt, h, nr, order
    cdef block_t replies[MAX_BLOCKS]
    for i in range(n):
        nt = _threats_after(t.live, p, att, out[i].a, out[i].b, t.threats)
        nr = blocking_moves(t.threats, nt, replies)
        h = number_of_ways(nt, replies, nr)
        if h >= 2:
            order = 0 if h >= 3 else 1 + nr
            out[k].a = out[i].a
            out[k].b = out[i].b
            out[k].order = <int16_t>order
            k += 1
    _sort_by_order(out, k)
    return k


cdef int _gen_attacks(tss_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                      attack_t* out) noexcept nogil:
    """Pairs for ``att`` that meet every defender threat (``blocks``; none when
    the defender has no threat) and leave a blocking number of at least 2.
    Sorted: immediate wins (blocking number 3) first, then by fewest defender
    replies."""
    cdef int16_t rel[NUM_CELLS]
    cdef int i, n = 0
    cdef int n_rel = _relevant_cells(t, p, att, rel)
    if nblocks == 0:
        n = _free_attacks(t, p, att, rel, n_rel, out)
    else:
        n = _block_attacks(blocks, nblocks, rel, n_rel, out)
    for i in range(n_rel):
        t.mark[rel[i]] = 0
    return _keep_double_threats(t, p, att, out, n)


cdef int _gen_fours(tss_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                    attack_t* out) noexcept nogil:
    """Single-four pairs for ``att``: pairs that meet every defender threat
    (``blocks``) and leave threats that one stone blocks (a blocking number
    of exactly 1): one stone makes a four, the other is free to build.  The
    free stone is tried on the empty cells of the attacker's live 2- and
    3-roads.  Ordered by what the pair builds for the next double threat:
    the attacker's live 3-roads after it, then its live 2-roads; at most
    MAX_FOUR_ATTACKS are kept."""
    cdef int16_t rel[NUM_CELLS]
    cdef uint8_t g[NUM_CELLS]               # by place in rel: 3-roads through the cell
    cdef int i, k, x, y, nt, order, n = 0, kept = 0
    cdef int n_rel = _relevant_cells(t, p, att, rel)
    for i in range(n_rel):
        g[i] = <uint8_t>(t.mark[rel[i]] - 1)
        t.mark[rel[i]] = 0
    if nblocks == 0:
        for i in range(n_rel):
            if g[i] == 0:
                continue                    # x must make a four: a 3-road through it
            for k in range(n_rel):
                if k != i and not (g[k] > 0 and k < i):     # two four-making cells: once
                    n = _add_attack(out, n, rel[i], rel[k], 0)
    else:
        n = _block_attacks(blocks, nblocks, rel, n_rel, out)
    for i in range(n):
        x = out[i].a
        y = out[i].b
        nt = _threats_after(t.live, p, att, x, y, t.threats)
        if blocking_number(t.threats, nt) != 1:
            continue
        pos_make_pair(p, x, y)              # what the pair builds: live 3-roads, then 2-roads
        order = -(16 * rt_live_roads(&p.rt, att, 3) + rt_live_roads(&p.rt, att, 2))
        pos_undo_pair(p, x, y)
        out[kept].a = <int16_t>x
        out[kept].b = <int16_t>y
        out[kept].order = <int16_t>(order if order > -32000 else -32000)
        kept += 1
    _sort_by_order(out, kept)
    return kept if kept < MAX_FOUR_ATTACKS else MAX_FOUR_ATTACKS


cdef inline void _zone_add(int c, uint8_t* seen, int16_t* cells, int* n) noexcept nogil:
    if c >= 0 and not seen[c]:
        seen[c] = 1
        cells[n[0]] = <int16_t>c
        n[0] += 1


cdef void _zone_fours(const position_t* p, int dfd, uint8_t* seen, int16_t* cells, int* n) noexcept nogil:
    """Add the empty cells where a stone of ``dfd`` makes a four (the empty
    cells of its live 3-roads): such a stone is a threat the attacker must
    answer."""
    cdef int r, j, c
    cdef road_walk_t it
    walk_start(&it, p.rt.build_roads[dfd])
    r = walk_next(&it)
    while r >= 0:
        if code_count(p.rt.code[r], dfd) == 3:
            for j in range(ROAD_LEN):
                c = geo.road_cells[r][j]
                if p.cell[c] == EMPTY:
                    _zone_add(c, seen, cells, n)
        r = walk_next(&it)


cdef bint _proven_pair(tss_t* t, position_t* p, int depth, int ply, int fours, int16_t* a,
                       int16_t* b) noexcept nogil:
    """The attacker's winning pair at a node proven won, from the table (the
    node is proved again when its entry was overwritten); False if it
    cannot be had (the budget ran out)."""
    cdef tss_entry_t* e = &t.tt[p.key & t.tt_mask]
    if not (e.key == p.key and e.result == 1):
        if not _vct(t, p, depth, ply, fours):
            return False
        e = &t.tt[p.key & t.tt_mask]
        if not (e.key == p.key and e.result == 1):
            return False
    a[0] = e.a
    b[0] = e.b
    return True


cdef void _proof_zone(tss_t* t, position_t* p, int depth, int fours, int ply, uint8_t* seen, int16_t* cells,
                      int* n) noexcept nogil:
    """The relevance zone of the attacker's proven win at this node (the
    attacker to move): the cells of its proof tree (every attacker pair, the
    empty cells of every threat it makes, so every block and the six) and
    the cells where the defender would make a four at any of its attacker
    nodes.  A defender stone placed elsewhere
    leaves every threat, block and answer of the proof as it was.  The
    proof is read from the table (proved again where an entry was lost);
    under a single four, the branch with the lone block and no second stone
    is followed.  The position is restored."""
    cdef int att = t.attacker, k, nt, nb, sub
    cdef int16_t a, b
    cdef block_t replies[MAX_BLOCKS]
    if t.aborted or ply >= MAX_TSS_DEPTH:
        return
    if winning_stones(p, att, &a, &b):
        _zone_add(a, seen, cells, n)
        _zone_add(b, seen, cells, n)
        return
    _zone_fours(p, 1 - att, seen, cells, n)
    if not _proven_pair(t, p, depth, ply, fours, &a, &b):
        return
    _zone_add(a, seen, cells, n)
    _zone_add(b, seen, cells, n)
    pos_make_pair(p, a, b)
    nt = collect_threats(p, att, t.threats)
    for k in range(nt):                     # every block, and the six when there is none
        _zone_add(t.threats[k].e0, seen, cells, n)
        _zone_add(t.threats[k].e1, seen, cells, n)
    nb = blocking_moves(t.threats, nt, replies)
    sub = fours - 1 if blocking_number(t.threats, nt) == 1 else fours
    for k in range(nb):
        pos_make_pair(p, replies[k].x, replies[k].y)
        _proof_zone(t, p, depth - 1, sub, ply + 1, seen, cells, n)
        pos_undo_pair(p, replies[k].x, replies[k].y)
    pos_undo_pair(p, a, b)


cdef int _lone_block_loses(tss_t* t, position_t* p, const block_t* blocks, int nb, int k, int depth, int fours,
                           int ply) noexcept nogil:
    """The defender (to move) meets the attacker's single four with
    blocks[k].x alone and has a second stone to place: 1 if the attacker
    wins within ``depth`` turns (``fours`` single fours) whatever that
    stone, 0 if one holds, as far as tried.  First with no second stone;
    when the attacker wins then, the second stone is tried on every cell of
    that proof's relevance zone (_proof_zone) and on the other blocking
    stones; elsewhere it is taken not to help, so a win is strong evidence,
    not a proof."""
    cdef uint8_t seen[NUM_CELLS]
    cdef int16_t zone[NUM_CELLS]
    cdef int nz = 0, i, r, x = blocks[k].x
    pos_make_pair(p, x, -1)
    r = _vct(t, p, depth, ply, fours)
    if r:
        memset(seen, 0, sizeof(seen))
        seen[x] = 1
        for i in range(nb):
            _zone_add(blocks[i].x, seen, zone, &nz)
        _proof_zone(t, p, depth, fours, ply, seen, zone, &nz)
    pos_undo_pair(p, x, -1)
    if not r or t.aborted:
        return 0
    for i in range(nz):
        if p.cell[zone[i]] != EMPTY:
            continue
        pos_make_pair(p, x, zone[i])
        r = _vct(t, p, depth, ply, fours)
        pos_undo_pair(p, x, zone[i])
        if not r:
            return 0
    return 1


cdef int _vct(tss_t* t, position_t* p, int depth, int ply, int fours) noexcept nogil:
    """1 when the attacker (to move) wins by continuous threats within
    ``depth`` of its turns, at most ``fours`` of them single fours (a pair
    one stone blocks, its other stone free; see _lone_block_loses), the rest
    double threats; else 0.  With ``fours`` 0 this is VCDT, a proof.  A win
    is stored in the table with the attacker's pair, so the line can be read
    back (:func:`_read_line`)."""
    cdef int att = t.attacker
    cdef int dfd = 1 - att
    cdef int nt, h, n, i, k, nb, r, sub
    cdef block_t blocks[MAX_BLOCKS]
    cdef block_t replies[MAX_BLOCKS]
    cdef attack_t* attacks
    cdef tss_entry_t* e
    cdef bint all_win
    t.nodes += 1
    if has_threat(p, att):
        return 1
    if depth <= 0 or ply >= MAX_TSS_DEPTH or _stop(t):
        return 0
    e = &t.tt[p.key & t.tt_mask]
    if e.key == p.key:
        if e.result == 1:
            return 1                    # a win holds at any depth
        if e.depth >= depth and e.fours >= fours:
            return 0
    # the defender's threats must all be met by this pair
    nt = collect_threats(p, dfd, t.threats)
    h = blocking_number(t.threats, nt)
    if h >= 3:
        _tt_store(t, p.key, 127, 127, 0, -1, -1)
        return 0
    nb = blocking_moves(t.threats, nt, blocks) if nt else 0
    attacks = t.attacks + ply * MAX_ATTACKS
    n = _gen_attacks(t, p, att, blocks, nb, attacks)
    if depth == 1:
        # the last turn: only a pair leaving three or more threats (sorted first) wins
        if n > 0 and attacks[0].order == 0:
            _tt_store(t, p.key, depth, fours, 1, attacks[0].a, attacks[0].b)
            return 1
        _tt_store(t, p.key, depth, fours, 0, -1, -1)
        return 0
    for sub in range(2):
        if sub == 1:                    # then the single fours, each leaving one turn fewer of them
            if fours <= 0 or t.aborted:
                break
            n = _gen_fours(t, p, att, blocks, nb, attacks)
        for i in range(n):
            pos_make_pair(p, attacks[i].a, attacks[i].b)
            nt = collect_threats(p, att, t.threats)
            k = blocking_moves(t.threats, nt, replies)
            all_win = True
            for r in range(k):
                if replies[r].y < 0:
                    if sub == 0 or not _lone_block_loses(t, p, replies, k, r, depth - 1, fours - 1, ply + 1):
                        all_win = False     # (a lone block cannot answer a double threat)
                        break
                    continue
                t.nodes += 1
                pos_make_pair(p, replies[r].x, replies[r].y)
                all_win = _vct(t, p, depth - 1, ply + 1, fours - sub)
                pos_undo_pair(p, replies[r].x, replies[r].y)
                if not all_win:
                    break
            # k == 0: three or more threats, no defence at all
            pos_undo_pair(p, attacks[i].a, attacks[i].b)
            if all_win:
                _tt_store(t, p.key, depth, fours, 1, attacks[i].a, attacks[i].b)
                return 1
            if t.aborted:
                return 0
    if not t.aborted:
        _tt_store(t, p.key, depth, fours, 0, -1, -1)
    return 0


cdef void _read_line(tss_t* t, position_t* p, int depth, int fours) noexcept nogil:
    """Follow a proven win from the table: attacker pair, first defender reply
    (after a single four: the lone block, with no second stone), ... up to
    the six.  Fills t.line / t.line_len; the position is restored."""
    cdef int n = 0, k, nt, nb
    cdef int16_t a, b
    cdef block_t replies[MAX_BLOCKS]
    cdef int16_t played[2 * MAX_TSS_DEPTH + 2][2]
    cdef int nplayed = 0
    while n + 3 <= 2 * MAX_TSS_DEPTH + 2:
        if winning_stones(p, t.attacker, &a, &b):
            t.line[n][0] = a
            t.line[n][1] = b
            n += 1
            break
        if not _proven_pair(t, p, depth, 0, fours, &a, &b):
            break
        t.line[n][0] = a
        t.line[n][1] = b
        n += 1
        pos_make_pair(p, a, b)
        played[nplayed][0] = a
        played[nplayed][1] = b
        nplayed += 1
        nt = collect_threats(p, t.attacker, t.threats)
        nb = blocking_moves(t.threats, nt, replies)
        if nb == 0:
            # no defence: the defender's turn is shown as (-1, -1), then the six
            t.line[n][0] = -1
            t.line[n][1] = -1
            n += 1
            if winning_stones(p, t.attacker, &a, &b):
                t.line[n][0] = a
                t.line[n][1] = b
                n += 1
            break
        t.line[n][0] = replies[0].x
        t.line[n][1] = replies[0].y
        n += 1
        pos_make_pair(p, replies[0].x, replies[0].y)
        played[nplayed][0] = replies[0].x
        played[nplayed][1] = replies[0].y
        nplayed += 1
    t.line_len = n
    for k in range(nplayed - 1, -1, -1):
        pos_undo_pair(p, played[k][0], played[k][1])


cdef void _begin(tss_t* t, int attacker, int64_t budget, double deadline) noexcept nogil:
    """Start a call of the solver: its attacker, node budget and deadline."""
    t.attacker = attacker
    t.budget = budget
    t.deadline = deadline
    t.call_start = t.nodes
    t.clock_at = t.nodes                # read the clock at the first node
    t.aborted = False
    t.line_len = 0


cdef int vct(tss_t* t, position_t* p, int attacker, int depth, int fours, int64_t budget,
             double deadline) noexcept nogil:
    """Search a win by continuous threats for ``attacker``, who must be the
    side to move: double threats, and at most ``fours`` single fours (see
    _vct), within ``depth`` attacker turns, deepening one turn at a time (a
    depth-first search to the full depth can spend its whole budget under a
    wrong first attack; the shallow iterations find short wins at once and
    cost little when there are none).

    Returns 1 (win; t.line holds it), 0 (none found) or -1 (stopped by the
    node budget or the deadline before finding one).  The table is kept
    between calls (clear it with tss_clear)."""
    cdef int r = 0, d
    _begin(t, attacker, budget, deadline)
    if depth > MAX_TSS_DEPTH:
        depth = MAX_TSS_DEPTH
    for d in range(1, depth + 1):
        r = _vct(t, p, d, 0, fours)
        if r or t.aborted:
            break
    if r:
        t.aborted = False
        _read_line(t, p, d, fours)
        return 1
    return -1 if t.aborted else 0


cdef int vcdt(tss_t* t, position_t* p, int attacker, int depth, int64_t budget, double deadline) noexcept nogil:
    """A VCDT win for ``attacker`` (the side to move): vct with no single four."""
    return vct(t, p, attacker, depth, 0, budget, deadline)


# ----------------------------------------------------------------- Python view
def solve_vct(Position pos not None, int depth=12, int fours=1, long budget=200000, double time_limit=0.0):
    """Search a win by continuous threats for the side to move: double
    threats, and at most ``fours`` single fours (a pair whose threats one
    stone blocks, its other stone free to build).  With ``fours`` 0 this is
    a VCDT and a win is a proof; after a single four the defender's free
    stone is tried on the cells that can matter to the win found without
    it (its relevance zone), so a win is strong evidence.

    Returns ``(result, line, nodes)``: result 1 (win), 0 (none within depth)
    or -1 (budget or time ran out); ``line`` alternates attacker and defender
    pairs (a, b) ending with the six (b = -1: one stone, a lone block after a
    single four or a six needing one stone; (-1, -1): the defender had no
    defence).
    """
    cdef tss_t t
    cdef position_t work = pos.pos
    cdef int r
    cdef double deadline = 0.0
    if depth < 1:
        raise ValueError("depth must be >= 1")
    if not 0 <= fours <= MAX_TSS_DEPTH:
        raise ValueError(f"fours must be 0..{MAX_TSS_DEPTH}, not {fours}")
    if not (time_limit >= 0 and time_limit <= 1e12):
        raise ValueError(f"time_limit must be 0..1e12 seconds, not {time_limit}")
    if tss_alloc(&t, 18) != 0:
        raise MemoryError()
    try:
        with nogil:
            if time_limit > 0:
                deadline = now() + time_limit
            r = vct(&t, &work, work.to_move, depth, fours, budget, deadline)
        return r, [(t.line[i][0], t.line[i][1]) for i in range(t.line_len)], t.nodes
    finally:
        tss_free(&t)


def solve_vcdt(Position pos not None, int depth=12, long budget=200000, double time_limit=0.0):
    """Search a VCDT win for the side to move: ``solve_vct`` with no single
    four.  Returns ``(result, line, nodes)`` as solve_vct does."""
    return solve_vct(pos, depth, 0, budget, time_limit)


def solve_forced(Position pos not None, int depth=12, int fours=1, long budget=200000):
    """A VCDT (a proof), else a win with up to ``fours`` single fours: ``(kind, line, undecided)``,
    kind "vcdt", "four" or None, the line as solve_vct's ([] if none), and whether a search ran out."""
    undecided = False
    for kind, allowed in (("vcdt", 0), ("four", fours))[:2 if fours else 1]:
        result, line, _ = solve_vct(pos, depth, allowed, budget)
        if result == 1:
            return kind, line, False
        undecided = undecided or result == -1
    return None, [], undecided


def threats_after(Position pos not None, int color, int x, int y):
    """The threats ``color`` would have after stones at x and y (cells empty,
    ``color`` without threats now), computed without placing them: a sorted
    list of (road, (empty cells))."""
    if color not in (0, 1):
        raise ValueError(f"colour must be 0 or 1, not {color}")
    if has_threat(&pos.pos, color):
        raise ValueError("the colour has a threat already")
    for c in (x, y):
        if not 0 <= c < NUM_CELLS or pos.pos.cell[c] != EMPTY or x == y:
            raise ValueError("x and y must be two distinct empty cells")
    cdef threat_t* buf = <threat_t*>malloc(MAX_THREATS * sizeof(threat_t))
    cdef live_cache_t* live = <live_cache_t*>calloc(1, sizeof(live_cache_t))
    try:
        if buf == NULL or live == NULL:
            raise MemoryError()
        _live_next_node(live)
        n = _threats_after(live, &pos.pos, color, x, y, buf)
        return sorted((buf[i].road, tuple(sorted(c for c in (buf[i].e0, buf[i].e1) if c >= 0))) for i in range(n))
    finally:
        free(buf)
        free(live)
