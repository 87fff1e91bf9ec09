"""The threat-space search (VCDT, and wins with single fours), checked move by move against brute force."""
import itertools
import random
import subprocess
import sys

import pytest

import connect6
from connect6.records import parse_stone_list, replay
from engine_core import attacks, movegen
from engine_core import threats as T
from engine_core import tss
from engine_core.geometry import road_cells

from _env import RUN_DIR, subprocess_env
from _positions import (
    all_blocks, blocking_number, every_defence, holds_against_every_defence, positions, threat_road_empties,
    vcdt_positions,
)


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
                assert attacks.threats_after(board.position, color, x, y) == expected
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
    with pytest.raises(ValueError, match="cell 180 is occupied"):
        attacks.threats_after(board.position, 0, 180, 181)
    with pytest.raises(ValueError, match="cell 361 is off the board"):
        attacks.threats_after(board.position, 0, 1, 361)
    with pytest.raises(ValueError, match="both on cell 5"):
        attacks.threats_after(board.position, 0, 5, 5)
    with pytest.raises(ValueError, match="colour must be 0"):
        attacks.threats_after(board.position, 2, 1, 2)


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
# Black's p8k13 in a game lost to Cloudict at depth 6, then White to move:
# l13l14 is a double threat, and every block of Black's loses to a single
# four and a VCDT (two levels deep).
TWO_LEVEL = ("j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 l11m11 l7k11 l6m6 k6n7 o9m7 k5p10 n10l12 p8k13")


def test_vct_without_single_fours_is_the_vcdt():
    rng = random.Random(5)
    for board in positions(40, step_range=(3, 14)):
        board.push(connect6.Move(tuple(rng.sample(movegen.candidates(board.position, 2), 2))))
        if board.is_game_over() or board.stones_to_place != 2:
            continue
        assert tss.solve_vct(board.position, 10, 0, 5000) == tss.solve_vcdt(board.position, 10, 5000)


@pytest.mark.parametrize("moves", FOUR_FIRST + [TWO_LEVEL])
def test_single_four_wins_hold_against_every_defence(moves):
    """Wins the VCDT solver cannot see: with one single four allowed the
    solver finds them, and brute force over every defence (hundreds of free
    stones at each lone block) confirms them."""
    board = connect6.Board(moves)
    assert tss.solve_vcdt(board.position, 12, 200000)[0] == 0
    r, line, nodes = tss.solve_vct(board.position, 10, 1, 500000)
    assert r == 1 and 0 < nodes <= 500001
    assert holds_against_every_defence(board, 1) > 600


def test_solve_forced_names_the_kind_of_win_it_finds():
    """The analysis tools' call: a VCDT first, then single fours."""
    board = connect6.Board(TWO_LEVEL)
    kind, line, undecided = tss.solve_forced(board.position, 10, 1, 500000)
    assert (kind, undecided) == ("four", False) and line == tss.solve_vct(board.position, 10, 1, 500000)[1]
    assert tss.solve_forced(board.position, 10, 0, 200000) == (None, [], False)
    assert tss.solve_forced(board.position, 10, 1, 50)[::2] == (None, True)        # out of budget
    won = vcdt_positions(1)[0][0]
    assert tss.solve_forced(won.position, 10, 1, 50000)[0] == "vcdt"
    with pytest.raises(ValueError, match="fours"):
        tss.solve_forced(board.position, 10, -1, 1000)


def test_solve_forced_tries_the_fewest_fours_first():
    """White's win after p8k13 holds one single four: 25 440 nodes allowing
    one, 585 280 allowing two from the start.  With fours=2 and 100 000 nodes
    a call the tools find it, as the engine's calls do (one four, then two)."""
    board = connect6.Board("j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 l11m11 l7k11 l6m6 k6n7 o9m7 "
                           "k5p10 n10l12 p8k13")
    assert tss.solve_vct(board.position, 12, 2, 100000)[0] == -1
    kind, line, undecided = tss.solve_forced(board.position, 12, 2, 100000)
    assert (kind, undecided) == ("four", False) and line == tss.solve_vct(board.position, 12, 1, 100000)[1]


def test_the_single_four_may_come_after_a_double_threat():
    """Two levels deep (TWO_LEVEL): the line's first turn is a double threat
    (a blocking number of 2), and a later turn of the attacker is a single
    four (blocking number 1) whose lone block is shown as (x, -1)."""
    board = connect6.Board(TWO_LEVEL)
    attacker = int(board.turn)
    r, line, _ = tss.solve_vct(board.position, 10, 1, 500000)
    assert r == 1
    after = board.copy()
    after.push(connect6.Move(line[0]))
    assert T.blocking(after.position, attacker)[0] == 2
    lone = [k for k in range(1, len(line), 2) if line[k][0] >= 0 and line[k][1] < 0]
    assert lone and lone[0] >= 3                # a lone block, after a later turn of the attacker
    played = board.copy()
    for turn in line[:lone[0]]:                 # every turn before it is a whole pair
        played.push(connect6.Move(turn))
    assert T.blocking(played.position, attacker)[0] == 1


#: After Black's k8m10 in game 11 of the 50 s run of change-reply-fours.md (White to move):
#: White wins with two single fours (g11g12, e14 blocks alone, g9g10, ...), not with one, and has no VCDT.
TWO_FOURS = "j10,j11,k9,k10,k11,i10,i9,i8,h9,j9,h11,k8,m10"


def test_a_kept_table_never_reads_a_win_with_fours_as_a_proof():
    """A SolverTable carries wins from call to call, but a win found with
    single fours allowed answers only a call allowing as many: a VCDT call
    after it searches again (and finds none), as a fresh table does."""
    board = replay(parse_stone_list(TWO_FOURS))
    fresh = [tss.solve_vct(board.position, 16, fours, 1_000_000)[::2] for fours in (0, 1, 2)]
    assert [r for r, _ in fresh] == [0, 0, 1]
    table = tss.SolverTable()
    assert tss.solve_vct(board.position, 16, 2, 1_000_000, table=table)[::2] == fresh[2]
    assert tss.solve_vcdt(board.position, 16, 1_000_000, table=table)[0] == 0
    assert tss.solve_vct(board.position, 16, 1, 1_000_000, table=table)[0] == 0
    r, line, nodes = tss.solve_vct(board.position, 16, 2, 1_000_000, table=table)
    assert r == 1 and nodes < fresh[2][1]                                   # its own call's nodes, fewer
    after = board.copy()
    after.push(connect6.Move(line[0]))                                     # the line starts with a threat
    assert T.blocking(after.position, int(board.turn))[0] >= 1
    table.clear()
    assert tss.solve_vct(board.position, 16, 2, 1_000_000, table=table)[::2] == fresh[2]
    with pytest.raises(ValueError, match="bits must be 10..26"):
        tss.SolverTable(40)
    with pytest.raises(TypeError):
        tss.solve_vct(board.position, table="a table")


def test_random_single_four_wins_hold_against_every_defence():
    """Positions the search meets (archive positions and a random pair):
    every win that solve_vct finds with one single four and solve_vcdt
    cannot find holds against every defence by brute force, so the free
    stone's zone missed no cell that could save the defender."""
    rng = random.Random(1)
    found = 0
    for board in positions(150, step_range=(3, 16)):
        for _ in range(4):
            child = board.copy()
            child.push(connect6.Move(tuple(rng.sample(movegen.candidates(child.position, 2), 2))))
            if child.is_game_over() or child.stones_to_place != 2:
                continue
            if tss.solve_vcdt(child.position, 10, 200000)[0] == 0 and \
                    tss.solve_vct(child.position, 10, 1, 200000)[0] == 1:
                assert holds_against_every_defence(child, 1) > 0, child.move_stack
                found += 1
    assert found >= 5


def test_the_relevance_zone_holds_every_cell_where_defender_stones_change_the_win():
    """The zone of a VCDT win for one defender stone: a stone on any cell
    outside it leaves the win (brute force over every empty cell).  Two
    stones can do more: on the empty cells of one of the defender's
    2-roads they make a four, so a win whose second single four hands the
    defender a free stone must count the first free stone with it.  The
    zone for two stones holds a cell of every such pair that breaks the
    win, and many of them lie outside the one-stone zone."""
    outside_one = 0
    for board, _ in vcdt_positions(6):
        pos = board.position
        attacker, defender = pos.to_move, 1 - pos.to_move
        r1, zone1 = tss.relevance_zone(pos, 10, 0, 1, 200000)
        r2, zone2 = tss.relevance_zone(pos, 10, 0, 2, 200000)
        assert r1 == r2 == 1 and set(zone1) < set(zone2)
        empty = [c for c in range(361) if pos.stone_at(c) not in (0, 1)]
        assert set(zone2) <= set(empty)
        for y in set(empty) - set(zone1):
            one = pos.copy()
            one.add_stone(y, defender)
            assert tss.solve_vcdt(one, 10, 200000)[0] == 1, (board.move_stack, y)
        for road in range(924):
            cells = road_cells(road)
            stones = [pos.stone_at(c) for c in cells]
            if stones.count(defender) != 2 or attacker in stones:
                continue
            for y, z in itertools.combinations([c for c in cells if c in empty], 2):
                two = pos.copy()
                two.add_stone(y, defender)
                two.add_stone(z, defender)
                if tss.solve_vcdt(two, 10, 200000)[0] != 1:
                    assert y in zone2 or z in zone2, (board.move_stack, y, z)
                    outside_one += y not in zone1 and z not in zone1
    assert outside_one >= 10
    assert tss.relevance_zone(connect6.Board("j10 k10k11").position, 10) == (0, [])
    with pytest.raises(ValueError, match="extra must be 1..4"):
        tss.relevance_zone(pos, 10, 0, 0)


def test_two_single_four_wins_hold_against_every_first_defence():
    """TWO_FOURS: White's win with two single fours starts with one (a lone
    block and a free stone).  After every defence of Black's (689 pairs) the
    solver allowing the one four left still finds the win; the free stone's
    zone there counts the later four's free stone too."""
    board = replay(parse_stone_list(TWO_FOURS))
    attacker = int(board.turn)
    r, line, _ = tss.solve_vct(board.position, 16, 2, 1_000_000)
    assert r == 1
    after = board.copy()
    after.push(connect6.Move(line[0]))
    assert T.blocking(after.position, attacker)[0] == 1
    defences = every_defence(after, attacker)
    assert len(defences) > 600
    for pair in defences:
        reply = after.copy()
        reply.push(connect6.Move(pair))
        assert tss.solve_vct(reply.position, 16, 1, 1_000_000)[0] == 1, pair


def test_the_threat_search_reports_no_win_budget_and_bad_arguments():
    r, line, nodes = tss.solve_vct(connect6.Board("j10 k10k11").position, 10, 2, 100000)
    assert (r, line) == (0, [])
    r, line, _ = tss.solve_vct(connect6.Board(FOUR_FIRST[0]).position, 10, 1, 50)
    assert (r, line) == (-1, [])
    r, line, nodes = tss.solve_vct(connect6.Board(FOUR_FIRST[0]).position, 10, 1, 10 ** 6, 1e-9)
    assert r == -1 and nodes <= 2
    for bad in (dict(depth=0), dict(fours=-1), dict(fours=25), dict(time_limit=-1.0),
                dict(time_limit=float("nan"))):
        with pytest.raises(ValueError):
            tss.solve_vct(connect6.Board("j10").position, **bad)
    with pytest.raises(TypeError):
        tss.solve_vct(None)


def test_the_threat_search_with_a_threat_to_meet_is_the_same_in_a_fresh_process():
    """The side to move must first block White's four (a Cloudict game).
    The single-four search once returned before setting its line, and the
    view read an uninitialised length (as a process's first solver call
    that crashed the interpreter): the answer of a fresh process is the
    answer here, and any win found meets the four first."""
    moves = "j10 j9k11 k9l8 m7l10 m9k7 j6i8 l11k12 j7m10 h12n10 p12g13 j12l12 j5i12"
    board = connect6.Board(moves)
    assert T.blocking(board.position, connect6.WHITE)[0] == 1
    here = [tss.solve_vct(board.position, depth, 1, 200000) for depth in (1, 10)]
    for r, line, _ in here:
        if r == 1:
            after = board.copy()
            after.push(connect6.Move(line[0]))
            assert after.is_game_over() or T.blocking(after.position, connect6.WHITE)[0] == 0
    code = ("import connect6; from engine_core import tss; "
            f"b = connect6.Board({moves!r}); print([tss.solve_vct(b.position, d, 1, 200000) for d in (1, 10)])")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       cwd=RUN_DIR, env=subprocess_env())
    assert p.returncode == 0 and p.stdout.strip() == str(here), (p.returncode, p.stdout, p.stderr)


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
    assert tuple(sorted(found.move.stones)) == tuple(sorted(tss.solve_vct(board.position, 10, 1, 200000)[1][0]))


def _blocking_after(pos, color, a, b):
    p = pos.copy()
    p.add_stone(a, color)
    p.add_stone(b, color)
    return T.blocking(p, color)[0]


def test_forcing_pairs_make_the_threats_they_claim():
    """attacks.forcing_pairs (the ``forcing_replies`` lists): up to k pairs
    that leave two or more threats, then up to k that leave one (a single
    four), each once, with its pair score; a double threat (a single four)
    found by brute force over the candidate cells means the list has one."""
    checked = with_double = with_single = 0
    for board in positions(60, step_range=(4, 20)):
        pos = board.position
        if board.stones_to_place != 2 or pos.threat_roads(0) or pos.threat_roads(1):
            continue
        color = pos.to_move
        got = attacks.forcing_pairs(pos, 4)
        cells = [(a, b) for _, a, b in got]
        assert len(set(cells)) == len(cells) <= 8 and all(a < b for a, b in cells)
        assert all(s == pos.pair_delta(a, b, color, color, "incremental") for s, a, b in got)
        kinds = [min(_blocking_after(pos, color, a, b), 2) for a, b in cells]
        assert kinds == sorted(kinds, reverse=True) and 0 not in kinds
        assert kinds.count(2) <= 4 and kinds.count(1) <= 4
        cand = movegen.candidates(pos, 2)
        made = {min(_blocking_after(pos, color, x, y), 2) for x, y in itertools.combinations(cand, 2)}
        assert ((2 in kinds), (1 in kinds)) == ((2 in made), (1 in made))
        with_double += 2 in made
        with_single += 1 in made
        checked += 1
    assert checked >= 30 and with_double >= 3 and with_single >= 10
    assert attacks.forcing_pairs(positions(1, step_range=(6, 6))[0].position, 0) == []


#: Game 28 of the Cloudict depth-4 screen (change-two-stone-fours.md), Black to move before h9j9: Black's
#: row 9 holds i9 and k9, and h9j9 makes the four f9-k9 (l9 is White's) with both stones; no 3-road of
#: Black's makes a four.
TWO_STONE_FOUR = "j10 i11j8 i9k10 k11l10 j11j12 l9m11 k9l8 n11j13 m7l11 n6n13"


def test_a_four_both_stones_make_is_a_forcing_turn():
    """A single four made from a live 2-road by both stones: the solver and
    the forcing lists try it (gen_fours), as they try one stone's four from a 3-road."""
    board = connect6.Board(TWO_STONE_FOUR)
    pos = board.position
    color = pos.to_move
    assert not pos.threat_roads(0) and not pos.threat_roads(1)
    h9j9 = tuple(sorted(connect6.Move.parse("h9j9").stones))
    assert _blocking_after(pos, color, *h9j9) == 1
    got = [(a, b) for _, a, b in attacks.forcing_pairs(pos, 8)]
    assert h9j9 in got
    assert all(_blocking_after(pos, color, a, b) == 1 for a, b in got)    # no double threat here
    # and it starts Black's win: the four, White's forced block, then double threats
    assert tss.solve_vcdt(pos, 12, 200000)[0] == 0
    r, line, nodes = tss.solve_vct(pos, 12, 1, 200000)
    assert r == 1 and tuple(sorted(line[0])) == h9j9
    assert holds_against_every_defence(board, 1) > 0
    # without them (the engine's default, tss_both_fours off) neither the solver nor the lists see it
    assert tss.solve_vct(pos, 12, 2, 200000, both_fours=False)[0] == 0
    assert h9j9 not in [(a, b) for _, a, b in attacks.forcing_pairs(pos, 8, both_fours=False)]


def test_the_roots_solver_proves_a_win_opened_by_a_four_of_both_stones_with_tss_both_fours():
    """With the option the root's solver proves the win before alpha-beta
    starts; without it only the search finds it (the forced block, then the
    solver's VCDT at ply 2)."""
    board = connect6.Board(TWO_STONE_FOUR)
    h9j9 = sorted(connect6.Move.parse("h9j9").stones)
    on = connect6.make_engine("default:tss_both_fours=1", depth=2).search(board)
    off = connect6.make_engine("default", depth=2).search(board)
    assert (sorted(on.move.stones), on.source, connect6.result.forced_win(on.score)) == (h9j9, "solver", True)
    assert (sorted(off.move.stones), off.source, connect6.result.forced_win(off.score)) == (h9j9, "search", True)


def test_forcing_pairs_rejects_what_is_not_a_forcing_turn():
    with pytest.raises(ValueError, match="k must be"):
        attacks.forcing_pairs(connect6.Board("j10 k10k11").position, 9)
    with pytest.raises(ValueError, match="places 1 stone, not 2"):
        attacks.forcing_pairs(connect6.Board().position, 4)
    four = connect6.Board("j10 a1a2 k10l10 a4a5")      # Black's road of four: a win, not a forcing turn
    with pytest.raises(ValueError, match="threat"):
        attacks.forcing_pairs(four.position, 4)


def test_the_search_tries_the_forcing_replies_at_the_opponents_nodes():
    """With ``forcing_replies`` the opponent's nodes at ply 1 (below
    ``forcing_plies``, 2 by default) also search its forcing pairs beyond
    the width: a depth-2 search visits more nodes; with 0 pairs, or
    ``forcing_plies=1`` (no opponent's node below it), the search is the
    default's; ``forcing_plies=4`` adds ply 3, where a depth-4 search sees it."""
    from connect6.options import profile
    from engine_core.search import search
    more = deeper = 0
    for board in positions(20, step_range=(6, 14)):
        if board.stones_to_place != 2:
            continue
        base = search(board.position, profile("default", width=3).core_fields(), 2)
        zero = search(board.position, profile("default", width=3, forcing_replies=0).core_fields(), 2)
        none = search(board.position, profile("default", width=3, forcing_replies=4, forcing_plies=1).core_fields(), 2)
        assert zero.nodes == base.nodes == none.nodes
        with_forcing = search(board.position, profile("default", width=3, forcing_replies=4).core_fields(), 2)
        more += with_forcing.nodes > base.nodes
        ply1, ply3 = (search(board.position, profile("default", width=2, forcing_replies=4, forcing_plies=p)
                             .core_fields(), 4).nodes for p in (2, 4))
        deeper += ply3 != ply1
    assert more >= 3 and deeper >= 3


def test_the_search_tries_the_movers_own_forcing_pairs_at_its_nodes():
    """With ``forcing_own`` the root (and plies 2, 4, ... below
    ``forcing_plies``) also searches the mover's forcing pairs beyond the
    width: the searched root list holds every one of them; with 0 pairs, or
    ``forcing_plies=0``, the search is the default's; ``forcing_plies=4``
    adds ply 2, where a depth-3 search sees it."""
    from connect6.options import profile
    from engine_core.search import search
    checked = deeper = 0
    for board in positions(24, step_range=(6, 14)):
        try:
            own = attacks.forcing_pairs(board.position, 4, both_fours=False)     # as the engine (tss_both_fours off)
        except ValueError:                              # a side has a threat, or one stone is due
            continue
        base = search(board.position, profile("default", width=3).core_fields(), 1)
        zero = search(board.position, profile("default", width=3, forcing_own=0).core_fields(), 1)
        none = search(board.position, profile("default", width=3, forcing_own=4, forcing_plies=0).core_fields(), 1)
        assert zero.nodes == base.nodes == none.nodes
        with_own = search(board.position, profile("default", width=3, forcing_own=4).core_fields(), 1)
        if with_own.source == "search":                # not a win of the root's solver
            listed = {(min(a, b), max(a, b)) for a, b, *_ in with_own.root_moves}
            assert {(a, b) for _, a, b in own} <= listed
            checked += bool(own)
        ply0, ply2 = (search(board.position, profile("default", width=2, forcing_own=4, forcing_plies=p)
                             .core_fields(), 3).nodes for p in (2, 4))
        deeper += ply2 != ply0
    assert checked >= 3 and deeper >= 3


def test_reply_zone_defends_the_replies_against_the_movers_vcdt_threat():
    """Game 3 of the depth-6 runs at 50 s, Black to move before its 6th
    turn: after l7k11 every reply by pair score loses to Black's VCDT
    (l5l6 after n9n10), so a depth-2 search claims a win; White's l6m6,
    on that line, leaves Black none.  With ``reply_zone`` the replies take
    the pairs against the VCDT's zone and the claim is gone; with 0 the
    search is the default's."""
    from connect6.options import profile
    from engine_core.search import search
    board = connect6.Board("j10 i9k9 j9j8 j7j11 i8k8 g8i10 l8m8 h8n8 h9m9 l11m11")
    cell = connect6.notation.parse_cell
    default = search(board.position, profile("default").core_fields(), 2)
    assert default.score > 10 ** 14 and default.pv[0] == (cell("l7"), cell("k11"))
    for reply, black_vcdt in (("n9n10", 1), ("l6m6", 0)):        # the claim's line, and White's defence
        after = board.copy()
        after.push("l7k11")
        after.push(reply)
        assert tss.solve_vcdt(after.position, 10, 1_000_000)[0] == black_vcdt
    zero = search(board.position, profile("default", reply_zone=0).core_fields(), 2)
    assert (zero.nodes, zero.score) == (default.nodes, default.score)
    zoned = search(board.position, profile("default", reply_zone=1000).core_fields(), 2)
    assert zoned.score < 10 ** 14 and zoned.nodes > default.nodes
