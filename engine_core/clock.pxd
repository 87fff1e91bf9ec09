# cython: language_level=3
"""The monotonic clock read by the search deadlines (C level, no GIL)."""
from engine_core.portable cimport monotonic_now


cdef inline double now() noexcept nogil:
    """Seconds on the monotonic clock."""
    return monotonic_now()
