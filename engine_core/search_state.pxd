# cython: language_level=3
"""The state of one alpha-beta search: its options, its limits, the tables it
owns (allocated, kept and shared by ``search_state.pyx``), the principal
variation and the killer pairs.

The options struct mirrors ``connect6.options.EngineOptions`` field for
field (the core fields of its ``RULES``); it is filled in one place, from
``EngineOptions.core_fields()``, by :func:`engine_core.search.search`.
"""
from libc.stdint cimport int16_t, int64_t
from engine_core.bitboard cimport bitboard_t
from engine_core.attacks cimport MAX_FORCING
from engine_core.movegen cimport MAX_POTENTIAL, movegen_t
from engine_core.position cimport position_t
from engine_core.threats cimport threat_t
from engine_core.tss cimport tss_t
from engine_core.tt cimport tt_t
from engine_core.types cimport pair_t, score_t

cdef enum:
    MAX_PLY = 64
    MAX_FORCED = 8              # extra room in a ply's pair list for forced blocks
    MAX_ZONE_PAIRS = 48         # root pairs added against the opponent's threats: with a zone stone,
    MAX_COUNTER_PAIRS = 48      # ... and making a threat of the mover's own (a counter-threat)
    MAX_ROOT_EXTRA = MAX_ZONE_PAIRS + MAX_COUNTER_PAIRS
    MAX_BUILT = MAX_POTENTIAL + 2 * MAX_FORCING     # room for ``potential``'s pairs and the forcing ones
    ZONE_ROUNDS = 3             # times an all-lost root is searched again with a grown zone
    MAX_CHECKED = 64            # root pairs whose reply-check verdict is remembered in one search
    MAX_RESCUE = 4              # root pairs beyond the width that rescue_width may add
    TSS_TABLE_BITS = 18         # VCDT table: 2**18 entries
    MAX_HELPERS = 63            # helper threads of one search (lazy SMP)

ctypedef struct search_options_t:   # connect6.options.EngineOptions (see RULES there)
    int width                   # pairs kept per node
    int reply_width             # ... at ply 1, the opponent's replies to the root pairs (0: width)
    int radius                  # candidate radius
    int potential               # pairs added at plies 0-1 that add the most live 3-roads (0: none)
    int forcing_replies         # the root mover's opponent's double threats, and as many single fours, added ...
    int forcing_plies           # ... at its nodes with ply < this (1, 3, ...; 0: none)
    int forcing_own             # the root mover's own, at its nodes with ply < forcing_plies (0, 2, ...)
    int scan                    # SCAN_GLOBAL, SCAN_LOCAL or SCAN_INCREMENTAL
    bint threats                # threat-aware nodes (win now, lost, forced blocks)
    int tss_plies               # VCDT for the side to move at nodes with ply < tss_plies
    int tss_depth               # VCDT attacker turns
    int64_t tss_budget          # VCDT nodes per call below ply 1
    int64_t tss_reply_budget    # VCDT nodes for the opponent after each root move (ply 1)
    int64_t tss_root_budget     # VCDT nodes for the root's own search and its threat-zone analysis
    bint tss_root_grows         # ... growing with the move's time above 3 s (defence._timed_budget)
    int64_t tss_leaf_budget     # VCDT nodes at the other nodes, leaves included (0: none there)
    int tss_block_plies         # VCDT (tss_budget nodes) at nodes below a forced block with ply < this
    int64_t tss_four_budget     # solver nodes at the root for a win with single fours (0: none)
    int tss_fours               # single fours a line may hold in the tss_four_budget and reply_four_budget calls
    bint defend                 # root threat-zone defence: pairs against the opponent's VCDT
    int defend_plies            # ... and the block nodes with 0 < ply < defend_plies (see block_defence)
    int64_t defend_reserve_ms   # most of the move's time kept back for the defence check, in ms (0: the whole share)
    int tt_bits                 # transposition table of 2**tt_bits entries (0: none)
    bint killers                # killer pairs first
    bint pvs                    # principal variation search: later pairs first with a null window
    score_t aspiration          # half-width of the root window in iterative deepening (0: full window)
    int root_tss_percent        # share of a timed move for each root VCDT
    int settle_percent          # share of the limit after which an iteration that kept the best pair ends the search (0: never)
    int64_t reply_check         # VCDT nodes a call, checking a new best root pair against replies (0: off)
    int64_t reply_zone          # VCDT nodes for the root mover's threat at ply 1, whose zone the replies get (0: off)
    int reply_check_width       # ... the opponent's replies it tries to a pair without a four (0: width)
    int64_t reply_four_budget   # ... and solver nodes a call for a win with single fours (0: off)
    score_t tempo               # added to a leaf's value for the side to move there (0: none)
    score_t shape2              # taken from a leaf's value when the side not to move has two three-lines (shape.pxd)
    score_t shape3              # ... three or more
    score_t initiative          # a leaf's value for the side with the initiative, by its three-lines (shape.pxd)
    score_t cross_f             # a leaf's value: this for each cross cell of the side not to move (shape.pxd) ...
    score_t cross_g             # ... less this for each of the side to move's
    bint cross_three            # ... counting only the cross cells where one of the roads holds 3
    bint threat_frontier        # depth-1 nodes valued from their best pair by score and the mover's wins at once
    bint tt_parity              # table cutoffs only from entries an even number of turns deeper
    bint table_loss_check       # a forced loss from the table: the mover's VCDT looked for first (tss_win)
    bint tss_both_fours         # the solver's single fours include those of both stones (tss.pxd)
    bint even_decide            # the move is decided by the deepest even-depth iteration (root.pyx: root_even)
    int rescue_width            # every root pair refuted: pairs checked down to this rank (0: off)
    bint block_partners         # a lone block is also paired with its free stone's fours (defence.gen_blocks)

ctypedef struct search_limits_t:    # connect6.options.Limits, resolved
    int depth                   # turns to search (>= 1)
    double time                 # seconds for this move; <= 0: no clock read
    int64_t nodes               # nodes for this move, alpha-beta's and the solver's; <= 0: no limit
    bint iterative              # iterative deepening with the previous PV first (always on with a time)
    bint stoppable              # a stop request from another thread is honoured (analysis)
    bint helper                 # a helper thread of a parallel search (see search.pyx: _start_helpers)

cdef enum root_source_t:        # where the move a search plays came from
    SOURCE_NONE = 0             # no move yet
    SOURCE_SEARCH = 1           # the deepest finished alpha-beta iteration
    SOURCE_SOLVER = 2           # the root's threat-space solver proved a win
    SOURCE_UNFINISHED = 3       # an unfinished iteration: a later root pair beat the previous best
    SOURCE_RESIST = 4           # the defence check (defence.resist) replaced the searched move

ctypedef struct root_move_t:    # one root pair as the search knows it (see root.pyx)
    int16_t a                   # the pair (b = -1: a single stone)
    int16_t b
    score_t value               # its value from the last iteration that searched it (an upper
                                # bound unless it was that iteration's best); never lowered by the check
    int depth                   # ... that iteration's depth (0: not searched yet)
    bint checked                # the reply check judged it in this search
    bint refuted                # ... and an opponent's reply wins by force after it
    int16_t reply[2]            # ... that reply (-1, -1: unknown)
    int source                  # a root_source_t: how this move was chosen (for the chosen move)

ctypedef void (*report_fn)(void* ctx, int depth, score_t score) noexcept nogil

ctypedef struct search_t:
    position_t pos
    search_options_t opt
    search_limits_t lim
    movegen_t* mg
    pair_t* pairs               # (MAX_PLY + 2) * stride pair lists, one per ply
    threat_t* threats           # scratch for threat lists
    tss_t tss
    bint have_tss               # the VCDT tables are allocated
    bint tss_on                 # ... and this search uses them
    tt_t tt
    bint have_tt                # the transposition table is allocated
    bint tt_on                  # ... and this search uses it
    bint tt_shared              # ... and it is another search's (a helper thread's view): never freed here
    int cap_width               # width the pair lists were allocated for
    int cap_tt_bits             # size of the allocated transposition table
    int64_t nodes
    int64_t leaves
    double start
    double deadline
    bint clock_armed            # time and stop requests are checked (not during the first iteration)
    bint stop
    int stop_request            # set by another thread (flag_set) to end the search
    int abandoned               # set by another thread (flag_set): every search on this context ends at its
                                # next node, a first iteration too; never cleared (a search given up)
    report_fn report            # called after every finished iteration (NULL: none)
    void* report_ctx
    int16_t pv[MAX_PLY + 1][MAX_PLY + 1][2]
    int pv_len[MAX_PLY + 1]
    int16_t follow[MAX_PLY + 1][2]   # the previous finished iteration's PV, tried first (only that)
    int follow_len
    bint following
    int16_t killer[MAX_PLY + 1][2][2]
    bitboard_t zone             # cells of the opponent's winning lines seen at the root
    bint zone_grew
    pair_t* root_extra          # pairs against the opponent's threats, searched at the root too
    bint block_node[MAX_PLY + 1] # the node at this ply had to block the opponent's threats
    bint zone_node[MAX_PLY + 1] # the node at this ply added pairs against the opponent's VCDT line
    int n_root_extra
    int root_done               # root moves searched in the current iteration (or shown better with a null window)
    root_move_t root_best       # the best of them so far: an unfinished iteration's candidate
    root_move_t* root_moves     # every root pair of this search (root.pyx), ply_stride entries
    int n_root_moves
    int n_checked               # root pairs whose reply-check verdict is kept (at most MAX_CHECKED)
    pair_t rescue[MAX_RESCUE]   # root pairs beyond the width that the reply check does not refute (root_rescue)
    int n_rescue
    bint rescued                # ... looked for once in this search
    root_move_t chosen          # the move the search plays, its value, depth and source
    int16_t line[MAX_PLY + 1][2]    # ... and the line that goes with it (the PV, or the solver's line)
    int line_len
    root_move_t even            # the chosen move after the last finished even-depth iteration (even_decide)
    int16_t even_line[MAX_PLY + 1][2]
    int even_len                # ... its line's length (0: none yet)

cdef inline int widest(const search_options_t* opt) noexcept nogil:
    """The most pairs a list keeps by score (width, reply_width at ply 1,
    the reply check's reply_check_width, or the root's rescue_width)."""
    cdef int w = opt.reply_width if opt.reply_width > opt.width else opt.width
    w = opt.reply_check_width if opt.reply_check_width > w else w
    return opt.rescue_width if opt.rescue_width > w else w


cdef inline int ply_width(const search_options_t* opt, int ply) noexcept nogil:
    """Pairs kept by score at a node of this ply."""
    return opt.reply_width if ply == 1 and opt.reply_width > 0 else opt.width


cdef inline int ply_stride(const search_options_t* opt) noexcept nogil:
    """Room for one ply's pair list: width, forced blocks, the pairs of
    ``potential``, ``forcing_replies`` and ``forcing_own``, and the zone
    pairs (the root's, or ply 1's with ``reply_zone``), and the root's rescue pairs."""
    return widest(opt) + MAX_FORCED + MAX_BUILT + MAX_ROOT_EXTRA + MAX_RESCUE


cdef inline void pv_set(search_t* s, int ply, int a, int b) noexcept nogil:
    """pv[ply] = (a, b) followed by pv[ply + 1]."""
    cdef int k
    s.pv[ply][0][0] = <int16_t>a
    s.pv[ply][0][1] = <int16_t>b
    for k in range(s.pv_len[ply + 1]):
        s.pv[ply][k + 1][0] = s.pv[ply + 1][k][0]
        s.pv[ply][k + 1][1] = s.pv[ply + 1][k][1]
    s.pv_len[ply] = s.pv_len[ply + 1] + 1


cdef inline void pv_single(search_t* s, int ply, int a, int b) noexcept nogil:
    s.pv_len[ply + 1] = 0
    pv_set(s, ply, a, b)


cdef int search_init(search_t* s, const position_t* pos, const search_options_t* opt,
                     const search_limits_t* lim) noexcept nogil
cdef void search_clear_tables(search_t* s) noexcept nogil
cdef void search_free(search_t* s) noexcept nogil
cdef void search_own_table(search_t* s) noexcept nogil
cdef void search_share_table(search_t* helper, const search_t* main) noexcept nogil
