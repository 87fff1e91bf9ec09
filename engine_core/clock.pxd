# cython: language_level=3
"""The monotonic clock read by the search deadlines (C level, no GIL)."""
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec


cdef inline double now() noexcept nogil:
    """Seconds on the monotonic clock."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9
