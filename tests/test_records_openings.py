"""connect6.records openings: openings files for matches and random openings."""
import os

import pytest

from _match_helpers import ROOT
from connect6.records import load_openings, parse_stone_list, random_openings, replay


def test_load_openings(tmp_path):
    path = tmp_path / "openings.txt"
    path.write_text("# comment\n\nj10,k11,i11,h8,m7  # 12 games\n  j10 \nj10,k10,l10,m10,n10\n")
    assert load_openings(str(path)) == ["j10,k11,i11,h8,m7", "j10", "j10,k10,l10,m10,n10"]
    path.write_text("j10\nj10,k11,k11\n")
    with pytest.raises(ValueError, match="line 2"):
        load_openings(str(path))
    path.write_text("# nothing\n")
    with pytest.raises(ValueError, match="no openings"):
        load_openings(str(path))
    path.write_bytes(b"\xef\xbb\xbfj10\r\nj10,k11,i11\n# caf\xe9\n")       # a BOM, CRLF, then Latin-1
    with pytest.raises(ValueError, match=r"openings.txt, line 3, column 6: not UTF-8 text: byte 0xe9"):
        load_openings(str(path))
    path.write_bytes(b"\xef\xbb\xbfj10\r\nj10,k11,i11\n")
    assert load_openings(str(path)) == ["j10", "j10,k11,i11"]
    for name in ("openings.txt", "openings-human.txt", "openings-engine.txt", "openings-verified.txt"):
        assert len(load_openings(os.path.join(ROOT, "data", name))) >= 40


@pytest.mark.parametrize("name", ["openings-engine.txt", "openings-verified.txt"])
def test_engine_openings_are_distinct_legal_unfinished_four_turn_openings(name):
    """data/openings-engine.txt and openings-verified.txt (tools/make_engine_openings.py):
    40 openings of 4 turns, all different, none over, none with a VCDT for the side to move."""
    from engine_core.tss import solve_vcdt
    openings = load_openings(os.path.join(ROOT, "data", name))
    assert len(openings) == len(set(openings)) == 40
    for text in openings:
        board = replay(parse_stone_list(text))
        assert len(board.move_stack) == 4 and not board.is_game_over(), text
        assert solve_vcdt(board.position, 12, 20000)[0] != 1, text


def _position_key(text):
    """The opening's black and white cells in the least of their eight symmetric forms."""
    from connect6.book import SYMMETRIES
    board = replay(parse_stone_list(text))
    cells = board.position.cells_bytes()
    black = [c for c in range(361) if cells[c] == 0]
    white = [c for c in range(361) if cells[c] == 1]
    return min((sorted(m[c] for c in black), sorted(m[c] for c in white)) for m in SYMMETRIES)


def test_holdout_openings_are_new_and_held_out():
    """data/openings-holdout.txt (issue 40): 20 four-turn openings, none decided, none the
    same position as another of them or as an opening of the other openings
    files in any of the board's eight symmetric forms, and a header that says
    the set is held out."""
    path = os.path.join(ROOT, "data", "openings-holdout.txt")
    from engine_core.tss import solve_vcdt
    holdout = load_openings(path)
    assert len(holdout) == 20
    for text in holdout:
        board = replay(parse_stone_list(text))
        assert len(board.move_stack) == 4 and not board.is_game_over(), text
        assert solve_vcdt(board.position, 12, 20000)[0] != 1, text
    keys = [_position_key(text) for text in holdout]
    assert len({repr(k) for k in keys}) == 20
    others = [name for name in os.listdir(os.path.join(ROOT, "data"))
              if name.startswith("openings") and name.endswith(".txt") and name != "openings-holdout.txt"]
    assert len(others) >= 4
    seen = {repr(_position_key(t)) for name in others for t in load_openings(os.path.join(ROOT, "data", name))}
    assert not {repr(k) for k in keys} & seen
    with open(path, encoding="utf-8") as fh:
        head = fh.read().split("\nj10", 1)[0]
    assert "HELD OUT" in head and "--seed" in head and "--exclude" in head


def test_random_openings_and_a_file_that_is_not_openings_name_the_problem(tmp_path):
    for radius in (0, 10):              # "cell 361 is off the board", "Sample larger than population"
        with pytest.raises(ValueError, match="radius must be an integer in 1..9"):
            random_openings(1, seed=1, radius=radius)
    with pytest.raises(TypeError, match="radius must be an integer, not bool"):
        random_openings(1, seed=1, radius=True)
    assert len(random_openings(3, seed=1, radius=9)) == 3
    endless = tmp_path / "endless"
    endless.write_bytes(b"j10," * 300_000)                 # no line end: read in bounded pieces
    with pytest.raises(ValueError, match="line 1: line longer than 1,000,000 characters"):
        load_openings(str(endless))


def test_random_openings():
    a = random_openings(5, seed=3)
    assert a == random_openings(5, seed=3) and a != random_openings(5, seed=4)
    for text in a:
        board = replay(text.split(",")[:1] + [text.split(",")[i] + text.split(",")[i + 1] for i in (1, 3)])
        assert len(board.move_stack) == 3 and not board.is_game_over()
