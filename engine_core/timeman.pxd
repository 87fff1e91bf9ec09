# cython: language_level=3
"""Time management: the move's deadline, the shares of it that root
threat-space searches may spend, and stop requests from another thread.

The first iteration always finishes (so there is a move); from the second on
``clock_armed`` is set and every node asks :func:`out_of_time`.
"""
from libc.stdint cimport int64_t
from engine_core.clock cimport now
from engine_core.search_state cimport search_t
from engine_core.types cimport flag_get

cdef enum:
    RESIST_PERCENT = 15         # share kept back, when the opponent threatens a VCDT, for the defence check


cdef inline int64_t move_nodes(const search_t* s) noexcept nogil:
    """The nodes a node limit counts: alpha-beta's and the solver's."""
    return s.nodes + (s.tss.nodes if s.tss_on else 0)


cdef inline bint out_of_time(search_t* s) noexcept nogil:
    """Whether the search must stop now (time or nodes spent, or a stop requested); sets s.stop."""
    if (flag_get(&s.stop_request) or (s.lim.nodes > 0 and move_nodes(s) >= s.lim.nodes)
            or (s.lim.time > 0 and now() >= s.deadline)):
        s.stop = True
    return s.stop


cdef void clock_start(search_t* s) noexcept nogil
cdef void clock_arm(search_t* s, bint first_iteration) noexcept nogil
cdef bint iteration_time_up(search_t* s) noexcept nogil
cdef bint settled(const search_t* s, int prev_a, int prev_b) noexcept nogil
cdef void keep_back_for_defence(search_t* s) noexcept nogil
cdef double search_deadline(const search_t* s) noexcept nogil
cdef double move_deadline(const search_t* s) noexcept nogil
cdef double root_tss_deadline(const search_t* s) noexcept nogil
cdef int64_t root_tss_cap(const search_t* s) noexcept nogil
