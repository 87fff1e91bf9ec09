# cython: language_level=3
"""Shape terms of the leaf evaluation (see shape.pxd)."""
from libc.stdint cimport uint8_t, uint64_t
from engine_core.bitboard cimport BB_WORDS, bitboard_t, bb_popcount, bb_set, bb_zero
from engine_core.geometry cimport BOARD_SIZE, NUM_DIRS, NUM_ROADS, ROAD_LEN, geometry_t, get_geometry
from engine_core.position cimport Position, check_color
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


cdef int cross_cells(const position_t* p, int color, bint three) noexcept nogil:
    """How many empty cells lie in live roads of ``color`` holding 2 or 3 of
    its stones in two or more directions: one stone there builds on two lines.
    With ``three``, only those where one of the roads holds 3 (a stone there
    makes a four and builds on another line)."""
    cdef bitboard_t cover[NUM_DIRS]
    cdef bitboard_t cover3[NUM_DIRS]
    cdef bitboard_t cells
    cdef road_walk_t it
    cdef uint64_t a, b, c, d
    cdef int r, j, k, dr
    cdef bint holds3
    for k in range(NUM_DIRS):
        bb_zero(&cover[k])
        bb_zero(&cover3[k])
    walk_start(&it, p.rt.build_roads[color])
    r = walk_next(&it)
    while r >= 0:
        dr = geo.road_dir[r]
        holds3 = three and code_count(p.rt.code[r], color) == 3
        for j in range(ROAD_LEN):
            bb_set(&cover[dr], geo.road_cells[r][j])
            if holds3:
                bb_set(&cover3[dr], geo.road_cells[r][j])
        r = walk_next(&it)
    for k in range(BB_WORDS):
        a = cover[0].w[k]
        b = cover[1].w[k]
        c = cover[2].w[k]
        d = cover[3].w[k]
        if three:
            cells.w[k] = ((cover3[0].w[k] & (b | c | d)) | (cover3[1].w[k] & (a | c | d))
                          | (cover3[2].w[k] & (a | b | d)) | (cover3[3].w[k] & (a | b | c)))
        else:
            cells.w[k] = (a & (b | c | d)) | (b & (c | d)) | (c & d)
        cells.w[k] &= ~p.occupied.w[k]
    return bb_popcount(&cells)


def count_cross_cells(Position pos not None, int color, bint three=False):
    """How many empty cells lie in live roads of ``color`` (0 black, 1 white) holding
    2 or 3 of its stones in two or more directions (with ``three``, one of them
    holding 3)."""
    check_color(color)
    return cross_cells(&pos.pos, color, three)


def count_three_lines(Position pos not None, int color):
    """How many lines hold a live road with exactly three stones of ``color`` (0 black, 1 white)."""
    check_color(color)
    return three_lines(&pos.pos, color)


def initiative_value(Position pos not None, int h, long long w):
    """The ``initiative`` term of a leaf where the side to move in ``pos`` faces
    threats of blocking number ``h`` (0 or more), for the option's value ``w``."""
    if h < 0:
        raise ValueError(f"the blocking number must be 0 or more, not {h}")
    if not 0 <= w <= 1000000000:
        raise ValueError(f"initiative must be in 0..1000000000, not {w}")
    return initiative_term(&pos.pos, pos.pos.to_move, h, <score_t>w)
