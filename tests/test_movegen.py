"""Candidate points and width-limited pair generation."""
import itertools

import pytest

import connect6
from connect6 import _reference as ref
from engine_core import movegen
from engine_core.position import Position, scan_code

from _positions import positions

SCANS = ("global", "local", "incremental")


def cells_of(board):
    pos = board.position
    return [pos.stone_at(c) for c in range(361)]


@pytest.mark.parametrize("radius", [1, 2, 3])
def test_candidates_match_oracle(radius):
    for board in positions(20):
        assert movegen.candidates(board.position, radius) == ref.candidates(cells_of(board), radius)


def test_first_move_is_the_centre():
    board = connect6.Board()
    for scan in SCANS:
        moves = movegen.best_moves(board.position, 10, 2, scan_code(scan))
        assert moves == [(moves[0][0], 180, -1)]


def brute_force_pairs(board, width, radius):
    """Every pair of candidates scored by the oracle, best first, ties by cells."""
    cells = cells_of(board)
    color = int(board.turn)
    cand = ref.candidates(cells, radius)
    scored = [(-ref.pair_delta(cells, (a, b), color, color), a, b) for a, b in itertools.combinations(cand, 2)]
    scored.sort()
    return [(-s, a, b) for s, a, b in scored[:width]]


@pytest.mark.parametrize("width", [1, 5, 30])
def test_pairs_match_brute_force_oracle(width):
    for board in positions(4, step_range=(2, 5)):
        expected = brute_force_pairs(board, width, 1)
        for scan in SCANS:
            assert movegen.best_moves(board.position, width, 1, scan_code(scan)) == expected, scan


@pytest.mark.parametrize("width", [1, 3, 10, 40])
def test_scan_modes_give_identical_lists(width):
    for board in positions(25):
        lists = [movegen.best_moves(board.position, width, 2, scan_code(s)) for s in ("local", "incremental")]
        assert lists[0] == lists[1]
        assert len(lists[0]) == min(width, len(movegen.candidates(board.position, 2)) * (len(movegen.candidates(board.position, 2)) - 1) // 2)
        assert lists[0] == sorted(lists[0], key=lambda p: (-p[0], p[1], p[2]))
        assert all(a < b for _, a, b in lists[0])


def test_global_mode_identical_on_a_few_positions():
    for board in positions(5):
        lists = [movegen.best_moves(board.position, 10, 2, scan_code(s)) for s in SCANS]
        assert lists[0] == lists[1] == lists[2]


def test_pairs_for_the_other_side_and_custom_weights():
    for board in positions(10):
        pos = board.position.copy()
        pos.set_weights((0, 3, 17, 90, 400, 900, 10**6), (0, 2, 30, 120, 5000, 9000, 10**6))
        for side in (0, 1):
            lists = [movegen.best_moves(pos, 8, 2, scan_code(s), side) for s in ("local", "incremental")]
            assert lists[0] == lists[1]


@pytest.mark.parametrize("weights", [None, ((0, -5, 40, -30, 7000, 100, 10**6), (0, 9, -20, 60, -300, 50000, 10**6))])
def test_incremental_pruning_keeps_the_exact_list_late_in_games(weights):
    """The incremental scan's pair loop skips rows and columns by bounds (neighbours on a line
    are the only pairs with a correction); late positions with many threats and weights of both
    signs are where a loose or wrong bound would show."""
    for k, board in enumerate(positions(30, step_range=(15, 30), seed_stride=3)):
        pos = board.position.copy()
        if weights:
            pos.set_weights(*weights)
        for side in (0, 1):
            width = (1, 5, 14, 40)[(2 * k + side) % 4]
            lists = [movegen.best_moves(pos, width, 2, scan_code(s), side) for s in ("local", "incremental")]
            assert lists[0] == lists[1], (k, side, width)


def test_incremental_order_holds_at_the_largest_weights_and_on_ties():
    """The incremental scan orders candidates by a key of single delta and cell in
    one 64-bit integer and prunes by that order: the largest weights allowed (of
    both signs) must not overflow it, and weights that make most single deltas
    equal (long runs of ties in the order) must give the same list."""
    from engine_core.position import MAX_WEIGHT
    big = ((0, MAX_WEIGHT, -MAX_WEIGHT, MAX_WEIGHT, -MAX_WEIGHT, MAX_WEIGHT, MAX_WEIGHT),
           (0, -MAX_WEIGHT, MAX_WEIGHT, -MAX_WEIGHT, MAX_WEIGHT, -MAX_WEIGHT, MAX_WEIGHT))
    flat = ((0, 1, 1, 1, 1, 1, 1), (0, 1, 1, 1, 1, 1, 1))
    for k, board in enumerate(positions(12, step_range=(3, 25), seed_stride=7)):
        for weights in (big, flat):
            pos = board.position.copy()
            pos.set_weights(*weights)
            for side in (0, 1):
                width = (1, 7, 40)[(k + side) % 3]
                lists = [movegen.best_moves(pos, width, 2, scan_code(s), side) for s in ("local", "incremental")]
                assert lists[0] == lists[1], (k, side, width, weights is big)


def test_pairs_with_given_stones_match_the_oracle():
    """The pairs a stone that blocks alone makes with every candidate (the
    search's lists at block nodes) are scored exactly, from either side's
    view: with room for all, the list is every {x, z}, each scored by the
    pure-Python oracle, best first, each pair once (a pair of two given stones that
    are both candidates came twice and took two places of a width-limited list)."""
    for k, board in enumerate(positions(4, step_range=(4, 16), seed_stride=5)):
        cells = cells_of(board)
        color = int(board.turn)
        cand = ref.candidates(cells, 1)
        xs = [cand[k % len(cand)], cand[(7 * k + 3) % len(cand)]]
        xs += [c for c in ref.candidates(cells, 2) if c not in cand][:1]     # off the radius-1 ring
        for side in (0, 1):
            want = sorted({(ref.pair_delta(cells, (x, z), color, side), min(x, z), max(x, z))
                           for x in xs for z in cand if z != x}, key=lambda p: (-p[0], p[1], p[2]))
            every = [(x, z) for x in xs for z in cand if z != x]
            assert len(want) == len(every) - (xs[0] != xs[1])   # {xs[0], xs[1]}, both candidates, once
            assert movegen.pairs_with(board.position, xs, 4096, 1, side) == want, (k, side)
            assert movegen.pairs_with(board.position, xs, 5, 1, side) == want[:5]
    board = positions(1)[0]
    taken = next(c for c in range(361) if board.position.stone_at(c) in (0, 1))
    for bad in ([taken], [361], [-1]):
        with pytest.raises(ValueError, match="not an empty cell"):
            movegen.pairs_with(board.position, bad)


def test_single_stone_when_one_cell_is_left():
    pos = Position()
    # fill every cell but one with a pattern that never makes six: colour by (col // 2 + row) % 2
    for cell in range(361):
        if cell != 200:
            pos.add_stone(cell, ((cell % 19) // 3 + cell // 19) % 2)
    assert pos.winner() is None
    for scan in SCANS:
        assert [(a, b) for _, a, b in movegen.best_moves(pos, 5, 2, scan_code(scan))] == [(200, -1)]


def test_bad_arguments():
    board = connect6.Board("j10")
    with pytest.raises(ValueError):
        movegen.best_moves(board.position, 0)
    with pytest.raises(ValueError):
        movegen.best_moves(board.position, 5, -1)
    with pytest.raises(ValueError):
        movegen.best_moves(board.position, 5, 2, 7)
    with pytest.raises(ValueError):
        movegen.candidates(board.position, -2)


def test_three_gain_is_the_change_in_live_three_roads():
    """pair_three_gain, computed from the road codes, equals placing the two
    stones and counting the live 3-roads again."""
    import random
    rng = random.Random(2)
    checked = 0
    for board in positions(40, step_range=(3, 18)):
        cand = movegen.candidates(board.position, 2)
        for color in (0, 1):
            for _ in range(20):
                x, y = rng.sample(cand, 2)
                placed = board.position.copy()
                placed.add_stone(x, color)
                placed.add_stone(y, color)
                expected = placed.histogram(color)[3] - board.position.histogram(color)[3]
                assert movegen.pair_three_gain(board.position, x, y, color) == expected
                checked += 1
    assert checked == 1600


def test_potential_pairs_are_the_best_builders_by_brute_force():
    """potential_pairs: the pairs of candidate cells (radius 2) that add at
    least 3 live 3-roads, the most first (ties by pair score), as brute force
    over every pair of candidates finds them."""
    seen = 0
    for board in positions(30, step_range=(3, 16)):
        if board.stones_to_place != 2 or board.position.threat_roads(int(board.turn)):
            continue
        color = int(board.turn)
        cand = movegen.candidates(board.position, 2)
        scores = {(a, b): s for s, a, b in movegen.pairs_with(board.position, cand, 65536)}
        gains = []
        for x, y in itertools.combinations(sorted(cand), 2):
            g = movegen.pair_three_gain(board.position, x, y, color)
            if g >= 3:
                gains.append((g, scores[(x, y)], x, y))
        gains.sort(key=lambda t: (-t[0], -t[1]))
        got = movegen.potential_pairs(board.position, 8)
        assert [(g, s) for g, s, _, _ in gains[:8]] == [(g, scores[(a, b)]) for g, a, b in got]
        assert all(g >= 3 and a < b for g, a, b in got)
        seen += bool(got)
    assert seen >= 10
    with pytest.raises(ValueError):
        movegen.potential_pairs(connect6.Board("j10").position, 9)
    assert movegen.potential_pairs(connect6.Board().position, 8) == []     # one stone to place


def test_the_search_tries_the_potential_pairs_at_the_root():
    """With ``potential`` the root list holds the builders beyond the width
    (the core's root moves), after the width's own pairs; without it, not."""
    from connect6.options import profile
    from engine_core.search import search
    for board in positions(30, step_range=(4, 12)):
        if board.stones_to_place != 2 or board.position.threat_roads(0) or board.position.threat_roads(1):
            continue
        listed = [(a, b) for _, a, b in movegen.best_moves(board.position, 2, 2)]
        built = [(a, b) for _, a, b in movegen.potential_pairs(board.position, 4) if (a, b) not in listed]
        if not built:
            continue
        for k, expected in ((0, listed), (4, listed + built)):
            result = search(board.position, profile("plain", width=2, potential=k).core_fields(), 2)
            assert sorted((a, b) for a, b, *_ in result.root_moves) == sorted(expected)
        return
    pytest.fail("no position with a builder outside the width")
