# cython: language_level=3
"""Deadlines of a timed search and the shares of the move's time (see timeman.pxd)."""
from engine_core.clock cimport now
from engine_core.types cimport flag_get

cdef double RESIST_SHARE = RESIST_PERCENT / 100.0


cdef void clock_start(search_t* s) noexcept nogil:
    """The move's clock starts: the deadline is the whole time given."""
    s.start = now()
    s.deadline = s.start + s.lim.time
    s.stop = False
    s.clock_armed = False


cdef void clock_arm(search_t* s, bint first_iteration) noexcept nogil:
    """Time, the node limit and stop requests are checked at every node, except
    in the first iteration."""
    s.clock_armed = (s.lim.time > 0 or s.lim.nodes > 0 or s.lim.stoppable) and not first_iteration


cdef bint iteration_time_up(search_t* s) noexcept nogil:
    """Between iterations: whether to start no further one."""
    return (flag_get(&s.stop_request) or (s.lim.nodes > 0 and move_nodes(s) >= s.lim.nodes)
            or (s.lim.time > 0 and now() >= s.deadline))


cdef bint settled(const search_t* s, int prev_a, int prev_b) noexcept nogil:
    """After a finished iteration (not the first): whether the search may stop
    before its limit, its best pair being the previous iteration's (``prev_a``,
    ``prev_b``) and ``opt.settle_percent`` of its time or node limit spent."""
    cdef double share = 0.0
    if s.opt.settle_percent <= 0 or s.chosen.a != prev_a or s.chosen.b != prev_b:
        return False
    if s.lim.time > 0:
        share = (now() - s.start) / s.lim.time
    if s.lim.nodes > 0 and <double>move_nodes(s) / s.lim.nodes > share:
        share = <double>move_nodes(s) / s.lim.nodes
    return share * 100.0 >= s.opt.settle_percent


cdef void keep_back_for_defence(search_t* s) noexcept nogil:
    """The opponent threatens a VCDT: alpha-beta stops early enough to leave a
    share of the move for checking the move against it (defence.resist),
    at most ``opt.defend_reserve_ms``.  The check's node budgets do not
    grow with the move's time, so neither need its share."""
    cdef double reserve
    if s.lim.time > 0:
        reserve = RESIST_SHARE * s.lim.time
        if s.opt.defend_reserve_ms > 0 and reserve > s.opt.defend_reserve_ms / 1000.0:
            reserve = s.opt.defend_reserve_ms / 1000.0
        s.deadline = s.start + s.lim.time - reserve


cdef double search_deadline(const search_t* s) noexcept nogil:
    """The deadline for threat-space searches inside alpha-beta (0: no clock)."""
    return s.deadline if s.lim.time > 0 else 0.0


cdef double move_deadline(const search_t* s) noexcept nogil:
    """The end of the whole move's time (0: no clock)."""
    return s.start + s.lim.time if s.lim.time > 0 else 0.0


cdef double root_tss_deadline(const search_t* s) noexcept nogil:
    """A root VCDT search (the mover's own, then the opponent's threat zone)
    stops after ``opt.root_tss_percent`` of the move's time from now (0: no clock)."""
    if s.lim.time <= 0:
        return 0.0
    return now() + s.opt.root_tss_percent / 100.0 * s.lim.time


cdef int64_t root_tss_cap(const search_t* s) noexcept nogil:
    """Under a node limit, the same share of it for a root threat-space search:
    the solver stops once the move's nodes (alpha-beta's and the solver's)
    reach ``opt.root_tss_percent`` of the limit more than now, never past the
    limit (0: no node limit)."""
    cdef int64_t cap
    if s.lim.nodes <= 0:
        return 0
    cap = move_nodes(s) + <int64_t>(s.opt.root_tss_percent / 100.0 * s.lim.nodes)
    if cap > s.lim.nodes:
        cap = s.lim.nodes
    return cap if cap > 0 else 1        # 0 would mean no cap
