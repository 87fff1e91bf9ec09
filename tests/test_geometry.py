"""The 924 roads of engine_core.geometry against first principles and the oracle."""
from collections import Counter

import pytest

import connect6  # noqa: F401  (builds nothing; fails clearly if the core is missing)
from connect6 import _reference as ref
from engine_core import geometry

NUM_ROADS = 924
STEPS = {0: (1, 0), 1: (0, 1), 2: (1, 1), 3: (1, -1)}  # (column step, row step) per direction


def all_roads():
    return [geometry.road_cells(r) for r in range(NUM_ROADS)]


def test_road_count_and_directions():
    dirs = Counter(geometry.road_direction(r) for r in range(NUM_ROADS))
    assert dirs == {0: 266, 1: 266, 2: 196, 3: 196}
    assert sum(dirs.values()) == 19 * 14 * 2 + 14 * 14 * 2 == NUM_ROADS


def test_roads_are_numbered_by_direction():
    assert [geometry.road_direction(r) for r in range(NUM_ROADS)] == sorted(
        geometry.road_direction(r) for r in range(NUM_ROADS))


@pytest.mark.parametrize("road", [-1, NUM_ROADS])
def test_road_out_of_range(road):
    with pytest.raises(ValueError):
        geometry.road_cells(road)
    with pytest.raises(ValueError):
        geometry.road_direction(road)


@pytest.mark.parametrize("cell", [-1, 361])
def test_cell_out_of_range(cell):
    with pytest.raises(ValueError):
        geometry.roads_through(cell)


def test_each_road_is_six_consecutive_collinear_cells():
    for r, cells in enumerate(all_roads()):
        assert len(cells) == 6
        assert all(0 <= c < 361 for c in cells)
        dc, dr = STEPS[geometry.road_direction(r)]
        col, row = cells[0] % 19, cells[0] // 19
        expected = tuple((row + k * dr) * 19 + col + k * dc for k in range(6))
        assert cells == expected, f"road {r}"
        # no wrap across the board's edges
        assert all(0 <= col + k * dc < 19 and 0 <= row + k * dr < 19 for k in range(6)), f"road {r}"


def test_roads_are_distinct_and_equal_the_oracle():
    roads = all_roads()
    assert len(set(roads)) == NUM_ROADS
    assert {frozenset(r) for r in roads} == {frozenset(r) for r in ref.ROADS}


def test_roads_per_cell():
    counts = [len(geometry.roads_through(c)) for c in range(361)]
    for corner in (0, 18, 342, 360):
        assert counts[corner] == 3
    assert counts[180] == 24
    assert max(counts) == 24
    assert min(counts) == 3
    # j10-like interior cells (5 away from every edge) all have 24
    assert all(counts[r * 19 + c] == 24 for r in range(5, 14) for c in range(5, 14))
    oracle = Counter(c for road in ref.ROADS for c in road)
    assert counts == [oracle[c] for c in range(361)]
    assert sum(counts) == 6 * NUM_ROADS


def test_roads_through_is_exactly_the_roads_holding_the_cell():
    holding = {c: set() for c in range(361)}
    for r, cells in enumerate(all_roads()):
        for c in cells:
            holding[c].add(r)
    for c in range(361):
        through = geometry.roads_through(c)
        assert len(through) == len(set(through)), f"cell {c}: repeated road"
        assert set(through) == holding[c], f"cell {c}"
        # at most 6 per direction
        assert max(Counter(geometry.road_direction(r) for r in through).values()) <= 6
