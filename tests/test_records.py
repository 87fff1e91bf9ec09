"""connect6.records: stone lists, Little Golem SGF, replay and the human-games archive."""
import csv
import doctest
import io
import random
from pathlib import Path

import pytest

import connect6.records as records
from connect6 import BLACK, WHITE, Board, Color, Move, Termination, cell_name
from connect6.records import (
    GameRecord, RecordError, format_stone_list, parse_stone_list, read_games_csv, read_sgf, read_sgf_file, replay,
    write_sgf,
)
from _fuzz import fuzz_examples  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
HUMAN_GAMES = DATA / "human-games.csv"


@pytest.fixture(scope="module")
def human_games():
    games = read_games_csv(HUMAN_GAMES)
    assert len(games) == 6212
    return games


def random_moves(rng, turns, short_last=False):
    cells = rng.sample(range(361), 1 + 2 * turns)
    moves = [Move(cells[0])] + [Move(cells[i:i + 2]) for i in range(1, len(cells), 2)]
    if short_last and turns:
        moves[-1] = Move(moves[-1].stones[0])
    return moves


def test_doctests():
    import connect6.records.archive
    import connect6.records.core
    import connect6.records.openings
    import connect6.records.sgf
    results = [doctest.testmod(m) for m in (records, connect6.records.core, connect6.records.sgf,
                                            connect6.records.archive, connect6.records.openings)]
    assert sum(r.attempted for r in results) > 10 and sum(r.failed for r in results) == 0


def test_record_error_is_a_value_error():
    assert issubclass(RecordError, ValueError)


# ------------------------------------------------------------------ stone lists
def test_parse_stone_list():
    moves = parse_stone_list("j10,k11,i11,h11,i10")
    assert [str(m) for m in moves] == ["j10", "k11i11", "h11i10"]
    assert [m.stones for m in moves] == [(180,), (200, 198), (197, 179)]
    assert parse_stone_list("") == [] == parse_stone_list("  ")
    assert parse_stone_list(" J10 ,k11 , i11") == parse_stone_list("j10,k11,i11")
    assert [str(m) for m in parse_stone_list("j10,k11")] == ["j10", "k11"]  # a short last turn


def test_stone_list_round_trip():
    rng = random.Random(1)
    for turns in range(0, 60, 3):
        for short in (False, True):
            moves = random_moves(rng, turns, short)
            text = format_stone_list(moves)
            again = parse_stone_list(text)
            assert again == moves
            assert [m.stones for m in again] == [m.stones for m in moves]  # the order inside a pair is kept
            assert format_stone_list(again) == text
            assert len(text.split(",")) == sum(len(m) for m in moves)


def test_format_accepts_text_moves():
    assert format_stone_list(["j10", "k11i11", Move.parse("h11i10")]) == "j10,k11,i11,h11,i10"
    assert format_stone_list([]) == ""


@pytest.mark.parametrize("moves, move", [
    (["j10k10"], 1),                     # black's first turn is one stone
    (["j10", "k10", "k11l11"], 2),       # a single stone before the last turn
    (["j10", "k10k11", "l1", "m1m2"], 3),
])
def test_format_rejects_bad_structure(moves, move):
    with pytest.raises(RecordError) as info:
        format_stone_list(moves)
    assert info.value.move == move
    assert f"move {move}" in str(info.value)
    with pytest.raises(RecordError):
        write_sgf(moves)


def test_format_rejects_garbage_moves():
    with pytest.raises(RecordError) as info:
        format_stone_list(["j10", "k10zz"])
    assert info.value.move == 2 and "'k10zz'" in str(info.value)


@pytest.mark.parametrize("text, stone, offset, snippet", [
    ("j10,k11,z99", 3, 8, "z99"),
    ("j10,k11,i1x,h11", 3, 8, "i1x"),
    ("j10,,k11", 2, 4, None),
    ("j10,k11,", 3, 8, None),
    (",j10", 1, 0, None),
    ("j10,k11,  t5", 3, 10, "t5"),
    ("j10;k11", 1, 0, "j10;k11"),
])
def test_parse_stone_list_errors_name_the_stone(text, stone, offset, snippet):
    with pytest.raises(RecordError) as info:
        parse_stone_list(text)
    err = info.value
    assert (err.stone, err.offset) == (stone, offset)
    assert f"stone {stone}" in str(err) and f"offset {offset}" in str(err)
    if snippet is not None:
        assert err.text == snippet and repr(snippet) in str(err)


@pytest.mark.parametrize("text, move", [("j10,k11,k11", 2), ("j10,k11,l12,m13,m13", 3)])
def test_parse_stone_list_repeated_stone_in_a_turn(text, move):
    with pytest.raises(RecordError) as info:
        parse_stone_list(text)
    assert info.value.move == move and "twice" in str(info.value)


def test_parse_stone_list_type():
    with pytest.raises(TypeError):
        parse_stone_list(None)


# ------------------------------------------------------------------ SGF
def test_write_sgf_format():
    text = write_sgf(["j10", "j9l11", "a1s19"], {"EV": "connect6.ch.1", "PB": "x", "PW": "y"})
    assert text == "(;FF[4]EV[connect6.ch.1]PB[x]PW[y];B[j10];W[j9l11];B[a1s19])"
    assert write_sgf(["j10"], {"PW": "y", "FF": "3"}) == "(;PW[y]FF[3];B[j10])"


def test_write_sgf_move_comments_round_trip():
    """Move comments are escaped, may be fewer than the moves, and read_sgf passes over them."""
    moves = ["j10", "j9l11", "a1s19"]
    text = write_sgf(moves, {"PB": "x"}, ["", "loss in 3/4 ]\\"])
    assert text == "(;FF[4]PB[x];B[j10];W[j9l11]C[loss in 3/4 \\]\\\\];B[a1s19])"
    assert read_sgf(text) == ({"FF": "4", "PB": "x"}, [Move.parse(m) for m in moves])


@pytest.mark.parametrize("comments, says", [
    ("abc", "a sequence"), (b"ab", "a sequence"), ({"a": 1}, "a sequence"), ([1], "a string or None"),
    (["a", "b", "c", "d"], "4 comments for 3 moves"),
])
def test_write_sgf_rejects_bad_comments(comments, says):
    with pytest.raises(RecordError, match=says):
        write_sgf(["j10", "j9l11", "a1s19"], None, comments)


def test_sgf_round_trip():
    rng = random.Random(2)
    headers = {"EV": "connect6.ch.22.1.1", "PB": "Black [1] \\ back]slash", "PW": "Wé ]]", "SO": "x\ny"}
    for turns in range(0, 80, 7):
        for short in (False, True):
            moves = random_moves(rng, turns, short)
            text = write_sgf(moves, headers)
            h, again = read_sgf(text)
            assert h == {"FF": "4", **headers}
            assert again == moves and [m.stones for m in again] == [m.stones for m in moves]
            assert write_sgf(again, h) == text


def test_read_sgf_is_lenient_where_files_vary():
    text = ("\ufeff  (\n;PW[bob] FF[4]\r\nEV[a \\] b\\\\c]PB[ali\\\nce]\n"
            "  ;B[J10]\n;W[ j9 L11 ]C[a comment]\n;  B[a1s19]  \n)\n\n")
    headers, moves = read_sgf(text)
    assert headers == {"PW": "bob", "FF": "4", "EV": "a ] b\\c", "PB": "alice"}
    assert moves == [Move.parse("j10"), Move.parse("j9l11"), Move.parse("a1s19")]


def test_read_sgf_first_move_in_root():
    assert read_sgf("(;FF[4]B[j10];W[k10k11])") == ({"FF": "4"}, [Move.parse("j10"), Move.parse("k10k11")])


def test_read_sgf_resignation():
    headers, moves = read_sgf("(;FF[4];B[j10];W[k10k11];B[Resign])")
    assert headers == {"FF": "4", "RE": "W+R"}
    assert len(moves) == 2
    headers, moves = read_sgf("(;FF[4]RE[B+12];B[j10];W[resign])")
    assert headers == {"FF": "4", "RE": "B+12"} and len(moves) == 1
    # the round trip keeps the result in the headers
    assert read_sgf(write_sgf(moves, headers)) == (headers, moves)


def test_read_sgf_empty_game():
    assert read_sgf("(;FF[4]EV[x])") == ({"FF": "4", "EV": "x"}, [])


BROKEN_SGF = [
    # (text, words the message must contain, line, column, node)
    ("", "starts with '('", 1, 1, None),
    ("FF[4];B[j10])", "starts with '('", 1, 1, None),
    ("(;FF[4];B[j10]", "never closed", 1, 1, None),
    ("(;FF[4];B[j10]))", "after the end", 1, 16, None),
    ("(;FF[4];B[j10])(;FF[4])", "second game", 1, 16, None),
    ("(;FF[4];B[j10](;W[k10k11]))", "variations", 1, 15, 2),
    ("(;FF[4]\n;B[j10]\n;B[k10k11])", "expected W", 3, 2, 2),
    ("(;FF[4];W[j10])", "expected B", 1, 9, 1),
    ("(;FF[4];B[j10];W[k10k11];W[a1a2])", "expected B", 1, 26, 3),
    ("(;FF[4];B[j10];W[z10k11])", "off the board", 1, 18, 2),
    ("(;FF[4];B[j10];W[k10x])", "is not a move", 1, 18, 2),
    ("(;FF[4];B[j10];W[])", "is not a move", 1, 18, 2),
    ("(;FF[4];B[j10k11])", "first turn is one stone", 1, 9, 1),
    ("(;FF[4];B[j10];W[k10];B[a1a2])", "must be two stones", 1, 16, 2),
    ("(;FF[4];B[j10];W[k10k11l12])", "1 or 2 stones", 1, 18, 2),
    ("(;FF[4];B[j10];W[k10k10])", "twice", 1, 18, 2),
    ("(;FF[4];B[j10];W[k10k11][a1a2])", "one value", 1, 16, 2),
    ("(;FF[4];B[j10];W[k10k11]B[a1a2])", "exactly one B or W", 1, 15, 2),
    ("(;FF[4];B[j10];C[hi])", "no B or W", 1, 15, 2),
    ("(;FF[4];B[j10];)", "no B or W", 1, 15, 2),
    ("(;FF[4]PB)", "no value", 1, 8, 0),
    ("(;FF[4]PB[x;B[j10]", "never closed", 1, 1, None),
    ("(;FF[4]PB[x\\])", "unterminated", 1, 10, 0),
    ("(;FF[4]pb[x])", "capital letters", 1, 8, 0),
    ("(;FF[4]P-B[x])", "no value", 1, 8, 0),
    ("(;FF[4]#garbage;B[j10])", "expected a property name", 1, 8, 0),
    ("(;FF[4]PB[a][b])", "2 values", 1, 8, 0),
    ("(;FF[4]PB[a]PB[b])", "twice", 1, 13, 0),
    ("(;FF[4];B[j10];W[resign];B[a1a2])", "last node", 1, 16, 2),
    ("()", "at least one node", 1, 1, None),
    ("(FF[4])", "expected ';'", 1, 2, 0),
]


@pytest.mark.parametrize("text, words, line, column, node", BROKEN_SGF)
def test_broken_sgf(text, words, line, column, node):
    with pytest.raises(RecordError) as info:
        read_sgf(text)
    err = info.value
    msg = str(err)
    assert words in msg
    assert (err.line, err.column, err.node) == (line, column, node)
    assert f"line {line}, column {column}" in msg
    offset = sum(len(x) + 1 for x in text.split("\n")[:line - 1]) + column - 1
    assert err.offset == offset and f"offset {offset}" in msg
    if node is not None:
        assert f"node {node}" in msg
    assert err.text is not None and text[offset:].startswith(err.text[:1])


def test_broken_sgf_names_the_move():
    with pytest.raises(RecordError) as info:
        read_sgf("(;FF[4];B[j10];W[k10k11];B[a1a2];W[b1b1])")
    assert info.value.move == 4 and info.value.node == 4 and "move 4" in str(info.value)


def test_read_sgf_type():
    with pytest.raises(TypeError):
        read_sgf(b"(;FF[4])")


@pytest.mark.parametrize("headers", [{"B": "x"}, {"W": "x"}, {"pb": "x"}, {"P B": "x"}, {"": "x"}, {1: "x"}])
def test_write_sgf_rejects_bad_headers(headers):
    with pytest.raises(RecordError):
        write_sgf(["j10"], headers)


def test_write_sgf_headers_are_a_mapping():
    with pytest.raises(TypeError, match="mapping of names to values.*not list"):
        write_sgf(["j10"], [("PB", "x")])


# ------------------------------------------------------------------ replay
def test_replay():
    b = replay(parse_stone_list("j10,k11,i11,h11,i10"))
    assert isinstance(b, Board)
    assert [str(m) for m in b.move_stack] == ["j10", "k11i11", "h11i10"]
    assert b.turn == WHITE
    assert replay([]).move_stack == []
    weighted = replay(["j10"], weights=((1, 1, 1, 1, 1, 1), (2, 2, 2, 2, 2, 2)))
    assert weighted.evaluate(BLACK) == 24


@pytest.mark.parametrize("moves, move, words", [
    (["j10", "k10j10"], 2, "occupied"),
    (["j10", "k10k11", "a1a2", "k11b2"], 4, "occupied"),
    (["j10k10"], 1, "must place 1"),
    (["j10", "k10"], 2, "must place 2"),
    (["j10", "k10zz"], 2, "not a move"),
    (["j10", "a1a2", "b1b2", "a3a4", "b3b4", "a5a6", "b5b6"], 7, "game is over"),
    (["j10", "a1a2", "b1b2", "a3a4", "b3b4", "a5"], 6, "only when it makes six"),
])
def test_replay_errors_name_the_move(moves, move, words):
    with pytest.raises(RecordError) as info:
        replay(moves)
    assert info.value.move == move
    assert f"move {move}" in str(info.value) and words in str(info.value)
    assert isinstance(info.value.__cause__, ValueError)


# ------------------------------------------------------------------ the archive
def test_read_games_csv_errors_name_game_and_line():
    text = 'game_id,stones,winner\n1,"j10,k11,k10",white\n2,"j10,k11,k99",black\n'
    with pytest.raises(RecordError) as info:
        read_games_csv(io.StringIO(text))
    err = info.value
    assert (err.game, err.line, err.stone) == ("2", 3, 3)
    assert str(err).startswith("game 2, line 3, stone 3")
    with pytest.raises(RecordError) as info:
        read_games_csv(io.StringIO('game_id,stones,winner\n5,"j10",blue\n'))
    assert info.value.game == "5" and "blue" in str(info.value)
    with pytest.raises(RecordError):
        read_games_csv(io.StringIO("id,moves\n1,j10\n"))


def test_read_games_csv_winners():
    games = read_games_csv(io.StringIO('game_id,stones,winner\n1,j10,draw\n2,,\n3,j10,Black\n'))
    assert games == [GameRecord("1", (Move(180),), None), GameRecord("2", (), None),
                     GameRecord("3", (Move(180),), BLACK)]


def test_human_games_file_round_trips(human_games):
    with open(HUMAN_GAMES, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [g.game_id for g in human_games] == [r["game_id"] for r in rows]
    for game, row in zip(human_games, rows):
        assert format_stone_list(game.moves) == row["stones"]
        assert str(game.winner) == row["winner"]


def full_turn_games(games):
    return [g for g in games if len(g.moves[-1]) == 2]


def short_last_turn_games(games):
    return [g for g in games if len(g.moves[-1]) == 1]


def test_human_games_replay_to_their_winner(human_games):
    games = full_turn_games(human_games)
    assert len(games) == 6085
    for g in games:
        try:
            board = replay(g.moves[:-1])
        except RecordError as exc:
            raise AssertionError(f"game {g.game_id}: {exc}") from exc
        assert not board.is_game_over(), f"game {g.game_id} ended before its last move"
        board.push(g.moves[-1])
        out = board.outcome()
        assert out is not None and out.termination is Termination.SIX, f"game {g.game_id}"
        assert out.winner == g.winner, f"game {g.game_id}"
        assert set(g.moves[-1].stones) & set(out.line), f"game {g.game_id}: the last move is not in the six"


def test_human_games_ending_on_a_single_stone(human_games):
    """127 games end on one stone: the winner's six was made by the first stone of its last turn."""
    games = short_last_turn_games(human_games)
    assert len(games) == 127
    for g in games:
        board = replay(g.moves[:-1])
        assert not board.is_game_over(), f"game {g.game_id}"
        assert board.turn == g.winner, f"game {g.game_id}"
        pos = board.position.copy()
        pos.add_stone(g.moves[-1].stones[0], int(board.turn))
        assert pos.winner() == g.winner, f"game {g.game_id}"
        board.push(g.moves[-1])
        assert board.outcome().winner == g.winner, f"game {g.game_id}"
        assert g.moves[-1].stones[0] in board.outcome().line, f"game {g.game_id}"
        assert replay(g.moves).move_stack == list(g.moves)


def test_human_games_sgf_round_trip(human_games):
    for g in human_games:
        headers = {"EV": f"human-games {g.game_id}", "RE": "B+" if g.winner == BLACK else "W+"}
        text = write_sgf(g.moves, headers)
        h, moves = read_sgf(text)
        assert moves == list(g.moves) and [m.stones for m in moves] == [m.stones for m in g.moves]
        assert h == {"FF": "4", **headers}


def test_human_games_sgf_with_line_breaks(human_games):
    """SGF as files often lay it out: headers on one line, a few nodes per line, upper-case cells."""
    for g in human_games[:300]:
        nodes = [f";{'BW'[i % 2]}[{str(m).upper()}]" for i, m in enumerate(g.moves)]
        body = "\n".join("".join(nodes[i:i + 5]) for i in range(0, len(nodes), 5))
        text = f"(;FF[4]\nPB[a]PW[b]\n{body}\n)\n"
        assert read_sgf(text)[1] == list(g.moves)
        # and a colour swap anywhere is caught
        k = random.Random(g.game_id).randrange(1, len(nodes))
        swapped = nodes[:k] + [nodes[k].replace("B[", "X[").replace("W[", "B[").replace("X[", "W[")] + nodes[k + 1:]
        with pytest.raises(RecordError) as info:
            read_sgf("(;FF[4]" + "".join(swapped) + ")")
        assert info.value.node == k + 1 and info.value.move == k + 1


def test_colors_of_turns(human_games):
    g = human_games[0]
    b = replay(g.moves)
    for i, m in enumerate(g.moves):
        for c in m.stones:
            assert b.stone_at(c) == Color(i % 2), cell_name(c)


def test_game_records_pickle_and_copy():
    import copy
    import pickle
    rec = GameRecord("7", (Move.parse("j10"), Move.parse("k11k10")), Color.WHITE)
    assert pickle.loads(pickle.dumps(rec)) == rec == copy.deepcopy(rec)


# ---------------------------------------------------------------- bad input: rejected early, only as RecordError
GOOD = "(;FF[4];B[j10];W[k10k11];B[l10l11]"


def test_read_sgf_refuses_more_than_a_game_unread():
    text = GOOD + ";W[a1b1];B[c1d1]" * (records.MAX_GAME_CHARS // 16) + ")"
    assert len(text) > records.MAX_GAME_CHARS
    with pytest.raises(RecordError, match=r"at most 1,000,000 \(1 MB\)"):
        read_sgf(text)
    with pytest.raises(RecordError, match="at most 1,000,000"):
        parse_stone_list("j10," * (records.MAX_GAME_CHARS // 4 + 1))


def test_read_sgf_stops_at_the_first_error():
    # move 3 is off the board; far later the text is not even SGF: the first error is the one reported
    text = GOOD.replace("l10l11", "l10z99") + ";W[a1b1]" * 1000 + "#garbage)"
    with pytest.raises(RecordError) as info:
        read_sgf(text)
    assert info.value.move == 3 and "off the board" in str(info.value)


def test_read_sgf_file_names_the_file(tmp_path):
    path = tmp_path / "game.sgf"
    path.write_bytes(b"\xef\xbb\xbf(;FF[4]\n;B[j10]\n;W[k10k11])")
    assert read_sgf_file(path) == ({"FF": "4"}, [Move.parse("j10"), Move.parse("k10k11")])
    path.write_bytes(b"(;FF[4]\n;B[j10]\n;W[k10k1\xff])")
    with pytest.raises(RecordError) as info:
        read_sgf_file(path)
    assert (info.value.file, info.value.line, info.value.column) == (str(path), 3, 9)
    assert str(info.value).startswith(f"{path}, line 3") and "not UTF-8" in str(info.value)
    path.write_text("(;FF[4]\n;B[j10]\n;B[k10k11])")
    with pytest.raises(RecordError, match=f"^{path}, line 3, column 2, node 2"):
        read_sgf_file(path)
    path.write_bytes(b"(" + b" " * (4 * records.MAX_GAME_CHARS) + b")")
    with pytest.raises(RecordError, match="refused"):
        read_sgf_file(path)


def test_record_errors_pickle_with_their_facts():
    import pickle
    err = RecordError("bad", file="x.csv", game="7", line=3, column=2, text="k99")
    copy = pickle.loads(pickle.dumps(err))
    assert str(copy) == str(err) and (copy.file, copy.game, copy.line, copy.text) == ("x.csv", "7", 3, "k99")


HEADER = b"game_id,stones,winner\n"


@pytest.mark.parametrize("body, line, words", [
    (b'1,j10 \r k11,white\n', 2, "carriage return"),                  # issue 16: csv.Error escaped
    (b'1,"j10,k11,k10",white\n2,j1\r0,black\n', 3, "carriage return"),
    (b'1,"j10,k11,k10",white\n2,"j10\xff",black\n', 3, "not UTF-8"),
    (b'1,"j10,k11,k10",white\n2,j10,k11,black\n', 3, "4 fields where the header has 3"),
    (b'1,"j10,k11",white\n', 2, "winner"),     # a control: valid (a record may end on a single stone)
    (b'1,"j10,k11,k10\n', 2, "2 fields where the header has 3 (a missing comma, or a quote never closed?)"),
])
def test_read_games_csv_raises_only_record_error_naming_file_and_line(tmp_path, body, line, words):
    path = tmp_path / "games.csv"
    path.write_bytes(HEADER + body)
    if words == "winner":           # a control: this one is valid
        assert len(read_games_csv(path)) == 1
        return
    with pytest.raises(RecordError) as info:
        read_games_csv(path)
    err = info.value
    assert err.file == str(path) and err.line == line, str(err)
    assert str(err).startswith(f"{path}, ") and words in str(err)
    with pytest.raises(RecordError):                    # the same from an open binary or text file
        read_games_csv(io.BytesIO(HEADER + body))
    try:
        text = (HEADER + body).decode("utf-8")
    except UnicodeDecodeError:
        return
    with pytest.raises(RecordError):
        read_games_csv(io.StringIO(text, newline=""))


def test_read_games_csv_refuses_a_long_line_without_reading_it(tmp_path):
    class Counting(io.StringIO):
        asked = 0

        def readline(self, size=-1):
            assert 0 < size <= records.MAX_LINE_CHARS + 1, "a line is never read whole"
            Counting.asked += size
            return super().readline(size)

    text = 'game_id,stones,winner\n1,"' + "j10," * (5 * records.MAX_LINE_CHARS // 4) + '",black\n'
    with pytest.raises(RecordError, match="line 2: line longer than 1,000,000 characters"):
        read_games_csv(Counting(text))
    assert Counting.asked < 3 * records.MAX_LINE_CHARS
    path = tmp_path / "long.csv"
    path.write_text(text)
    with pytest.raises(RecordError, match=f"^{path}, line 2: line longer than"):
        read_games_csv(path)


def test_read_games_csv_line_endings_and_the_callers_file():
    data = b"game_id,stones,winner\r1,j10,white\r2,,\r"          # old Mac line ends
    assert [g.game_id for g in read_games_csv(io.BytesIO(data))] == ["1", "2"]
    fh = io.BytesIO(HEADER + b"1,j10,white\r\n")
    assert len(read_games_csv(fh)) == 1 and not fh.closed       # a file the caller opened stays open
    with pytest.raises(RecordError) as info:
        read_games_csv(io.BytesIO(HEADER + b'1,j10,white\n2,"j10,k1\xff1",black\n'))
    assert (info.value.line, info.value.column) == (3, 10) and "byte 0xff" in str(info.value)


def test_read_games_csv_refuses_a_big_file_before_reading_it(tmp_path):
    path = tmp_path / "big.csv"
    path.write_bytes(HEADER + b"1,j10,white\n" * 100)
    with pytest.raises(RecordError, match=f"^{path}: 1,222 bytes, more than the 1,000 .*iter_games_csv"):
        read_games_csv(path, max_chars=1000)
    assert len(list(records.iter_games_csv(path))) == 100


def test_read_games_csv_refuses_a_huge_file_and_iter_games_csv_streams_it():
    row = b'1,"j10,k11,k10,l11,l10",black\n'
    data = HEADER + row * 2000
    with pytest.raises(RecordError, match="use iter_games_csv"):
        read_games_csv(io.BytesIO(data), max_chars=10_000)
    games = records.iter_games_csv(io.BytesIO(data))
    assert next(games).moves == tuple(parse_stone_list("j10,k11,k10,l11,l10"))
    assert sum(1 for _ in games) == 1999


def test_iter_games_csv_yields_the_games_before_the_first_bad_line():
    games = records.iter_games_csv(io.StringIO("game_id,stones,winner\n1,j10,black\n2,z99,white\n3,j10,\n"))
    assert next(games).game_id == "1"
    with pytest.raises(RecordError, match="game 2, line 3"):
        next(games)


def test_read_games_csv_types():
    with pytest.raises(TypeError, match="source"):
        read_games_csv(42)
    assert read_games_csv(io.BytesIO(b"\xef\xbb\xbf" + HEADER + b"1,j10,\n"))[0].moves == (Move(180),)
    with pytest.raises(RecordError, match="missing CSV column"):
        read_games_csv(io.BytesIO(b""))


# ---------------------------------------------------------------- property tests: only RecordError, whatever the bytes
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SAMPLE_SGF = "(;FF[4]EV[x]PB[a\\]b]\n;B[j10]\n;W[k10k11];B[l10l11];W[resign])"
SAMPLE_CSV = 'game_id,stones,winner\n1,"j10,k11,k10",white\n2,"j10,j9",\n3,j10,black\n'
FUZZ = settings(max_examples=fuzz_examples(300), derandomize=True)


@st.composite
def mutated(draw, base: str, alphabet="();[]\\BW jJ10kKz9,\r\n\"\x00\xe9"):
    text = list(base)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        i = draw(st.integers(0, len(text)))
        if op == "insert":
            text.insert(i, draw(st.sampled_from(alphabet)))
        elif text and op == "delete":
            del text[min(i, len(text) - 1)]
        elif text and op == "replace":
            text[min(i, len(text) - 1)] = draw(st.sampled_from(alphabet))
        elif op == "duplicate":
            j = draw(st.integers(i, len(text)))
            text[i:i] = text[i:j]
    return "".join(text)


def _only_record_error(function, *args):
    try:
        function(*args)
    except RecordError as exc:
        assert str(exc)                   # a reason is always given
        return exc
    return None


@FUZZ
@given(st.one_of(mutated(SAMPLE_SGF), st.text(max_size=80)))
def test_fuzz_read_sgf_raises_only_record_error(text):
    _only_record_error(read_sgf, text)


@FUZZ
@given(st.one_of(mutated("j10,k11,k10,l11,l10", alphabet="jJkz10 9,\t\x00"), st.text(max_size=40)))
def test_fuzz_parse_stone_list_raises_only_record_error(text):
    _only_record_error(parse_stone_list, text)


@FUZZ
@given(st.one_of(mutated(SAMPLE_CSV).map(lambda t: t.encode("utf-8")), st.binary(max_size=120),
                 mutated(SAMPLE_CSV).map(lambda t: t.encode("utf-8")[:-3] + b"\xff\xfe" + t.encode()[-3:])))
def test_fuzz_read_games_csv_raises_only_record_error(data):
    exc = _only_record_error(read_games_csv, io.BytesIO(data))
    if exc is not None:
        assert exc.line is not None and exc.line >= 1


@FUZZ
@given(st.binary(max_size=200))
def test_fuzz_read_sgf_file_raises_only_record_error(tmp_path_factory, data):
    path = tmp_path_factory.getbasetemp() / "fuzz.sgf"
    path.write_bytes(b"(;FF[4];B[j10]" + data)
    exc = _only_record_error(read_sgf_file, path)
    if exc is not None:
        assert exc.file == str(path)
