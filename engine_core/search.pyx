# cython: language_level=3
"""Alpha-beta over width-limited move pairs; the GIL is released for the whole search."""
from libc.stdlib cimport free, malloc
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from engine_core.movegen cimport gen_moves, mg_init
from engine_core.position cimport Position, pos_make_pair, pos_undo_pair, pos_winner
from engine_core.roads cimport (
    SCAN_GLOBAL, SCAN_INCREMENTAL, SCAN_LOCAL, rt_eval, rt_threat_roads,
)

cdef double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint _out_of_time(search_t* s) noexcept nogil:
    if s.clock_armed and now() >= s.deadline:
        s.stop = True
    return s.stop


cdef inline void _pv_set(search_t* s, int ply, int a, int b) noexcept nogil:
    """pv[ply] = (a, b) followed by pv[ply + 1]."""
    cdef int k
    s.pv[ply][0][0] = <int16_t>a
    s.pv[ply][0][1] = <int16_t>b
    for k in range(s.pv_len[ply + 1]):
        s.pv[ply][k + 1][0] = s.pv[ply + 1][k][0]
        s.pv[ply][k + 1][1] = s.pv[ply + 1][k][1]
    s.pv_len[ply] = s.pv_len[ply + 1] + 1


cdef void _follow_first(search_t* s, int ply, pair_t* pairs, int n) noexcept nogil:
    """Move the previous iteration's PV pair for this ply to the front of the list."""
    cdef int i
    cdef pair_t tmp
    if not s.following or ply >= s.follow_len:
        s.following = False
        return
    for i in range(n):
        if pairs[i].a == s.follow[ply][0] and pairs[i].b == s.follow[ply][1]:
            tmp = pairs[i]
            while i > 0:
                pairs[i] = pairs[i - 1]
                i -= 1
            pairs[0] = tmp
            return
    s.following = False


cdef score_t negamax(search_t* s, int depth, int ply, score_t alpha, score_t beta) noexcept nogil:
    """Value of the position for the side to move, searched ``depth`` turns."""
    cdef pair_t* pairs
    cdef int n, i, mover
    cdef score_t v, best
    cdef bint on_pv
    s.nodes += 1
    s.pv_len[ply] = 0
    if s.clock_armed and _out_of_time(s):
        return 0
    mover = s.pos.to_move
    if depth == 0:
        s.leaves += 1
        return -rt_eval(&s.pos.rt, 1 - mover)
    pairs = s.pairs + ply * s.prm.width
    n = gen_moves(&s.pos, s.mg, s.prm.radius, s.prm.width, s.prm.scan, mover, pairs)
    if n == 0:
        return 0                                   # full board: a draw
    on_pv = s.following
    if on_pv:
        _follow_first(s, ply, pairs, n)
    if depth == 1 and rt_threat_roads(&s.pos.rt, mover) == 0 and not s.following:
        # No pair can make six, and each child's value is V(mover) + its pair
        # score: the first pair of the sorted list is the best child.
        s.nodes += 1
        s.leaves += 1
        s.pv_len[ply + 1] = 0
        _pv_set(s, ply, pairs[0].a, pairs[0].b)
        return rt_eval(&s.pos.rt, mover) + pairs[0].score
    best = -INF_SCORE
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
        if v > best:
            best = v
            _pv_set(s, ply, pairs[i].a, pairs[i].b)
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


cdef int search_run(search_t* s, int16_t* best, score_t* score, int* depth_done) noexcept nogil:
    """Search to ``prm.depth`` (iteratively if asked or timed); the deepest finished
    iteration's move, score and PV.  Returns the PV length (0: no move)."""
    cdef int d, first, k, pv_len = 0
    cdef score_t v
    s.start = now()
    s.deadline = s.start + s.prm.time_limit
    s.stop = False
    s.follow_len = 0
    depth_done[0] = 0
    first = 1 if (s.prm.iterative or s.prm.time_limit > 0) else s.prm.depth
    for d in range(first, s.prm.depth + 1):
        s.following = s.follow_len > 0
        s.clock_armed = s.prm.time_limit > 0 and d > first
        v = negamax(s, d, 0, -INF_SCORE, INF_SCORE)
        if s.stop:
            break                       # an unfinished iteration is thrown away
        if s.pv_len[0] == 0:
            break
        score[0] = v
        depth_done[0] = d
        pv_len = s.pv_len[0]
        for k in range(pv_len):
            s.follow[k][0] = s.pv[0][k][0]
            s.follow[k][1] = s.pv[0][k][1]
        s.follow_len = pv_len
        if v >= WIN_SCORE - MAX_PLY or v <= -(WIN_SCORE - MAX_PLY):
            break                       # a forced result does not change with depth
        if s.prm.time_limit > 0 and now() >= s.deadline:
            break
    best[0] = s.follow[0][0] if pv_len else -1
    best[1] = s.follow[0][1] if pv_len else -1
    return pv_len


# ----------------------------------------------------------------- Python view
def search(Position pos, int depth, int width=10, int radius=2, int scan=SCAN_INCREMENTAL,
           double time_limit=0.0, bint iterative=False):
    """Search ``pos`` for the side to move.

    Returns a dict: ``move`` (a, b) with b = -1 for one stone, ``score``,
    ``pv`` [(a, b), ...], ``depth`` (deepest finished iteration), ``nodes``,
    ``leaves``, ``time_s``.  Raises ValueError for bad arguments.
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
    cdef search_t* s = <search_t*>malloc(sizeof(search_t))
    if s == NULL:
        raise MemoryError()
    s.mg = <movegen_t*>malloc(sizeof(movegen_t))
    s.pairs = <pair_t*>malloc((MAX_PLY + 1) * width * sizeof(pair_t))
    cdef int16_t best[2]
    cdef score_t score = 0
    cdef int depth_done = 0, pv_len = 0
    cdef double elapsed
    try:
        if s.mg == NULL or s.pairs == NULL:
            raise MemoryError()
        s.pos = pos.pos
        s.prm.depth = depth
        s.prm.width = width
        s.prm.radius = radius
        s.prm.scan = scan
        s.prm.time_limit = time_limit
        s.prm.iterative = iterative
        s.nodes = 0
        s.leaves = 0
        with nogil:
            mg_init(s.mg)
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
            "time_s": elapsed,
            "pairs_scored": s.mg.pairs_scored,
        }
    finally:
        free(s.pairs)
        free(s.mg)
        free(s)


WIN = WIN_SCORE
MAX_DEPTH = MAX_PLY
