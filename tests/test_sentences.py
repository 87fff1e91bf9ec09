"""connect6.sentences: how a game ended, for people."""
from connect6 import Board
from connect6.sentences import outcome_reason, outcome_text


def test_a_won_game():
    board = Board("j10 a1s1 k10l10 a19s19 m10n10 a10s10 o10p10")
    assert outcome_text(board.outcome()) == "black won"
    assert outcome_reason(board.outcome()) == "black made six in a row: j10 k10 l10 m10 n10 o10 p10"
    board = Board("j10 a1a2 k10s19 a3a4 m10s1 a5a6")
    assert outcome_text(board.outcome()) == "white won"
    assert outcome_reason(board.outcome()).startswith("white made six in a row: a1 a2 a3 a4 a5 a6")


def test_a_game_that_goes_on():
    assert outcome_text(Board("j10").outcome()) == "the game goes on"


def test_a_draw():
    from connect6.board import Outcome, Termination
    draw = Outcome(None, Termination.BOARD_FULL)
    assert outcome_text(draw) == "draw, the board is full"
    assert outcome_reason(draw) == "draw: the board is full"
