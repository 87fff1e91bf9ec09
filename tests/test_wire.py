"""connect6.protocol.wire: the protocol's wire format, written by one side and read by the other."""
import random

import pytest

from connect6 import Board, IllegalMoveError, InvalidMoveError, Move
from connect6.protocol.wire import (
    MOVE_REPLY_RE, looks_like_move_reply, move_reply, name_reply, parse_move_reply, parse_name_reply,
    parse_protocol_move, placement, turn_letters,
)


def random_game(seed, turns=12):
    rng = random.Random(seed)
    board = Board()
    for _ in range(turns):
        stones = rng.sample(board.legal_stones(), board.stones_to_place)
        board.push(Move(stones))
        if board.is_game_over():
            break
    return board


@pytest.mark.parametrize("seed", range(5))
def test_what_the_client_writes_the_server_reads(seed):
    """Placements and replies written by one side parse back to the same turns on the other."""
    board = random_game(seed)
    replayed = Board()
    for index, move in enumerate(board.move_stack):
        for double in (True, False):
            color, letters = placement("black" if index % 2 == 0 else "white", move, double).split()
            assert color == str(replayed.turn)
            assert parse_protocol_move(letters, replayed.stones_to_place) == move
        reply = move_reply(move)
        letters = parse_move_reply(reply)
        assert letters == turn_letters(move) and MOVE_REPLY_RE.fullmatch(reply)
        assert parse_protocol_move(letters, replayed.stones_to_place) == move
        replayed.push(move)
    assert replayed.move_stack == board.move_stack


def test_the_first_stone_may_be_doubled():
    first = Move.parse("j10")
    assert placement("black", first) == "black JJJJ" and placement("black", first, False) == "black JJ"
    assert move_reply(first) == "move JJ"
    assert parse_protocol_move("jjjj", 1) == parse_protocol_move("JJ", 1) == first
    with pytest.raises((InvalidMoveError, IllegalMoveError)):
        parse_protocol_move("JJJJ", 2)          # a doubled stone is only Black's first turn
    with pytest.raises((InvalidMoveError, IllegalMoveError)):
        parse_protocol_move("JJZZ", 1)


@pytest.mark.parametrize("line, letters", [
    ("move JJ", "JJ"), ("move JIKK", "JIKK"), ("move jikk", None), ("move JIK", None), ("move JIKK ", None),
    (" move JIKK", None), ("moveJIKK", None), ("move JTKK", None), ("name x", None),
])
def test_move_replies(line, letters):
    assert parse_move_reply(line) == letters
    assert looks_like_move_reply(line) == line.startswith("move")


@pytest.mark.parametrize("line", ["move generator: spiral", "move ordering done", "movegen: thinking",
                                  "moves are written as XXXX"])
def test_notes_starting_with_move_are_not_move_replies(line):
    """A timeout after such a note was reported as a malformed move reply."""
    assert not looks_like_move_reply(line) and parse_move_reply(line) is None


def test_name_replies():
    assert parse_name_reply(name_reply("connect6-1.0 (default profile)")) == "connect6-1.0 (default profile)"
    assert parse_name_reply("name") == "" and parse_name_reply("names x") is None
