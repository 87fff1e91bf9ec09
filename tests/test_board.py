"""connect6.Board: the rules of connect(19, 19, 6, 2, 1), undo, views and evaluation."""
import random

import numpy as np
import pytest

from connect6 import (
    BLACK, WHITE, Board, Color, IllegalMoveError, InvalidMoveError, Move, Outcome, Termination, cell_name,
    parse_cell,
)
from connect6 import _reference as ref
from _fuzz import fuzz_examples  # noqa: E402

PAPER = (ref.PAPER_F, ref.PAPER_G)


# ------------------------------------------------------------------ helpers
def oracle_cells(board):
    """The board's cells rebuilt from its move stack alone (independent of the core)."""
    cells = ref.empty_board()
    for i, m in enumerate(board.move_stack):
        for c in m.stones:
            assert cells[c] == ref.EMPTY
            cells[c] = i % 2
    return cells


def snapshot(board):
    return (
        list(board.move_stack), board.to_numpy().tobytes(), board.evaluate(BLACK), board.evaluate(WHITE),
        board.evaluate(BLACK, "global"), board.position.key, board.position.nstones, board.turn,
        board.outcome(), board.legal_stones(), str(board), repr(board), board.position.check(),
    )


def interleave(black, white):
    """Turns from Black's stones (1 + 2k) and White's (2k): b | w w | b b | w w | ..."""
    black = [parse_cell(c) if isinstance(c, str) else c for c in black]
    white = [parse_cell(c) if isinstance(c, str) else c for c in white]
    assert len(black) % 2 == 1 and len(white) == len(black) - 1
    moves = [Move(black[0])]
    for k in range(len(white) // 2):
        moves.append(Move(white[2 * k:2 * k + 2]))
        moves.append(Move(black[1 + 2 * k:3 + 2 * k]))
    return moves


def random_game(rng, turns, weights="paper"):
    """A random legal game of up to ``turns`` turns, stones near the others (sometimes anywhere)."""
    board = Board(weights=weights)
    while len(board.move_stack) < turns and not board.is_game_over():
        if not board.move_stack:
            board.push(Move(rng.choice([180, rng.randrange(361)])))
            continue
        near = ref.candidates(oracle_cells(board), 2)
        pool = near if rng.random() < 0.85 and len(near) >= 2 else board.legal_stones()
        board.push(Move(rng.sample(pool, 2)))
    return board


def random_weights(rng):
    return (tuple([0] + [rng.randint(-50, 10_000) for _ in range(6)]),
            tuple([0] + [rng.randint(-50, 10_000) for _ in range(6)]))


# ------------------------------------------------------------------ turns
def test_new_board():
    b = Board()
    assert b.turn == BLACK
    assert b.move_stack == []
    assert b.stones_to_place == 1
    assert len(b.legal_stones()) == 361
    assert not b.is_game_over() and b.outcome() is None
    assert b.evaluate(BLACK) == b.evaluate(WHITE) == 0
    assert repr(b) == "Board()"
    assert b.to_numpy().sum() == 0


def test_first_turn_is_one_stone_then_two():
    b = Board()
    assert b.stones_to_place == 1
    b.push("j10")
    assert b.turn == WHITE and b.stones_to_place == 2
    b.push("j9l11")
    assert b.turn == BLACK and b.stones_to_place == 2
    b.push(Move.parse("a1s19"))
    assert b.turn == WHITE
    assert b.move_stack == [Move.parse("j10"), Move.parse("j9l11"), Move.parse("a1s19")]
    assert b.stone_at(180) == BLACK and b.stone_at(parse_cell("l11")) == WHITE and b.stone_at(1) is None


def test_constructor_plays_moves():
    assert Board("j10 j9l11").move_stack == Board(["j10", Move.parse("j9l11")]).move_stack
    with pytest.raises(IllegalMoveError):
        Board("j10 j9")


@pytest.mark.parametrize("history, move, error", [
    ([], "j10k10", IllegalMoveError),           # black's first turn is one stone
    (["j10"], "k10", IllegalMoveError),          # later turns are two
    (["j10"], "j10k11", IllegalMoveError),       # occupied first stone
    (["j10"], "k11j10", IllegalMoveError),       # occupied second stone: nothing is placed
    (["j10", "k10k11"], "a1k11", IllegalMoveError),
    (["j10"], "k10k10", IllegalMoveError),       # the same stone twice
    (["j10"], "k10k11l12", IllegalMoveError),    # three stones
    (["j10"], "t1k11", IllegalMoveError),        # off the board
    (["j10"], "k11zz", InvalidMoveError),        # not a move at all
    (["j10"], "", InvalidMoveError),
])
def test_illegal_moves_leave_the_board_unchanged(history, move, error):
    b = Board(history)
    before = snapshot(b)
    assert not b.is_legal(move)
    with pytest.raises(error):
        b.push(move)
    assert snapshot(b) == before
    # the board still plays on normally
    b.push("a19" if not history else "a19b19")
    assert b.position.check()


def test_is_legal_matches_push():
    rng = random.Random(7)
    b = random_game(rng, 6)
    for _ in range(300):
        n = rng.choice([1, 2, 2, 2, 3])
        cells = [rng.randrange(361) for _ in range(n)]
        text = "".join(cell_name(c) for c in cells)
        legal = b.is_legal(text)
        try:
            b.copy().push(text)
            pushed = True
        except ValueError:
            pushed = False
        assert legal == pushed, text


# ------------------------------------------------------------------ wins, overlines, draws
BLACK_WHITE_FILLER = ["a10", "c12", "e15", "g17", "s1", "s3", "p15", "r17", "a14", "q2", "o17", "b18"]


def test_six_wins_and_ends_the_game():
    moves = interleave(["j10", "c5", "d5", "e5", "f5", "g5", "h5"], BLACK_WHITE_FILLER[:6])
    b = Board()
    for m in moves[:-1]:
        b.push(m)
        assert not b.is_game_over()
    before = snapshot(b)
    b.push(moves[-1])
    out = b.outcome()
    assert out == Outcome(BLACK, Termination.SIX, tuple(parse_cell(c) for c in ["c5", "d5", "e5", "f5", "g5", "h5"]))
    assert out.result() == "black"
    assert b.is_game_over() and b.legal_stones() == []
    after = snapshot(b)
    with pytest.raises(IllegalMoveError):
        b.push("a1a2")
    assert not b.is_legal("a1a2")
    assert snapshot(b) == after
    assert b.pop() == moves[-1]
    assert snapshot(b) == before


def test_overline_wins():
    # c5 d5 e5 _ g5 h5 i5, then f5 joins them into seven
    black = ["j10", "c5", "d5", "e5", "g5", "h5", "i5", "f5", "a19"]
    b = Board(interleave(black, BLACK_WHITE_FILLER[:8])[:-1])
    assert not b.is_game_over()
    b.push("f5a19")
    seven = tuple(parse_cell(f"{c}5") for c in "cdefghi")
    assert b.outcome() == Outcome(BLACK, Termination.SIX, seven)
    assert len(b.outcome().line) == 7


@pytest.mark.parametrize("pair", ["f5a19", "a19f5"])
def test_win_by_either_stone_of_a_pair(pair):
    black = ["j10", "a5", "b5", "c5", "d5", "e5", "a18"]
    white = ["k12", "l13", "m14", "n15", "s10", "s12"]
    b = Board(interleave(black, white))
    assert not b.is_game_over()
    b.push("p1q1")
    b.push(pair)
    assert b.outcome().winner == BLACK
    assert b.outcome().line == tuple(parse_cell(f"{c}5") for c in "abcdef")


def test_a_single_stone_ends_a_turn_only_when_it_makes_six():
    b = Board(interleave(["j10", "a5", "b5", "c5", "d5", "e5", "a18"], ["k12", "l13", "m14", "n15", "s10", "s12"]))
    b.push("p1q1")
    before = snapshot(b)
    assert not b.is_legal("a19")
    with pytest.raises(IllegalMoveError, match="only when it makes six"):
        b.push("a19")
    assert snapshot(b) == before
    assert b.is_legal("f5")
    b.push("f5")
    assert b.outcome() == Outcome(BLACK, Termination.SIX, tuple(parse_cell(f"{c}5") for c in "abcdef"))
    assert b.turn == WHITE and b.move_stack[-1] == Move.parse("f5")
    assert repr(b).endswith(" f5')") and eval(repr(b), {"Board": Board}) == b
    assert b.pop() == Move.parse("f5")
    assert snapshot(b) == before


@pytest.mark.parametrize("direction", range(4))
def test_white_six_in_every_direction(direction):
    dc, dr = ref.DIRECTIONS[direction]
    col0, row0 = 6, 6 if dr >= 0 else 12
    line = [(row0 + k * dr) * 19 + col0 + k * dc for k in range(6)]
    white = line[:6]
    black = [0, 2, 4, 38, 40, 42, 44]  # a1 c1 e1 and a3 c3 e3 g3: never six, never on the line
    moves = interleave(black, white)[:-1]  # white's six comes on its third turn
    b = Board()
    for m in moves:
        assert not b.is_game_over()
        b.push(m)
    assert b.outcome() == Outcome(WHITE, Termination.SIX, tuple(line))
    [(color, run)] = ref.runs(oracle_cells(b))
    assert color == WHITE and run == b.outcome().line


def test_outcome_line_matches_oracle_in_random_games():
    rng = random.Random(3)
    finished = 0
    for _ in range(40):
        b = random_game(rng, 200)
        cells = oracle_cells(b)
        w = ref.winner(cells)
        if w is None:
            assert b.outcome() is None
            continue
        finished += 1
        assert b.outcome().winner == w and b.outcome().termination is Termination.SIX
        assert (w, b.outcome().line) in ref.runs(cells)
        # the game ended exactly on its last move
        assert ref.winner(oracle_cells(Board(b.move_stack[:-1]))) is None
    assert finished >= 10


def full_board_turns():
    """Turns filling the board with no six anywhere: colour = (col + 2 row) mod 4 < 2 ? black : white.
    Rows run BBWW, columns alternate, both diagonals repeat with period 4: never 3 in a row."""
    cells = [0 if (c + 2 * r) % 4 < 2 else 1 for r in range(19) for c in range(19)]
    assert ref.runs(cells, 3) == []
    black = [i for i in range(361) if cells[i] == 0]
    white = [i for i in range(361) if cells[i] == 1]
    rng = random.Random(0)
    rng.shuffle(black)
    rng.shuffle(white)
    return interleave(black, white)


def test_full_board_is_a_draw():
    turns = full_board_turns()
    assert len(turns) == 181
    b = Board()
    for m in turns:
        assert not b.is_game_over()
        b.push(m)
    assert b.outcome() == Outcome(None, Termination.BOARD_FULL, None)
    assert b.outcome().result() == "draw"
    assert b.is_game_over() and b.legal_stones() == []
    assert b.to_numpy().sum() == 361
    assert b.position.check()
    with pytest.raises(IllegalMoveError):
        b.push("j10")
    b.pop()
    assert b.outcome() is None and b.turn == BLACK and len(b.legal_stones()) == 2


# ------------------------------------------------------------------ undo
def test_pop_restores_everything():
    rng = random.Random(11)
    for _ in range(10):
        b = random_game(rng, 120)
        history = []
        replay = Board()
        for m in b.move_stack:
            history.append(snapshot(replay))
            replay.push(m)
        assert snapshot(replay) == snapshot(b)
        for expected in reversed(history):
            b.pop()
            assert snapshot(b) == expected
        assert b.position.key == Board().position.key
    with pytest.raises(IndexError):
        Board().pop()
    with pytest.raises(IndexError):
        Board().peek()


def test_pop_after_a_win():
    b = Board(interleave(["j10", "c5", "d5", "e5", "f5", "g5", "h5"], BLACK_WHITE_FILLER[:6]))
    assert b.outcome().winner == BLACK and b.turn == WHITE
    last = b.pop()
    assert b.outcome() is None and b.turn == BLACK and not b.is_game_over()
    b.push(last)
    assert b.outcome().winner == BLACK and b.turn == WHITE
    assert b.peek() == last


def test_key_is_order_independent():
    a = Board("j10 k10k11 l12m13 a1b2")
    b = Board("j10 k11k10 m13l12 b2a1")
    assert a.position.key == b.position.key
    c = Board("j10 a1b2 l12m13 k10k11")
    assert c.position.key == a.position.key  # same stones, same side to move
    assert Board("j10 k10k11").position.key != Board("j10 k10k12").position.key


# ------------------------------------------------------------------ views
def test_repr_pastes_back():
    rng = random.Random(5)
    for weights in ("paper", random_weights(rng)):
        b = random_game(rng, 12, weights=weights)
        again = eval(repr(b), {"Board": Board})
        assert again == b
        assert again.weights == b.weights
        assert snapshot(again) == snapshot(b)
    assert eval(repr(Board()), {"Board": Board}) == Board()


def test_str_shows_coordinates_and_stones():
    b = Board("j10 a1s19 c3d4")
    lines = str(b).splitlines()
    assert lines[0].split() == list("abcdefghijklmnopqrs") == lines[-1].split()
    rows = lines[1:-1]
    assert [int(r.split()[0]) for r in rows] == list(range(19, 0, -1))
    assert [int(r.split()[-1]) for r in rows] == list(range(19, 0, -1))

    def at(name):
        cell = parse_cell(name)
        return rows[18 - cell // 19].split()[1 + cell % 19]

    assert at("j10") == "X" and at("a1") == "O" and at("s19") == "O"
    assert at("c3").lower() == "x" and at("d4").lower() == "x"
    assert at("k10") == "."
    assert sum(r.count("X") + r.count("x") for r in rows) == 3
    assert sum(r.count("O") + r.count("o") for r in rows) == 2


def test_to_numpy():
    rng = random.Random(2)
    b = random_game(rng, 30)
    arr = b.to_numpy()
    assert arr.shape == (2, 19, 19) and arr.dtype == np.uint8
    expected = np.zeros((2, 19, 19), dtype=np.uint8)
    for cell, color in enumerate(oracle_cells(b)):
        if color != ref.EMPTY:
            expected[color, cell // 19, cell % 19] = 1
    assert np.array_equal(arr, expected)
    assert arr[BLACK, 9, 9] == 1 or b.move_stack[0] != Move(180)
    arr[:] = 0  # the array is a copy
    assert b.to_numpy().sum() == b.position.nstones


def test_copy_is_independent():
    rng = random.Random(4)
    b = random_game(rng, 8)
    before = snapshot(b)
    c = b.copy()
    assert c == b and snapshot(c) == before
    c.push(Move(rng.sample(c.legal_stones(), 2)))
    c.push(Move(rng.sample(c.legal_stones(), 2)))
    assert snapshot(b) == before
    c.pop()
    c.pop()
    c.pop()
    assert snapshot(b) == before
    b.pop()
    assert len(c.move_stack) == len(b.move_stack)
    assert c.position.key == b.position.key


def test_boards_are_unhashable_and_compare_positions():
    assert Board("j10") == Board("j10") != Board("k10")
    # positions, not histories or weights (as python-chess compares positions)
    assert Board("j10 k10k11 a1b1") == Board("j10 k11k10 b1a1")
    assert Board("j10") == Board("j10", weights=((1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1)))
    # the side to move and the stones left this turn are part of the position
    assert Board.from_numpy(Board("j10").to_numpy(), turn=BLACK) != Board("j10")
    half = Board("j10 k10k11 +a1")
    assert half != Board.from_numpy(half.to_numpy(), turn=BLACK)
    assert half == Board.from_numpy(half.to_planes())
    with pytest.raises(TypeError):
        hash(Board())
    assert Board("j10 k10k11").position_key() == Board("j10 k11k10").position_key()
    assert Board("j10 k10k11").zobrist() == Board("j10 k11k10").zobrist()
    assert len({Board("j10").position_key(), Board("k10").position_key(), Board("j10").position_key()}) == 2


# ------------------------------------------------------------------ evaluation
def test_evaluate_equals_global_and_oracle():
    rng = random.Random(9)
    for weights in [PAPER] + [random_weights(rng) for _ in range(3)]:
        f, g = weights
        b = random_game(rng, 40, weights=weights)
        boards = []
        while b.move_stack:
            boards.append(b.copy())
            b.pop()
        for bb in boards[::3]:
            cells = oracle_cells(bb)
            for side in (BLACK, WHITE):
                v = bb.evaluate(side)
                assert v == bb.evaluate(side, "global") == bb.evaluate(side, "incremental")
                assert v == ref.evaluate(cells, side, f, g)


def test_evaluate_single_stone():
    b = Board("j10")
    assert b.evaluate(BLACK) == 24 * 1
    assert b.evaluate(WHITE) == -24 * 1
    corner = Board("a1")
    assert corner.evaluate(BLACK) == 3
    assert Board("j10 j11k11").evaluate(WHITE) == ref.evaluate(oracle_cells(Board("j10 j11k11")), WHITE)


def test_evaluate_rejects_bad_arguments():
    b = Board("j10")
    with pytest.raises(ValueError):
        b.evaluate(2)
    with pytest.raises(ValueError):
        b.evaluate(BLACK, "everything")
    with pytest.raises(ValueError):
        b.pair_delta("k10k11", BLACK, scan="nope")
    with pytest.raises(IllegalMoveError):
        b.pair_delta("j10k11", BLACK)


def test_color_values():
    assert Color(0) is BLACK and Color(1) is WHITE


# ------------------------------------------------------------------ copies, pickles, keys
import copy  # noqa: E402
import pickle  # noqa: E402

from hypothesis import given, settings, strategies as st  # noqa: E402


def full_state(board):
    """Everything a board shows, to compare a board with its copies."""
    return (snapshot(board), board.unfinished_turn, board.stones_to_place, board.position_key(),
            board.zobrist(), board.weights, board.legal_mask().tobytes(), board.to_planes().tobytes())


@st.composite
def reachable_boards(draw):
    """A board reached by a random mix of push, push_stone, pop and pop_stone."""
    weights = draw(st.sampled_from(["paper", ((1, 2, 3, 4, 5, 6), (6, 5, 4, 3, 2, 1))]))
    board = Board(weights=weights)
    for op, cell in draw(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 360)), max_size=60)):
        if board.is_game_over():
            board.pop()
        elif op < 5:
            if board.stone_at(cell) is None:
                board.push_stone(cell)
        elif op < 8:
            free = board.legal_stones()
            rnd = random.Random(cell)
            board.push(Move(rnd.sample(free, board.stones_to_place)))
        elif op == 8 and board.position.nhistory:
            board.pop_stone()
        elif board.position.nhistory:
            board.pop()
    return board


@settings(max_examples=fuzz_examples(60))
@given(reachable_boards(), st.integers(0, 360))
def test_copies_are_equal_and_independent(board, cell):
    before = full_state(board)
    copies = [board.copy(), copy.copy(board), copy.deepcopy(board), pickle.loads(pickle.dumps(board)),
              pickle.loads(pickle.dumps(board, protocol=0))]
    for c in copies:
        assert c == board and c is not board
        assert full_state(c) == before
        assert c.move_stack == board.move_stack
        assert repr(c) == repr(board)
    for c in copies:     # change each copy: the board and the other copies do not move
        if not c.is_game_over():
            free = c.legal_stones()
            c.push_stone(free[cell % len(free)])
            assert c != board
        elif c.position.nhistory:
            c.pop_stone()
        assert full_state(board) == before
    assert board.position.check()


def test_board_and_its_values_pickle():
    b = Board("j10 k10k11 j11j12 k12k13 j13j14 k14k15")
    for value in (b, b.outcome(), b.move_stack, b.peek(), b.outcome().termination):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value
    again = pickle.loads(pickle.dumps(b))
    assert again.outcome() == b.outcome() and again.is_game_over()
    assert again.position.check()


def test_copy_keeps_order_weights_and_weights():
    b = Board("j10 k10k11", weights=((1, 2, 3, 4, 5, 6), (6, 5, 4, 3, 2, 1)))
    b.position.set_order_weights((0, 1, 1, 1, 1, 1, 1), (0, 1, 1, 1, 1, 1, 1))
    again = pickle.loads(pickle.dumps(b))
    assert again.weights == b.weights
    for move in ("a1b1", "j11j12", "l10m10"):
        assert again.pair_delta(move, BLACK) == b.pair_delta(move, BLACK)
        assert again.evaluate(WHITE) == b.evaluate(WHITE)


def test_bad_arguments_name_themselves():
    with pytest.raises(TypeError, match="moves"):
        Board(5)
    with pytest.raises(TypeError, match="moves"):
        Board(b"j10")
    b = Board("j10")
    before = full_state(b)
    with pytest.raises(ValueError, match="cell"):
        b.stone_at(10**12)
    with pytest.raises(ValueError, match="cell"):
        b.stone_at(-1)
    with pytest.raises(TypeError, match="cell"):
        b.stone_at("j10")
    with pytest.raises(TypeError, match="cell"):
        b.stone_at(True)
    with pytest.raises(TypeError, match="cell"):
        b.push_stone(1.0)
    with pytest.raises(IllegalMoveError, match="off the board"):
        b.push_stone(361)
    with pytest.raises(IllegalMoveError, match="off the board"):
        b.push_stone(2**70)
    with pytest.raises(IllegalMoveError, match="occupied"):
        b.push_stone(180)
    assert full_state(b) == before
    assert b.stone_at(np.int64(180)) == BLACK
    b.push_stone(np.int16(181))
    assert b.unfinished_turn == (181,)


# ------------------------------------------------------------------ stone by stone
def test_push_stone_makes_turns():
    b = Board()
    b.push_stone(180)                       # the first turn is one stone
    assert b.turn == WHITE and b.stones_to_place == 2 and b.move_stack == [Move(180)]
    b.push_stone(181)
    assert b.turn == WHITE and b.stones_to_place == 1 and b.unfinished_turn == (181,)
    assert b.move_stack == [Move(180)] and repr(b) == "Board('j10 +k10')"
    assert eval(repr(b)) == b
    b.push_stone(200)
    assert b.turn == BLACK and b.unfinished_turn == () and b.move_stack == [Move(180), Move((181, 200))]
    assert b == Board("j10 k10k11")
    # the rest of a turn can be pushed as a move, and pop takes back the unfinished turn
    b.push_stone(0)
    b.push("a2")
    assert b.move_stack[-1] == Move((0, 19)) and b.turn == WHITE
    b.push_stone(5)
    assert b.pop() == Move(5) and b.turn == WHITE and b.stones_to_place == 2
    assert b.pop() == Move((0, 19)) and b.turn == BLACK
    # pop_stone reopens a finished turn
    assert b.pop_stone() == 200 and b.turn == WHITE and b.unfinished_turn == (181,)
    assert b.pop_stone() == 181 and b.pop_stone() == 180 and b == Board()
    with pytest.raises(IndexError):
        b.pop_stone()
    with pytest.raises(IndexError):
        b.pop()


def test_push_stone_ends_the_game_on_six():
    b = Board("j10 k10k11 j11j12 k12k13 j13j14 +k14")
    assert b.stones_to_place == 1 and b.turn == WHITE and b.unfinished_turn == (parse_cell("k14"),)
    b = Board("j10 k10k11 j11j12 k12k13 j13j14")
    b.push_stone(parse_cell("k14"))
    assert not b.is_game_over()
    b.push_stone(parse_cell("k15"))
    assert b.is_game_over() and b.outcome().winner == WHITE
    b.pop_stone()
    b.push_stone(parse_cell("a1"))
    assert b.turn == BLACK
    b.push_stone(parse_cell("j15"))            # black's first stone makes six: the turn ends there
    assert b.is_game_over() and b.outcome().winner == BLACK and b.move_stack[-1] == Move(parse_cell("j15"))
    before = full_state(b)
    with pytest.raises(IllegalMoveError, match="over"):
        b.push_stone(0)
    assert full_state(b) == before and not b.legal_mask().any() and len(b.legal_moves) == 0
    assert b.pop() == Move(parse_cell("j15")) and b.turn == BLACK and not b.is_game_over()


def test_push_stone_agrees_with_push_in_random_games():
    rng = random.Random(5)
    for _ in range(20):
        a, b = Board(), Board()
        while not a.is_game_over():
            m = Move(rng.sample(a.legal_stones(), a.stones_to_place))
            a.push(m)
            for c in m.stones:
                if not b.is_game_over():
                    b.push_stone(c)
            if b.move_stack[-1] != m:      # the pair's first stone made six: the game ended on it
                assert b.move_stack[-1] == Move(m.stones[0]) and b.outcome().winner == a.outcome().winner
                break
            assert a == b and a.outcome() == b.outcome()
        assert a.move_stack[:-1] == b.move_stack[:-1]
        assert b.position.check()
        while b.position.nhistory:
            b.pop_stone()
        assert b == Board() and b.position.check()


def test_push_stone_fills_the_board_to_a_draw():
    # colour ((col // 2) + row) % 2 has no six in any direction; Black gets 181 cells, White 180
    black = [c for c in range(361) if ((c % 19) // 2 + c // 19) % 2 == 0]
    white = [c for c in range(361) if ((c % 19) // 2 + c // 19) % 2 == 1]
    assert (len(black), len(white)) == (181, 180)
    b = Board()
    b.push_stone(black.pop())
    while white:
        for side in (white, black):
            assert not b.is_game_over()
            b.push_stone(side.pop())
            b.push_stone(side.pop())
    assert b.is_game_over() and b.outcome() == Outcome(None, Termination.BOARD_FULL, None)
    assert b.legal_stones() == [] and len(b.legal_moves) == 0 and not b.legal_moves
    with pytest.raises(IllegalMoveError, match="over"):
        b.push_stone(0)
    b.pop_stone()                                 # the last cell again: one stone to place
    assert b.stones_to_place == 1 and b.turn == BLACK and b.legal_mask().sum() == 1


def test_legal_mask_and_planes():
    b = Board("j10 k10k11 +a1")
    mask = b.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (361,)
    assert mask.sum() == 357 and not mask[[180, 181, 200, 0]].any()
    out = np.zeros(361, dtype=bool)
    assert b.legal_mask(out) is out and out.sum() == 357
    with pytest.raises(TypeError):
        b.legal_mask(np.zeros(361, dtype=np.int8))
    p = b.to_planes()
    assert p.dtype == np.int8 and p.shape == (4, 19, 19)
    assert p[0].sum() == 1 + 1 and p[0, 9, 9] == 1 and p[0, 0, 0] == 1       # black to move: j10, a1
    assert p[1].sum() == 2 and p[1, 9, 10] == 1 and p[1, 10, 10] == 1
    assert p[2].sum() == 1 and p[2, 0, 0] == 1 and p[3].sum() == 0
    from connect6.board import encode_planes
    many = encode_planes([b, Board(), Board("j10")])
    assert many.shape == (3, 4, 19, 19) and (many[0] == p).all() and many[1].sum() == 0
    assert (many[2][3] == 1).all()
    with pytest.raises(TypeError):
        encode_planes([b, "j10"])


def test_from_numpy_round_trips_and_rejects_bad_arrays():
    rng = random.Random(2)
    for _ in range(10):
        b = random_game(rng, rng.randrange(1, 30))
        if not b.is_game_over() and rng.random() < 0.5:
            b.push_stone(rng.choice(b.legal_stones()))
        again = Board.from_numpy(b.to_planes())
        assert again == b and again.evaluate(BLACK) == b.evaluate(BLACK) and again.position.check()
        assert Board.from_numpy(b.to_numpy().astype(np.float32), turn=b.turn).to_numpy().tolist() == \
            b.to_numpy().tolist()
    with pytest.raises(TypeError, match="array"):
        Board.from_numpy([[0]])
    with pytest.raises(ValueError, match="shape"):
        Board.from_numpy(np.zeros((3, 19, 19)))
    with pytest.raises(ValueError, match="0 and 1"):
        Board.from_numpy(np.full((2, 19, 19), 2))
    both = np.zeros((2, 19, 19), dtype=np.uint8)
    both[:, 3, 3] = 1
    with pytest.raises(ValueError, match="both"):
        Board.from_numpy(both)
    two = np.zeros((2, 19, 19), dtype=np.uint8)
    two[0, 0, :2] = 1
    with pytest.raises(ValueError, match="turn"):
        Board.from_numpy(two)
    assert Board.from_numpy(two, turn=WHITE).turn == WHITE
    planes = Board("j10").to_planes()
    planes[2, 5, 5] = 1
    with pytest.raises(ValueError, match="unfinished"):
        Board.from_numpy(planes)


def test_legal_moves_view():
    b = Board()
    assert len(b.legal_moves) == 361 and Move(5) in b.legal_moves and "a1a2" not in b.legal_moves
    b = Board("j10 k10k11 j11j12 k12k13 j13j14")
    lm = b.legal_moves
    n = 361 - 9
    # White has k10..k13 and a live road of 4: no single stone wins yet
    assert len(lm) == n * (n - 1) // 2
    b.push("a1a2")
    b.pop()
    b.push("k14a1")                              # white: k10..k14, one more wins
    b.push("a3a4")
    wins = b.position.winning_cells(WHITE)
    assert sorted(wins) == [parse_cell("k9"), parse_cell("k15")]
    n = 361 - 13
    assert len(b.legal_moves) == n * (n - 1) // 2 + 2
    moves = list(b.legal_moves)
    assert len(moves) == len(b.legal_moves) == len(set(moves))
    assert moves[-2:] == [Move(w) for w in sorted(wins)] and "k15" in b.legal_moves and "b1" not in b.legal_moves
    assert all(b.is_legal(m) for m in moves[::997])
    assert 42 not in b.legal_moves and bool(b.legal_moves)
    b.push_stone(0 + 19 * 5)
    assert len(b.legal_moves) == 361 - 14 and list(b.legal_moves)[0] == Move(b.legal_stones()[0])


# ------------------------------------------------------------------ stone-level state machine
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule  # noqa: E402


class StoneModel:
    """The turn rules in plain Python: the oracle of push_stone / pop_stone / pop."""

    def __init__(self):
        self.cells = ref.empty_board()
        self.history = []           # (cell, ends_turn)
        self.to_move = 0
        self.placed = 0

    def over(self):
        return ref.winner(self.cells) is not None or ref.EMPTY not in self.cells

    def need(self):
        start = sum(c != ref.EMPTY for c in self.cells) - self.placed
        return 1 if start in (0, 360) else 2

    def push(self, cell):
        need = self.need()
        self.cells[cell] = self.to_move
        ends = self.placed + 1 >= need or self.over()
        self.history.append((cell, ends))
        if ends:
            self.to_move, self.placed = 1 - self.to_move, 0
        else:
            self.placed += 1

    def pop(self):
        cell, ends = self.history.pop()
        color = self.cells[cell]
        self.cells[cell] = ref.EMPTY
        if ends:
            self.to_move = color
            self.placed = 0
            for _, e in reversed(self.history):
                if e:
                    break
                self.placed += 1
        else:
            self.placed -= 1
        return cell

    def turns(self):
        out, cur = [], []
        for cell, ends in self.history:
            cur.append(cell)
            if ends:
                out.append(Move(cur))
                cur = []
        return out


class StoneMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.board = Board()
        self.model = StoneModel()

    @rule(data=st.data())
    def push_stone(self, data):
        # near the stones already placed most of the time, so sixes happen
        taken = [c for c in range(361) if self.model.cells[c] != ref.EMPTY]
        near = ref.candidates(self.model.cells, 1) if taken else [180]
        cell = data.draw(st.sampled_from(near) if near and data.draw(st.booleans()) else st.integers(0, 360))
        if self.model.over() or self.model.cells[cell] != ref.EMPTY:
            before = full_state(self.board)
            with pytest.raises(IllegalMoveError):
                self.board.push_stone(cell)
            assert full_state(self.board) == before
        else:
            self.board.push_stone(cell)
            self.model.push(cell)

    @rule()
    def pop_stone(self):
        if not self.model.history:
            with pytest.raises(IndexError):
                self.board.pop_stone()
        else:
            assert self.board.pop_stone() == self.model.pop()

    @rule()
    def pop_turn(self):
        if not self.model.history:
            return
        cells = [self.model.pop()]
        while self.model.placed:
            cells.append(self.model.pop())
        assert self.board.pop().stones == tuple(reversed(cells))

    @rule()
    def copy_round_trip(self):
        self.board = pickle.loads(pickle.dumps(self.board)) if len(self.model.history) % 2 else self.board.copy()

    @invariant()
    def agrees(self):
        b, m = self.board, self.model
        assert oracle_cells_of(b) == m.cells
        assert int(b.turn) == m.to_move and b.is_game_over() == m.over()
        assert b.unfinished_turn == tuple(c for c, _ in m.history[len(m.history) - m.placed:])
        assert b.move_stack == m.turns()
        assert b.stones_to_place == (0 if m.over() else m.need() - m.placed)
        assert b.legal_mask().tolist() == [not m.over() and c == ref.EMPTY for c in m.cells]
        if m.over():
            assert b.outcome().winner == ref.winner(m.cells)


def oracle_cells_of(board):
    return [2 if board.stone_at(c) is None else int(board.stone_at(c)) for c in range(361)]


StoneMachine.TestCase.settings = settings(max_examples=fuzz_examples(25), stateful_step_count=50)
TestStoneMachine = StoneMachine.TestCase


def test_taking_back_the_second_stone_of_a_pair_that_won_with_its_first_keeps_the_game_over():
    # j15 alone makes six; a19 came with it.  Taking a19 back reopened the turn of a finished game,
    # a board no play reaches (repr and from_numpy gave other boards)
    start = "j10 a1a2 j11j12 b1b2 j13j14 c1c2"
    b = Board(start)
    b.push("j15a19")
    assert b.pop_stone() == parse_cell("a19")
    alone = Board(start)
    alone.push_stone(parse_cell("j15"))
    assert b == alone and b.is_game_over() and b.unfinished_turn == () and b.stones_to_place == 0
    assert Board.from_numpy(b.to_planes()) == b and Board(start + " j15") == b
    assert b.pop_stone() == parse_cell("j15") and b == Board(start) and not b.is_game_over()
    b.push("j15a19")
    assert b.pop() == Move.parse("j15a19") and b == Board(start)        # a whole pair comes back whole


def test_from_numpy_refuses_six_in_a_row_for_both_colours():
    a = np.zeros((2, 19, 19), np.uint8)
    a[0, 0, :6] = 1
    a[1, 2, :6] = 1
    with pytest.raises(ValueError, match="both colours have six in a row"):
        Board.from_numpy(a, turn=0)
    a[1, 2, 0] = 0                                                      # White five: Black has won
    assert Board.from_numpy(a, turn=1).outcome().winner == BLACK


def test_weights_are_whole_numbers():
    for bad in (((1.9,) * 6, (2,) * 6), ((1,) * 6, (True,) * 6), ((1,) * 6, ("x",) * 6)):
        with pytest.raises(ValueError, match="expected 6 whole numbers"):
            Board("j10", weights=bad)
    assert Board("j10", weights=((1.0, 2, 3, 4, 5, 6), np.arange(1, 7))).weights[0][1:] == (1, 2, 3, 4, 5, 6)
    from engine_core.position import Position
    with pytest.raises(ValueError, match=r"f: expected 6 whole numbers .*1.5"):
        Position((1.5, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6))
    assert Position(("1", "20", "40", "200", "200", "1000000"), (1, 25, 50, 6000, 6000, 10**6)).weights[0][2] == 20
