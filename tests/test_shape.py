"""The shape terms of the leaf evaluation (engine_core.shape; options shape2, shape3)."""
import pytest

import connect6
from engine_core.shape import count_three_lines

from _positions import board_after, games


def three_lines_reference(board: connect6.Board, color: int) -> int:
    """Test oracle, pure Python: scan every six-cell window of every line on the
    board and count the lines holding a window with exactly three stones of
    ``color`` and none of the opponent's."""
    cells = [[board.position.stone_at(r * 19 + c) for c in range(19)] for r in range(19)]
    lines = set()
    for dr, dc, name in ((0, 1, "row"), (1, 0, "column"), (1, 1, "diagonal"), (1, -1, "anti-diagonal")):
        for r0 in range(19):
            for c0 in range(19):
                window = [(r0 + k * dr, c0 + k * dc) for k in range(6)]
                if not all(0 <= r < 19 and 0 <= c < 19 for r, c in window):
                    continue
                stones = [cells[r][c] for r, c in window]
                if stones.count(color) == 3 and stones.count(1 - color) == 0:
                    # the line through the window: its direction and the constant along it
                    key = {"row": r0, "column": c0, "diagonal": r0 - c0, "anti-diagonal": r0 + c0}[name]
                    lines.add((name, key))
    return len(lines)


def test_three_lines_match_the_reference_on_human_games():
    checked = 0
    for g in games()[:40]:
        for turns in (6, 10, 14, 18):
            if len(g.moves) < turns:
                continue
            board = board_after(g.moves, turns)
            for color in (0, 1):
                assert count_three_lines(board.position, color) == three_lines_reference(board, color)
                checked += 1
    assert checked > 200


def test_three_lines_counts_lines_not_roads():
    board = connect6.Board()
    for move in ("j10", "a1b1", "k10l10", "a19b19"):
        board.push(move)
    # black's row 10 (j10 k10 l10): several overlapping live 3-roads, one line
    assert count_three_lines(board.position, 0) == 1
    assert count_three_lines(board.position, 1) == 0
    board.push("j12k13")     # two stones on other lines, no three there
    assert count_three_lines(board.position, 0) == 1
    board.push("e19f19")
    board.push("j11j13")     # column j: j10-j13, a four, and windows j11-j16 etc. hold three
    assert count_three_lines(board.position, 0) == 2 == three_lines_reference(board, 0)
    board.push("m10n10")     # white closes row 10's roads to the right; i10..n10 windows die
    assert count_three_lines(board.position, 0) == three_lines_reference(board, 0)


@pytest.mark.parametrize("bad", [-1, 2, 7])
def test_three_lines_refuses_a_bad_colour(bad):
    with pytest.raises(ValueError, match="color"):
        count_three_lines(connect6.Board().position, bad)


def test_shape_terms_change_the_leaf_values_only_when_set():
    """Off (0), the search is the default's node for node; on, some leaf values change."""
    changed = 0
    for g in games()[:6]:
        board = board_after(g.moves, 8)
        plain = connect6.make_engine("default", depth=3).search(board)
        zero = connect6.make_engine("default:shape2=0,shape3=0", depth=3).search(board)
        shaped = connect6.make_engine("default:shape2=300,shape3=3000", depth=3).search(board)
        assert (zero.nodes, zero.score, zero.pv) == (plain.nodes, plain.score, plain.pv)
        changed += (shaped.score, shaped.nodes) != (plain.score, plain.nodes)
    assert changed >= 3
