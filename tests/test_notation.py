"""connect6.notation: cells, protocol letters, moves and their errors."""
import pickle

import pytest

from connect6 import BLACK, CENTER, WHITE, Color, IllegalMoveError, InvalidMoveError, Move, cell_name, parse_cell
from connect6.notation import parse_protocol_cell, protocol_cell

COLUMNS = "abcdefghijklmnopqrs"  # i included


def test_columns_include_i():
    assert len(COLUMNS) == 19
    assert cell_name(8) == "i1"
    assert cell_name(9) == "j1"


@pytest.mark.parametrize("cell", range(361))
def test_cell_round_trips(cell):
    name = cell_name(cell)
    assert name == f"{COLUMNS[cell % 19]}{cell // 19 + 1}"
    assert parse_cell(name) == cell
    assert parse_cell(name.upper()) == cell
    proto = protocol_cell(cell)
    assert proto == chr(65 + cell % 19) + chr(65 + cell // 19)
    assert parse_protocol_cell(proto) == cell
    assert parse_protocol_cell(proto.lower()) == cell
    m = Move.parse(name)
    assert m.stones == (cell,)
    assert str(m) == name
    assert Move.from_protocol(proto) == m
    assert m.to_protocol() == proto


def test_all_pairs_of_a_row_round_trip():
    for a in range(0, 361, 7):
        for b in range(3, 361, 11):
            if a == b:
                continue
            m = Move([a, b])
            assert Move.parse(str(m)) == m
            assert Move.parse(str(m)).stones == (a, b)
            assert Move.from_protocol(m.to_protocol()).stones == (a, b)


def test_centre():
    assert CENTER == 180
    assert parse_cell("j10") == 180
    assert cell_name(180) == "j10"
    assert protocol_cell(180) == "JJ"
    assert parse_protocol_cell("JJ") == 180
    assert Move.from_protocol("JJ") == Move.parse("j10") == Move(180)
    assert Move.parse("j9l11").to_protocol() == "JILK"
    assert Move.from_protocol("JIKL") == Move.parse("j9k12")


def test_corners():
    assert parse_cell("a1") == 0
    assert parse_cell("s1") == 18
    assert parse_cell("a19") == 342
    assert parse_cell("s19") == 360
    assert protocol_cell(0) == "AA" and protocol_cell(360) == "SS"


def test_colors():
    assert BLACK == Color.BLACK == 0 and WHITE == Color.WHITE == 1
    assert BLACK.other == WHITE and WHITE.other == BLACK
    assert str(BLACK) == "black"


@pytest.mark.parametrize("text", ["", " ", "j", "10", "10j", "jj", "j10x", "j-1", "j 10", "j10,k11", "j1.0", "@1", "a100"])
def test_invalid_moves(text):
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


@pytest.mark.parametrize("text", ["", "j", "10j", "jj", "j10x", "j10k11"])
def test_invalid_cells(text):
    with pytest.raises(InvalidMoveError):
        parse_cell(text)


@pytest.mark.parametrize("text", ["t1", "a20", "a0", "z5", "j10t1", "a99"])
def test_off_board_moves(text):
    with pytest.raises(IllegalMoveError):
        Move.parse(text)


@pytest.mark.parametrize("text", ["t1", "a20", "a0"])
def test_off_board_cells(text):
    with pytest.raises(IllegalMoveError):
        parse_cell(text)


@pytest.mark.parametrize("text", ["j10j10", "J10j10"])
def test_repeated_stone(text):
    with pytest.raises(IllegalMoveError):
        Move.parse(text)


def test_three_stones():
    with pytest.raises(IllegalMoveError):
        Move.parse("a1b2c3")
    with pytest.raises(IllegalMoveError):
        Move([1, 2, 3])
    with pytest.raises(IllegalMoveError):
        Move([])


@pytest.mark.parametrize("text", ["", "J", "JJJ", "JJK", "J1", "11", "JJKKL"])
def test_invalid_protocol(text):
    with pytest.raises(InvalidMoveError):
        Move.from_protocol(text)


@pytest.mark.parametrize("text", ["TA", "AT", "JJZZ"])
def test_off_board_protocol(text):
    with pytest.raises(IllegalMoveError):
        Move.from_protocol(text)


@pytest.mark.parametrize("cell", [-1, 361, 1.5, "j10", None, True])
def test_bad_cell_ints(cell):
    with pytest.raises(ValueError):
        cell_name(cell)


def test_errors_are_value_errors():
    assert issubclass(InvalidMoveError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)
    assert not issubclass(InvalidMoveError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)
    for text in ("jj", "t1"):
        with pytest.raises(ValueError):
            Move.parse(text)


def test_move_is_immutable():
    m = Move.parse("j9l11")
    with pytest.raises(AttributeError):
        m._stones = (1, 2)
    with pytest.raises(AttributeError):
        m.stones = (1, 2)
    with pytest.raises(AttributeError):
        m.extra = 1
    assert m.stones == (parse_cell("j9"), parse_cell("l11"))


def test_pair_is_unordered_but_keeps_its_order():
    a, b = Move.parse("j9l11"), Move.parse("l11j9")
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1
    assert str(a) == "j9l11" and str(b) == "l11j9"
    assert a.stones != b.stones


def test_move_equality():
    assert Move.parse("j10") == Move(180)
    assert Move.parse("j10") != Move.parse("j10k10")
    assert Move.parse("j10k10") != Move.parse("j10k11")
    assert Move.parse("J10") == Move.parse("j10")
    assert Move.parse("  j10 ") == Move.parse("j10")
    assert Move.parse("j10") != "j10"
    assert len(Move.parse("j10")) == 1 and len(Move.parse("j10k10")) == 2
    assert list(Move.parse("a1b1")) == [0, 1]


@pytest.mark.parametrize("text", ["j10", "a1", "s19", "j9l11", "s19a1", "k3c17"])
def test_repr_pastes_back(text):
    m = Move.parse(text)
    again = eval(repr(m), {"Move": Move})
    assert again == m
    assert again.stones == m.stones


def test_pickle():
    m = Move.parse("l11j9")
    again = pickle.loads(pickle.dumps(m))
    assert again == m and again.stones == m.stones


@pytest.mark.parametrize("stones", [None, 1.5, "j10", b"j10", object(), [None], [180, "k10"], [True], (1.0, 2)])
def test_move_wrong_types_name_the_argument(stones):
    with pytest.raises(TypeError, match=r"Move\(stones\)"):
        Move(stones)


def test_move_takes_any_iterable_of_cells_but_never_reads_past_a_third():
    import itertools
    assert Move(iter([180, 181])) == Move([181, 180]) == Move({180, 181})
    with pytest.raises(IllegalMoveError, match="more than 2"):
        Move(itertools.count())   # an endless iterable is refused, not read forever


def test_move_docstring_example_is_true():
    m = Move.parse("j9l11")
    assert m.stones == (parse_cell("j9"), parse_cell("l11")) == (161, 201)
    assert m.to_protocol() == "JILK"
