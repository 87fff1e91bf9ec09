"""The connect6 command: help, analyze, play, match, bench, engine options, python -m connect6."""
import builtins
import io
import json
import os
import re
import subprocess
import sys
import types

import pytest

from _env import RUN_DIR, SUBPROCESS_ENV  # noqa: E402
from connect6 import Board, Color, Engine, Move
from connect6.cli import main
from connect6.records import read_sgf, replay, write_sgf
from _fuzz import fuzz_examples  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINES = os.path.join(ROOT, "tests", "engines")
TINY = ["--depth", "1", "--width", "3"]


def test_python_m_connect6_help_and_version():
    proc = subprocess.run([sys.executable, "-m", "connect6", "--help"], capture_output=True, text=True,
                          cwd=RUN_DIR, env=SUBPROCESS_ENV, timeout=60)
    assert proc.returncode == 0
    for command in ("engine", "match", "play", "analyze", "bench"):
        assert command in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "connect6", "--version"], capture_output=True, text=True,
                          cwd=RUN_DIR, env=SUBPROCESS_ENV, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("connect6 ")


def test_no_command(capsys):
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err


def test_unknown_command_and_bad_options(capsys):
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    with pytest.raises(SystemExit):
        main(["engine", "--depth", "0"])
    with pytest.raises(SystemExit):
        main(["analyze", "j10", "--scan", "nope"])


# ---------------------------------------------------------------- analyze
def test_analyze_stone_list(capsys):
    assert main(["analyze", "j10,j9,k11", *TINY]) == 0
    out = capsys.readouterr().out
    expected = Engine(depth=1, width=3).search(Board("j10 j9k11")).move
    assert f"best:     {expected}" in out
    for word in ("score for black", " pv ", "nodes", "black to move"):
        assert word in out


def test_analyze_sgf_file_and_json(tmp_path, capsys):
    path = tmp_path / "game.sgf"
    path.write_text(write_sgf(["j10", "j9k11", "k10l10"], {"PB": "x", "PW": "y"}))
    assert main(["analyze", str(path), "--json", *TINY]) == 0
    data = json.loads(capsys.readouterr().out)
    board = Board("j10 j9k11 k10l10")
    result = Engine(depth=1, width=3).search(board)
    assert data["best"] == str(result.move) and data["to_move"] == "white" and data["moves"] == 3
    assert data["nodes"] == result.nodes and data["pv"][0] == data["best"]
    assert data["protocol"] == result.move.to_protocol()


def test_analyze_says_when_the_reply_check_refutes_the_best_move(capsys):
    """A position lost to Cloudict (see test_search): every pair the search
    keeps is refuted by the reply check, and analyze says so."""
    lost = ("j10,i9,k9,j9,j8,j7,j11,i8,k8,g8,i10,l8,m8,h8,n8,h9,m9,l11,m11,l7,k11,l6,m6,k6,n7,o9,m7,"
            "k5,p10,n10,l12,p8,k13,l13,l14")
    assert main(["analyze", lost, "--depth", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["refuted"] is True
    assert main(["analyze", lost, "--depth", "2"]) == 0
    assert "refuted: the threat search finds a forced win of the opponent after it" in capsys.readouterr().out
    assert main(["analyze", "j10,j9,k11", "--depth", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["refuted"] is False


def test_analyze_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("(;FF[4];B[j10];W[j9k11])\n"))
    assert main(["analyze", "-", "--json", *TINY]) == 0
    assert json.loads(capsys.readouterr().out)["to_move"] == "black"
    monkeypatch.setattr(sys, "stdin", io.StringIO("j10,j9,k11\n"))
    assert main(["analyze", "-", "--json", *TINY]) == 0


def test_analyze_errors(tmp_path, capsys):
    assert main(["analyze", "j10,j10"]) == 2
    assert "bad game record" in capsys.readouterr().err
    assert main(["analyze", str(tmp_path / "missing.sgf")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4];B[j10];B[k10l10])")
    assert main(["analyze", str(bad)]) == 2
    assert main(["analyze", "j10,a1,a3,k10,l10,a5,a7,m10,n10,a9,a11,o10,p10"]) == 1
    assert "game is over" in capsys.readouterr().err


def test_analyze_names_a_missing_file_an_empty_input_and_a_huge_file(tmp_path, monkeypatch, capsys):
    """A missing file used to read as a bad stone list, an empty file or pipe analysed the
    empty board, and a long valid file was called 'not UTF-8' where the read cut it."""
    assert main(["analyze", str(tmp_path / "games" / "mygame.txt")]) == 2
    assert "mygame.txt: no such file" in capsys.readouterr().err
    empty = tmp_path / "empty.sgf"
    empty.write_text("# nothing here\n")
    assert main(["analyze", str(empty), *TINY]) == 2
    assert "empty.sgf: no moves: nothing to analyse" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["analyze", "-", *TINY]) == 2
    assert "stdin: no moves" in capsys.readouterr().err
    assert main(["analyze", "", "--json", *TINY]) == 0            # the empty board, asked for
    assert json.loads(capsys.readouterr().out)["moves"] == 0
    huge = tmp_path / "huge.txt"
    huge.write_bytes("\u00e9".encode() * 2_000_001)
    assert main(["analyze", str(huge)]) == 2
    assert "4,000,002 bytes: longer than any game" in capsys.readouterr().err
    assert main(["analyze", "j10", *TINY]) == 0
    assert "white to move (2 stones)" in capsys.readouterr().out
    assert main(["analyze", "", *TINY]) == 0
    assert "black to move (1 stone)" in capsys.readouterr().out


@pytest.mark.skipif(os.name != "posix", reason="a shell's <&- and >&-, /dev/full")
@pytest.mark.parametrize("command, words", [
    ("analyze - <&-", "stdin is closed"), ("play <&-", "no standard input"), ("engine <&-", "no standard input"),
    ("analyze j10 >&-", "no standard output"), ("analyze j10 --depth 1 >/dev/full", "No space left on device"),
    ("bench --depth 1 --width 1 | head -c 1 >/dev/null", ""),
])
def test_commands_with_closed_or_full_streams_say_so(command, words):
    if "/dev/full" in command and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    p = subprocess.run(["sh", "-c", f"{sys.executable} -m connect6 {command}"], capture_output=True, text=True,
                       cwd=RUN_DIR, env=SUBPROCESS_ENV, timeout=120)
    assert "Traceback" not in p.stderr, p.stderr
    assert words in p.stderr
    if words:
        assert p.returncode in (1, 2)


def test_analyze_reads_a_stone_list_file_of_many_lines(tmp_path, monkeypatch, capsys):
    """One stone (or turn) a line, with comments: the whole game, not only its first line."""
    path = tmp_path / "game.txt"
    path.write_text("j10\nj9,\nk11   # white's turn\n\n")
    assert main(["analyze", str(path), "--json", *TINY]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == 2
    monkeypatch.setattr(sys, "stdin", io.StringIO("j10\nj9,k11\nk10,l10\n"))
    assert main(["analyze", "-", "--json", *TINY]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == 3


def test_set_gives_depth_width_and_scan_and_names_a_bad_value(capsys):
    """--set depth=2 (and width, scan) used to be dropped for the unset --depth
    flag's None; a flag given wins over --set.  A value of the wrong kind is a
    clear error, not a traceback."""
    assert main(["analyze", "j10,j9,k11", "--set", "depth=2", "--set", "width=3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["depth"] == 2 and data["nodes"] == Engine(depth=2, width=3).search(Board("j10 j9k11")).nodes
    assert main(["analyze", "j10,j9,k11", "--set", "depth=2", "--depth", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["depth"] == 1
    for bad, words in (("scan=foo", "unknown scan 'foo'"), ("radius=1.5", "radius must be an integer")):
        assert main(["analyze", "j10", "--set", bad]) == 2
        assert words in capsys.readouterr().err
        assert main(["play", "--set", bad]) == 2
        assert words in capsys.readouterr().err


def test_analyze_with_a_node_limit_is_reproducible(capsys):
    outs = []
    for _ in range(2):
        assert main(["analyze", "j10,j9,k11", "--nodes", "30000", "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["pv"] == outs[1]["pv"] and outs[0]["nodes"] == outs[1]["nodes"] <= 30000
    with pytest.raises(SystemExit):
        main(["analyze", "j10", "--nodes", "0"])
    assert "nodes" in capsys.readouterr().err


def test_analyze_with_time(capsys):
    assert main(["analyze", "j10,j9,k11", "--time", "0.2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["time_s"] < 2


# ---------------------------------------------------------------- play
def feed(monkeypatch, lines):
    it = iter(lines)

    def fake_input(prompt=""):
        print(prompt, end="")
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)


def test_play_bad_input_undo_quit(monkeypatch, capsys):
    feed(monkeypatch, ["", "help", "zz", "j10k10", "a1", "j10", "undo", "undo", "j10", "k10l10", "quit"])
    assert main(["play", *TINY]) == 0
    out = capsys.readouterr().out
    # rejected: zz (not a move), j10k10 (two stones on black's first turn), j10 after a1 (one stone of two)
    assert out.count("Not a move you can play") == 3
    assert "commands: hint" in out and "save FILE" in out
    assert "Took back turn 1 (yours: a1) and turn 2 (the engine: " in out
    assert "Nothing to undo: you have not moved yet." in out     # the second undo
    assert out.count("Engine (white) plays") >= 2


@pytest.mark.parametrize("typed", ["a1 a2", "a1,a2", "A1A2", "a1a2", "  a1 , A2 ", "a2 a1", "a1;a2"])
def test_play_accepts_a_turn_as_people_type_it(monkeypatch, capsys, tmp_path, typed):
    path = tmp_path / "g.sgf"
    feed(monkeypatch, ["j10", typed, f"save {path}", "quit"])
    assert main(["play", *TINY]) == 0
    out = capsys.readouterr().out
    assert "Not a move" not in out
    headers, moves = read_sgf(path.read_text())
    assert moves[2] == Move.parse("a1a2") and len(moves) == 4
    assert headers["PB"] == "you" and headers["PW"].startswith("connect6")
    assert f"Saved 4 turns to {path} (SGF)." in out


@pytest.mark.parametrize("moves, typed, words", [
    ("j10 k10k11", "zz", ["'zz' is not a move", "column a..s and a row 1..19", "For example: "]),
    ("j10 k10k11", "j10 a1", ["j10 is taken (black stone)", "Free cells next to it: "]),
    ("j10 k10k11", "t5 a1", ["t5 is off the board", "For example: "]),
    ("j10 k10k11", "a1 a1", ["a1 twice", "e.g. "]),
    ("j10 k10k11", "a1 a2 a3", ["3 cells: a turn is 2 stones", "For example: "]),
    ("j10 k10k11", "a1", ["you place 2 stones this turn (one stone alone only when it makes six), not 1",
                          "For example: "]),
    ("", "j10 k10", ["you place 1 stone this turn, not 2", "For example: "]),
    ("j10 k10k11", "k 1 0 a1", ["is not a move", "For example: "]),
])
def test_play_a_bad_turn_says_what_was_wrong_and_what_would_be_right(moves, typed, words):
    from connect6.terminal import _parse_turn
    board = Board(moves)
    move, problem = _parse_turn(board, typed)
    assert move is None
    for w in words:
        assert w in problem, problem
    example = re.split(r"For example: |e\.g\. |next to it: ", problem)[-1]
    suggested, still_wrong = _parse_turn(board, example)
    assert still_wrong is None and board.is_legal(suggested), (example, still_wrong)


def test_play_banner_shows_the_limits_in_force(monkeypatch, capsys):
    feed(monkeypatch, [])
    assert main(["play", "--time", "3"]) == 0
    banner = capsys.readouterr().out.splitlines()[0]
    assert "3 s per move" in banner and "depth" not in banner
    feed(monkeypatch, [])
    assert main(["play", "--time", "0.5", "--depth", "2"]) == 0
    assert "0.5 s per move, at most depth 2" in capsys.readouterr().out
    feed(monkeypatch, [])
    assert main(["play", *TINY]) == 0
    banner = capsys.readouterr().out.splitlines()[0]
    assert "depth 1 (turns ahead), no time limit, width 3" in banner and "s per move" not in banner


def test_play_hint_does_not_play(monkeypatch, capsys, tmp_path):
    path = tmp_path / "g.sgf"
    feed(monkeypatch, ["j10", "hint", f"save {path}", "quit"])
    assert main(["play", *TINY]) == 0
    out = capsys.readouterr().out
    hint = re.search(r"Hint: (\w+ \w+) \(score for black [^,]+, depth 1", out)
    assert hint, out
    _, moves = read_sgf(path.read_text())
    assert len(moves) == 2                                  # nothing was played
    board = Board(moves)
    assert board.is_legal(Move.parse(hint.group(1).replace(" ", "")))


def test_play_undo_and_save_messages(monkeypatch, capsys, tmp_path):
    feed(monkeypatch, ["undo", "save", f"save {tmp_path / 'no' / 'such' / 'dir.sgf'}", "quit"])
    assert main(["play", "--color", "white", *TINY]) == 0
    out = capsys.readouterr().out
    assert "Nothing to undo: you have not moved yet." in out
    assert "save needs a file name" in out
    assert "Could not save to" in out


def test_play_save_keeps_a_file_that_is_not_this_games(monkeypatch, capsys, tmp_path):
    """``save FILE`` never replaces a file this game did not write (it used to
    overwrite anything); saving the game again to its own file updates it,
    ``save!`` replaces a file on purpose, and a NUL in the name is refused."""
    notes, game, other = tmp_path / "notes.txt", tmp_path / "g.sgf", tmp_path / "other.sgf"
    notes.write_text("precious notes\n")
    other.write_text("older game\n")
    feed(monkeypatch, ["j10", f"save {notes}", f"save {game}", "a1 a2", f"save {game}", f"save! {other}",
                       "save a\0b.sgf", "quit"])
    assert main(["play", *TINY]) == 0
    out = capsys.readouterr().out
    assert notes.read_text() == "precious notes\n"
    assert f"{notes} exists and is not this game's: not replaced (save! {notes} replaces it)." in out
    assert len(read_sgf(game.read_text())[1]) == 4 and f"Saved 4 turns to {game} (SGF)." in out
    assert len(read_sgf(other.read_text())[1]) == 4
    assert "Could not save to 'a\\x00b.sgf'" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sgf", "notes.txt", "other.sgf"]    # no temporary left


def test_play_a_finished_game_can_still_be_saved(monkeypatch, capsys, tmp_path):
    """The game used to end the command at once, so a finished game could never be saved."""
    far = ["a1a2", "a4a5", "a7a8", "a10a11", "a13a14", "a16a17", "c1c2", "c4c5", "c7c8", "c10c11"]
    game = tmp_path / "end.sgf"
    feed(monkeypatch, [*far, "hint", "b1b2", f"save {game}", "quit"])
    assert main(["play", "--color", "white", *TINY]) == 0
    out = capsys.readouterr().out
    assert out.count("The engine wins") == 1 and "The game is over: save FILE" in out     # moves, hint
    headers, moves = read_sgf(game.read_text())
    assert headers["RE"].startswith("B") and replay(moves).is_game_over()


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_play_save_through_a_link_writes_the_file_it_names(monkeypatch, capsys, tmp_path):
    """save! LINK used to replace the link with a file and count the file it named as this
    game's: a later plain save to that file overwrote it without asking."""
    target, link, mine = tmp_path / "target.sgf", tmp_path / "link.sgf", tmp_path / "mine.sgf"
    target.write_text("precious\n")
    link.symlink_to(target)
    feed(monkeypatch, ["j10", f"save! {link}", f"save {target}", f"save {mine}", "quit"])
    assert main(["play", *TINY]) == 0
    assert link.is_symlink() and len(read_sgf(target.read_text())[1]) >= 1      # written through the link
    out = capsys.readouterr().out
    assert f"Saved 2 turns to {target} (SGF)." in out       # the file this game wrote, through its link


@pytest.mark.skipif(os.name != "posix", reason="file modes and HOME")
def test_play_save_expands_home_and_keeps_the_replaced_files_mode(monkeypatch, capsys, tmp_path):
    """``save ~/g.sgf`` used to write a folder named ``~``; ``save!`` gave the
    replaced file the default mode (a private 0600 file became readable)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    private = tmp_path / "private.sgf"
    private.write_text("older\n")
    private.chmod(0o600)
    feed(monkeypatch, ["j10", "save ~/g.sgf", "save! ~/private.sgf", "quit"])
    assert main(["play", *TINY]) == 0
    out = capsys.readouterr().out
    assert "Saved 2 turns to ~/g.sgf (SGF)." in out and not (tmp_path / "~").exists()
    assert len(read_sgf((tmp_path / "g.sgf").read_text())[1]) == 2
    assert len(read_sgf(private.read_text())[1]) == 2 and (private.stat().st_mode & 0o777) == 0o600


def test_play_banner_says_a_node_limit_and_bad_bytes_are_asked_again(monkeypatch, capsys):
    calls = []

    def read(prompt):
        calls.append(prompt)
        if len(calls) == 1:
            raise UnicodeDecodeError("utf-8", b"j10\xff", 3, 4, "invalid start byte")
        raise EOFError
    from connect6 import make_engine
    from connect6.terminal import play
    shown = []
    assert play(make_engine("default:nodes=3000"), Color.BLACK, read=read, show_line=shown.append) == 0
    assert "3,000 nodes per move, no time limit" in shown[0]
    assert any("not UTF-8 text (byte 0xff)" in line for line in shown) and len(calls) == 2


def test_play_takes_a_colour_not_its_name():
    from connect6.terminal import play
    with pytest.raises(TypeError, match="Color.BLACK or Color.WHITE, not 'white'"):
        play(None, "white")


def test_play_scores_read_as_people_read_them(monkeypatch, capsys):
    far = iter(["a1a2", "a4a5", "a7a8", "a10a11", "a13a14", "a16a17", "c1c2", "c4c5", "c7c8", "c10c11"])
    feed(monkeypatch, far)
    assert main(["play", "--color", "white", *TINY]) == 0
    out = capsys.readouterr().out
    assert "The engine wins" in out
    assert re.search(r"score for black win in 1,", out)
    assert not re.search(r"\d{7,}", out)                   # never a raw score near WIN_SCORE


def test_play_as_white_until_eof(monkeypatch, capsys):
    feed(monkeypatch, [])
    assert main(["play", "--color", "white", *TINY]) == 0
    out = capsys.readouterr().out
    assert "Engine (black) plays j10" in out


def test_play_a_whole_game(monkeypatch, capsys):
    # a human who plays far away: the engine wins
    far = iter(["a1a2", "a4a5", "a7a8", "a10a11", "a13a14", "a16a17", "c1c2", "c4c5", "c7c8", "c10c11"])
    feed(monkeypatch, far)
    assert main(["play", "--color", "white", *TINY]) == 0
    out = capsys.readouterr().out
    assert "The engine wins" in out


# ---------------------------------------------------------------- match
def test_match_command(tmp_path, capsys):
    out_dir = tmp_path / "m"
    args = ["match", "local:depth=1,width=3", "py:pybots:nearest", "--games", "2", "--out", str(out_dir),
            "--concurrency", "1", "--seed", "3", "--progress", "plain"]
    cwd = os.getcwd()
    os.chdir(ENGINES)        # py: bots are imported from the working directory
    try:
        assert main(args) == 0
        captured = capsys.readouterr()
        assert "Score of local:depth=1,width=3 vs py:pybots:nearest: 2 - 0 - 0" in captured.out
        assert "Elo difference" in captured.out and "Pairs [LL, LD, WL+DD, WD, WW]" in captured.out
        assert "[2/2]" in captured.err
        lines = (out_dir / "games.jsonl").read_text().splitlines()
        assert len(lines) == 2
        record = json.loads(lines[0])
        headers, moves = read_sgf((out_dir / "sgf" / "game-0001.sgf").read_text())
        assert [str(m) for m in moves] == record["moves"]
        # resume with more games
        assert main(args[:4] + ["4"] + args[5:] + ["--resume"]) == 0
        assert len((out_dir / "games.jsonl").read_text().splitlines()) == 4
        assert (out_dir / "games.jsonl").read_text().startswith("\n".join(lines))
        # the same directory without --resume is refused
        assert main(args) == 2
        assert "--resume" in capsys.readouterr().err
    finally:
        os.chdir(cwd)


def test_match_with_sprt_and_openings(tmp_path, capsys):
    openings = tmp_path / "openings.txt"
    openings.write_text("# test\nj10,j9,k11,k10,l10\nj10,i9,i11,k11,k9\n")
    args = ["match", "local:depth=1,width=3", "cmd:" + sys.executable + " " + os.path.join(ENGINES, "banner_engine.py"),
            "--games", "40", "--openings", str(openings), "--opening-order", "random", "--out", str(tmp_path / "m"),
            "--concurrency", "2", "--move-time", "5", "--sprt", "0", "300", "0.2", "0.2", "--progress", "none"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "H1 was accepted" in out and "SPRT stopped the match" in out


@pytest.mark.parametrize("args, message", [
    (["nope", "paper"], "unknown player"),
    (["paper", "py:no_such_module_xyz:f"], "cannot import"),
    (["paper", "paper", "--resume"], "--resume needs --out"),
    (["paper", "paper", "--sprt", "10", "0", "0.05", "0.05"], "elo1"),
])
def test_match_errors(args, message, tmp_path, capsys):
    assert main(["match", *args]) == 2
    assert message in capsys.readouterr().err


def test_match_bad_openings_file(tmp_path, capsys):
    bad = tmp_path / "o.txt"
    bad.write_text("j10,k11,k11\n")
    assert main(["match", "paper", "paper", "--openings", str(bad), "--out", str(tmp_path / "m")]) == 2
    assert "line 1" in capsys.readouterr().err


# ---------------------------------------------------------------- bench
def test_bench_passes_its_arguments(monkeypatch):
    seen = []
    fake = types.ModuleType("connect6.benchmark")
    fake.main = lambda argv=None: seen.append(argv) or 7
    monkeypatch.setitem(sys.modules, "connect6.benchmark", fake)
    import connect6
    monkeypatch.setattr(connect6, "benchmark", fake, raising=False)
    assert main(["bench", "--depth", "2", "--help"]) == 7
    assert seen == [["--depth", "2", "--help"]]


def test_bench_missing_module(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "connect6.benchmark", None)   # import raises ImportError
    import connect6
    monkeypatch.delattr(connect6, "benchmark", raising=False)
    assert main(["bench"]) == 2
    assert "connect6.benchmark" in capsys.readouterr().err


def test_play_turn_parser_never_raises():
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import given, settings, strategies as st

    from connect6.terminal import _parse_turn
    boards = [Board(), Board("j10"), Board("j10 k10k11")]

    @settings(max_examples=fuzz_examples(300), derandomize=True)
    @given(st.sampled_from(range(3)), st.one_of(
        st.text(max_size=20), st.from_regex(r"[a-uA-U ]?[0-9]{1,3}[ ,;]*[a-uA-U]?[0-9]{0,3}", fullmatch=True)))
    def check(which, text):
        board = boards[which]
        move, problem = _parse_turn(board, text)
        assert (move is None) != (problem is None)
        if move is not None:
            assert board.is_legal(move)
        else:
            assert problem

    check()


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_no_progress_display_while_the_cluster_cannot_be_reached(tmp_path, monkeypatch, capsys, command):
    """The progress display used to start before --cluster was reached, and
    the error of an unreachable cluster left a live display running (its
    terminal cursor hidden)."""
    import connect6.match
    from connect6.match import cluster as cluster_module

    def unreachable(address, *args, **kwargs):
        raise ValueError(f"--cluster: cannot reach the Dask scheduler at {address}")
    made = []
    monkeypatch.setattr(cluster_module, "open_cluster", unreachable)
    monkeypatch.setattr(connect6.match, "make_progress", lambda *a: made.append(a))
    players = ["local:depth=1", "default:depth=1"] + (["paper:depth=1"] if command == "tournament" else [])
    status = main([command, *players, "--games", "2", "--cluster", "tcp://127.0.0.1:9", "--progress", "live",
                   "--out", str(tmp_path / command)])
    assert status == 2 and "cannot reach the Dask scheduler" in capsys.readouterr().err
    assert made == []


def test_a_match_on_a_folder_another_run_writes_is_refused(tmp_path, capsys):
    from connect6.match.store import ResultsDir
    out = str(tmp_path / "m")
    holder = ResultsDir(out)
    holder.open({"seed": 1})                       # another run holds the folder
    try:
        assert main(["match", "paper:depth=1", "paper:depth=1", "--games", "2", "--out", out,
                     "--progress", "none"]) == 2
    finally:
        holder.close()
    assert "being written by another run" in capsys.readouterr().err
    assert not os.path.exists(os.path.join(out, "games.jsonl"))


def test_default_results_folders_of_one_second_differ(tmp_path, monkeypatch):
    import datetime
    from connect6.cli import _out_dir

    class Frozen(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return cls(2026, 12, 3, 7, 0, 0)

    monkeypatch.setattr(datetime, "datetime", Frozen)
    monkeypatch.chdir(tmp_path)
    args = types.SimpleNamespace(out=None, resume=False)
    assert [_out_dir(args, "match") for _ in range(3)] == [
        "match-20261203-070000", "match-20261203-070000-2", "match-20261203-070000-3"]
    assert all(os.path.isdir(tmp_path / d) for d in os.listdir(tmp_path))


def test_a_match_that_cannot_write_a_result_stops_and_says_so(tmp_path, capsys, monkeypatch):
    import errno

    from connect6.match import store

    def full(path, record):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store, "append_record", full)
    out = str(tmp_path / "m")
    assert main(["match", "paper:depth=1", "paper:depth=1", "--games", "4", "--out", out, "--progress", "none",
                 "--concurrency", "2"]) == 1
    err = capsys.readouterr().err
    assert "cannot write game" in err and "No space left" in err and "--resume" in err, err
    assert "Traceback" not in err


def test_a_dated_folder_made_for_a_run_that_did_not_start_is_removed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["match", "paper", "nonsense-player", "--games", "2"]) == 2
    assert os.listdir(tmp_path) == []
    assert main(["match", "paper", "paper", "--games", "2", "--cluster", "nonsense"]) == 2
    assert os.listdir(tmp_path) == []
