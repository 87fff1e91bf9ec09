# cython: language_level=3
"""Allocation of a search's state: its pair lists, the transposition and VCDT
tables, kept between searches when they still fit, and shared with helper
threads (see search.pyx: _start_helpers)."""
from libc.stdlib cimport free, malloc

from engine_core.bitboard cimport bb_zero
from engine_core.movegen cimport mg_init
from engine_core.threats cimport MAX_THREATS
from engine_core.tss cimport tss_alloc, tss_clear, tss_free
from engine_core.tt cimport tt_alloc, tt_clear, tt_free


cdef int _alloc_lists(search_t* s, const search_options_t* opt) noexcept nogil:
    if s.mg == NULL or s.cap_width < widest(opt):
        free(s.mg)
        free(s.pairs)
        free(s.root_moves)
        s.mg = <movegen_t*>malloc(sizeof(movegen_t))
        s.pairs = <pair_t*>malloc((MAX_PLY + 2) * ply_stride(opt) * sizeof(pair_t))
        s.root_moves = <root_move_t*>malloc(ply_stride(opt) * sizeof(root_move_t))
        s.cap_width = 0                 # set once all three are there: a failure never leaves a width
        if s.mg == NULL or s.pairs == NULL or s.root_moves == NULL:
            return -1
        s.cap_width = widest(opt)
        mg_init(s.mg)
    if s.threats == NULL or s.root_extra == NULL:
        free(s.threats)
        free(s.root_extra)
        s.threats = <threat_t*>malloc(MAX_THREATS * sizeof(threat_t))
        s.root_extra = <pair_t*>malloc(MAX_ROOT_EXTRA * sizeof(pair_t))
        if s.threats == NULL or s.root_extra == NULL:
            return -1
    return 0


cdef int _alloc_tables(search_t* s, const search_options_t* opt) noexcept nogil:
    if opt.threats and opt.tss_plies > 0 and not s.have_tss:
        if tss_alloc(&s.tss, TSS_TABLE_BITS) != 0:
            return -1
        s.have_tss = True
    if opt.tt_bits > 0 and not s.tt_shared and (not s.have_tt or s.cap_tt_bits != opt.tt_bits):
        if s.have_tt:
            tt_free(&s.tt)
            s.have_tt = False
        if tt_alloc(&s.tt, opt.tt_bits) != 0:
            return -1
        s.have_tt = True
        s.cap_tt_bits = opt.tt_bits
    return 0


cdef int search_init(search_t* s, const position_t* pos, const search_options_t* opt,
                     const search_limits_t* lim) noexcept nogil:
    """Set up a search of ``pos``, reusing the tables of ``s`` when they fit
    (``s`` zeroed before its first use).  The transposition and VCDT tables
    keep their contents; 0 on success, -1 when out of memory."""
    cdef int ply
    if _alloc_lists(s, opt) != 0 or _alloc_tables(s, opt) != 0:
        search_free(s)
        return -1
    s.pos = pos[0]
    s.opt = opt[0]
    s.lim = lim[0]
    s.tss_on = s.have_tss and opt.threats and opt.tss_plies > 0
    s.tt_on = s.have_tt and opt.tt_bits > 0
    s.nodes = 0
    s.leaves = 0
    s.follow_len = 0
    s.following = False
    s.clock_armed = False
    s.stop = False
    s.n_root_extra = 0
    bb_zero(&s.zone)
    s.zone_grew = False
    s.n_checked = 0
    s.n_rescue = 0
    s.rescued = False
    s.n_root_moves = 0
    s.root_best.a = -1
    s.chosen.a = -1
    s.chosen.source = SOURCE_NONE
    s.line_len = 0
    s.mg.pairs_scored = 0
    if s.have_tss:
        s.tss.nodes = 0
        s.tss.stop_flag = &s.stop_request
        s.tss.cap = s.lim.nodes         # a node limit counts the solver's nodes with alpha-beta's
        s.tss.outside = &s.nodes
        s.tss.both_fours = s.opt.tss_both_fours
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
    if s.have_tt and not s.tt_shared:
        tt_clear(&s.tt)


cdef void search_free(search_t* s) noexcept nogil:
    free(s.mg)
    free(s.pairs)
    free(s.root_moves)
    free(s.threats)
    free(s.root_extra)
    s.mg = NULL
    s.pairs = NULL
    s.root_moves = NULL
    s.threats = NULL
    s.root_extra = NULL
    s.cap_width = 0
    if s.have_tss:
        tss_free(&s.tss)
        s.have_tss = False
    if s.have_tt and not s.tt_shared:
        tt_free(&s.tt)
    s.have_tt = False
    s.tt_shared = False


cdef void search_own_table(search_t* s) noexcept nogil:
    """A context that was a helper becomes a main search: it forgets the
    table it borrowed (which may be gone) and allocates its own."""
    if s.tt_shared:
        s.tt.entries = NULL
        s.have_tt = False
        s.tt_shared = False


cdef void search_share_table(search_t* helper, const search_t* main) noexcept nogil:
    """The helper searches with the main search's transposition table (its
    own VCDT tables stay apart); call after the main's search_init, which may
    reallocate the table."""
    if helper.have_tt and not helper.tt_shared:
        tt_free(&helper.tt)
    helper.tt = main.tt
    helper.have_tt = main.have_tt
    helper.cap_tt_bits = main.cap_tt_bits
    helper.tt_shared = True
