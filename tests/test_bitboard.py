"""engine_core.bitboard.Bitboard: set operations and dilation against brute force."""
import random

import pytest

import connect6  # noqa: F401
from engine_core.bitboard import Bitboard

EDGE_CELLS = [0, 18, 342, 360, 9, 351, 171, 189, 19, 37, 56, 63, 64, 127, 128, 191, 192, 255, 256, 319, 320]


def chebyshev_ball(cells, radius):
    out = set()
    for c in cells:
        col, row = c % 19, c // 19
        for r in range(max(0, row - radius), min(18, row + radius) + 1):
            for k in range(max(0, col - radius), min(18, col + radius) + 1):
                out.add(r * 19 + k)
    return sorted(out)


def test_empty():
    b = Bitboard()
    assert len(b) == 0
    assert list(b) == [] == b.cells()
    assert not any(b.test(c) for c in range(361))


def test_set_reset_test_len():
    b = Bitboard()
    for c in (0, 63, 64, 180, 360):
        b.set(c)
    assert len(b) == 5
    assert all(b.test(c) for c in (0, 63, 64, 180, 360))
    assert not b.test(1) and not b.test(359)
    b.set(180)  # idempotent
    assert len(b) == 5
    b.reset(63)
    b.reset(63)
    b.reset(1)  # resetting an unset cell changes nothing
    assert len(b) == 4
    assert not b.test(63) and b.test(64)
    assert list(b) == [0, 64, 180, 360]


def test_constructor_takes_cells():
    assert Bitboard([5, 3, 300]).cells() == [3, 5, 300]


def test_iteration_is_increasing_and_matches_cells():
    rng = random.Random(1)
    for _ in range(50):
        cells = rng.sample(range(361), rng.randint(0, 361))
        b = Bitboard(cells)
        assert list(b) == sorted(cells) == b.cells()
        assert len(b) == len(cells)
        assert [c for c in range(361) if b.test(c)] == sorted(cells)


def test_full_board():
    b = Bitboard(range(361))
    assert len(b) == 361
    assert b.cells() == list(range(361))
    assert len(b.dilate(3)) == 361


@pytest.mark.parametrize("cell", [-1, 361, 384, 10_000])
def test_off_board_cells_are_rejected(cell):
    b = Bitboard()
    for op in (b.set, b.reset, b.test):
        with pytest.raises(ValueError):
            op(cell)
    assert len(b) == 0


def test_negative_radius():
    with pytest.raises(ValueError):
        Bitboard([180]).dilate(-1)


@pytest.mark.parametrize("radius", [0, 1, 2, 3])
def test_dilate_single_cells(radius):
    for c in range(361):
        got = Bitboard([c]).dilate(radius).cells()
        assert got == chebyshev_ball([c], radius), f"cell {c}, radius {radius}"


@pytest.mark.parametrize("radius", [0, 1, 2, 3])
def test_dilate_random_sets(radius):
    rng = random.Random(radius)
    for _ in range(200):
        n = rng.choice([1, 2, 3, 5, 10, 30, 100])
        pool = EDGE_CELLS if rng.random() < 0.3 else range(361)
        cells = rng.sample(list(pool), min(n, len(pool)))
        src = Bitboard(cells)
        out = src.dilate(radius)
        assert out.cells() == chebyshev_ball(cells, radius), f"{sorted(cells)}, radius {radius}"
        assert src.cells() == sorted(cells)  # the source is unchanged


def test_dilate_does_not_wrap_across_row_ends():
    # column s of row 1 and column a of row 2 are adjacent cell numbers, not neighbours
    assert not Bitboard([18]).dilate(1).test(19)
    assert not Bitboard([19]).dilate(1).test(18)
    assert Bitboard([18]).dilate(1).cells() == [17, 18, 36, 37]
    assert Bitboard([360]).dilate(2).cells() == chebyshev_ball([360], 2)
