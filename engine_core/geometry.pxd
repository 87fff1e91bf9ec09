# cython: language_level=3
"""Geometry of the 19x19 board: cells, directions and the 924 roads.

A cell is ``row * 19 + col`` (col 0..18 = a..s, row 0..18 = 1..19).  A road is
six consecutive cells on a line.  Roads are numbered by direction: 0..265
horizontal, 266..531 vertical, 532..727 diagonal (up-right), 728..923
anti-diagonal (down-right).
"""
from libc.stdint cimport int16_t, uint8_t

cdef enum:
    BOARD_SIZE = 19
    NUM_CELLS = 361
    NUM_ROADS = 924
    ROAD_LEN = 6
    NUM_DIRS = 4
    MAX_ROADS_PER_CELL = 24
    LINE_REACH = 5          # farthest offset along a line that shares a road

ctypedef struct geometry_t:
    int16_t road_cells[NUM_ROADS][ROAD_LEN]     # the six cells of each road, in line order
    uint8_t road_dir[NUM_ROADS]                 # 0 horizontal, 1 vertical, 2 diagonal, 3 anti-diagonal
    int16_t cell_roads[NUM_CELLS][MAX_ROADS_PER_CELL]  # every road through a cell (by direction, then start)
    uint8_t cell_nroads[NUM_CELLS]              # how many entries of cell_roads are used (3..24)
    int16_t cell_line_road[NUM_CELLS][NUM_DIRS][ROAD_LEN]  # road in direction d holding the cell at position j, or -1
    int16_t line_cell[NUM_CELLS][NUM_DIRS][2 * LINE_REACH + 1]  # cell at offset k-5 along direction d, or -1
    int16_t dir_step[NUM_DIRS]                  # cell-index step of each direction

cdef const geometry_t* get_geometry() noexcept nogil


cdef inline bint road_has(const geometry_t* g, int r, int c) noexcept nogil:
    """Whether cell ``c`` is one of road ``r``'s six cells."""
    cdef int j
    for j in range(ROAD_LEN):
        if g.road_cells[r][j] == c:
            return True
    return False
