# cython: language_level=3
"""Timing kernels for the benchmark scripts (``bench/micro.py``): the core's
basic operations repeated in C loops, timed on the monotonic clock.  Nothing
else uses them."""
from libc.stdint cimport int16_t
from libc.stdlib cimport free, malloc

from engine_core.clock cimport now
from engine_core.movegen cimport gen_moves, mg_init, movegen_t
from engine_core.position cimport Position, check_color, check_empty_cell, pos_add_stone, pos_remove_stone, position_t
from engine_core.roads cimport SCAN_INCREMENTAL, rt_delta_scan
from engine_core.position import scan_code
from engine_core.types cimport pair_t, score_t


def time_add_remove(Position pos not None, cells, int color, long repetitions):
    """Seconds to add and then remove a stone at every cell of ``cells`` (empty
    cells), ``repetitions`` times, in a C loop.  The position is unchanged."""
    cdef int n = len(cells), i
    cdef long rep
    cdef int16_t* buf = <int16_t*>malloc(max(n, 1) * sizeof(int16_t))
    cdef double t0, t1
    if buf == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            c = int(cells[i])
            check_empty_cell(&pos.pos, c)
            buf[i] = c
        check_color(color)
        with nogil:
            t0 = now()
            for rep in range(repetitions):
                for i in range(n):
                    pos_add_stone(&pos.pos, buf[i], color)
                    pos_remove_stone(&pos.pos, buf[i], color)
            t1 = now()
        return t1 - t0
    finally:
        free(buf)


def time_pair_deltas(Position pos not None, pairs, int side, scan, long repetitions):
    """Seconds to score every (a, b) of ``pairs`` for the side to move by a
    ``scan`` rescan, ``repetitions`` times, in a C loop; and the sum of the
    deltas (the same in every scan mode)."""
    cdef int mode = scan_code(scan)
    cdef int n = len(pairs), i
    cdef long rep
    cdef int16_t* buf = <int16_t*>malloc(max(2 * n, 1) * sizeof(int16_t))
    cdef double t0, t1
    cdef score_t total = 0
    cdef int color = pos.pos.to_move
    if buf == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            a, b = pairs[i]
            for c in (a, b):
                check_empty_cell(&pos.pos, c)
            buf[2 * i] = a
            buf[2 * i + 1] = b
        check_color(side)
        with nogil:
            t0 = now()
            for rep in range(repetitions):
                for i in range(n):
                    total += rt_delta_scan(&pos.pos.rt, pos.pos.cell, buf[2 * i], buf[2 * i + 1], color, side, mode)
            t1 = now()
        return t1 - t0, total
    finally:
        free(buf)


def time_gen_moves(Position pos not None, int width=10, int radius=2, int scan=SCAN_INCREMENTAL, long repetitions=1):
    """Seconds to generate the best ``width`` moves of ``pos`` ``repetitions``
    times in a C loop (the scratch space allocated once)."""
    cdef movegen_t* mg = <movegen_t*>malloc(sizeof(movegen_t))
    cdef pair_t* out = <pair_t*>malloc(max(width, 1) * sizeof(pair_t))
    cdef double t0, t1
    cdef long rep
    cdef position_t work = pos.pos
    if width < 1 or radius < 0:
        free(mg)
        free(out)
        raise ValueError("width must be >= 1 and radius >= 0")
    if mg == NULL or out == NULL:
        free(mg)
        free(out)
        raise MemoryError()
    try:
        with nogil:
            mg_init(mg)
            t0 = now()
            for rep in range(repetitions):
                gen_moves(&work, mg, radius, width, scan, work.to_move, out)
            t1 = now()
        return t1 - t0
    finally:
        free(mg)
        free(out)
