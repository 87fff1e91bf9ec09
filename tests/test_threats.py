"""Threat roads, blocking numbers and blocking moves, checked against the oracle and brute force."""
import pytest

import connect6
from connect6 import _reference as ref
from engine_core import threats as T

from _positions import all_blocks, blocking_number, games, positions, threat_road_empties


def threat_positions(limit):
    """Positions (and a colour) where that colour has threat roads."""
    out = []
    for g in games()[::5]:
        b = connect6.Board()
        for m in g.moves[:-1]:
            b.push(m)
            if b.is_game_over():
                break
            for color in (0, 1):
                if b.position.threat_roads(color):
                    out.append((b.copy(), color))
        if len(out) >= limit:
            break
    return out[:limit]


def test_threat_roads_match_the_oracle():
    for board in positions(40, step_range=(8, 25)):
        cells = [board.position.stone_at(c) for c in range(361)]
        for color in (0, 1):
            got = {r for r, _ in T.threats(board.position, color)}
            assert got == set(board.position.threat_roads(color))
            assert len(got) == ref.histogram(cells, color)[4] + ref.histogram(cells, color)[5]


def test_blocking_number_and_moves_match_brute_force():
    cases = threat_positions(300)
    assert len(cases) == 300
    seen = set()
    for board, color in cases:
        roads = threat_road_empties(board, color)
        h, moves = T.blocking(board.position, color)
        seen.add(h)
        assert h == blocking_number(roads)
        brute = all_blocks(roads)
        if h == 1:
            singles = {c[0] for c in brute if len(c) == 1}
            assert {x for x, y in moves if y == -1} == singles
        if h == 2:
            assert {tuple(sorted(m)) for m in moves} == {c for c in brute if len(c) == 2}
        if h >= 3:
            assert moves == [] and not brute
    assert seen >= {1, 2}


def test_bad_arguments():
    board = connect6.Board("j10")
    with pytest.raises(ValueError):
        T.blocking(board.position, 2)
    with pytest.raises(ValueError):
        T.threats(board.position, -1)
