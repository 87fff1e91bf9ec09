# cython: language_level=3
"""The 924 roads of the 19x19 board, computed once at import."""
from libc.string cimport memset

cdef geometry_t _GEO

# (column step, row step) of each direction
cdef int _DC[4]
cdef int _DR[4]
_DC[:] = [1, 0, 1, 1]
_DR[:] = [0, 1, 1, -1]


cdef inline bint _on_board(int col, int row) noexcept nogil:
    return 0 <= col < BOARD_SIZE and 0 <= row < BOARD_SIZE


cdef void _build(geometry_t* g) noexcept nogil:
    cdef int d, col, row, k, j, r, cell, c2, n
    memset(g, 0, sizeof(geometry_t))
    for cell in range(NUM_CELLS):
        for d in range(NUM_DIRS):
            for j in range(ROAD_LEN):
                g.cell_line_road[cell][d][j] = -1
            for k in range(2 * LINE_REACH + 1):
                col = cell % BOARD_SIZE + (k - LINE_REACH) * _DC[d]
                row = cell // BOARD_SIZE + (k - LINE_REACH) * _DR[d]
                g.line_cell[cell][d][k] = row * BOARD_SIZE + col if _on_board(col, row) else -1
    for d in range(NUM_DIRS):
        g.dir_step[d] = _DR[d] * BOARD_SIZE + _DC[d]
    r = 0
    for d in range(NUM_DIRS):
        for row in range(BOARD_SIZE):
            for col in range(BOARD_SIZE):
                if not _on_board(col + (ROAD_LEN - 1) * _DC[d], row + (ROAD_LEN - 1) * _DR[d]):
                    continue
                g.road_dir[r] = <uint8_t>d
                for j in range(ROAD_LEN):
                    c2 = (row + j * _DR[d]) * BOARD_SIZE + col + j * _DC[d]
                    g.road_cells[r][j] = <int16_t>c2
                    g.cell_line_road[c2][d][j] = <int16_t>r
                r += 1
    # every road through a cell, grouped by direction, ordered by start
    for cell in range(NUM_CELLS):
        n = 0
        for d in range(NUM_DIRS):
            for j in range(ROAD_LEN - 1, -1, -1):
                if g.cell_line_road[cell][d][j] >= 0:
                    g.cell_roads[cell][n] = g.cell_line_road[cell][d][j]
                    n += 1
        g.cell_nroads[cell] = <uint8_t>n


cdef const geometry_t* get_geometry() noexcept nogil:
    return &_GEO


_build(&_GEO)


# ---------------------------------------------------------------- Python view
def road_cells(int road):
    """The six cells of ``road`` (0..923), in line order."""
    if not 0 <= road < NUM_ROADS:
        raise ValueError(f"road {road} is out of range 0..{NUM_ROADS - 1}")
    return tuple(_GEO.road_cells[road][j] for j in range(ROAD_LEN))


def road_direction(int road):
    """0 horizontal, 1 vertical, 2 diagonal (up-right), 3 anti-diagonal (down-right)."""
    if not 0 <= road < NUM_ROADS:
        raise ValueError(f"road {road} is out of range 0..{NUM_ROADS - 1}")
    return _GEO.road_dir[road]


def roads_through(int cell):
    """The roads that contain ``cell`` (3 in a corner, 24 in the middle)."""
    if not 0 <= cell < NUM_CELLS:
        raise ValueError(f"cell {cell} is off the board (0..{NUM_CELLS - 1})")
    return tuple(_GEO.cell_roads[cell][k] for k in range(_GEO.cell_nroads[cell]))


NUM_ROADS_TOTAL = NUM_ROADS
BOARD_CELLS = NUM_CELLS
