# cython: language_level=3
"""Move ordering, forced blocks and winning pairs (see movepick.pxd)."""
from libc.stdint cimport int16_t

from engine_core.movegen cimport gen_candidates, gen_pairs_with, pairs_insert, stones_to_place
from engine_core.position cimport pos_pair_delta
from engine_core.search_state cimport MAX_FORCED, ply_stride
from engine_core.threats cimport MAX_BLOCKS, block_t, blocking_moves, winning_stones
from engine_core.types cimport pair_index


cdef int _promote(pair_t* pairs, int n, int front, int a, int b) noexcept nogil:
    """Move (a, b) to index ``front`` if it is in pairs[front:n]; return the new front."""
    cdef int i
    cdef pair_t tmp
    if a < 0:
        return front
    i = pair_index(pairs + front, n - front, a, b)
    if i < 0:
        return front
    i += front
    tmp = pairs[i]
    while i > front:
        pairs[i] = pairs[i - 1]
        i -= 1
    pairs[front] = tmp
    return front + 1


cdef int order_front(search_t* s, pair_t* pairs, int n, int ply, int tt_a, int tt_b) noexcept nogil:
    """Bring to the front, in this order: the previous iteration's PV move
    (while the search follows it), the transposition table's pair, the two
    killer pairs.  Returns how many were brought forward."""
    cdef int front = 0
    if s.following:
        if ply < s.follow_len:
            front = _promote(pairs, n, front, s.follow[ply][0], s.follow[ply][1])
        if front == 0:
            s.following = False
    if s.tt_on:
        front = _promote(pairs, n, front, tt_a, tt_b)
    if s.opt.killers:
        front = _promote(pairs, n, front, s.killer[ply][0][0], s.killer[ply][0][1])
        front = _promote(pairs, n, front, s.killer[ply][1][0], s.killer[ply][1][1])
    return front


cdef void reverse_pairs(pair_t* pairs, int n) noexcept nogil:
    """Reverse pairs[0:n] in place."""
    cdef int i
    cdef pair_t tmp
    for i in range(n // 2):
        tmp = pairs[i]
        pairs[i] = pairs[n - 1 - i]
        pairs[n - 1 - i] = tmp


cdef void killer_store(search_t* s, int ply, int a, int b) noexcept nogil:
    """(a, b) caused a cutoff at ``ply``: it becomes the first killer."""
    if not s.opt.killers or (a == s.killer[ply][0][0] and b == s.killer[ply][0][1]):
        return
    s.killer[ply][1][0] = s.killer[ply][0][0]
    s.killer[ply][1][1] = s.killer[ply][0][1]
    s.killer[ply][0][0] = <int16_t>a
    s.killer[ply][0][1] = <int16_t>b


cdef int best_by_score(const pair_t* pairs, int n) noexcept nogil:
    """Index of the first pair with the highest score (n >= 1)."""
    cdef int i, best_i = 0
    for i in range(1, n):
        if pairs[i].score > pairs[best_i].score:
            best_i = i
    return best_i


cdef void win_pair(search_t* s, int16_t* a, int16_t* b) noexcept nogil:
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


cdef int gen_blocks(search_t* s, pair_t* out, int nt) noexcept nogil:
    """Pairs that meet every opponent threat (s.threats[:nt]): every forced pair,
    and for a stone that blocks alone the best ``width`` second stones."""
    cdef block_t blocks[MAX_BLOCKS]
    cdef int16_t alone[MAX_BLOCKS]                          # stones that block alone
    cdef int nb = blocking_moves(s.threats, nt, blocks)
    cdef int color = s.pos.to_move
    cdef int k, i, n = 0, nalone = 0, nfree
    cdef int cap = s.opt.width + MAX_FORCED
    cdef pair_t* free_pairs = out + ply_stride(&s.opt)    # scratch: the next ply's list is not in use yet
    for k in range(nb):
        if blocks[k].y >= 0:
            pairs_insert(out, &n, cap, pos_pair_delta(&s.pos, blocks[k].x, blocks[k].y, color),
                         blocks[k].x, blocks[k].y)
        else:
            alone[nalone] = blocks[k].x
            nalone += 1
    nfree = gen_pairs_with(&s.pos, s.mg, alone, nalone, s.opt.radius, s.opt.width, color, free_pairs, 0)
    for i in range(nfree):
        insert_new(out, &n, cap, free_pairs[i].score, free_pairs[i].a, free_pairs[i].b)
    return n
