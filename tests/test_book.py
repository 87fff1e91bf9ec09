"""The opening book: symmetric lookup, counting, the text form, bad files, and the engine's use of it."""
import pickle

import pytest

import connect6
from connect6.book import DEFAULT_BOOK, OpeningBook, SYMMETRIES, _canonical, _stones, default_book
from connect6.records import RecordError

GAME = ["j10", "k11i11", "h11i10", "k9k10"]


def _same_position(board, a, b):
    """Whether moves a and b from board reach the same position up to symmetry
    (in a symmetric position, the book may answer with any image of its move)."""
    keys = []
    for m in (a, b):
        after = board.copy()
        after.push(m)
        keys.append(_canonical(*_stones(after))[0])
    return keys[0] == keys[1]


def _turned(moves, k):
    return [connect6.Move(tuple(SYMMETRIES[k][c] for c in connect6.Move.parse(m).stones)) for m in moves]


@pytest.mark.parametrize("k", range(8))
def test_a_position_is_found_in_every_orientation_with_its_move_turned(k):
    book = OpeningBook.from_games([GAME] * 3, winners=[0, 0, 1])
    game = _turned(GAME, k)
    for t in range(1, len(game)):
        board = connect6.Board(game[:t])
        entry = book.probe(board)
        assert entry is not None and _same_position(board, entry.move, game[t])
        assert entry.games == 3
        assert entry.wins == (2 if t % 2 == 0 else 1)       # black won two of the three games


def test_move_order_does_not_matter_and_positions_off_the_book_give_none():
    book = OpeningBook.from_games([GAME] * 3, winners=[0, 0, 0])
    assert book.probe(connect6.Board(["j10", "k11i11", "h11i10"])) is not None
    assert book.probe(connect6.Board(["j10", "i11k11", "i10h11"])) is not None   # the stones, not the order
    assert book.probe(connect6.Board(["j10", "a1a2"])) is None
    half = connect6.Board(["j10"])
    half.push_stone(connect6.parse_cell("k11"))
    assert book.probe(half) is None                  # not the start of a turn


def test_min_games_and_the_order_of_entries():
    games = [GAME] * 3 + [["j10", "j11j9", "k10i10"]] * 4 + [["j10", "k9l9"]] * 1
    book = OpeningBook.from_games(games, winners=[1, 1, 1, 1, 1, 0, 0, 1], min_games=3)
    moves = book.entries(connect6.Board(["j10"]))
    assert [e.move for e in moves] == [connect6.Move.parse("k11i11"), connect6.Move.parse("j11j9")]     # 3 of 3 won, then 2 of 4; k9l9 once only
    assert [round(e.win_rate, 3) for e in moves] == [0.8, 0.5]
    assert len(book) == 5 and book.positions == 4


def test_text_round_trip(tmp_path):
    book = OpeningBook.from_games([GAME] * 3 + [["j10", "j11j9"]] * 3, winners=[0, 1, 0, 1, 1, 0], min_games=2)
    book.add(connect6.Board(["j10"]), "k11i11", 1, 1, score=-40)
    path = tmp_path / "book.txt"
    book.dump(path)
    again = OpeningBook.load(path)
    assert again.dumps() == book.dumps()
    found = {e.move: (e.games, e.wins, e.score) for e in again.entries(connect6.Board(["j10"]))}
    assert found == {connect6.Move.parse("k11i11"): (4, 2, -40), connect6.Move.parse("j11j9"): (3, 2, None)}


@pytest.mark.parametrize("line, words", [
    ("j10 k11i11 3", "expected 5 fields"),
    ("j10 k11j10 3 1 -", "j10 is occupied"),
    ("j10,k11 i11 3 1 -", "white must place 2 stones"),
    ("j10 k11i11 3 4 -", "wins must be an integer in 0..games"),
    ("j10 k11i11 0 0 -", "games must be an integer >= 1"),
    ("j10 k11i11 x 0 -", "games must be an integer"),
    ("j10 k11i11 3 1 +1e9", "score must be a signed integer"),
    ("j10 k11i11 99999999999999999999 1 -", "games must be an integer"),
    ("j10 zz99 3 1 -", "not a move"),
])
def test_a_broken_line_names_its_line(tmp_path, line, words):
    path = tmp_path / "bad.txt"
    path.write_text("# a book\nj10 k11i11 3 1 +5\n" + line + "\n")
    with pytest.raises(RecordError) as info:
        OpeningBook.load(path)
    assert info.value.line == 3 and info.value.file == str(path)
    assert words in str(info.value)


def test_files_that_are_not_books(tmp_path):
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"j10 k11i11 3 1 -\n\xff\xfe\n")
    with pytest.raises(RecordError, match="not UTF-8"):
        OpeningBook.load(binary)
    with pytest.raises(FileNotFoundError, match="opening book .*missing"):
        default_book(tmp_path / "missing")
    with pytest.raises(ValueError, match="book: .*opening book .*missing"):
        connect6.Engine(book=str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="book: .*is a directory|book: .*Is a directory"):
        connect6.Engine(book=str(tmp_path))
    with pytest.raises(TypeError, match="book must be True, False or a book file's path"):
        connect6.Engine(book=3)
    with pytest.raises(TypeError):
        OpeningBook().entries("j10")


def test_the_shipped_book_reads_and_answers_the_first_moves():
    book = default_book()
    assert len(book) >= 100 and book.positions >= 50
    assert DEFAULT_BOOK.exists()
    entry = book.probe(connect6.Board(["j10"]))
    assert entry is not None and entry.games >= 3 and entry.score is not None
    assert connect6.Board(["j10"]).is_legal(entry.move)


def test_the_engine_plays_the_book_when_asked_and_searches_otherwise():
    board = connect6.Board(["j10"])
    expected = default_book().probe(board).move
    with_book = connect6.Engine(book=True)
    result = with_book.search(board, time=1)
    assert result.book and result.move == expected and result.depth == 0 and result.nodes == 0
    assert result.pv == (expected,)
    assert not connect6.Engine(book=False).search(board, depth=1).book
    assert connect6.PROFILES["paper"].book is False and connect6.PROFILES["plain"].book is False
    with with_book.analysis(board, depth=1) as handle:
        assert not handle.wait().book                 # analysis always searches
    far = connect6.Board(["j10", "a1a2", "s19s18"])
    assert not with_book.search(far, depth=1).book
    clone = pickle.loads(pickle.dumps(with_book))
    assert clone.search(board, time=1).move == expected


def test_a_book_move_that_loses_to_a_vcdt_is_not_played(tmp_path):
    # White has four in a row with both ends open: a book move for Black elsewhere loses at once
    moves = ["j10", "a1b1", "s19s18", "c1d1", "s17s16"]
    board = connect6.Board(moves)
    book = OpeningBook()
    book.add(board, "r1r2", 5, 5, score=100)
    path = tmp_path / "book.txt"
    book.dump(path)
    engine = connect6.Engine(book=str(path))
    result = engine.search(board, depth=2)
    assert not result.book
    assert set(result.move.stones) & {connect6.parse_cell("e1"), connect6.parse_cell("f1")}
    good = OpeningBook()
    good.add(board, "e1f1", 5, 5)
    good.dump(path)
    assert connect6.Engine(book=str(path)).search(board, depth=2).book


def test_bad_book_arguments():
    board = connect6.Board(["j10"])
    book = OpeningBook()
    with pytest.raises(ValueError, match="not a legal move in the position: .*j10 is occupied"):
        book.add(board, "j10k10", 1, 0)
    with pytest.raises(ValueError, match="games must be"):
        book.add(board, "k10k11", True, 0)
    with pytest.raises(ValueError, match="score must be"):
        book.add(board, "k10k11", 1, 0, score=1.5)
    with pytest.raises(ValueError, match="2 games but 1 winners"):
        OpeningBook.from_games([GAME, GAME], winners=[0])
    # a winner named any other way counted as no win, and the book's counts were wrong
    with pytest.raises(ValueError, match=r"winner of game 2: 0 \(black\), 1 \(white\) or None, not 'white'"):
        OpeningBook.from_games([GAME, GAME], winners=[0, "white"])
    with pytest.raises(TypeError, match="connect6.Board, not str"):
        book.add("j10", "k10k11", 1, 0)
    with pytest.raises(TypeError, match="a book is text, not NoneType"):
        OpeningBook.loads(None)


def test_the_shared_book_cannot_be_added_to_but_a_copy_can():
    """default_book() is one object read by every engine with book=True: an add()
    to it changed what they all played."""
    shared = default_book()
    board = connect6.Board(["j10"])
    with pytest.raises(ValueError, match="every engine shares"):
        shared.add(board, "k10k11", 1, 0)
    copy = OpeningBook.loads(shared.dumps())
    copy.add(board, "a1s19", 1, 0)                   # a move no book has
    assert len(copy) == len(shared) + 1 and default_book() is shared


def test_a_book_holds_no_count_its_file_cannot(tmp_path):
    from connect6 import Board
    from connect6.book import MAX_COUNT, OpeningBook
    book = OpeningBook()
    with pytest.raises(ValueError, match="at most"):
        book.add(Board(), "j10", MAX_COUNT + 1, 0)
    with pytest.raises(ValueError, match="at most"):
        book.add(Board(), "j10", 1, 0, score=-(MAX_COUNT + 1))
    book.add(Board(), "j10", MAX_COUNT, 0, score=-MAX_COUNT)
    with pytest.raises(ValueError, match="at most"):
        book.add(Board(), "j10", 1, 0)                 # the sum would not fit either
    book.dump(tmp_path / "b.txt")
    assert OpeningBook.load(tmp_path / "b.txt").dumps() == book.dumps()
