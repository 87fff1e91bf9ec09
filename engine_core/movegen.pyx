# cython: language_level=3
"""Candidate points and the best ``width`` move pairs, in three exact scan modes."""
from libc.stdlib cimport free, malloc
from engine_core.bitboard cimport bitboard_t, bb_andnot, bb_dilate, bb_is_empty, bb_to_array
from engine_core.geometry cimport (
    BOARD_SIZE, LINE_REACH, NUM_DIRS, ROAD_LEN, geometry_t, get_geometry, road_has,
)
from engine_core.position cimport Position, pos_is_empty
from engine_core.threats cimport winning_stones
from engine_core.types cimport pair_index
from engine_core.roads cimport (
    EMPTY, SCAN_GLOBAL, SCAN_INCREMENTAL, SCAN_LOCAL, live_count, road_pair_term, road_step,
    rt_delta_scan, rt_shared_correction, rt_stone_delta,
)

cdef const geometry_t* geo = get_geometry()

cdef enum:
    CENTER_CELL = 180


cdef void mg_init(movegen_t* mg) noexcept nogil:
    cdef int i
    for i in range(NUM_CELLS):
        mg.index_of[i] = -1
        mg.corr_row[i] = 0
    mg.ncand = 0
    mg.pairs_scored = 0


cdef int gen_candidates(const position_t* p, int radius, int16_t* out) noexcept nogil:
    """Empty cells within Chebyshev distance ``radius`` of a stone (the centre on an empty board)."""
    cdef bitboard_t near, cand
    if bb_is_empty(&p.occupied):
        out[0] = CENTER_CELL
        return 1
    bb_dilate(&p.occupied, radius, &near)
    bb_andnot(&cand, &near, &p.occupied)
    return bb_to_array(&cand, out)


cdef int stones_to_place(const position_t* p) noexcept nogil:
    """1 on the first turn or when one empty cell is left, else 2 (0 on a full board)."""
    cdef int empty = NUM_CELLS - p.nstones
    if empty <= 0:
        return 0
    if p.nstones == 0 or empty == 1:
        return 1
    return 2


cdef bint pair_better(score_t s, int a, int b, const pair_t* q) noexcept nogil:
    """Whether (s, a, b) ranks before ``q``: higher score, then lower cells."""
    if s != q.score:
        return s > q.score
    if a != q.a:
        return a < q.a
    return b < q.b


cdef void pairs_insert(pair_t* out, int* n, int width, score_t s, int a, int b) noexcept nogil:
    """Insert into the sorted top-``width`` list ``out[0:n]`` if it ranks high enough."""
    cdef int i = n[0]
    if i >= width:
        if not pair_better(s, a, b, &out[width - 1]):
            return
        i = width - 1
    else:
        n[0] += 1
    while i > 0 and pair_better(s, a, b, &out[i - 1]):
        out[i] = out[i - 1]
        i -= 1
    out[i].score = s
    out[i].a = <int16_t>a
    out[i].b = <int16_t>b


cdef inline bint _at_or_after(const movegen_t* mg, int j, int first) noexcept nogil:
    """Whether candidate ``j`` is candidate ``first`` or comes after it in the order: a
    lower single delta, or an equal one and a later cell.  A key is d1 * KEY_SPAN +
    KEY_SPAN - 1 - index (distinct for distinct candidates): |d1| <= 24 roads x 2
    MAX_WEIGHT (position.pyx) < 5e12, so keys stay far inside 64 bits."""
    return mg.key[j] <= mg.key[first]


cdef void _place_more(movegen_t* mg) noexcept nogil:
    """Append to mg.order the best PLACE_CHUNK candidates not in it yet, in order (a node
    reads only the head of the order, so the rest is never sorted)."""
    cdef int64_t best[PLACE_CHUNK]
    cdef int64_t x, last = 0
    cdef int nb = 0, k, m
    cdef bint started = mg.nplaced > 0
    if started:
        last = mg.key[mg.order[mg.nplaced - 1]]
    for k in range(mg.ncand):
        x = mg.key[k]
        if (started and x >= last) or (nb == PLACE_CHUNK and x <= best[nb - 1]):
            continue                        # placed already, or not among the best
        m = nb if nb < PLACE_CHUNK else nb - 1
        if nb < PLACE_CHUNK:
            nb += 1
        while m > 0 and x > best[m - 1]:
            best[m] = best[m - 1]
            m -= 1
        best[m] = x
    for k in range(nb):
        mg.order[mg.nplaced + k] = <int16_t>(KEY_SPAN - 1 - (best[k] & (KEY_SPAN - 1)))
    mg.nplaced += nb


cdef inline int _placed(movegen_t* mg, int q) noexcept nogil:
    """The candidate at place ``q`` of the order (q < mg.ncand, and at most mg.nplaced:
    the loops read the places one after another), placing more if needed."""
    if q >= mg.nplaced:
        _place_more(mg)
    return mg.order[q]


cdef inline score_t _line_prefix(const position_t* p, int a, int d, int color, int side,
                                 score_t* pre) noexcept nogil:
    """pre[j] (j = 0..6): the pair terms of the roads in direction d holding
    cell a at positions 0..j-1 (a road's term is the same for any two empty
    cells of it), so the shared-road correction of a with the cell k steps
    ahead is pre[6 - k], with the cell k steps behind pre[6] - pre[k].
    Returns a's single-stone delta over those roads (rt_stone_delta's terms)."""
    cdef int j, r, code
    cdef score_t d1 = 0
    pre[0] = 0
    for j in range(ROAD_LEN):
        r = geo.cell_line_road[a][d][j]
        if r >= 0:
            code = p.rt.code[r]
            d1 += road_step(&p.rt.wo, code, color, side)
            pre[j + 1] = pre[j] + road_pair_term(&p.rt.wo, code, color, side)
        else:
            pre[j + 1] = pre[j]
    return d1


cdef void _single_and_bound(const position_t* p, movegen_t* mg, int i, int color, int side) noexcept nogil:
    """The single-stone delta of candidate ``i`` (``mg.d1[i]``, as rt_stone_delta: its
    roads are the roads read here), and ``mg.bound[i]``, at least its largest shared-road
    correction with any cell within 5 on its lines (and at least 0)."""
    cdef int a = mg.cand[i]
    cdef int d, k
    cdef score_t pre[ROAD_LEN + 1]
    cdef score_t hi, lo, d1 = 0, bound = 0
    for d in range(NUM_DIRS):
        d1 += _line_prefix(p, a, d, color, side, pre)
        # with the cell k ahead: pre[6 - k]; k behind: pre[6] - pre[k] (k = 1..5)
        hi = pre[1]
        lo = pre[1]
        for k in range(2, ROAD_LEN):
            if pre[k] > hi:
                hi = pre[k]
            if pre[k] < lo:
                lo = pre[k]
        if hi > bound:
            bound = hi
        if pre[ROAD_LEN] - lo > bound:
            bound = pre[ROAD_LEN] - lo
    mg.d1[i] = d1
    mg.key[i] = d1 * KEY_SPAN + (KEY_SPAN - 1 - i)
    mg.bound[i] = bound


cdef inline void _insert_pair(movegen_t* mg, pair_t* out, int* n, int width, score_t s, int a, int b) noexcept nogil:
    """Count the scored pair {a, b} and insert it, lower cell first, into the top-``width`` list."""
    mg.pairs_scored += 1
    if a < b:
        pairs_insert(out, n, width, s, a, b)
    else:
        pairs_insert(out, n, width, s, b, a)


cdef void _line_pairs(const position_t* p, movegen_t* mg, pair_t* out, int* n, int width,
                      int i, int first, bint behind, int color, int side) noexcept nogil:
    """Insert candidate ``i``'s pairs with the candidates within 5 cells ahead of it on its
    lines (and behind, with ``behind``) that are candidate ``first`` or rank after it:
    the only pairs of i with a shared-road correction."""
    cdef int a = mg.cand[i]
    cdef int d, k, j, y
    cdef score_t pre[ROAD_LEN + 1]
    for d in range(NUM_DIRS):
        _line_prefix(p, a, d, color, side, pre)
        for k in range(1, LINE_REACH + 1):
            y = geo.line_cell[a][d][LINE_REACH + k]         # k steps ahead
            if y >= 0:
                j = mg.index_of[y]
                if j >= 0 and _at_or_after(mg, j, first):
                    _insert_pair(mg, out, n, width, mg.d1[i] + mg.d1[j] + pre[ROAD_LEN - k], a, y)
            if not behind:
                continue
            y = geo.line_cell[a][d][LINE_REACH - k]         # k steps behind
            if y >= 0:
                j = mg.index_of[y]
                if j >= 0 and _at_or_after(mg, j, first):
                    _insert_pair(mg, out, n, width, mg.d1[i] + mg.d1[j] + pre[ROAD_LEN] - pre[k], a, y)


cdef void _corrected_pairs(const position_t* p, movegen_t* mg, pair_t* out, int* n, int width,
                           int first, int color, int side) noexcept nogil:
    """The pairs of two candidates that are ``first`` or rank after it and lie on one
    line within 5 cells (each pair once, from its cell behind), when the list is full
    and no such pair reaches the width-th score without its correction."""
    cdef int i
    cdef score_t top = mg.d1[first]
    for i in range(mg.ncand):
        # a pair of i in the set scores at most d1[i] + the set's best single + bound[i]
        if _at_or_after(mg, i, first) and mg.d1[i] + top + mg.bound[i] >= out[width - 1].score:
            _line_pairs(p, mg, out, n, width, i, first, False, color, side)


cdef int _pairs_incremental(position_t* p, movegen_t* mg, int width, int color, int side,
                            pair_t* out) noexcept nogil:
    """Exact top pairs from single-stone deltas plus shared-road corrections.

    Rows are visited best single first; a pair can score at most
    d1[i] + d1[j] + bound[i], so each row stops as soon as that cannot reach
    the current width-th score.  Only a neighbour on a line has a correction:
    once d1[i] + d1[j] alone cannot reach the width-th score, the row goes on
    through i's neighbours only, and once that holds for the row's first pair,
    it holds for every row left (the singles only fall, the width-th score
    only rises): only their pairs on a line are left to score
    (:c:func:`_corrected_pairs`).  The order is made as far as the rows read it
    (:c:func:`_placed`): the head of the candidates.
    """
    cdef int nc = mg.ncand
    cdef int n = 0, pi, qi, i, j, a
    cdef score_t di
    for i in range(nc):
        mg.index_of[mg.cand[i]] = <int16_t>i
    for i in range(nc):
        _single_and_bound(p, mg, i, color, side)
    mg.nplaced = 0
    for pi in range(nc - 1):
        i = _placed(mg, pi)
        j = _placed(mg, pi + 1)
        di = mg.d1[i]
        a = mg.cand[i]
        if n >= width and di + mg.d1[j] < out[width - 1].score:
            _corrected_pairs(p, mg, out, &n, width, i, color, side)
            break
        _line_row(p, mg, a, color, side, True)
        for qi in range(pi + 1, nc):
            j = _placed(mg, qi)
            if n >= width and di + mg.d1[j] + mg.bound[i] < out[width - 1].score:
                break
            if n >= width and di + mg.d1[j] < out[width - 1].score:
                # from here on only a correction can lift a pair: i's neighbours ranked qi or later
                _line_pairs(p, mg, out, &n, width, i, j, True, color, side)
                break
            _insert_pair(mg, out, &n, width, di + mg.d1[j] + mg.corr_row[j], a, mg.cand[j])
        _line_row(p, mg, a, color, side, False)
    for i in range(nc):
        mg.index_of[mg.cand[i]] = -1
    return n


cdef int gen_moves(position_t* p, movegen_t* mg, int radius, int width, int scan, int side,
                   pair_t* out) noexcept nogil:
    """The best ``width`` moves for the side to move, scored by the change of V(side).

    Two stones per move except on the first turn or with one empty cell left,
    when moves are single stones (``b`` = -1).  Returns how many (0 on a full board).
    """
    cdef int color = p.to_move
    cdef int need = stones_to_place(p)
    cdef int n = 0, i, j
    cdef score_t s
    if need == 0 or width <= 0:
        return 0
    if need == 1 and p.nstones == NUM_CELLS - 1:
        # the last empty cell, whatever the radius
        for i in range(NUM_CELLS):
            if p.cell[i] == EMPTY:
                mg.cand[0] = <int16_t>i
        mg.ncand = 1
    else:
        mg.ncand = gen_candidates(p, radius, mg.cand)
    if need == 1:
        for i in range(mg.ncand):
            if scan == SCAN_INCREMENTAL:
                s = rt_stone_delta(&p.rt, mg.cand[i], color, side)
            else:
                s = rt_delta_scan(&p.rt, p.cell, mg.cand[i], -1, color, side, scan)
            mg.pairs_scored += 1
            pairs_insert(out, &n, width, s, mg.cand[i], -1)
        return n
    if scan == SCAN_INCREMENTAL:
        return _pairs_incremental(p, mg, width, color, side, out)
    for i in range(mg.ncand - 1):
        for j in range(i + 1, mg.ncand):
            s = rt_delta_scan(&p.rt, p.cell, mg.cand[i], mg.cand[j], color, side, scan)
            mg.pairs_scored += 1
            pairs_insert(out, &n, width, s, mg.cand[i], mg.cand[j])
    return n


cdef score_t pair_score(const position_t* p, int x, int z, int color, int side) noexcept nogil:
    """The pair delta of stones x and z of ``color`` for ``side`` (move-scoring weights)."""
    return (rt_stone_delta(&p.rt, x, color, side) + rt_stone_delta(&p.rt, z, color, side)
            + rt_shared_correction(&p.rt, x, z, color, side))


cdef inline void _line_row(const position_t* p, movegen_t* mg, int x, int color, int side, bint fill) noexcept nogil:
    """Enter in mg.corr_row (by candidate index, mg.index_of set) the shared-road
    correction of cell x with each candidate on its lines (the only ones that
    share a road with it), or with ``fill`` False put those entries back to 0."""
    cdef int d, k, y, i
    cdef score_t pre[ROAD_LEN + 1]
    for d in range(NUM_DIRS):
        if fill:
            _line_prefix(p, x, d, color, side, pre)
        for k in range(1, LINE_REACH + 1):
            y = geo.line_cell[x][d][LINE_REACH + k]         # k steps ahead
            if y >= 0:
                i = mg.index_of[y]
                if i >= 0:
                    mg.corr_row[i] = pre[ROAD_LEN - k] if fill else 0
            y = geo.line_cell[x][d][LINE_REACH - k]         # k steps behind
            if y >= 0:
                i = mg.index_of[y]
                if i >= 0:
                    mg.corr_row[i] = pre[ROAD_LEN] - pre[k] if fill else 0


cdef int gen_pairs_with(position_t* p, movegen_t* mg, const int16_t* xs, int nx, int radius, int width,
                        int side, pair_t* out, int n) noexcept nogil:
    """Insert into the sorted top-``width`` list out[0:n] every pair {x, z}, x in
    xs[0:nx] and z a candidate, scored exactly (single deltas plus the
    shared-road correction; each single delta computed once); returns the new length.
    A pair of two cells of xs that are both candidates comes once, from the first."""
    cdef int color = p.to_move
    cdef int nc, i, j, k, x, z
    cdef bint seen
    cdef score_t dx
    if nx <= 0:
        return n
    nc = gen_candidates(p, radius, mg.cand)
    for i in range(nc):
        mg.index_of[mg.cand[i]] = <int16_t>i
        mg.d1[i] = rt_stone_delta(&p.rt, mg.cand[i], color, side)
    for k in range(nx):
        x = xs[k]
        i = mg.index_of[x]
        dx = mg.d1[i] if i >= 0 else rt_stone_delta(&p.rt, x, color, side)
        _line_row(p, mg, x, color, side, True)
        for i in range(nc):
            z = mg.cand[i]
            if z == x:
                continue
            seen = False
            if mg.index_of[x] >= 0:         # x a candidate too: {z, x} came with an earlier z of xs
                for j in range(k):
                    if xs[j] == z:
                        seen = True
                        break
            if not seen:
                _insert_pair(mg, out, &n, width, dx + mg.d1[i] + mg.corr_row[i], x, z)
        _line_row(p, mg, x, color, side, False)
    for i in range(nc):
        mg.index_of[mg.cand[i]] = -1
    return n


# ----------------------------------------------------------------- Python view
def candidates(Position pos not None, int radius=2):
    """Candidate cells of a position (for tests and tools)."""
    cdef int16_t buf[NUM_CELLS]
    if not 0 <= radius <= 18:
        raise ValueError(f"radius must be 0..18, not {radius}")
    cdef int n = gen_candidates(&pos.pos, radius, buf)
    return [buf[i] for i in range(n)]


cdef list _view_pairs(Position pos, int width, int radius, int scan, object side, bint with_stones,
                      const int16_t* xs, int nx):
    """best_moves (gen_moves) or, ``with_stones``, pairs_with (gen_pairs_with
    on xs[0:nx]): the arguments checked, the list as (score, a, b)."""
    if not 1 <= width <= 65536:
        raise ValueError(f"width must be 1..65536, not {width}")
    if not 0 <= radius <= 18:
        raise ValueError(f"radius must be 0..18, not {radius}")
    if scan not in (SCAN_GLOBAL, SCAN_LOCAL, SCAN_INCREMENTAL):
        raise ValueError(f"unknown scan code {scan}")
    cdef int cside = pos.pos.to_move if side is None else side
    if cside not in (0, 1):
        raise ValueError("side must be 0 or 1")
    cdef movegen_t* mg = <movegen_t*>malloc(sizeof(movegen_t))
    cdef pair_t* out = <pair_t*>malloc(width * sizeof(pair_t))
    cdef int n
    cdef position_t work
    if mg == NULL or out == NULL:
        free(mg)
        free(out)
        raise MemoryError()
    work = pos.pos
    try:
        with nogil:
            mg_init(mg)
            if with_stones:
                n = gen_pairs_with(&work, mg, xs, nx, radius, width, cside, out, 0)
            else:
                n = gen_moves(&work, mg, radius, width, scan, cside, out)
        return [(out[i].score, out[i].a, out[i].b) for i in range(n)]
    finally:
        free(mg)
        free(out)


def pairs_with(Position pos not None, stones, int width=10, int radius=2, side=None):
    """The best ``width`` pairs {x, z} of the side to move, x one of ``stones``
    (empty cells) and z a candidate (as the search pairs a stone that blocks
    alone): a list of (score, a, b), a < b, scored exactly from ``side``'s view."""
    cells = [int(x) for x in stones]
    if len(cells) > NUM_CELLS:
        raise ValueError(f"at most {NUM_CELLS} stones, not {len(cells)}")
    for x in cells:
        if not 0 <= x < NUM_CELLS or not pos_is_empty(&pos.pos, x):
            raise ValueError(f"stone {x} is not an empty cell")
    cdef int16_t xs[NUM_CELLS]
    cdef int k
    for k in range(len(cells)):
        xs[k] = <int16_t>cells[k]
    return _view_pairs(pos, width, radius, SCAN_INCREMENTAL, side, True, xs, len(cells))


def best_moves(Position pos not None, int width=10, int radius=2, int scan=SCAN_INCREMENTAL, side=None):
    """The best ``width`` moves for the side to move: a list of (score, a, b), b = -1 for one stone.

    ``scan`` is the C constant (see ``engine_core.position.scan_code``).
    """
    return _view_pairs(pos, width, radius, scan, side, False, NULL, 0)


def potential_pairs(Position pos not None, int k=8, color=None):
    """Up to ``k`` (at most 8) pairs of ``color`` (default: the side to move)
    that add the most live 3-roads, at least 3 (see gen_potential): a list
    of (gain, a, b), a < b, best first; empty when the turn is not two
    stones.  (The search asks only where the side to move has no threat:
    with one it would win, not build.)"""
    cdef pair_t out[MAX_POTENTIAL]
    cdef int c = pos.pos.to_move if color is None else int(color)
    cdef int i, n
    if c not in (0, 1):
        raise ValueError(f"colour must be 0 or 1, not {color}")
    if not 0 <= k <= MAX_POTENTIAL:
        raise ValueError(f"k must be 0..{MAX_POTENTIAL}, not {k}")
    if stones_to_place(&pos.pos) != 2:
        return []
    n = gen_potential(&pos.pos, k, c, out)
    return [(three_gain(&pos.pos, c, out[i].a, out[i].b), out[i].a, out[i].b) for i in range(n)]


def pair_three_gain(Position pos not None, int x, int y, int color):
    """How many more live 3-roads ``color`` would have after stones at x and
    y (two distinct empty cells), computed without placing them."""
    if color not in (0, 1):
        raise ValueError(f"colour must be 0 or 1, not {color}")
    for c in (x, y):
        if not 0 <= c < NUM_CELLS or not pos_is_empty(&pos.pos, c) or x == y:
            raise ValueError("x and y must be two distinct empty cells")
    return three_gain(&pos.pos, color, x, y)


# ------------------------------------------------------------ list helpers
cdef void insert_new(pair_t* out, int* n, int cap, score_t sc, int x, int y) noexcept nogil:
    """pairs_insert the pair {x, y}, unless it is in the list already."""
    cdef int a = x if x < y else y, b = y if x < y else x
    if pair_index(out, n[0], a, b) < 0:
        pairs_insert(out, n, cap, sc, a, b)


cdef int append_new(pair_t* dst, int n, const pair_t* src, int nsrc) noexcept nogil:
    """Append to dst[0:n] the pairs of src[0:nsrc] it does not hold yet; the new length."""
    cdef int i
    for i in range(nsrc):
        if pair_index(dst, n, src[i].a, src[i].b) < 0:
            dst[n] = src[i]
            n += 1
    return n


cdef void win_pair(position_t* p, movegen_t* mg, int16_t* a, int16_t* b) noexcept nogil:
    """The stones that complete a six for the side to move, as a full turn
    (``mg`` lends its candidate scratch)."""
    cdef int i, n, x
    winning_stones(p, p.to_move, a, b)
    if b[0] < 0 and stones_to_place(p) == 2:
        # one stone makes six; the turn still has a second stone: the nearest free cell
        n = gen_candidates(p, 1, mg.cand)
        for i in range(n):
            if mg.cand[i] != a[0]:
                b[0] = mg.cand[i]
                break
    if b[0] >= 0 and b[0] < a[0]:
        x = a[0]
        a[0] = b[0]
        b[0] = <int16_t>x


# ------------------------------------------------- pairs that build threats
cdef enum:
    POTENTIAL_MIN_GAIN = 3      # live 3-roads a pair must add to be kept


cdef int three_gain(const position_t* p, int color, int x, int y) noexcept nogil:
    """How many more live 3-roads ``color`` has after stones at x and y
    (empty cells), without placing them: each live road through them that
    reaches 3 stones, less each that held 3 and now holds more."""
    cdef int k, r, cnt, after, gain = 0
    for k in range(geo.cell_nroads[x]):
        r = geo.cell_roads[x][k]
        cnt = live_count(p.rt.code[r], color)       # 0 for a dead road: it cannot reach 3 with two stones
        after = cnt + 1 + road_has(geo, r, y)
        gain += (after == 3) - (cnt == 3 and after > 3)
    for k in range(geo.cell_nroads[y]):
        r = geo.cell_roads[y][k]
        if road_has(geo, r, x):
            continue                                # counted with x
        cnt = live_count(p.rt.code[r], color)
        gain += (cnt == 2) - (cnt == 3)
    return gain


cdef inline bint _near_on_line(int x, int y) noexcept nogil:
    """Whether x and y lie on one line at most 5 cells apart (so may share a road)."""
    cdef int dr = y // BOARD_SIZE - x // BOARD_SIZE, dc = y % BOARD_SIZE - x % BOARD_SIZE
    if dr < 0:
        dr = -dr
    if dc < 0:
        dc = -dc
    return dr <= LINE_REACH and dc <= LINE_REACH and (dr == 0 or dc == 0 or dr == dc)


cdef int gen_potential(const position_t* p, int k, int color, pair_t* out) noexcept nogil:
    """Up to ``k`` pairs of ``color`` that add the most live 3-roads (at least
    POTENTIAL_MIN_GAIN), each a four in waiting: the pairs that set up a
    double threat for the next turn, which a pair score of the paper's
    weights can rank far down.  The cells are the candidates (radius 2);
    a pair not on one line gains only from the live 2-roads through its
    cells.  Sorted by that gain (ties: by pair score); the pairs' scores are
    their pair scores.  Returns how many."""
    cdef int16_t cells[NUM_CELLS]
    cdef uint8_t twos[NUM_CELLS]
    cdef int gains[MAX_POTENTIAL]
    cdef int j, c, i, m, nc, n = 0, g, x, y
    cdef score_t sc
    if k <= 0:
        return 0
    if k > MAX_POTENTIAL:
        k = MAX_POTENTIAL
    nc = gen_candidates(p, 2, cells)
    for i in range(nc):
        c = cells[i]
        twos[i] = 0
        for j in range(geo.cell_nroads[c]):
            if live_count(p.rt.code[geo.cell_roads[c][j]], color) == 2:
                twos[i] += 1
    for i in range(nc):
        for j in range(i + 1, nc):
            x = cells[i]
            y = cells[j]
            if twos[i] + twos[j] < POTENTIAL_MIN_GAIN and not _near_on_line(x, y):
                continue
            g = three_gain(p, color, x, y)
            if g < POTENTIAL_MIN_GAIN:
                continue
            sc = pair_score(p, x, y, color, color)
            # insertion into out[0:n] by gain, then score; at most k kept
            m = n if n < k else k - 1
            if n == k and (gains[m] > g or (gains[m] == g and out[m].score >= sc)):
                continue
            while m > 0 and (gains[m - 1] < g or (gains[m - 1] == g and out[m - 1].score < sc)):
                out[m] = out[m - 1]
                gains[m] = gains[m - 1]
                m -= 1
            out[m].a = <int16_t>(x if x < y else y)
            out[m].b = <int16_t>(y if x < y else x)
            out[m].score = sc
            gains[m] = g
            if n < k:
                n += 1
    return n
