"""The shape terms of the leaf evaluation (engine_core.shape; options shape2, shape3, cross_f, cross_g, initiative)."""
import pytest

import connect6
from engine_core.shape import count_cross_cells, count_three_lines, initiative_value

from _positions import board_after, games


DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))      # row, column, diagonal, anti-diagonal


def windows(board: connect6.Board):
    """Test oracle's walk, pure Python: every six-cell window on the board as
    (direction index, the line's constant, the window's (row, col) cells, their stones)."""
    cells = [[board.position.stone_at(r * 19 + c) for c in range(19)] for r in range(19)]
    for d, (dr, dc) in enumerate(DIRECTIONS):
        for r0 in range(19):
            for c0 in range(19):
                window = [(r0 + k * dr, c0 + k * dc) for k in range(6)]
                if all(0 <= r < 19 and 0 <= c < 19 for r, c in window):
                    line = (r0, c0, r0 - c0, r0 + c0)[d]
                    yield d, line, window, [cells[r][c] for r, c in window]


def three_lines_reference(board: connect6.Board, color: int) -> int:
    """Test oracle, pure Python: the lines holding a six-cell window with exactly
    three stones of ``color`` and none of the opponent's."""
    return len({(d, line) for d, line, _, stones in windows(board)
                if stones.count(color) == 3 and stones.count(1 - color) == 0})


def cross_cells_reference(board: connect6.Board, color: int, three: bool = False) -> int:
    """Test oracle, pure Python: the empty cells that, in two or more of the four
    directions, lie in a six-cell window holding two or three stones of
    ``color`` and none of the opponent's (with ``three``, one of those windows
    holding three)."""
    reached, reached3 = {}, set()
    for d, _, window, stones in windows(board):
        if stones.count(color) in (2, 3) and stones.count(1 - color) == 0:
            for cell, stone in zip(window, stones):
                if stone not in (0, 1):
                    reached.setdefault(cell, set()).add(d)
                    if stones.count(color) == 3:
                        reached3.add(cell)
    return sum(1 for cell, dirs in reached.items() if len(dirs) >= 2 and (cell in reached3 or not three))


def human_positions(turns):
    """The first 40 human games after each number of ``turns`` they reach."""
    for g in games()[:40]:
        for t in turns:
            if len(g.moves) >= t:
                yield board_after(g.moves, t)


def test_cross_cells_match_the_reference_on_human_games():
    checked = nonzero = nonzero3 = 0
    for board in human_positions((4, 8, 12, 16)):
        for color in (0, 1):
            n = count_cross_cells(board.position, color)
            assert n == cross_cells_reference(board, color)
            n3 = count_cross_cells(board.position, color, three=True)
            assert n3 == cross_cells_reference(board, color, three=True) <= n
            checked += 1
            nonzero += n > 0
            nonzero3 += n3 > 0
    assert checked > 200 and nonzero > 100 and nonzero3 > 20


def test_cross_cells_of_two_crossing_lines():
    board = connect6.Board()
    for move in ("j10", "s1s2", "k10j11", "a19b19"):
        board.push(move)
    # black j10 k10 (row 10), j10 j11 (column j), k10 j11 (an anti-diagonal): the lines
    # meet at the stones, so no empty cell is reached from two directions
    assert count_cross_cells(board.position, 0) == 0 == cross_cells_reference(board, 0)
    board.push("m13m14")
    # column m's 2-roads (m13 m14) reach m10, which row 10's (j10 k10) reach too; and i10,
    # where row 10 meets the diagonal of j11 and m14 (two stones three cells apart)
    assert count_cross_cells(board.position, 0) == 2 == cross_cells_reference(board, 0)
    assert count_cross_cells(board.position, 1) == 0    # white's stones are one to a road
    board.push("l10a1")      # white cuts row 10 between k10 and m10: m10 is no longer reached
    assert count_cross_cells(board.position, 0) == 1 == cross_cells_reference(board, 0)


@pytest.mark.parametrize("bad", [-1, 2, 7])
def test_cross_cells_refuse_a_bad_colour(bad):
    with pytest.raises(ValueError, match="colour must be 0"):
        count_cross_cells(connect6.Board().position, bad)


def test_three_lines_match_the_reference_on_human_games():
    checked = 0
    for board in human_positions((6, 10, 14, 18)):
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
    with pytest.raises(ValueError, match="colour must be 0"):
        count_three_lines(connect6.Board().position, bad)


@pytest.mark.parametrize("terms", ["shape2=300,shape3=3000", "cross_f=40,cross_g=50",
                                   "cross_f=40,cross_g=50,cross_three=1"])
def test_shape_terms_change_the_leaf_values_only_when_set(terms):
    """Off (0), the search is the default's node for node; on, some leaf values change."""
    changed = 0
    for g in games()[:6]:
        board = board_after(g.moves, 8)
        plain = connect6.make_engine("default", depth=3).search(board)
        zero = connect6.make_engine("default:shape2=0,shape3=0,cross_f=0,cross_g=0,cross_three=1",
                                    depth=3).search(board)
        shaped = connect6.make_engine(f"default:{terms}", depth=3).search(board)
        assert (zero.nodes, zero.score, zero.pv) == (plain.nodes, plain.score, plain.pv)
        changed += (shaped.score, shaped.nodes) != (plain.score, plain.nodes)
    assert changed >= 3


def initiative_reference(board: connect6.Board, h: int, w: int) -> int:
    """Test oracle, pure Python: the side with the initiative (the mover when
    ``h`` is 0, its opponent when 2, none otherwise) gets ``w`` for two or more
    three-lines and a quarter of it for one; the mover's sign."""
    if h not in (0, 2):
        return 0
    mover = int(board.turn)
    side = mover if h == 0 else 1 - mover
    n = three_lines_reference(board, side)
    v = w if n >= 2 else (w // 4 if n == 1 else 0)
    return v if h == 0 else -v


def test_initiative_term_matches_the_reference_on_human_games():
    seen = set()
    for board in human_positions((6, 10, 14, 18)):
        for h in (0, 1, 2, 3):
            v = initiative_value(board.position, h, 1000)
            assert v == initiative_reference(board, h, 1000)
            seen.add(v)
        assert initiative_value(board.position, 0, 0) == 0
    assert {1000, 250, 0, -250, -1000} <= seen


def test_initiative_term_follows_the_threats():
    board = connect6.Board("j10 a1s19 k10l10 a19s1 j12j13 a10s10")
    # black, to move, holds row 10 (j10 k10 l10) and column j (j10 j12 j13): two three-lines
    assert int(board.turn) == 0 and three_lines_reference(board, 0) == 2
    assert initiative_value(board.position, 0, 800) == 800      # no threat to block: black's
    assert initiative_value(board.position, 1, 800) == 0        # one stone blocks, one is free
    # white's double threat would take both of black's stones: white has it, with no three-line
    assert initiative_value(board.position, 2, 800) == 0


@pytest.mark.parametrize("h, w", [(-1, 100), (0, -1), (0, 10 ** 9 + 1)])
def test_initiative_value_refuses_bad_numbers(h, w):
    with pytest.raises(ValueError, match="blocking number|initiative must"):
        initiative_value(connect6.Board().position, h, w)


def test_initiative_changes_the_leaf_values_only_when_set():
    changed = 0
    for g in games()[:6]:
        board = board_after(g.moves, 8)
        plain = connect6.make_engine("default", depth=3).search(board)
        zero = connect6.make_engine("default:initiative=0", depth=3).search(board)
        term = connect6.make_engine("default:initiative=600", depth=3).search(board)
        assert (zero.nodes, zero.score, zero.pv) == (plain.nodes, plain.score, plain.pv)
        changed += (term.score, term.nodes) != (plain.score, plain.nodes)
    assert changed >= 3
