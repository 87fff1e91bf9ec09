"""The VCDT threat-space search and single-four wins, checked move by move against brute force."""
import itertools
import random
import subprocess
import sys

import pytest

import connect6
from engine_core import movegen
from engine_core import threats as T
from engine_core import tss
from engine_core.geometry import road_cells

from _env import RUN_DIR, subprocess_env
from _positions import all_blocks, blocking_number, positions, threat_road_empties, vcdt_positions


def test_threats_after_equals_placing_the_stones():
    rng = random.Random(3)
    checked = 0
    for board in positions(80, step_range=(4, 20)):
        for color in (0, 1):
            if board.position.threat_roads(color):
                continue
            cand = movegen.candidates(board.position, 3)
            for _ in range(25):
                x, y = rng.sample(cand, 2)
                p = board.position.copy()
                p.add_stone(x, color)
                p.add_stone(y, color)
                if p.winner() is not None:
                    continue
                expected = sorted((r, tuple(sorted(e))) for r, e in T.threats(p, color))
                assert tss.threats_after(board.position, color, x, y) == expected
                checked += 1
    assert checked > 2000


def pair_move(a, b):
    return connect6.Move((a,)) if b < 0 else connect6.Move((a, b))


def test_vcdt_lines_are_verified_move_by_move():
    cases = vcdt_positions(40)
    assert len(cases) == 40
    no_defence = [0]
    for board, line in cases:
        b = board.copy()
        attacker = int(b.turn)
        for i, (x, y) in enumerate(line):
            if i % 2 == 1:                       # the defender's turn
                if x < 0:
                    # no defence: three or more threats.  The defender's best try
                    # (the pair meeting the most threat roads) still leaves a threat,
                    # and the attacker makes six.
                    roads = threat_road_empties(b, attacker)
                    assert blocking_number(roads) >= 3
                    cells = sorted(set().union(*roads))
                    best = max(itertools.combinations(cells, 2), key=lambda c: sum(bool(r & set(c)) for r in roads))
                    b.push(connect6.Move(best))
                    assert threat_road_empties(b, attacker)
                    b.push(connect6.Engine(depth=1).play(b))
                    assert b.outcome() is not None and b.outcome().winner == attacker
                    no_defence[0] += 1
                    break
                roads = threat_road_empties(b, attacker)
                assert blocking_number(roads) == 2, "the attacker's move must leave a double threat"
                assert tuple(sorted((x, y))) in all_blocks(roads)
                b.push(pair_move(x, y))
                continue
            last = i == len(line) - 1
            if last:
                move = pair_move(x, y) if y >= 0 or b.stones_to_place == 1 else connect6.Move((x,))
                b.push(move)
                assert b.outcome() is not None and b.outcome().winner == attacker
            else:
                # an attacking move must answer every threat of the defender
                assert blocking_number(threat_road_empties(b, 1 - attacker)) <= 2
                b.push(pair_move(x, y))
                assert not b.is_game_over()
                assert not threat_road_empties(b, 1 - attacker)
                assert blocking_number(threat_road_empties(b, attacker)) >= 2
    assert no_defence[0] > 0, "expected some lines ending with three or more threats"


def test_first_attack_wins_against_every_defence():
    """Independent check of the proof's first level: after the attacker's first
    pair, every way to block (brute force) still leaves the attacker a VCDT."""
    for board, line in vcdt_positions(15):
        attacker = int(board.turn)
        b = board.copy()
        b.push(pair_move(*line[0]))
        roads = threat_road_empties(b, attacker)
        blocks = [c for c in all_blocks(roads) if len(c) == 2]
        if blocking_number(roads) >= 3:
            continue
        assert blocks
        for block in blocks:
            after = b.copy()
            after.push(connect6.Move(block))
            r, _, _ = tss.solve_vcdt(after.position, 10, 200000)
            assert r == 1, (repr(board), block)


def test_engine_finds_threat_space_wins():
    cases = vcdt_positions(30)
    engine = connect6.Engine(depth=2)
    for board, line in cases:
        result = engine.search(board)
        assert result.win_in is not None and result.win_in > 0, repr(board)
        after = board.copy()
        after.push(result.move)
        if not after.is_game_over():
            # the move keeps a forced win: the defender, whatever it blocks, loses to VCDT
            roads = threat_road_empties(after, int(board.turn))
            for block in [c for c in all_blocks(roads) if len(c) == 2][:4]:
                nxt = after.copy()
                nxt.push(connect6.Move(block))
                assert tss.solve_vcdt(nxt.position, 12, 400000)[0] == 1


def test_solver_finds_the_shortest_win_first():
    """The solver deepens one attacker turn at a time, so the win it returns
    needs no more turns than the shortest it can prove (the smallest depth at
    which it succeeds): its line, read with the first defence at each turn,
    has at most 2 * that depth + 1 entries.  A depth-first search to the full
    depth returned longer wins (9 of these 20 positions) and spent its budget
    under wrong first attacks."""
    cases = vcdt_positions(20, back=(11, 9, 7))
    assert len(cases) == 20
    for board, _ in cases:
        r, line, _ = tss.solve_vcdt(board.position, 12, 200000)
        assert r == 1
        shortest = next(d for d in range(1, 13) if tss.solve_vcdt(board.position, d, 200000)[0] == 1)
        assert len(line) <= 2 * shortest + 1, (board.move_stack, shortest, line)


def test_solver_reports_budget_and_no_win():
    board = connect6.Board("j10")
    r, line, nodes = tss.solve_vcdt(board.position, 6, 1000)
    assert r == 0 and line == []
    # a position with many attacking options and a tiny budget stops early
    board = vcdt_positions(1, back=(7,))[0][0]
    r, _, nodes = tss.solve_vcdt(board.position, 10, 5)
    assert r in (1, -1)
    with pytest.raises(ValueError):
        tss.solve_vcdt(board.position, 0)


def test_bad_arguments():
    board = connect6.Board("j10")
    with pytest.raises(ValueError):
        tss.threats_after(board.position, 0, 180, 181)      # 180 is occupied


def test_solver_reads_its_clock_from_the_first_node():
    """A deadline already past stops the solver at once, whatever the node
    count (it used to read the clock only when the count hit a multiple of 256,
    which some paths skip, and overran short time limits)."""
    for board, _ in vcdt_positions(5):
        r, line, nodes = tss.solve_vcdt(board.position, 10, 10 ** 6, 1e-9)
        assert r == -1 and line == [] and nodes <= 2
        assert tss.solve_vcdt(board.position, 10, 10 ** 6)[0] == 1


# positions from the human games (game id, turns) where the side to move has
# no VCDT but wins with a single four first (found by the solver; every
# defence is checked below)
FOUR_FIRST = [
    "j10 k8i9 k10i11 h10k9 j9j8 j7i8 k6i6 h7g11",           # game 197, turn 9
    "j10 j11k10 l9k9 i11i9 i10h10 k11l11 m11h11 h12g12",    # game 189, turn 9
]


def every_defence(board, attacker):
    """Every pair of the defender that meets the attacker's threats: each
    stone that blocks alone with every empty cell, and the forced pairs."""
    h, blocks = T.blocking(board.position, attacker)
    empty = [c for c in range(361) if board.position.stone_at(c) not in (0, 1)]
    return {tuple(sorted((x, y))) for x, partner in blocks
            for y in (empty if partner < 0 else [partner]) if y != x}


@pytest.mark.parametrize("moves", FOUR_FIRST)
def test_a_single_four_then_vcdt_wins_against_every_defence(moves):
    """solve_vct_four finds a pair whose first stone makes a four that one
    stone blocks; the solver tries the defender's free stone on a few cells
    only, so the win is checked here against all of them: after every
    defence the attacker has a VCDT.  The VCDT solver alone finds no win."""
    board = connect6.Board(moves)
    attacker = int(board.turn)
    assert tss.solve_vcdt(board.position, 12, 200000)[0] == 0
    r, four, line, nodes = tss.solve_vct_four(board.position, 10, 500000)
    assert r == 1 and line[0] == four and 0 < nodes <= 500001
    after = board.copy()
    after.push(connect6.Move(four))
    h, blocks = T.blocking(after.position, attacker)
    assert h == 1 and line[1] == blocks[0]
    assert any(four[0] in road_cells(road) for road, _ in T.threats(after.position, attacker))
    defences = every_defence(after, attacker)
    assert len(defences) > 600
    for pair in defences:
        nxt = after.copy()
        nxt.push(connect6.Move(pair))
        assert tss.solve_vcdt(nxt.position, 10, 200000)[0] == 1, pair


def test_the_single_four_search_reports_no_win_budget_and_bad_arguments():
    r, four, line, nodes = tss.solve_vct_four(connect6.Board("j10 k10k11").position, 10, 100000)
    assert (r, four, line) == (0, None, [])
    r, four, line, _ = tss.solve_vct_four(connect6.Board(FOUR_FIRST[0]).position, 10, 50)
    assert (r, four, line) == (-1, None, [])
    r, four, line, nodes = tss.solve_vct_four(connect6.Board(FOUR_FIRST[0]).position, 10, 10 ** 6, 1e-9)
    assert r == -1 and nodes <= 2
    for bad in (dict(depth=0), dict(time_limit=-1.0), dict(time_limit=float("nan"))):
        with pytest.raises(ValueError):
            tss.solve_vct_four(connect6.Board("j10").position, **bad)
    with pytest.raises(TypeError):
        tss.solve_vct_four(None)


def test_the_single_four_search_with_a_threat_to_meet_returns_nothing_read_from_garbage():
    """The side to move must first block White's four (a Cloudict game): the
    search returns at once, and its line and node count are empty.  It used
    to return before setting them, and the view read an uninitialised line
    length; as the first solver call of a process that crashed the
    interpreter (checked here in a fresh one too)."""
    moves = "j10 j9k11 k9l8 m7l10 m9k7 j6i8 l11k12 j7m10 h12n10 p12g13 j12l12 j5i12"
    board = connect6.Board(moves)
    assert T.blocking(board.position, connect6.WHITE)[0] == 1
    for depth in (1, 10):
        assert tss.solve_vct_four(board.position, depth, 200000) == (0, None, [], 0)
    code = ("import connect6; from engine_core import tss; "
            f"print(tss.solve_vct_four(connect6.Board({moves!r}).position, 12, 200000))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       cwd=RUN_DIR, env=subprocess_env())
    assert p.returncode == 0 and p.stdout.strip() == "(0, None, [], 0)", (p.returncode, p.stdout, p.stderr)


def test_the_engine_plays_a_single_four_win_with_the_root_four_search():
    """Game 197's position: a depth-2 search without the single-four search
    sees no win (its block nodes pair the blocking stone with its best
    partners only); with ``tss_four_budget`` the root finds the four and
    plays it as a forced win."""
    board = connect6.Board(FOUR_FIRST[0])
    plain = connect6.Engine(depth=2, tss_four_budget=0).search(board)
    assert plain.win_in is None
    found = connect6.Engine(depth=2, tss_four_budget=200000).search(board)
    assert found.win_in is not None and found.win_in > 0
    assert tuple(sorted(found.move.stones)) == tuple(sorted(tss.solve_vct_four(board.position, 10, 200000)[1]))
