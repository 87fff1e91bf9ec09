"""A plain-Python Connect6 oracle: test oracle only, slow on purpose.

Everything here is recomputed from first principles on every call, with no
caching and no shared code or tables from ``engine_core``, so the tests can
compare the compiled core against an independent implementation.

A board is a list of 361 ints indexed ``row * 19 + col`` (col 0..18 = a..s,
row 0..18 = 1..19): 0 black, 1 white, 2 empty.  A road is a tuple of six
consecutive cells on a line.  Weights are 7-tuples indexed by the number of
stones in a road (index 0 unused).

>>> cells = empty_board()
>>> cells[180] = BLACK
>>> len(ROADS), histogram(cells, BLACK)
(924, [0, 24, 0, 0, 0, 0, 0])
>>> evaluate(cells, BLACK, PAPER_F, PAPER_G), evaluate(cells, WHITE, PAPER_F, PAPER_G)
(24, -24)
"""
from typing import List, Optional, Sequence, Tuple

SIZE = 19
NUM_CELLS = SIZE * SIZE
BLACK, WHITE, EMPTY = 0, 1, 2

#: Table 1 of Li et al. 2015 (index = stones in the road).
PAPER_F = (0, 1, 20, 40, 200, 200, 1000000)
PAPER_G = (0, 1, 25, 50, 6000, 6000, 1000000)

#: (column step, row step): horizontal, vertical, diagonal (up-right), anti-diagonal (down-right).
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def _on_board(col: int, row: int) -> bool:
    return 0 <= col < SIZE and 0 <= row < SIZE


def _all_roads() -> List[Tuple[int, ...]]:
    """Every run of six on-board cells along each direction, from every start cell."""
    roads = []
    for dc, dr in DIRECTIONS:
        for row in range(SIZE):
            for col in range(SIZE):
                line = [(col + k * dc, row + k * dr) for k in range(6)]
                if all(_on_board(c, r) for c, r in line):
                    roads.append(tuple(r * SIZE + c for c, r in line))
    return roads


#: The 924 roads, each a tuple of six cells in line order.
ROADS: List[Tuple[int, ...]] = _all_roads()


def empty_board() -> List[int]:
    return [EMPTY] * NUM_CELLS


def roads_through(cell: int) -> List[Tuple[int, ...]]:
    """The roads (as cell tuples) that contain ``cell``."""
    return [road for road in ROADS if cell in road]


def _road_counts(cells: Sequence[int], road: Sequence[int]) -> Tuple[int, int]:
    black = white = 0
    for c in road:
        if cells[c] == BLACK:
            black += 1
        elif cells[c] == WHITE:
            white += 1
    return black, white


def histogram(cells: Sequence[int], color: int) -> List[int]:
    """Live roads of ``color`` by stone count: index n (1..6) = roads holding n
    stones of ``color`` and none of the other colour; index 0 is always 0."""
    hist = [0] * 7
    for road in ROADS:
        black, white = _road_counts(cells, road)
        own, other = (black, white) if color == BLACK else (white, black)
        if own >= 1 and other == 0:
            hist[own] += 1
    return hist


def evaluate(cells: Sequence[int], side: int, f: Sequence[int] = PAPER_F, g: Sequence[int] = PAPER_G) -> int:
    """Σ f(n) over ``side``'s live roads − Σ g(n) over the opponent's live roads."""
    total = 0
    for road in ROADS:
        black, white = _road_counts(cells, road)
        own, other = (black, white) if side == BLACK else (white, black)
        if own >= 1 and other == 0:
            total += f[own]
        elif other >= 1 and own == 0:
            total -= g[other]
    return total


def pair_delta(cells: Sequence[int], stones: Sequence[int], color: int, side: int,
               f: Sequence[int] = PAPER_F, g: Sequence[int] = PAPER_G) -> int:
    """evaluate(after) − evaluate(before) when ``color`` places ``stones`` (1 or 2 empty cells)."""
    after = list(cells)
    for s in stones:
        if after[s] != EMPTY:
            raise ValueError(f"cell {s} is not empty")
        after[s] = color
    return evaluate(after, side, f, g) - evaluate(cells, side, f, g)


def runs(cells: Sequence[int], min_length: int = 6) -> List[Tuple[int, Tuple[int, ...]]]:
    """Every maximal straight run of one colour at least ``min_length`` long,
    as ``(colour, cells in line order)``, found by walking the board's lines."""
    found = []
    for start in range(NUM_CELLS):
        color = cells[start]
        if color == EMPTY:
            continue
        col, row = start % SIZE, start // SIZE
        for dc, dr in DIRECTIONS:
            pc, pr = col - dc, row - dr
            if _on_board(pc, pr) and cells[pr * SIZE + pc] == color:
                continue  # not the first stone of its run
            line = []
            c, r = col, row
            while _on_board(c, r) and cells[r * SIZE + c] == color:
                line.append(r * SIZE + c)
                c, r = c + dc, r + dr
            if len(line) >= min_length:
                found.append((color, tuple(line)))
    return found


def winner(cells: Sequence[int]) -> Optional[int]:
    """The colour with six or more in a row, or None.  ValueError if both have one."""
    colors = {color for color, _ in runs(cells)}
    if len(colors) > 1:
        raise ValueError("both colours have six in a row")
    return colors.pop() if colors else None


def candidates(cells: Sequence[int], radius: int) -> List[int]:
    """Empty cells within Chebyshev distance ``radius`` of a stone, in increasing
    order; ``[180]`` (the centre) on an empty board."""
    stones = [i for i in range(NUM_CELLS) if cells[i] != EMPTY]
    if not stones:
        return [NUM_CELLS // 2]
    near = [False] * NUM_CELLS
    for s in stones:
        for dr in range(-radius, radius + 1):
            for dc in range(-radius, radius + 1):
                col, row = s % SIZE + dc, s // SIZE + dr
                if _on_board(col, row):
                    near[row * SIZE + col] = True
    return [i for i in range(NUM_CELLS) if near[i] and cells[i] == EMPTY]
