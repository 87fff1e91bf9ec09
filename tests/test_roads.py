"""The incremental road table against the plain-Python oracle.

A hypothesis state machine plays random pushes and pops on a Board and, after
every step, checks the core's full-recompute cross-check, the live-road
histograms, the evaluation and the pair deltas of all three scan modes
against ``connect6._reference``.  A targeted test covers pairs that share
roads (adjacent up to six apart, in each direction, near the edges).
"""
import doctest
import random

import pytest
from hypothesis import HealthCheck, Phase, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from connect6 import BLACK, WHITE, Board, Move
from connect6 import _reference as ref
from engine_core.position import Position

SCANS = ("global", "local", "incremental")
SIDES = (BLACK, WHITE)


def weight_vectors(draw_int):
    return (tuple([0] + [draw_int() for _ in range(6)]), tuple([0] + [draw_int() for _ in range(6)]))


weights_strategy = st.tuples(
    st.tuples(st.just(0), *[st.integers(-1000, 1_000_000)] * 6),
    st.tuples(st.just(0), *[st.integers(-1000, 1_000_000)] * 6),
)


def step_cell(cell, direction, k):
    """The cell ``k`` steps from ``cell`` along ``direction``, or None off the board."""
    dc, dr = ref.DIRECTIONS[direction]
    col, row = cell % 19 + k * dc, cell // 19 + k * dr
    return row * 19 + col if 0 <= col < 19 and 0 <= row < 19 else None


def check_deltas(pos, cells, a, b, f, g):
    """Every scan mode of Position.pair_delta equals the oracle, for both colours and sides."""
    stones = (a,) if b == -1 else (a, b)
    for color in (BLACK, WHITE):
        for side in SIDES:
            expected = ref.pair_delta(cells, stones, color, side, f, g)
            got = {scan: pos.pair_delta(a, b, color, side, scan) for scan in SCANS}
            if b != -1:  # the order of the two stones does not matter
                got.update({f"{scan} (b, a)": pos.pair_delta(b, a, color, side, scan) for scan in SCANS})
            assert set(got.values()) == {expected}, (
                f"stones {stones} colour {color} side {side} weights {(f, g)}: {got} != {expected}")


class RoadMachine(RuleBasedStateMachine):
    """Random pushes near the stones (sometimes anywhere) and pops on one Board."""

    @initialize(weights=st.one_of(st.just("paper"), weights_strategy), rng=st.randoms(use_true_random=False))
    def start(self, weights, rng):
        self.board = Board(weights=weights)
        self.f, self.g = self.board.weights
        self.rng = rng
        self.cells = ref.empty_board()
        self.colors = []  # colour of each pushed move, to pop the oracle board

    def _push(self, stones):
        move = Move(stones)
        color = int(self.board.turn)
        self.board.push(move)
        for c in move.stones:
            self.cells[c] = color

    def _pick(self, pool, n):
        return self.rng.sample(pool, n)

    @precondition(lambda self: not self.board.is_game_over())
    @rule()
    def push_near(self):
        n = self.board.stones_to_place
        near = ref.candidates(self.cells, 2)
        pool = near if len(near) >= n else self.board.legal_stones()
        self._push(self._pick(pool, n))

    @precondition(lambda self: not self.board.is_game_over())
    @rule()
    def push_anywhere(self):
        self._push(self._pick(self.board.legal_stones(), self.board.stones_to_place))

    @precondition(lambda self: not self.board.is_game_over() and len(self.board.move_stack) > 0)
    @rule(direction=st.integers(0, 3), k=st.integers(1, 6))
    def push_on_a_line(self, direction, k):
        """A pair k apart on a line through a stone's neighbour: a move that shares roads."""
        stone = self.rng.choice([i for i in range(361) if self.cells[i] != ref.EMPTY])
        a = step_cell(stone, direction, self.rng.choice([-1, 1]))
        b = None if a is None else step_cell(a, direction, k)
        if a is None or b is None or self.cells[a] != ref.EMPTY or self.cells[b] != ref.EMPTY:
            return
        self._push([a, b])

    @precondition(lambda self: len(self.board.move_stack) > 0)
    @rule()
    def pop(self):
        move = self.board.pop()
        for c in move.stones:
            assert self.cells[c] != ref.EMPTY
            self.cells[c] = ref.EMPTY

    @invariant()
    def cross_check(self):
        if not hasattr(self, "board"):
            return
        pos = self.board.position
        assert pos.check()
        assert pos.nstones == sum(c != ref.EMPTY for c in self.cells)
        for color in (BLACK, WHITE):
            assert pos.histogram(color) == ref.histogram(self.cells, color)
        for side in SIDES:
            v = ref.evaluate(self.cells, side, self.f, self.g)
            assert self.board.evaluate(side) == v
            assert self.board.evaluate(side, "global") == v
        assert (self.board.outcome() is not None and self.board.outcome().winner is not None) == (
            ref.winner(self.cells) is not None)

    @invariant()
    def pair_deltas(self):
        if not hasattr(self, "board"):
            return
        empty = [i for i in range(361) if self.cells[i] == ref.EMPTY]
        if len(empty) < 2:
            return
        pos = self.board.position
        near = ref.candidates(self.cells, 1) or empty
        pairs = [
            tuple(self.rng.sample(near, 2)) if len(near) >= 2 else tuple(self.rng.sample(empty, 2)),
            tuple(self.rng.sample(empty, 2)),
            (self.rng.choice(empty), -1),
        ]
        a = self.rng.choice(near)
        b = step_cell(a, self.rng.randrange(4), self.rng.randint(1, 6))
        if b is not None and self.cells[b] == ref.EMPTY:
            pairs.append((a, b))
        for a, b in pairs:
            check_deltas(pos, self.cells, a, b, self.f, self.g)
        # the Board method: the side to move places the pair
        a, b = pairs[0]
        for side in SIDES:
            expected = ref.pair_delta(self.cells, (a, b), int(self.board.turn), side, self.f, self.g)
            for scan in SCANS:
                assert self.board.pair_delta(Move([a, b]), side, scan) == expected
        # other weights on a copy of the position: set_weights recomputes the kept value
        other = pos.copy()
        f2, g2 = weight_vectors(lambda: self.rng.randint(-1000, 1_000_000))
        other.set_weights(f2, g2)
        assert other.weights == (f2, g2)
        assert other.check()
        for side in SIDES:
            assert other.evaluate(side) == other.evaluate(side, "global") == ref.evaluate(self.cells, side, f2, g2)
        check_deltas(other, self.cells, *pairs[0], f2, g2)
        # ... and the board's own position is untouched
        assert pos.weights == (self.f, self.g)


TestRoadMachine = RoadMachine.TestCase
# No shrink phase: a step costs ~20 ms of oracle work, so shrinking a failure
# took minutes; the failing steps are printed as run and the assertion names
# the stones, colours, sides and weights.  Add Phase.shrink locally to minimise.
TestRoadMachine.settings = settings(
    max_examples=30, stateful_step_count=25,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# ------------------------------------------------------------------ pairs sharing roads
ANCHORS = [0, 18, 342, 360, 1, 20, 94, 180, 175, 250, 341]  # corners, edges, near edges, centre


def _background(rng, anchor, direction, kind):
    """A position and its oracle cells: empty, random, or stones crowding the pair's line."""
    cells = ref.empty_board()
    if kind == "random":
        for c in rng.sample(range(361), 60):
            cells[c] = rng.randint(0, 1)
    elif kind == "line":
        color = rng.randint(0, 1)
        for k in range(-6, 13):
            c = step_cell(anchor, direction, k)
            if c is not None and rng.random() < 0.5:
                cells[c] = color if rng.random() < 0.85 else 1 - color
    return cells


def _position(cells, f, g):
    pos = Position(f, g)
    for c, color in enumerate(cells):
        if color != ref.EMPTY:
            pos.add_stone(c, color)
    assert pos.check()
    return pos


@pytest.mark.parametrize("direction", range(4))
def test_pairs_sharing_roads(direction):
    rng = random.Random(direction)
    checked = 0
    for weights in [(ref.PAPER_F, ref.PAPER_G), weight_vectors(lambda: rng.randint(-1000, 1_000_000))]:
        f, g = weights
        for anchor in ANCHORS:
            for kind in ("empty", "random", "line"):
                cells = _background(rng, anchor, direction, kind)
                for k in range(1, 7):
                    a = anchor
                    b = step_cell(anchor, direction, k)
                    if b is None:
                        b = step_cell(anchor, direction, -k)
                    if b is None:
                        continue
                    trial = list(cells)
                    trial[a] = trial[b] = ref.EMPTY
                    pos = _position(trial, f, g)
                    check_deltas(pos, trial, a, b, f, g)
                    checked += 1
    assert checked > 200


@pytest.mark.parametrize("direction", range(4))
def test_shared_roads_change_the_delta(direction):
    """Two stones on one road gain more together than apart (k <= 5), and exactly
    the sum of their single deltas when six or more apart (no shared road)."""
    pos = Position()
    cells = ref.empty_board()
    a = 180
    for k in range(1, 8):
        b = step_cell(a, direction, k)
        together = pos.pair_delta(a, b, BLACK, BLACK, "global")
        apart = pos.pair_delta(a, -1, BLACK, BLACK, "global") + pos.pair_delta(b, -1, BLACK, BLACK, "global")
        shared = 6 - k if k <= 5 else 0
        # each shared road goes from empty to two stones: f(2) instead of 2 f(1)
        assert together - apart == shared * (ref.PAPER_F[2] - 2 * ref.PAPER_F[1])
        assert together == ref.pair_delta(cells, (a, b), BLACK, BLACK)


def test_single_stone_deltas_everywhere():
    rng = random.Random(5)
    cells = ref.empty_board()
    for c in rng.sample(range(361), 80):
        cells[c] = rng.randint(0, 1)
    pos = _position(cells, ref.PAPER_F, ref.PAPER_G)
    for c in range(361):
        if cells[c] == ref.EMPTY:
            for color in (BLACK, WHITE):
                for side in SIDES:
                    expected = ref.pair_delta(cells, (c,), color, side)
                    assert [pos.pair_delta(c, -1, color, side, s) for s in SCANS] == [expected] * 3


def test_pair_delta_rejects_bad_arguments():
    pos = Position()
    pos.add_stone(180, BLACK)
    for args in [(180, 181), (181, 180), (181, 181), (-1, 181), (181, 361)]:
        with pytest.raises(ValueError):
            pos.pair_delta(*args, BLACK, BLACK, "local")
    with pytest.raises(ValueError):
        pos.pair_delta(181, 182, 2, BLACK, "local")
    with pytest.raises(ValueError):
        pos.pair_delta(181, 182, BLACK, BLACK, "sideways")
    assert pos.check()


def test_oracle_doctests():
    result = doctest.testmod(ref)
    assert result.attempted >= 4 and result.failed == 0


def test_oracle_basics():
    assert len(ref.ROADS) == 924 and len(set(ref.ROADS)) == 924
    cells = ref.empty_board()
    assert ref.candidates(cells, 2) == [180] and ref.winner(cells) is None
    for c in (0, 1, 2, 3, 4, 6):
        cells[c] = BLACK
    assert ref.winner(cells) is None  # a1..e1 and g1: five, a gap, one
    cells[5] = BLACK
    assert ref.winner(cells) == BLACK and ref.runs(cells) == [(BLACK, (0, 1, 2, 3, 4, 5, 6))]
    assert ref.candidates(cells, 1) == list(range(7, 8)) + list(range(19, 27))
    assert ref.histogram(cells, BLACK)[6] == 2 and ref.histogram(cells, WHITE) == [0] * 7
