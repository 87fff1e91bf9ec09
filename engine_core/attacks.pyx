# cython: language_level=3
"""The attacker's candidate pairs at a node of the threat-space solver (see attacks.pxd)."""
from libc.stdint cimport int16_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from engine_core.geometry cimport (
    BOARD_SIZE, LINE_REACH, MAX_ROADS_PER_CELL, NUM_CELLS, ROAD_LEN, geometry_t, get_geometry, road_has,
)
from engine_core.portable cimport ctz64, popcount64
from engine_core.position cimport (
    Position, check_color, check_empty_cell, pos_make_pair, pos_pair_delta, pos_undo_pair,
)
from engine_core.movegen cimport stones_to_place
from engine_core.roads cimport EMPTY, code_count, live_count, rt_live_roads
from engine_core.threats cimport (
    MAX_BLOCKS, MAX_THREATS, add_threat_after, blocking_moves, blocking_number, has_threat, number_of_ways,
)
from engine_core.types cimport road_walk_t, walk_next, walk_start

cdef const geometry_t* geo = get_geometry()


cdef inline bint _near_on_line(int x, int y) noexcept nogil:
    """Whether x and y lie on one line at most 5 cells apart (so may share a road)."""
    cdef int dr = y // BOARD_SIZE - x // BOARD_SIZE, dc = y % BOARD_SIZE - x % BOARD_SIZE
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    if dr > LINE_REACH or dc > LINE_REACH:
        return False
    return dr == 0 or dc == 0 or dr == dc


cdef inline int _append_pair(attack_t* out, int n, int x, int y) noexcept nogil:
    """Append the pair of x and y as (lower cell, higher cell); returns the new
    count.  The caller keeps n below MAX_ATTACKS; the sort key is set by
    whoever keeps the pair."""
    out[n].a = <int16_t>(x if x < y else y)
    out[n].b = <int16_t>(y if x < y else x)
    return n + 1


cdef int gen_scratch_alloc(gen_scratch_t* g) noexcept nogil:
    """Allocate the generators' scratch (threats, zeroed marks, live-road
    cache); 0 on success, -1 when out of memory (what was allocated is freed)."""
    g.threats = <threat_t*>malloc(MAX_THREATS * sizeof(threat_t))
    g.mark = <int16_t*>calloc(NUM_CELLS, sizeof(int16_t))
    g.live = <live_cache_t*>calloc(1, sizeof(live_cache_t))
    if g.threats == NULL or g.mark == NULL or g.live == NULL:
        gen_scratch_free(g)
        return -1
    return 0


cdef void gen_scratch_free(gen_scratch_t* g) noexcept nogil:
    """Free what gen_scratch_alloc allocated (safe to call twice)."""
    free(g.threats)
    free(g.mark)
    free(g.live)
    g.threats = NULL
    g.mark = NULL
    g.live = NULL


cdef void live_next_node(live_cache_t* lc) noexcept nogil:
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


cdef int threats_after_pair(live_cache_t* lc, const position_t* p, int att, int x, int y,
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


cdef int _relevant_cells(gen_scratch_t* t, const position_t* p, int att, int16_t* rel) noexcept nogil:
    """The empty cells of the attacker's live 2- and 3-roads, into ``rel``;
    t.mark[c] becomes 1 + the number of 3-roads through c (the caller
    clears it).  Returns how many.  t.live starts a new node with the
    live-road list of every such cell made in the same walk (roads in
    increasing number, the order of geo.cell_roads, as _live_roads makes them)."""
    cdef int r, j, c, cnt, n_rel = 0
    cdef road_walk_t it
    cdef live_cache_t* lc = t.live
    live_next_node(lc)
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


cdef inline bint _wins_at_once(gen_scratch_t* t, const position_t* p, int att, int x, int y) noexcept nogil:
    """Whether ``att`` placing x and y leaves threats no two stones meet."""
    return blocking_number(t.threats, threats_after_pair(t.live, p, att, x, y, t.threats)) >= 3


cdef enum:
    REL_WORDS = (NUM_CELLS + 63) // 64      # a set of places in rel, one bit each


cdef inline uint64_t _upto(int w, int i) noexcept nogil:
    """Word w of the set of places 0 .. i."""
    if w < (i >> 6):
        return ~(<uint64_t>0)
    if w > (i >> 6):
        return 0
    return ((<uint64_t>2) << (i & 63)) - 1


cdef inline uint64_t _lowest_bits(uint64_t bits, int count) noexcept nogil:
    """The ``count`` lowest set bits of ``bits`` (all of them when it has fewer)."""
    cdef uint64_t out = 0, low
    while bits and count > 0:
        low = bits & (~bits + 1)
        out |= low
        bits ^= low
        count -= 1
    return out


cdef inline int _list_pairs(attack_t* out, int n, int x, const int16_t* rel, const uint64_t* cand,
                            int words) noexcept nogil:
    """Append x paired with each place in ``cand``, in order, up to MAX_ATTACKS; returns the count."""
    cdef int w, k
    cdef uint64_t bits
    for w in range(words):
        bits = cand[w]
        while bits:
            k = (w << 6) + ctz64(bits)
            bits &= bits - 1
            n = _append_pair(out, n, x, rel[k])
            if n == MAX_ATTACKS:
                return n
    return n


cdef inline int _first_win(gen_scratch_t* t, const position_t* p, int att, int x, const int16_t* rel,
                           const uint64_t* cand, const uint64_t* hot, int words, int* n,
                           attack_t* out) noexcept nogil:
    """The win-only walk of x's candidates (``cand``, of which ``n`` come before
    them): the first place in ``hot`` whose pair with x wins at once goes to
    out[0] (returns 1); -1 when the candidates reach MAX_ATTACKS before one
    does, else 0 (``n`` counts x's candidates in)."""
    cdef int w, k, c
    cdef uint64_t bits
    cdef bint capped
    for w in range(words):
        c = popcount64(cand[w])
        capped = n[0] + c >= MAX_ATTACKS
        bits = hot[w] & _lowest_bits(cand[w], MAX_ATTACKS - n[0]) if capped else hot[w]
        while bits:
            k = (w << 6) + ctz64(bits)
            bits &= bits - 1
            if _wins_at_once(t, p, att, x, rel[k]):
                _append_pair(out, 0, x, rel[k])
                return 1
        if capped:
            return -1
        n[0] += c
    return 0


cdef inline int _two_road_partners(gen_scratch_t* t, const position_t* p, int att, int x, int i,
                                   const int16_t* place, uint8_t* shared, int16_t* touched) noexcept nogil:
    """The places in rel after ``i`` (``place``: by cell) of the empty cells
    that share a live 2-road of ``att`` with x, each once into ``touched``
    (returns how many), ``shared`` counting those roads (the caller sets it
    back to 0).  Every empty cell of such a road is in rel.  t.live must be
    valid for this position."""
    cdef int j, k, c, r, nlx, nt = 0
    cdef const int16_t* lx = _live_roads(t.live, p, att, x, &nlx)
    for j in range(nlx):
        if (lx[j] & 3) != 2:
            continue
        r = lx[j] >> 2
        for k in range(ROAD_LEN):
            c = geo.road_cells[r][k]
            if c != x and p.cell[c] == EMPTY and place[c] > i:
                if shared[place[c]] == 0:
                    touched[nt] = place[c]
                    nt += 1
                shared[place[c]] += 1
    return nt


cdef int _free_attacks(gen_scratch_t* t, const position_t* p, int att, const int16_t* rel, int n_rel,
                       attack_t* out, bint win_only) noexcept nogil:
    """Candidate pairs when the defender has no threat: pairs of relevant
    cells x, y (x before y in rel) that may make two threats: the 3-roads
    through either and the live 2-roads through both add up to 2 or more.
    Listed by x's place in rel, then y's; at most MAX_ATTACKS.  The pairs
    that need a shared 2-road are found by walking x's 2-roads, not by
    trying every y.  t.live must be valid for this position (see _live_roads).

    With ``win_only`` nothing is listed: the same candidates in the same
    order, up to the same MAX_ATTACKS, are searched for the first that
    leaves a blocking number of 3 (into out[0]; returns 1, or 0 when none
    does).  Only those whose 3-roads and shared 2-roads add up to 3 or more
    are tested (``hot``): two threat roads are always met by two stones."""
    cdef int i, k, j, w, x, gx, nt, found, n = 0
    cdef uint64_t later
    cdef uint8_t g[NUM_CELLS]               # by place in rel: 3-roads through the cell
    cdef uint8_t shared[NUM_CELLS]          # by place in rel: x's 2-roads through the cell
    cdef int16_t place[NUM_CELLS]           # by cell: its place in rel (set for rel's cells only)
    cdef int16_t touched[MAX_ROADS_PER_CELL * ROAD_LEN]     # the places x's 2-roads reach
    cdef uint64_t least[4][REL_WORDS]       # [m]: places with m or more 3-roads (m = 0: every place)
    cdef uint64_t cand[REL_WORDS]
    cdef uint64_t hot[REL_WORDS]            # win_only: the candidates that may make three threats
    cdef int words = (n_rel + 63) >> 6
    for w in range(words):
        least[0][w] = (~(<uint64_t>0)) if n_rel >= 64 * (w + 1) else ((<uint64_t>1) << (n_rel & 63)) - 1
        least[1][w] = least[2][w] = least[3][w] = 0
    for i in range(n_rel):
        g[i] = <uint8_t>(t.mark[rel[i]] - 1)
        shared[i] = 0
        place[rel[i]] = <int16_t>i
        for k in range(1, 4 if g[i] >= 3 else g[i] + 1):
            least[k][i >> 6] |= (<uint64_t>1) << (i & 63)
    for i in range(n_rel):
        x = rel[i]
        gx = g[i]
        for w in range(words):              # the later places whose 3-roads give two (three) with x's
            later = ~_upto(w, i)
            cand[w] = least[2 - gx if gx < 2 else 0][w] & later
            if win_only:
                hot[w] = least[3 - gx if gx < 3 else 0][w] & later
        if gx < 2 or (win_only and gx == 2):    # the live 2-roads through x and a later cell add one each
            nt = _two_road_partners(t, p, att, x, i, place, shared, touched)
            for j in range(nt):
                k = touched[j]
                if gx + g[k] + shared[k] >= 2:
                    cand[k >> 6] |= (<uint64_t>1) << (k & 63)
                if win_only and gx + g[k] + shared[k] >= 3:
                    hot[k >> 6] |= (<uint64_t>1) << (k & 63)
                shared[k] = 0
        if not win_only:
            n = _list_pairs(out, n, x, rel, cand, words)
            if n == MAX_ATTACKS:
                return n
            continue
        found = _first_win(t, p, att, x, rel, cand, hot, words, &n, out)
        if found != 0:
            return 1 if found == 1 else 0
    return 0 if win_only else n


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


cdef inline bint _blocks_cell(const block_t* blocks, int nblocks, int c) noexcept nogil:
    """Whether cell c is one of the stones of ``blocks``."""
    cdef int i
    for i in range(nblocks):
        if blocks[i].x == c or blocks[i].y == c:
            return True
    return False


cdef inline int _add_block_attack(const block_t* blocks, int nblocks, attack_t* seen, int* n_seen,
                                  attack_t* out, int n, int x, int y) noexcept nogil:
    """Append the pair of blocking stone x and cell y to out[0:n] unless the
    list is full or y blocks too and the pair is in ``seen`` already (the
    pairs of two blocking stones listed so far, which it then joins);
    returns the new count."""
    cdef int j, lo = x if x < y else y, hi = y if x < y else x
    if n == MAX_ATTACKS:
        return n
    if _blocks_cell(blocks, nblocks, y):
        for j in range(n_seen[0]):
            if seen[j].a == lo and seen[j].b == hi:
                return n
        n_seen[0] = _append_pair(seen, n_seen[0], x, y)
    return _append_pair(out, n, x, y)


cdef int _block_attacks(const block_t* blocks, int nblocks, const int16_t* rel, int n_rel,
                        attack_t* out) noexcept nogil:
    """Pairs that meet every defender threat: each blocking pair, and each
    stone that blocks alone with every relevant cell; each pair once, where
    it first comes, at most MAX_ATTACKS; returns how many.  Only a pair of
    two blocking stones can come twice (the blocking pairs are distinct, the
    lone blockers are distinct cells, and each meets every other relevant
    cell once), so only those are looked up among the earlier ones (``seen``)."""
    cdef int i, k, x, n = 0, n_seen = 0
    cdef attack_t seen[MAX_BLOCKS * (2 * MAX_BLOCKS + 1)]
    for i in range(nblocks):
        x = blocks[i].x
        if blocks[i].y >= 0:
            n = _add_block_attack(blocks, nblocks, seen, &n_seen, out, n, x, blocks[i].y)
        else:
            for k in range(n_rel):
                if rel[k] != x:
                    n = _add_block_attack(blocks, nblocks, seen, &n_seen, out, n, x, rel[k])
    return n


cdef int _keep_double_threats(gen_scratch_t* t, const position_t* p, int att, attack_t* out, int n) noexcept nogil:
    """Keep the pairs that leave a blocking number of at least 2 (read off the
    road codes), ordered: immediate wins (3) first, then by fewest defender
    replies; stable among equals.  Returns how many are kept.  t.live must be
    valid for this position."""
    cdef int i, k = 0, nt, h, nr, order
    cdef block_t replies[MAX_BLOCKS]
    for i in range(n):
        nt = threats_after_pair(t.live, p, att, out[i].a, out[i].b, t.threats)
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


cdef int _candidates(gen_scratch_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                     attack_t* out, bint win_only) noexcept nogil:
    """The candidate pairs of gen_attacks, unscored, into ``out`` (returns how
    many); with ``win_only`` the first of them that wins at once goes to
    out[0] instead (returns 1, or 0 when none does)."""
    cdef int16_t rel[NUM_CELLS]
    cdef int i, n, found
    cdef int n_rel = _relevant_cells(t, p, att, rel)
    if nblocks == 0:
        n = _free_attacks(t, p, att, rel, n_rel, out, win_only)
    else:
        n = _block_attacks(blocks, nblocks, rel, n_rel, out)
        if win_only:
            found = 0
            for i in range(n):
                if _wins_at_once(t, p, att, out[i].a, out[i].b):
                    out[0] = out[i]
                    found = 1
                    break
            n = found
    for i in range(n_rel):
        t.mark[rel[i]] = 0
    return n


cdef int gen_attacks(gen_scratch_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                     attack_t* out) noexcept nogil:
    """Pairs for ``att`` that meet every defender threat (``blocks``; none when
    the defender has no threat) and leave a blocking number of at least 2.
    Sorted: immediate wins (blocking number 3) first, then by fewest defender
    replies."""
    return _keep_double_threats(t, p, att, out, _candidates(t, p, att, blocks, nblocks, out, False))


cdef bint gen_win(gen_scratch_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                  attack_t* out) noexcept nogil:
    """Whether one of gen_attacks' pairs wins next turn (a blocking number of
    3: sorted first there); the first such pair in its order goes to out[0].
    The solver's last attacker turn needs no more than that, so the other
    candidates are not scored, nor the list sorted."""
    return _candidates(t, p, att, blocks, nblocks, out, True) == 1


cdef int _two_stone_fours(gen_scratch_t* t, const position_t* p, int att, const int16_t* rel, int n_rel,
                          const uint8_t* g, attack_t* out, int n) noexcept nogil:
    """Append to out[0:n] the pairs of relevant cells x, y with no 3-road
    through either that share a live 2-road of ``att``: both stones make the
    four (the pairs with a 3-road cell are listed by gen_fours already).  Each
    pair once, x before y in rel, at most MAX_ATTACKS; returns the count.
    t.live must be valid for this position."""
    cdef int i, j, k, nt
    cdef int16_t place[NUM_CELLS]           # by cell: its place in rel (rel's cells only)
    cdef uint8_t shared[NUM_CELLS]          # by place in rel: x's 2-roads through the cell
    cdef int16_t touched[MAX_ROADS_PER_CELL * ROAD_LEN]
    for i in range(n_rel):
        place[rel[i]] = <int16_t>i
        shared[i] = 0
    for i in range(n_rel):
        if g[i] != 0:
            continue
        nt = _two_road_partners(t, p, att, rel[i], i, place, shared, touched)
        for j in range(nt):
            k = touched[j]
            if g[k] == 0 and n < MAX_ATTACKS:
                n = _append_pair(out, n, rel[i], rel[k])
            shared[k] = 0
    return n


cdef int gen_fours(gen_scratch_t* t, position_t* p, int att, const block_t* blocks, int nblocks,
                   attack_t* out, bint both) noexcept nogil:
    """Single-four pairs for ``att``: pairs that meet every defender threat
    (``blocks``) and leave threats that one stone blocks (a blocking number
    of exactly 1).  Either one stone makes a four from a 3-road and the other
    is free to build (tried on the empty cells of the attacker's live 2- and
    3-roads), or, with ``both`` and no defender threat, both stones make it
    from a live 2-road, each building on its other lines.  Ordered by what the pair
    builds for the next double threat: the attacker's live 3-roads after it,
    then its live 2-roads, the fours of both stones after those of one (so
    they fill only what the others leave of the list); at most
    MAX_FOUR_ATTACKS are kept."""
    cdef int16_t rel[NUM_CELLS]
    cdef uint8_t g[NUM_CELLS]               # by place in rel: 3-roads through the cell
    cdef int i, k, x, y, nt, order, n = 0, kept = 0, n_one
    cdef int n_rel = _relevant_cells(t, p, att, rel)
    for i in range(n_rel):
        g[i] = <uint8_t>(t.mark[rel[i]] - 1)
        t.mark[rel[i]] = 0
    if nblocks == 0:                        # unique by construction: no duplicate test
        for i in range(n_rel):
            if g[i] == 0:
                continue                    # x must make a four: a 3-road through it
            for k in range(n_rel):
                if k != i and not (g[k] > 0 and k < i) and n < MAX_ATTACKS:     # two four-making cells: once
                    n = _append_pair(out, n, rel[i], rel[k])
        n_one = n
        if both:
            n = _two_stone_fours(t, p, att, rel, n_rel, g, out, n)
    else:
        n = _block_attacks(blocks, nblocks, rel, n_rel, out)
        n_one = n
    for i in range(n):
        x = out[i].a
        y = out[i].b
        nt = threats_after_pair(t.live, p, att, x, y, t.threats)
        if blocking_number(t.threats, nt) != 1:
            continue
        pos_make_pair(p, x, y)              # what the pair builds: live 3-roads, then 2-roads
        order = -(16 * rt_live_roads(&p.rt, att, 3) + rt_live_roads(&p.rt, att, 2))
        pos_undo_pair(p, x, y)
        if order < -32000:
            order = -32000
        if i >= n_one:
            order += 32001                  # a four of both stones after every four of one
        out[kept].a = <int16_t>x
        out[kept].b = <int16_t>y
        out[kept].order = <int16_t>order
        kept += 1
    _sort_by_order(out, kept)
    return kept if kept < MAX_FOUR_ATTACKS else MAX_FOUR_ATTACKS


cdef int gen_forcing(gen_scratch_t* t, attack_t* work, position_t* p, int att, int k,
                     pair_t* out, bint both) noexcept nogil:
    """The forcing turns of ``att`` at a node where neither side has a threat
    (the caller makes sure): up to ``k`` (at most MAX_FORCING) double-threat
    pairs in gen_attacks' order, then up to ``k`` single-four pairs in
    gen_fours' order (what the free stone builds for the next double
    threat).  A pair score of the paper's weights can rank these far down
    while they are the turns that start a threat sequence.  Each pair's
    score is its value change for ``att`` (pos_pair_delta).  ``work``: room
    for MAX_ATTACKS pairs of scratch.  Returns how many (at most 2k)."""
    cdef int sub, i, n, m = 0
    if k > MAX_FORCING:
        k = MAX_FORCING
    for sub in range(2):
        n = gen_attacks(t, p, att, NULL, 0, work) if sub == 0 else gen_fours(t, p, att, NULL, 0, work, both)
        if n > k:
            n = k
        for i in range(n):
            out[m].a = work[i].a
            out[m].b = work[i].b
            out[m].score = pos_pair_delta(p, work[i].a, work[i].b, att)
            m += 1
    return m


def forcing_pairs(Position pos not None, int k=4, bint both_fours=True):
    """The forcing turns of the side to move (see gen_forcing): up to ``k``
    double-threat pairs, then up to ``k`` single-four pairs (with
    ``both_fours``, also the fours both stones make), as (score, a, b) with
    a < b.  Neither side may have a threat and two stones must be due."""
    if not 0 <= k <= MAX_FORCING:
        raise ValueError(f"k must be 0..{MAX_FORCING}, not {k}")
    if has_threat(&pos.pos, 0) or has_threat(&pos.pos, 1):
        raise ValueError("a side has a threat: the turn is a win or a block, not a forcing turn")
    cdef int due = stones_to_place(&pos.pos)
    if due != 2:
        raise ValueError(f"the turn places {due} stone{'' if due == 1 else 's'}, not 2")
    cdef gen_scratch_t t
    cdef attack_t* work = <attack_t*>malloc(MAX_ATTACKS * sizeof(attack_t))
    cdef pair_t out[2 * MAX_FORCING]
    cdef position_t p = pos.pos
    cdef int n = 0
    cdef int failed = gen_scratch_alloc(&t)
    try:
        if work == NULL or failed:
            raise MemoryError()
        n = gen_forcing(&t, work, &p, p.to_move, k, out, both_fours)
        return [(out[i].score, out[i].a, out[i].b) for i in range(n)]
    finally:
        free(work)
        gen_scratch_free(&t)


def threats_after(Position pos not None, int color, int x, int y):
    """The threats ``color`` would have after stones at x and y (cells empty,
    ``color`` without threats now), computed without placing them: a sorted
    list of (road, (empty cells))."""
    check_color(color)
    if has_threat(&pos.pos, color):
        raise ValueError("the colour has a threat already")
    check_empty_cell(&pos.pos, x)
    check_empty_cell(&pos.pos, y)
    if x == y:
        raise ValueError(f"the two stones are both on cell {x}")
    cdef gen_scratch_t t
    if gen_scratch_alloc(&t):
        raise MemoryError()
    try:
        live_next_node(t.live)
        n = threats_after_pair(t.live, &pos.pos, color, x, y, t.threats)
        return sorted((t.threats[i].road, tuple(sorted(c for c in (t.threats[i].e0, t.threats[i].e1) if c >= 0)))
                      for i in range(n))
    finally:
        gen_scratch_free(&t)
