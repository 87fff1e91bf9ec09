"""connect6.records openings: openings files for matches and random openings."""
import os

import pytest

from _match_helpers import ROOT
from connect6.records import load_openings, random_openings, replay


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
    for name in ("openings.txt", "openings-human.txt", "openings-engine.txt", "openings-verified.txt"):
        assert len(load_openings(os.path.join(ROOT, "data", name))) >= 40


@pytest.mark.parametrize("name", ["openings-engine.txt", "openings-verified.txt"])
def test_engine_openings_are_distinct_legal_unfinished_four_turn_openings(name):
    """data/openings-engine.txt and openings-verified.txt (tools/make_engine_openings.py):
    40 openings of 4 turns, all different, none over, none with a VCDT for the side to move."""
    from connect6.records import parse_stone_list
    from engine_core.tss import solve_vcdt
    openings = load_openings(os.path.join(ROOT, "data", name))
    assert len(openings) == len(set(openings)) == 40
    for text in openings:
        board = replay(parse_stone_list(text))
        assert len(board.move_stack) == 4 and not board.is_game_over(), text
        assert solve_vcdt(board.position, 12, 20000)[0] != 1, text


def test_random_openings():
    a = random_openings(5, seed=3)
    assert a == random_openings(5, seed=3) and a != random_openings(5, seed=4)
    for text in a:
        board = replay(text.split(",")[:1] + [text.split(",")[i] + text.split(",")[i + 1] for i in (1, 3)])
        assert len(board.move_stack) == 3 and not board.is_game_over()
