# cython: language_level=3
"""Shape terms of the leaf evaluation (see shape.pxd)."""
from libc.stdint cimport uint8_t, uint64_t
from engine_core.geometry cimport BOARD_SIZE, NUM_ROADS, geometry_t, get_geometry
from engine_core.position cimport Position
from engine_core.roads cimport code_count
from engine_core.portable cimport popcount64
from engine_core.types cimport road_walk_t, walk_next, walk_start

cdef const geometry_t* geo = get_geometry()

cdef enum:
    LINE_WORDS = 4              # lines as a bitset: direction * 64 + the line's place (0..36)

cdef uint8_t road_line[NUM_ROADS]   # the line of each road, as its bit in that set


cdef void _lines_init() noexcept nogil:
    """road_line[r]: direction * 64 + the row (horizontal), column (vertical),
    row - column + 18 (diagonal) or row + column (anti-diagonal) of r's cells."""
    cdef int r, d, c, row, col, place
    for r in range(NUM_ROADS):
        d = geo.road_dir[r]
        c = geo.road_cells[r][0]
        row = c // BOARD_SIZE
        col = c % BOARD_SIZE
        if d == 0:
            place = row
        elif d == 1:
            place = col
        elif d == 2:
            place = row - col + BOARD_SIZE - 1
        else:
            place = row + col
        road_line[r] = <uint8_t>(d * 64 + place)


_lines_init()


cdef int three_lines(const position_t* p, int color) noexcept nogil:
    """How many lines hold a live road with exactly three stones of ``color``."""
    cdef uint64_t lines[LINE_WORDS]
    cdef road_walk_t it
    cdef int r, k, n = 0
    for k in range(LINE_WORDS):
        lines[k] = 0
    walk_start(&it, p.rt.build_roads[color])        # live roads with 2 or 3 stones
    r = walk_next(&it)
    while r >= 0:
        if code_count(p.rt.code[r], color) == 3:
            lines[road_line[r] >> 6] |= (<uint64_t>1) << (road_line[r] & 63)
        r = walk_next(&it)
    for k in range(LINE_WORDS):
        n += popcount64(lines[k])
    return n


def count_three_lines(Position pos not None, int color):
    """How many lines hold a live road with exactly three stones of ``color`` (0 black, 1 white)."""
    if color not in (0, 1):
        raise ValueError(f"color must be 0 (black) or 1 (white), not {color}")
    return three_lines(&pos.pos, color)
