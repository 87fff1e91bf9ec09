# cython: language_level=3
"""Threat-space search: double threats and single fours (see tss.pxd)."""
from libc.stdint cimport uint8_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from engine_core.attacks cimport (
    MAX_ATTACKS, gen_attacks, gen_fours, gen_scratch_alloc, gen_scratch_free, gen_win,
)
from engine_core.clock cimport now
from engine_core.geometry cimport NUM_CELLS, NUM_ROADS, ROAD_LEN, geometry_t, get_geometry
from engine_core.position cimport Position, pos_make_pair, pos_undo_pair
from engine_core.roads cimport EMPTY, live_count
from engine_core.threats cimport (
    MAX_BLOCKS, block_t, blocking_moves, blocking_number, collect_threats, has_threat, winning_stones,
)
from engine_core.types cimport flag_get, road_walk_t, walk_next, walk_start

cdef const geometry_t* geo = get_geometry()


# ----------------------------------------------------------------- VCDT
cdef int tss_alloc(tss_t* t, int tt_bits) noexcept nogil:
    """Allocate a solver's tables; 0 on success, -1 when out of memory."""
    t.tt_mask = ((<uint64_t>1) << tt_bits) - 1
    t.tt = <tss_entry_t*>calloc(t.tt_mask + 1, sizeof(tss_entry_t))
    t.attacks = <attack_t*>malloc((MAX_TSS_DEPTH + 1) * MAX_ATTACKS * sizeof(attack_t))
    t.nodes = 0
    t.line_len = 0
    t.aborted = False
    t.both_fours = True
    t.stop_flag = NULL
    t.cap = 0
    t.outside = NULL
    if gen_scratch_alloc(&t.gen) or t.tt == NULL or t.attacks == NULL:
        tss_free(t)
        return -1
    return 0


cdef void tss_free(tss_t* t) noexcept nogil:
    free(t.tt)
    free(t.attacks)
    gen_scratch_free(&t.gen)
    t.tt = NULL
    t.attacks = NULL


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
    elif t.cap > 0 and t.nodes + t.outside[0] >= t.cap:
        t.aborted = True
    elif t.nodes >= t.clock_at:
        t.clock_at = t.nodes + CLOCK_EVERY
        if (t.stop_flag != NULL and flag_get(t.stop_flag)) or (t.deadline > 0 and now() >= t.deadline):
            t.aborted = True
    return t.aborted


cdef inline void _zone_add(int c, uint8_t* seen, int16_t* cells, int* n) noexcept nogil:
    if c >= 0 and not seen[c]:
        seen[c] = 1
        cells[n[0]] = <int16_t>c
        n[0] += 1


cdef void _zone_fours(const position_t* p, int dfd, int extra, uint8_t* seen, int16_t* cells,
                      int* n) noexcept nogil:
    """Add the empty cells of ``dfd``'s live roads that ``extra`` more
    stones of it could turn into a four: those holding 4 - extra stones or
    more (but fewer than 4: a four is a threat the attacker meets already).
    With ``extra`` 1 these are its 3-roads, the cells where one stone of it
    makes a threat the attacker must answer."""
    cdef int r, least = 4 - extra
    cdef road_walk_t it
    if least >= 2:                      # the kept list of live 2- and 3-roads
        walk_start(&it, p.rt.build_roads[dfd])
        r = walk_next(&it)
        while r >= 0:
            _zone_road(p, r, dfd, least, seen, cells, n)
            r = walk_next(&it)
    else:                               # every road holding a stone of the defender's and none of the attacker's
        for r in range(NUM_ROADS):
            _zone_road(p, r, dfd, 1, seen, cells, n)


cdef inline void _zone_road(const position_t* p, int r, int dfd, int least, uint8_t* seen, int16_t* cells,
                            int* n) noexcept nogil:
    cdef int j, c, cnt = live_count(p.rt.code[r], dfd)
    if least <= cnt < 4:
        for j in range(ROAD_LEN):
            c = geo.road_cells[r][j]
            if p.cell[c] == EMPTY:
                _zone_add(c, seen, cells, n)


cdef bint _proven_pair(tss_t* t, position_t* p, int depth, int ply, int fours, int16_t* a,
                       int16_t* b) noexcept nogil:
    """The attacker's winning pair at a node proven won, from the table (the
    node is proved again when its entry was overwritten); False if it
    cannot be had (the budget ran out)."""
    cdef tss_entry_t* e = &t.tt[p.key & t.tt_mask]
    if not (e.key == p.key and e.result == 1 and e.fours <= fours):
        if not _vct(t, p, depth, ply, fours):
            return False
        e = &t.tt[p.key & t.tt_mask]
        if not (e.key == p.key and e.result == 1 and e.fours <= fours):
            return False
    a[0] = e.a
    b[0] = e.b
    return True


cdef bint _proof_zone(tss_t* t, position_t* p, int depth, int fours, int ply, int extra, uint8_t* seen,
                      int16_t* cells, int* n) noexcept nogil:
    """Add the relevance zone of the attacker's proven win at this node (the
    attacker to move) for ``extra`` defender stones placed outside it: the
    cells of the proof tree (every attacker pair, the empty cells of every
    threat it makes, so every block and the six), and at each attacker node
    the cells of the defender's roads that ``extra`` stones could make a
    four (_zone_fours).  Stones of the defender placed elsewhere leave every
    threat, block and answer of the proof as it was, so the attacker still
    wins.  Where the proof holds a single four, the defender's free stone
    there is another such stone: the branch with the lone block and no
    second stone counts it in ``extra``, and each second stone the proof
    tried (:func:`_free_cells`) is followed as its own branch.

    The proof is read from the table (proved again where an entry was lost).
    Returns False when it cannot be had (the budget ran out): the zone is
    then incomplete.  The position is restored."""
    cdef int att = t.attacker, k, nt, nb, sub
    cdef int16_t a, b
    cdef bint ok = True
    cdef block_t replies[MAX_BLOCKS]
    if t.aborted:
        return False
    if winning_stones(p, att, &a, &b):
        _zone_add(a, seen, cells, n)
        _zone_add(b, seen, cells, n)
        return True
    if ply >= MAX_TSS_DEPTH:
        return False
    _zone_fours(p, 1 - att, extra, seen, cells, n)
    if not _proven_pair(t, p, depth, ply, fours, &a, &b):
        return False
    _zone_add(a, seen, cells, n)
    _zone_add(b, seen, cells, n)
    pos_make_pair(p, a, b)
    nt = collect_threats(p, att, t.gen.threats)
    for k in range(nt):                     # every block, and the six when there is none
        _zone_add(t.gen.threats[k].e0, seen, cells, n)
        _zone_add(t.gen.threats[k].e1, seen, cells, n)
    nb = blocking_moves(t.gen.threats, nt, replies)
    sub = fours - 1 if blocking_number(t.gen.threats, nt) == 1 else fours
    for k in range(nb):
        if replies[k].y < 0:
            ok = _lone_block_zone(t, p, replies, nb, k, depth - 1, sub, ply + 1, extra, seen, cells, n)
        else:
            pos_make_pair(p, replies[k].x, replies[k].y)
            ok = _proof_zone(t, p, depth - 1, sub, ply + 1, extra, seen, cells, n)
            pos_undo_pair(p, replies[k].x, replies[k].y)
        if not ok:
            break
    pos_undo_pair(p, a, b)
    return ok


cdef int _free_cells(tss_t* t, position_t* p, const block_t* blocks, int nb, int k, int depth, int fours,
                     int ply, uint8_t* seen, int16_t* zone, int* nz) noexcept nogil:
    """The defender (to move) meets the attacker's single four with
    blocks[k].x alone.  1 when the attacker wins with no second stone
    placed, and then ``zone`` holds the cells where a second stone could
    matter: the other blocking stones and the relevance zone of that win
    (_proof_zone, one extra stone); 0 when it does not win (or the budget
    ran out).  ``seen`` is cleared here; the position is restored."""
    cdef int i, r, x = blocks[k].x
    nz[0] = 0
    pos_make_pair(p, x, -1)
    r = _vct(t, p, depth, ply, fours)
    if r:
        memset(seen, 0, NUM_CELLS * sizeof(uint8_t))
        seen[x] = 1
        for i in range(nb):
            _zone_add(blocks[i].x, seen, zone, nz)
        if not _proof_zone(t, p, depth, fours, ply, 1, seen, zone, nz):
            r = 0
    pos_undo_pair(p, x, -1)
    return r


cdef bint _lone_block_zone(tss_t* t, position_t* p, const block_t* blocks, int nb, int k, int depth, int fours,
                           int ply, int extra, uint8_t* seen, int16_t* cells, int* n) noexcept nogil:
    """_proof_zone's step through a single four met by blocks[k].x alone:
    the branch without a second stone (one more unseen defender stone), and
    the branch of each second stone that _lone_block_loses tried."""
    cdef uint8_t seen2[NUM_CELLS]
    cdef int16_t zone[NUM_CELLS]
    cdef int nz, i, x = blocks[k].x
    cdef bint ok
    if not _free_cells(t, p, blocks, nb, k, depth, fours, ply, seen2, zone, &nz):
        return False
    pos_make_pair(p, x, -1)
    ok = _proof_zone(t, p, depth, fours, ply, extra + 1, seen, cells, n)
    pos_undo_pair(p, x, -1)
    i = 0
    while ok and i < nz:
        if p.cell[zone[i]] == EMPTY:
            pos_make_pair(p, x, zone[i])
            ok = _proof_zone(t, p, depth, fours, ply, extra, seen, cells, n)
            pos_undo_pair(p, x, zone[i])
        i += 1
    return ok


cdef int _lone_block_loses(tss_t* t, position_t* p, const block_t* blocks, int nb, int k, int depth, int fours,
                           int ply) noexcept nogil:
    """The defender (to move) meets the attacker's single four with
    blocks[k].x alone and has a second stone to place: 1 if the attacker
    wins within ``depth`` turns (``fours`` single fours) whatever that
    stone, 0 if one holds (or the budget ran out).  First with no second
    stone; when the attacker wins then, the second stone is tried on every
    cell of that proof's relevance zone and on the other blocking stones
    (_free_cells).  A stone anywhere else leaves that proof as it was (see
    _proof_zone), so a win is a proof."""
    cdef uint8_t seen[NUM_CELLS]
    cdef int16_t zone[NUM_CELLS]
    cdef int nz, i, r, x = blocks[k].x
    if not _free_cells(t, p, blocks, nb, k, depth, fours, ply, seen, zone, &nz) or t.aborted:
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
            if e.fours <= fours:
                return 1                # a win holds at any depth, and with more single fours allowed
        elif e.depth >= depth and e.fours >= fours:
            return 0
    # the defender's threats must all be met by this pair
    nt = collect_threats(p, dfd, t.gen.threats)
    h = blocking_number(t.gen.threats, nt)
    if h >= 3:
        _tt_store(t, p.key, 127, 127, 0, -1, -1)
        return 0
    nb = blocking_moves(t.gen.threats, nt, blocks) if nt else 0
    attacks = t.attacks + ply * MAX_ATTACKS
    if depth == 1:
        # the last turn: only a pair leaving three or more threats wins
        if gen_win(&t.gen, p, att, blocks, nb, attacks):
            _tt_store(t, p.key, depth, fours, 1, attacks[0].a, attacks[0].b)
            return 1
        _tt_store(t, p.key, depth, fours, 0, -1, -1)
        return 0
    n = gen_attacks(&t.gen, p, att, blocks, nb, attacks)
    for sub in range(2):
        if sub == 1:                    # then the single fours, each leaving one turn fewer of them
            if fours <= 0 or t.aborted:
                break
            n = gen_fours(&t.gen, p, att, blocks, nb, attacks, ply == 0 and t.both_fours)
        for i in range(n):
            pos_make_pair(p, attacks[i].a, attacks[i].b)
            nt = collect_threats(p, att, t.gen.threats)
            k = blocking_moves(t.gen.threats, nt, replies)
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
        nt = collect_threats(p, t.attacker, t.gen.threats)
        nb = blocking_moves(t.gen.threats, nt, replies)
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
    t.aborted = t.cap > 0 and t.nodes + t.outside[0] >= t.cap      # the move's node limit is spent
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
    if t.aborted:
        return -1
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
cdef class SolverTable:
    """A solver's transposition table kept from call to call, as the engine's
    search keeps its own: pass it as ``table`` to :func:`solve_vct` or
    :func:`solve_vcdt`.  Wins and failed searches carry over to later calls
    (from any position, for either side); a win found with single fours
    allowed is never read back by a call allowing fewer, so a VCDT found
    through the table is still a proof.  ``bits``: the table holds 2**bits
    entries (10..26).  One call at a time: a call while another is using the
    table (from another thread) is a RuntimeError."""
    cdef tss_t t
    cdef bint busy
    cdef readonly int bits

    def __cinit__(self, int bits=18):
        if not 10 <= bits <= 26:
            raise ValueError(f"bits must be 10..26, not {bits}")
        if tss_alloc(&self.t, bits) != 0:
            raise MemoryError()
        self.bits = bits

    def __dealloc__(self):
        tss_free(&self.t)

    cdef tss_t* take(self) except NULL:
        if self.busy:
            raise RuntimeError("this SolverTable is in use by another call")
        self.busy = True
        return &self.t

    def clear(self):
        """Forget every entry."""
        self.take()
        tss_clear(&self.t)
        self.busy = False

    def __repr__(self):
        return f"SolverTable(bits={self.bits})"


def _check_depth_fours(int depth, int fours):
    """The solver's attacker turns and single fours, as the Python views take them."""
    if depth < 1:
        raise ValueError("depth must be >= 1")
    if not 0 <= fours <= MAX_TSS_DEPTH:
        raise ValueError(f"fours must be 0..{MAX_TSS_DEPTH}, not {fours}")


def solve_vct(Position pos not None, int depth=12, int fours=1, long budget=200000, double time_limit=0.0,
              SolverTable table=None, bint both_fours=True):
    """Search a win by continuous threats for the side to move: double
    threats, and at most ``fours`` single fours (a pair whose threats one
    stone blocks, its other stone free to build).  With ``fours`` 0 this is
    a VCDT; after a single four the defender's free stone is tried on the
    cells that can matter to the win found without it (its relevance zone,
    :func:`relevance_zone`), so a win is a proof either way.  ``table``: a
    :class:`SolverTable` to search with and keep (default: a new one for
    this call).  ``both_fours``: the line's first turn may also be a four
    both stones make from a 2-road (the engine's ``tss_both_fours``).

    Returns ``(result, line, nodes)``: result 1 (win), 0 (none within depth)
    or -1 (budget or time ran out); ``line`` alternates attacker and defender
    pairs (a, b) ending with the six (b = -1: one stone, a lone block after a
    single four or a six needing one stone; (-1, -1): the defender had no
    defence); ``nodes`` those of this call.
    """
    cdef position_t work = pos.pos
    cdef int r
    cdef double deadline = 0.0
    cdef int64_t start
    cdef tss_t* t
    _check_depth_fours(depth, fours)
    if not (time_limit >= 0 and time_limit <= 1e12):
        raise ValueError(f"time_limit must be 0..1e12 seconds, not {time_limit}")
    if table is None:
        table = SolverTable()
    t = table.take()
    try:
        start = t.nodes
        t.both_fours = both_fours
        with nogil:
            if time_limit > 0:
                deadline = now() + time_limit
            r = vct(t, &work, work.to_move, depth, fours, budget, deadline)
        return r, [(t.line[i][0], t.line[i][1]) for i in range(t.line_len)], t.nodes - start
    finally:
        table.busy = False


def solve_vcdt(Position pos not None, int depth=12, long budget=200000, double time_limit=0.0,
               SolverTable table=None):
    """Search a VCDT win for the side to move: ``solve_vct`` with no single
    four.  Returns ``(result, line, nodes)`` as solve_vct does."""
    return solve_vct(pos, depth, 0, budget, time_limit, table)


def solve_forced(Position pos not None, int depth=12, int fours=1, long budget=200000):
    """A VCDT (a proof), else a win with single fours, one allowed, then two,
    up to ``fours``, each call with ``budget`` nodes (the engine's order: a
    search allowing many fours can spend its budget before it reaches a win
    with one).  ``(kind, line, undecided)``: kind "vcdt", "four" or None, the
    line as solve_vct's ([] if none), and whether a search ran out."""
    if not 0 <= fours <= MAX_TSS_DEPTH:
        raise ValueError(f"fours must be 0..{MAX_TSS_DEPTH}, not {fours}")
    undecided = False
    for allowed in range(fours + 1):
        result, line, _ = solve_vct(pos, depth, allowed, budget)
        if result == 1:
            return ("four" if allowed else "vcdt"), line, False
        undecided = undecided or result == -1
    return None, [], undecided


def relevance_zone(Position pos not None, int depth=12, int fours=0, int extra=1, long budget=200000,
                   SolverTable table=None):
    """The relevance zone of the side to move's win by threats (``solve_vct``
    with ``fours`` single fours): the cells where ``extra`` stones of the
    defender, placed before the attacker's first turn, could change the
    proof; stones anywhere else leave the attacker's win as it is.  This is
    the set the solver tries the free stone of a single four on (``extra``
    1), and counts a deeper single four's free stone in (``extra`` 2).

    Returns ``(result, cells)``: result as solve_vct's, and the sorted cells
    of the zone when it is 1 (else [])."""
    cdef position_t work = pos.pos
    cdef int r, ok = 0, d
    cdef uint8_t seen[NUM_CELLS]
    cdef int16_t cells[NUM_CELLS]
    cdef int n = 0
    cdef tss_t* t
    _check_depth_fours(depth, fours)
    if not 1 <= extra <= 4:
        raise ValueError(f"extra must be 1..4, not {extra}")
    if table is None:
        table = SolverTable()
    t = table.take()
    try:
        t.both_fours = True
        d = min(depth, MAX_TSS_DEPTH)
        with nogil:
            r = vct(t, &work, work.to_move, d, fours, budget, 0.0)
            if r == 1:
                memset(seen, 0, sizeof(seen))
                ok = _proof_zone(t, &work, d, fours, 0, extra, seen, cells, &n)
        if r == 1 and not ok:
            r = -1
        return r, (sorted(cells[i] for i in range(n)) if r == 1 else [])
    finally:
        table.busy = False
