# cython: language_level=3
"""VCDT threat-space search, and wins that begin with a single four."""
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from engine_core.clock cimport now
from engine_core.geometry cimport BOARD_SIZE, LINE_REACH, NUM_CELLS, ROAD_LEN, geometry_t, get_geometry
from engine_core.position cimport Position, pos_make_pair, pos_undo_pair
from engine_core.roads cimport EMPTY, code_count, live_count
from engine_core.threats cimport (
    MAX_BLOCKS, MAX_THREATS, add_threat_after, block_t, blocking_moves, blocking_number, collect_threats,
    has_threat, winning_stones,
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


cdef inline void _tt_store(tss_t* t, uint64_t key, int depth, int result, int a, int b) noexcept nogil:
    cdef tss_entry_t* e = &t.tt[key & t.tt_mask]
    e.key = key
    e.depth = <int8_t>depth
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


cdef inline bint _road_has(int r, int c) noexcept nogil:
    cdef int j
    for j in range(ROAD_LEN):
        if geo.road_cells[r][j] == c:
            return True
    return False


cdef void _live_next_node(live_cache_t* lc) noexcept nogil:
    """Forget every cell's list (a new node, or the position changed)."""
    lc.stamp += 1
    if lc.stamp == 0:                   # wrapped: no old stamp may match
        memset(lc.stamp_of, 0, sizeof(lc.stamp_of))
        lc.stamp = 1


cdef const int16_t* _live_roads(live_cache_t* lc, const position_t* p, int att, int c, int* n) noexcept nogil:
    """The live roads of ``att`` through ``c`` holding 2 or 3 of its stones,
    each as 4 * road + count, in the order of geo.cell_roads[c]; computed
    once per node and cell."""
    cdef int k, r, cnt, m = 0
    if lc.stamp_of[c] != lc.stamp:
        for k in range(geo.cell_nroads[c]):
            r = geo.cell_roads[c][k]
            cnt = live_count(p.rt.code[r], att)
            if cnt == 2 or cnt == 3:
                lc.roads[c][m] = <int16_t>(4 * r + cnt)
                m += 1
        lc.n[c] = <uint8_t>m
        lc.stamp_of[c] = lc.stamp
    n[0] = lc.n[c]
    return lc.roads[c]


cdef int _threats_after(live_cache_t* lc, const position_t* p, int att, int x, int y,
                        threat_t* out) noexcept nogil:
    """The threat roads ``att`` would have after placing x and y, without placing
    them.  Precondition: ``att`` has no threat now (true at an attacker's node,
    which would otherwise be a win), so no live road of ``att`` holds 4 or 5
    stones, and a threat after the pair is a live 3-road through x or y, or a
    live 2-road through both; listed in the order of x's roads, then y's.
    The roads through each cell come from ``lc`` (valid for this position)."""
    cdef int k, r, cnt, nx, ny, n = 0
    cdef bint near = _near_on_line(x, y)     # else no road holds both
    cdef const int16_t* lx = _live_roads(lc, p, att, x, &nx)
    cdef const int16_t* ly = _live_roads(lc, p, att, y, &ny)
    for k in range(nx):
        r = lx[k] >> 2
        cnt = lx[k] & 3
        if cnt == 3 or (near and _road_has(r, y)):
            n = add_threat_after(p, r, geo.road_cells[r], x, y, out, n)
    for k in range(ny):
        r = ly[k] >> 2
        if (ly[k] & 3) == 3 and not (near and _road_has(r, x)):
            n = add_threat_after(p, r, geo.road_cells[r], x, y, out, n)
    return n


cdef int _relevant_cells(tss_t* t, const position_t* p, int att, int16_t* rel) noexcept nogil:
    """The empty cells of the attacker's live 2- and 3-roads, into ``rel``;
    t.mark[c] becomes 1 + the number of 3-roads through c (the caller
    clears it).  Returns how many."""
    cdef int r, j, c, cnt, n_rel = 0
    cdef road_walk_t it
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
                if cnt == 3:
                    t.mark[c] += 1
        r = walk_next(&it)
    return n_rel


cdef int _free_attacks(tss_t* t, const position_t* p, int att, const int16_t* rel, int n_rel,
                       attack_t* out) noexcept nogil:
    """Candidate pairs when the defender has no threat: pairs of relevant
    cells that may make two threats (3-roads through either, 2-roads through
    both; the shared 2-roads are counted only when the 3-roads alone cannot
    give two).  Unique by construction (x before y in rel); at most MAX_ATTACKS.
    t.live must be valid for this position (see _live_roads)."""
    cdef int i, k, j, x, y, nlx, gain, gx, rx, cx, n = 0
    cdef const int16_t* lx
    cdef uint8_t g[NUM_CELLS]               # by place in rel: 3-roads through the cell
    cdef uint8_t row[NUM_CELLS]
    cdef uint8_t col[NUM_CELLS]
    for i in range(n_rel):
        x = rel[i]
        g[i] = <uint8_t>(t.mark[x] - 1)
        row[i] = <uint8_t>(x // BOARD_SIZE)
        col[i] = <uint8_t>(x % BOARD_SIZE)
    for i in range(n_rel):
        x = rel[i]
        gx = g[i]
        rx = row[i]
        cx = col[i]
        for k in range(i + 1, n_rel):
            gain = gx + g[k]
            if gain < 2:
                # only roads through both can add: x and y on one line, at most 5 apart
                if not _offset_near_on_line(row[k] - rx, col[k] - cx):
                    continue
                # the live 2-roads of att through x that also hold y
                y = rel[k]
                lx = _live_roads(t.live, p, att, x, &nlx)
                for j in range(nlx):
                    if (lx[j] & 3) == 2 and _road_has(lx[j] >> 2, y):
                        gain += 1
                if gain < 2:
                    continue
            y = rel[k]
            out[n].a = <int16_t>(x if x < y else y)
            out[n].b = <int16_t>(y if x < y else x)
            n += 1
            if n == MAX_ATTACKS:
                return n
    return n


cdef int _keep_double_threats(tss_t* t, const position_t* p, int att, attack_t* out, int n) noexcept nogil:
    """Keep the pairs that leave a blocking number of at least 2 (read off the
    road codes), ordered: immediate wins (3) first, then by fewest defender
    replies; stable among equals.  Returns how many are kept.  t.live must be
    valid for this position."""
    cdef int i, j, k = 0, nt, h, order
    cdef block_t replies[MAX_BLOCKS]
    cdef attack_t tmp
    for i in range(n):
        nt = _threats_after(t.live, p, att, out[i].a, out[i].b, t.threats)
        h = blocking_number(t.threats, nt)
        if h >= 2:
            order = 0 if h >= 3 else 1 + blocking_moves(t.threats, nt, replies)
            out[k].a = out[i].a
            out[k].b = out[i].b
            out[k].order = <int16_t>order
            k += 1
    for i in range(1, k):                   # insertion sort by order
        tmp = out[i]
        j = i
        while j > 0 and out[j - 1].order > tmp.order:
            out[j] = out[j - 1]
            j -= 1
        out[j] = tmp
    return k


cdef int _gen_attacks(tss_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                      attack_t* out) noexcept nogil:
    """Pairs for ``att`` that meet every defender threat (``blocks``; none when
    the defender has no threat) and leave a blocking number of at least 2.
    Sorted: immediate wins (blocking number 3) first, then by fewest defender
    replies."""
    cdef int16_t rel[NUM_CELLS]
    cdef int i, k, x, n = 0
    cdef int n_rel = _relevant_cells(t, p, att, rel)
    _live_next_node(t.live)                 # a new position: the live-road lists start empty
    if nblocks == 0:
        n = _free_attacks(t, p, att, rel, n_rel, out)
    else:
        for i in range(nblocks):
            x = blocks[i].x
            if blocks[i].y >= 0:
                n = _add_attack(out, n, x, blocks[i].y, 0)
            else:
                for k in range(n_rel):
                    if rel[k] != x:
                        n = _add_attack(out, n, x, rel[k], 0)
    for i in range(n_rel):
        t.mark[rel[i]] = 0
    return _keep_double_threats(t, p, att, out, n)


cdef int _vcdt(tss_t* t, position_t* p, int depth, int ply) noexcept nogil:
    """1 when the attacker (to move) wins by continuous double threats within
    ``depth`` of its turns, else 0.  A win is stored in the table with the
    attacker's pair, so the line can be read back (:func:`_read_line`)."""
    cdef int att = t.attacker
    cdef int dfd = 1 - att
    cdef int nt, h, n, i, k, nb, r
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
            return 1                    # a proof holds at any depth
        if e.depth >= depth:
            return 0
    # the defender's threats must all be met by this pair
    nt = collect_threats(p, dfd, t.threats)
    h = blocking_number(t.threats, nt)
    if h >= 3:
        _tt_store(t, p.key, 127, 0, -1, -1)
        return 0
    nb = blocking_moves(t.threats, nt, blocks) if nt else 0
    attacks = t.attacks + ply * MAX_ATTACKS
    n = _gen_attacks(t, p, att, blocks, nb, attacks)
    if depth == 1:
        # the last turn: only a pair leaving three or more threats (sorted first) wins
        if n > 0 and attacks[0].order == 0:
            _tt_store(t, p.key, depth, 1, attacks[0].a, attacks[0].b)
            return 1
        _tt_store(t, p.key, depth, 0, -1, -1)
        return 0
    for i in range(n):
        pos_make_pair(p, attacks[i].a, attacks[i].b)
        nt = collect_threats(p, att, t.threats)
        nb = blocking_moves(t.threats, nt, replies)
        all_win = True
        for k in range(nb):
            if replies[k].y < 0:
                all_win = False         # cannot happen after the filter; be safe
                break
            t.nodes += 1
            pos_make_pair(p, replies[k].x, replies[k].y)
            r = _vcdt(t, p, depth - 1, ply + 1)
            pos_undo_pair(p, replies[k].x, replies[k].y)
            if not r:
                all_win = False
                break
        # nb == 0: three or more threats, no defence at all
        pos_undo_pair(p, attacks[i].a, attacks[i].b)
        if all_win:
            _tt_store(t, p.key, depth, 1, attacks[i].a, attacks[i].b)
            return 1
        if t.aborted:
            return 0
    if not t.aborted:
        _tt_store(t, p.key, depth, 0, -1, -1)
    return 0


cdef void _read_line(tss_t* t, position_t* p, int depth) noexcept nogil:
    """Follow a proven win from the table: attacker pair, first defender reply,
    ... up to the six.  Fills t.line / t.line_len; the position is restored."""
    cdef int n = 0, k, nt, nb
    cdef int16_t a, b
    cdef tss_entry_t* e
    cdef block_t replies[MAX_BLOCKS]
    cdef int16_t played[2 * MAX_TSS_DEPTH + 2][2]
    cdef int nplayed = 0
    while n + 3 <= 2 * MAX_TSS_DEPTH + 2:
        if winning_stones(p, t.attacker, &a, &b):
            t.line[n][0] = a
            t.line[n][1] = b
            n += 1
            break
        e = &t.tt[p.key & t.tt_mask]
        if not (e.key == p.key and e.result == 1):
            # overwritten in the table: prove this node again to refill it
            if not _vcdt(t, p, depth, 0):
                break
            e = &t.tt[p.key & t.tt_mask]
            if not (e.key == p.key and e.result == 1):
                break
        a = e.a
        b = e.b
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


cdef int _deepen(tss_t* t, position_t* p, int depth) noexcept nogil:
    """A VCDT of the call's attacker (to move) within the call's budget,
    deepening one attacker turn at a time: 1 (t.line holds it), 0, or -1
    (stopped).  A depth-first search to the full depth can spend its whole
    budget under a wrong first attack; the shallow iterations find short
    wins at once and cost little when there are none."""
    cdef int r = 0, d
    t.line_len = 0
    if depth > MAX_TSS_DEPTH:
        depth = MAX_TSS_DEPTH
    for d in range(1, depth + 1):
        r = _vcdt(t, p, d, 0)
        if r or t.aborted:
            break
    if r:
        t.aborted = False
        _read_line(t, p, d)
        return 1
    return -1 if t.aborted else 0


cdef int vcdt(tss_t* t, position_t* p, int attacker, int depth, int64_t budget, double deadline) noexcept nogil:
    """Search a VCDT win for ``attacker``, who must be the side to move.

    Returns 1 (win; t.line holds it), 0 (none found within ``depth`` attacker
    turns) or -1 (stopped by the node budget or the deadline before finding
    one).  The table is kept between calls (clear it with tss_clear)."""
    _begin(t, attacker, budget, deadline)
    return _deepen(t, p, depth)


# ------------------------------------------------ a single four, then VCDT
cdef int _zone_after_pass(tss_t* t, const position_t* p, int16_t* cells) noexcept nogil:
    """The second stones a defender who placed one stone alone must try
    against the VCDT line in t.line: its empty cells, and the cells where a
    stone of the defender makes a four (which the attacker must answer).
    Each once (t.mark is used and cleared); returns how many."""
    cdef int k, j, r, c, n = 0
    cdef road_walk_t it
    for k in range(t.line_len):
        for j in range(2):
            c = t.line[k][j]
            if c >= 0 and p.cell[c] == EMPTY and t.mark[c] == 0:
                t.mark[c] = 1
                cells[n] = <int16_t>c
                n += 1
    walk_start(&it, p.rt.build_roads[1 - t.attacker])
    r = walk_next(&it)
    while r >= 0:
        if code_count(p.rt.code[r], 1 - t.attacker) == 3:
            for j in range(ROAD_LEN):
                c = geo.road_cells[r][j]
                if p.cell[c] == EMPTY and t.mark[c] == 0:
                    t.mark[c] = 1
                    cells[n] = <int16_t>c
                    n += 1
        r = walk_next(&it)
    for k in range(n):
        t.mark[cells[k]] = 0
    return n


cdef int _lone_block_loses(tss_t* t, position_t* p, int x, int depth, int16_t (*pass_line)[2],
                           int* pass_len) noexcept nogil:
    """The defender (to move) meets the attacker's single threat with ``x``
    alone: 1 if the attacker wins by VCDT within ``depth`` turns whatever
    the second stone, as far as tried (none, then every cell of
    _zone_after_pass); 0 if a second stone holds; -1 stopped.  The line
    found with no second stone goes to pass_line (when pass_len is 0)."""
    cdef int16_t z[NUM_CELLS]
    cdef int nz, k, r
    pos_make_pair(p, x, -1)
    r = _deepen(t, p, depth)
    if r == 1:
        nz = _zone_after_pass(t, p, z)
        if pass_len[0] == 0:
            if t.line_len > 2 * MAX_TSS_DEPTH:
                t.line_len = 2 * MAX_TSS_DEPTH  # room for the pair and the block before it
            for k in range(t.line_len):
                pass_line[k][0] = t.line[k][0]
                pass_line[k][1] = t.line[k][1]
            pass_len[0] = t.line_len
    pos_undo_pair(p, x, -1)
    if r != 1:
        return r
    for k in range(nz):
        if z[k] == x:
            continue
        pos_make_pair(p, x, z[k])
        r = _deepen(t, p, depth)
        pos_undo_pair(p, x, z[k])
        if r != 1:
            return r
    return 1


cdef int _four_then_vcdt(tss_t* t, position_t* p, int x, int y, int depth, int16_t (*line)[2],
                         int* line_len) noexcept nogil:
    """The attacker (to move) plays x and y, leaving threats that one stone
    blocks: 1 if it wins by VCDT within ``depth`` turns after every block
    (see _lone_block_loses for a lone blocking stone), 0 if not (or the pair
    leaves no single threat), -1 stopped.  On a win ``line`` holds the pair,
    the first block and the VCDT after it with no second stone."""
    cdef block_t blocks[MAX_BLOCKS]
    cdef int nt, nb, k, r = 1, pass_len = 0, skip = 1
    pos_make_pair(p, x, y)
    nt = collect_threats(p, t.attacker, t.threats)
    if blocking_number(t.threats, nt) != 1:
        pos_undo_pair(p, x, y)
        return 0                        # no threat, or a double threat (the VCDT's own)
    nb = blocking_moves(t.threats, nt, blocks)
    for k in range(nb):
        if blocks[k].y >= 0:
            pos_make_pair(p, blocks[k].x, blocks[k].y)
            r = _deepen(t, p, depth)
            pos_undo_pair(p, blocks[k].x, blocks[k].y)
        else:                           # the line without a second stone is kept for the first block
            r = _lone_block_loses(t, p, blocks[k].x, depth, line + 2, &pass_len if k == 0 else &skip)
        if r != 1:
            break
    pos_undo_pair(p, x, y)
    if r == 1:
        line[0][0] = <int16_t>x
        line[0][1] = <int16_t>y
        line[1][0] = blocks[0].x
        line[1][1] = blocks[0].y
        line_len[0] = 2 + pass_len
    return r


cdef int vct_four(tss_t* t, position_t* p, int attacker, int depth, int64_t budget, double deadline,
                  int16_t* four) noexcept nogil:
    """A win of ``attacker`` (the side to move, with no threat to meet) that
    begins with a single four: a pair {x, y}, x making a four that one
    stone blocks and y free, after which the attacker wins by VCDT within
    ``depth`` - 1 turns after every block.  The defender's second stone is
    tried on the cells of the VCDT line found without it and where it would
    make a four; elsewhere it is taken not to help, so a win is strong
    evidence, not a proof.  The caller has looked for a VCDT first (a pair
    leaving a double threat is the VCDT's, not tried here).

    Returns 1 (four[0], four[1] = x, y; t.line holds the pair, the first
    block, and the VCDT that follows if the defender places nothing else),
    0 (none) or -1 (the budget or the deadline ran out first)."""
    cdef int16_t rel[NUM_CELLS]
    cdef uint8_t g[NUM_CELLS]               # 3-roads through rel[i]: x must have one
    cdef int16_t line[2 * MAX_TSS_DEPTH + 2][2]
    cdef int n_rel, i, k, j, r, line_len = 0
    _begin(t, attacker, budget, deadline)     # also empties t.line: read after any return
    if depth < 2 or has_threat(p, attacker) or has_threat(p, 1 - attacker):
        return 0
    n_rel = _relevant_cells(t, p, attacker, rel)
    for i in range(n_rel):
        g[i] = <uint8_t>(t.mark[rel[i]] - 1)
        t.mark[rel[i]] = 0
    for i in range(n_rel):
        if g[i] == 0:
            continue
        for k in range(n_rel):
            if k == i or (g[k] > 0 and k < i):      # two four-making cells: once
                continue
            r = _four_then_vcdt(t, p, rel[i], rel[k], depth - 1, line, &line_len)
            if r == 1:
                four[0] = rel[i]
                four[1] = rel[k]
                for j in range(line_len):
                    t.line[j][0] = line[j][0]
                    t.line[j][1] = line[j][1]
                t.line_len = line_len
                return 1
            if r < 0 or _stop(t):
                t.line_len = 0
                return -1
    t.line_len = 0
    return 0


# ----------------------------------------------------------------- Python view
cdef tuple _solve(Position pos, int depth, long budget, double time_limit, bint single_four):
    """The solver views' shared body: the arguments checked, a table of its
    own, one search of ``vcdt`` (or ``vct_four`` with ``single_four``) for
    the side to move; (result, four or None, line, nodes)."""
    cdef tss_t t
    cdef position_t work = pos.pos
    cdef int r
    cdef int16_t four[2]
    cdef double deadline = 0.0
    if depth < 1:
        raise ValueError("depth must be >= 1")
    if not (time_limit >= 0 and time_limit <= 1e12):
        raise ValueError(f"time_limit must be 0..1e12 seconds, not {time_limit}")
    if tss_alloc(&t, 18) != 0:
        raise MemoryError()
    four[0] = -1
    four[1] = -1
    try:
        with nogil:
            if time_limit > 0:
                deadline = now() + time_limit
            if single_four:
                r = vct_four(&t, &work, work.to_move, depth, budget, deadline, four)
            else:
                r = vcdt(&t, &work, work.to_move, depth, budget, deadline)
        return (r, (four[0], four[1]) if r == 1 and single_four else None,
                [(t.line[i][0], t.line[i][1]) for i in range(t.line_len)], t.nodes)
    finally:
        tss_free(&t)


def solve_vcdt(Position pos not None, int depth=12, long budget=200000, double time_limit=0.0):
    """Search a VCDT win for the side to move.

    Returns ``(result, line, nodes)``: result 1 (win), 0 (none within depth)
    or -1 (budget or time ran out); ``line`` alternates attacker and defender
    pairs (a, b) ending with the six (b = -1: one stone is enough; (-1, -1):
    the defender had no defence).
    """
    r, _, line, nodes = _solve(pos, depth, budget, time_limit, False)
    return r, line, nodes


def solve_vct_four(Position pos not None, int depth=12, long budget=200000, double time_limit=0.0):
    """Search a win for the side to move that begins with a single four and
    goes on by VCDT (see vct_four; the caller-side VCDT is not tried here).

    Returns ``(result, four, line, nodes)``: result 1 (win), 0 (none) or -1
    (budget or time ran out); ``four`` the first pair (x, y), x the stone
    that makes the four; ``line`` that pair, the defender's first block and
    the VCDT after it (as :func:`solve_vcdt`'s line).
    """
    return _solve(pos, depth, budget, time_limit, True)


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
