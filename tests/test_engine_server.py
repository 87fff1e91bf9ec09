"""`connect6 engine`: the Cloudict / ConnectMore protocol, in process and through a real subprocess."""
import io
import os
import subprocess
import sys

import pytest

from _env import RUN_DIR, SUBPROCESS_ENV  # noqa: E402
import connect6
from connect6 import Board, Engine, Move
from connect6.benchmark import read_signature
from connect6.options import MAX_DEPTH, PROFILES
from connect6.protocol.server import EngineServer
from connect6.notation import Color
from _fuzz import fuzz_examples  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE = [sys.executable, "-m", "connect6", "engine"]

# black makes six on row 10 (J): JJ KJ LJ MJ NJ OJ; white plays on column A
BLACK_WINS = ["black JJ", "white AAAC", "black KJLJ", "white AEAG", "black MJNJ", "white AIAK"]


def session(*lines, **options):
    """Run lines through an in-process server: (stdout lines, stderr text, server)."""
    out, err = io.StringIO(), io.StringIO()
    server = EngineServer(out=out, err=err, **options)
    server.run(lines)
    return out.getvalue().splitlines(), err.getvalue(), server


def readline(stream, timeout=30.0):
    """One line from a subprocess pipe, or fail after ``timeout`` seconds (never hang the tests)."""
    import selectors
    with selectors.DefaultSelector() as sel:
        sel.register(stream, selectors.EVENT_READ)
        if not sel.select(timeout):
            raise AssertionError(f"no answer within {timeout} s")
    return stream.readline()


def run_engine(text, *args, timeout=60):
    proc = subprocess.run(ENGINE + list(args), input=text.encode() if isinstance(text, str) else text,
                          capture_output=True, timeout=timeout, cwd=RUN_DIR, env=SUBPROCESS_ENV)
    return proc.returncode, proc.stdout.decode().splitlines(), proc.stderr.decode()


# ---------------------------------------------------------------- in process: every command
def test_name_and_new_black_plays_the_centre():
    out, _, server = session("name", "new black", depth=1, width=3)
    assert out[0] == f"name {server.name}"
    # the version, the profile with the options that differ from it, and the build's bench signature
    # (and its limits: depth 1 here)
    assert out[0] == f"name connect6-{connect6.__version__} default:width=3,depth=1 (bench {read_signature()})"
    assert out[1] == "move JJ"
    assert server.board.move_stack == [Move.parse("j10")]


def test_new_white_and_xxx_wait():
    out, _, server = session("new black", "new white", "new xxx", depth=1, width=3)
    assert out == ["move JJ"]
    assert server.board.move_stack == []


@pytest.mark.parametrize("line", ["new", "new red", "new black white"])
def test_new_needs_a_colour(line):
    out, _, server = session("black JJ", line)
    assert len(out) == 1 and out[0].startswith("error ")
    assert len(server.board.move_stack) == 1  # unchanged


def test_placements_and_next_match_the_python_engine():
    out, err, server = session("new xxx", "black JJ", "white JIKK", "next", depth=2, width=5)
    board = Board("j10 j9k11")
    expected = Engine(depth=2, width=5).search(board).move
    assert out == [f"move {expected.to_protocol()}"]
    assert server.board.move_stack[-1] == expected
    assert "info" in err and "depth 2" in err


def test_the_search_report_says_the_score_as_the_engine_does():
    _, err, _ = session("new xxx", "black JJ", "white JIKK", "next", depth=2, width=5)
    result = Engine(depth=2, width=5).search(Board("j10 j9k11"))
    assert f"depth 2 score {result.score_text} nodes" in err


def test_move_gives_the_opponents_move_and_answers():
    out, _, server = session("new white", "move JJ", depth=2, width=5)
    expected = Engine(depth=2, width=5).search(Board("j10")).move
    assert out == [f"move {expected.to_protocol()}"]
    assert len(server.board.move_stack) == 2 and server.board.turn == Color.BLACK


def test_doubled_first_stone_connectmore_style():
    out, _, server = session("new xxx", "black JJJJ", "white JIKK", "next", depth=1, width=3)
    assert server.board.move_stack[:2] == [Move.parse("j10"), Move.parse("j9k11")]
    assert len(out) == 1 and out[0].startswith("move ")


@pytest.mark.parametrize("line, reason", [
    ("white JJKK", "black's turn"),          # wrong colour
    ("black JJKK", "2 stones"),              # wrong stone count... after the first move (see setup)
])
def test_wrong_turn_or_count(line, reason):
    setup = ["black JJ", "white AAAB"] if line.startswith("black") else []
    out, _, server = session(*setup, line)
    before = Board(" ".join(str(m) for m in server.board.move_stack))
    assert len(out) == 1 and out[0].startswith("error ")
    assert server.board.move_stack == before.move_stack


@pytest.mark.parametrize("line", [
    "black ZZ", "black JJK", "black 12", "black JJKKLL", "black", "black JJ KK", "white JJ",
    "black JJJK",   # two stones on black's first turn
])
def test_bad_first_moves_are_errors_and_change_nothing(line):
    out, _, server = session(line)
    assert len(out) == 1 and out[0].startswith("error "), out
    assert server.board.move_stack == []


def test_illegal_moves_leave_the_state_as_it_was():
    lines = ["black JJ", "white JIKK", "print",
             "black JJAA",          # occupied
             "black AAAA",          # same stone twice
             "black TTAA",          # off the board
             "black AB",            # one stone where two are due
             "move JIAA",           # occupied, via move
             "white AAAB",          # not white's turn
             "print"]
    out, _, server = session(*lines, depth=1, width=3)
    errors = [line for line in out if line.startswith("error")]
    assert len(errors) == 6
    half = out.index(errors[0])
    assert out[:half] == out[half + 6:]          # the two diagrams are identical
    assert [str(m) for m in server.board.move_stack] == ["j10", "j9k11"]


@pytest.mark.parametrize("line", ["foo", "hello world", "\x00\x01garbage", "MOVEX", "x" * 500, "quitx"])
def test_unknown_commands(line):
    out, _, server = session(line, "name")
    assert out[0].startswith("error unknown command")
    assert len(out[0]) < 120                      # long garbage is shortened
    assert out[1].startswith("name ")


def test_empty_lines_are_ignored_and_case_is_forgiven():
    out, _, server = session("", "   ", "\t", "NAME", "New Black", depth=1, width=3)
    assert out[0].startswith("name ") and out[1] == "move JJ"


@pytest.mark.parametrize("line", ["name x", "next now", "print all", "help me", "vcf 1"])
def test_commands_without_arguments_reject_them(line):
    out, _, _ = session(line)
    assert len(out) == 1 and out[0].startswith("error ")


@pytest.mark.parametrize("line", [
    "depth 0", "depth -1", "depth x", f"depth {MAX_DEPTH + 1}", "depth", "depth 1 2",
    "width 0", "width x", "width",
    "time -1", "time x", "time nan", "time inf", "time",
    "nodes -1", "nodes x", "nodes 1.5", "nodes 99999999999999", "nodes",
    "scan foo", "scan", "profile nope", "profile",
])
def test_bad_settings_are_errors(line):
    out, _, server = session(line, depth=2, width=4, scan="local")
    assert len(out) == 1 and out[0].startswith("error "), out
    limits = server.engine.limits
    assert (limits.depth, limits.time, limits.nodes, server.engine.width, server.engine.scan) == \
        (2, None, None, 4, "local")


def test_a_bad_time_is_named_as_it_was_typed():
    """time 1e999 was refused as "not inf", with a hint at the Python API, and a
    long argument was echoed whole."""
    out, _, _ = session("time 1e999", "time " + "9" * 5000)
    assert out[0].startswith("error time must be at most 3.1536e+07 seconds, not '1e999'")
    assert "...'" in out[1] and len(out[1]) < 140 and "analysis" not in "".join(out)


def test_an_engine_started_with_its_output_closed_says_so():
    """connect6 engine >&- printed an AttributeError traceback for every command."""
    proc = subprocess.run(ENGINE, input=b"name\n", stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          cwd=RUN_DIR, env=SUBPROCESS_ENV, timeout=60,
                          preexec_fn=lambda: os.close(1))
    assert proc.returncode == 2 and b"no standard output" in proc.stderr and b"Traceback" not in proc.stderr


def test_settings_take_effect_and_answer_nothing():
    profile = next(iter(PROFILES))
    out, _, server = session("depth 1", "width 3", "scan global", "time 0.5", "vcf", "unvcf", f"profile {profile}")
    assert out == []
    e = server.engine
    assert (e.limits.depth, e.width, e.scan, e.limits.time) == (1, 3, "global", 0.5)
    assert e.profile == profile
    out, _, server = session("time 2", "time 0")
    assert server.engine.limits.time is None
    out, _, server = session("time 2", "time off")
    assert server.engine.limits.time is None


def test_a_new_profile_keeps_the_options_changed_before():
    out, _, server = session("width 7", "scan local", "profile plain", "name")
    assert (server.engine.profile, server.engine.width, server.engine.scan) == ("plain", 7, "local")
    assert " plain:width=7,scan=local " in out[0]


def test_every_profile_is_accepted():
    for profile in PROFILES:
        out, _, server = session(f"profile {profile}", "name")
        assert out == [f"name {server.name}"] and profile in out[0]


def test_time_limits_the_search():
    out, err, server = session("time 0.2", "black JJ", "white JIKK", "next")
    assert out[0].startswith("move ")
    info = [line for line in err.splitlines() if line.startswith("info")][-1]
    seconds = float(info.split(" time ")[1].split()[0])
    assert seconds < 2.0


def test_a_node_limit_gives_the_same_move_every_time():
    out, err, server = session("nodes 40000", "black JJ", "white JIKK", "next", "name")
    assert server.engine.limits.nodes == 40000 and "nodes=40000" in out[1]
    again, _, _ = session("nodes 40000", "black JJ", "white JIKK", "next")
    assert out[0].startswith("move ") and again[0] == out[0]
    assert "40000 nodes per move" in server.describe()
    _, _, server = session("nodes 40000", "nodes off")
    assert server.engine.limits.nodes is None


def test_game_over():
    out, _, server = session(*BLACK_WINS, "black OJPJ", "next", "move AGAH", "white AGAH", "black QJ RJ", "print")
    assert [line for line in out if line.startswith("error")] == [
        "error game over (black won)"] * 3 + [out[3]]
    assert out[3].startswith("error black takes one argument")
    assert out[-1].endswith("game over: black won")
    assert server.board.outcome().winner == Color.BLACK


def test_move_that_ends_the_game_is_kept():
    out, err, server = session(*BLACK_WINS, "move OJPJ")
    assert out == ["error game over (black won)"]
    assert server.board.is_game_over() and len(server.board.move_stack) == 7
    assert "ends the game" in err


def test_engine_move_that_wins():
    # black to move with five in a row: the engine must complete the six
    out, err, server = session(*BLACK_WINS, "next", depth=1, width=5)
    assert out[0].startswith("move ")
    assert server.board.outcome().winner == Color.BLACK
    assert "game over" in err


def test_print_and_help_go_to_stdout():
    out, err, _ = session("black JJ", "print", "help")
    text = "\n".join(out)
    assert "j" in out[0] and "19" in out[1]
    assert "1 turns played, white to play" in text
    for word in ("name", "new black", "next", "depth", "width", "time", "scan", "vcf", "print", "quit"):
        assert word in text
    assert not any(line.startswith("move") for line in out)   # a GUI reading "move ..." is not fooled
    assert "settings:" in err


def test_quit_and_exit_stop():
    for word in ("quit", "exit", "QUIT"):
        out, _, _ = session("name", word, "name")
        assert len(out) == 1


def test_stdout_holds_only_answers():
    out, err, _ = session("name", "new black", "depth 1", "width 3", "move JIKK", "next", "vcf", "bogus", depth=1)
    assert [line.split()[0] for line in out] == ["name", "move", "move", "move", "error"]
    assert "info" in err and "info" not in "\n".join(out)


def test_bad_engine_options_are_reported():
    with pytest.raises(Exception):
        EngineServer(profile="nope", out=io.StringIO(), err=io.StringIO())


# ---------------------------------------------------------------- through a real subprocess
def test_subprocess_session_garbage_illegal_and_eof():
    script = b"".join(line + b"\n" for line in [
        b"name", b"\xff\xfe\x00junk", b"new black", b"black KK", b"white ZZZZ", b"white JIKK", b"print",
        b"frobnicate 1 2 3", b"white JIKL", b"depth 0", b"next", b"print",
    ])  # no quit: the end of input ends the engine
    rc, out, err = run_engine(script, "--depth", "1", "--width", "3")
    assert rc == 0, err
    assert "Traceback" not in err
    assert out[0].startswith("name connect6-")
    assert out[1] == "error unknown command '\\ufffd\\ufffd\\x00junk' (try 'help')" or out[1].startswith("error ")
    assert out[2] == "move JJ"
    assert out[3].startswith("error it is white's turn")
    assert out[4].startswith("error ")                  # ZZZZ
    diagram_end = out.index("2 turns played, black to play")
    assert out[diagram_end + 1].startswith("error unknown command")
    assert out[diagram_end + 2].startswith("error ")    # white again: black's turn
    assert out[diagram_end + 3].startswith("error depth")
    assert out[diagram_end + 4].startswith("move ") and len(out[diagram_end + 4]) == 9
    assert out[-1] == "3 turns played, white to play"


def test_subprocess_quit_ignores_what_follows():
    rc, out, err = run_engine("name\nquit\nname\n")
    assert rc == 0 and len(out) == 1


def test_subprocess_empty_input():
    rc, out, err = run_engine("")
    assert rc == 0 and out == [] and "Traceback" not in err


def test_subprocess_options_and_bad_options():
    rc, out, _ = run_engine("name\n", "--profile", "paper", "--scan", "global", "--width", "4", "--depth", "1",
                            "--time", "1")
    assert rc == 0 and " paper:width=4,scan=global,depth=1,time=1 (bench " in out[0]
    rc, out, err = run_engine("name\n", "--depth", "0")
    assert rc == 2 and out == [] and "depth" in err
    rc, out, err = run_engine("name\n", "--scan", "nope")
    assert rc == 2 and out == []


def test_answers_are_flushed_at_once():
    """A GUI waits for each answer before writing the next command."""
    proc = subprocess.Popen(ENGINE + ["--depth", "1", "--width", "3"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd=RUN_DIR, env=SUBPROCESS_ENV)
    try:
        proc.stdin.write("name\n")
        proc.stdin.flush()
        assert readline(proc.stdout).startswith("name ")
        proc.stdin.write("new black\n")
        proc.stdin.flush()
        assert readline(proc.stdout) == "move JJ\n"
        proc.stdin.write("move JIKK\n")
        proc.stdin.flush()
        assert readline(proc.stdout).startswith("move ")
    finally:
        proc.stdin.close()
        try:
            assert proc.wait(timeout=30) == 0
        finally:
            proc.kill()


def test_connectmore_gui_session():
    """What the ConnectMore GUI does in AI-vs-AI mode: `name`, `depth`, `vcf`, then before
    every move `new xxx`, the whole game as placements (Black's first stone doubled), `next`,
    reading lines until one starts with "move "."""
    proc = subprocess.Popen(ENGINE + ["--width", "3"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, bufsize=0, cwd=RUN_DIR, env=SUBPROCESS_ENV)

    def send(cmd):
        proc.stdin.write(cmd.encode())

    def wait_move():
        while True:
            msg = readline(proc.stdout).decode()
            assert msg, "the engine closed its output"
            if msg.startswith("move "):
                return msg[5:].strip().upper()

    try:
        send("name\n")
        assert readline(proc.stdout).decode().startswith("name ")
        send("depth 2\n")
        send("vcf\n")
        board = Board()
        placed = []
        for _ in range(40):
            send("new xxx\n")
            for i, cmd in enumerate(placed):
                send(("black " if i % 2 == 0 else "white ") + cmd + "\n")
            send("next\n")
            letters = wait_move()
            move = Move.from_protocol(letters)
            board.push(move)                       # legal, or this raises
            placed.append(letters * 2 if len(letters) == 2 else letters)
            if board.is_game_over():
                break
        assert board.is_game_over()
    finally:
        proc.stdin.close()
        try:
            assert proc.wait(timeout=30) == 0
        finally:
            proc.kill()


# ---------------------------------------------------------------- fuzzed protocol lines
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_WORDS = ["name", "new", "black", "white", "xxx", "move", "next", "depth", "width", "time", "scan", "profile",
          "vcf", "unvcf", "print", "help", "undo", "quit", "exit", "JJ", "JJKK", "AAAA", "SS", "TT", "jjkk",
          "0", "1", "-1", "99999999999999999999", "nan", "inf", "off", "local", "default", "\x00", "é"]
_LINE = st.one_of(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4).map(" ".join),
    st.text(max_size=40),
    st.binary(max_size=30).map(lambda b: b.decode("utf-8", "replace")),
)


@settings(max_examples=fuzz_examples(200))
@given(st.lists(_LINE, min_size=1, max_size=8))
def test_any_protocol_lines_get_answers_or_errors_and_never_break_the_server(lines):
    """Whatever arrives: every answer is a protocol answer or 'error ...', a
    rejected command changes nothing, and the server keeps serving."""
    out, err = io.StringIO(), io.StringIO()
    server = EngineServer(out=out, err=err, depth=1, width=2)
    for line in lines:
        before = (server.board.move_stack, server.engine.name)
        written = len(out.getvalue())
        try:
            keep = server.handle(line)
        except Exception as exc:  # pragma: no cover - the assertion below reports it
            raise AssertionError(f"{line!r} raised {exc!r}") from exc
        answer = out.getvalue()[written:]
        if answer.startswith("error "):
            assert (server.board.move_stack, server.engine.name) == before
        if not keep:
            break
    server.handle("name")
    assert out.getvalue().splitlines()[-1].startswith("name ") or "quit" in " ".join(lines).lower() \
        or "exit" in " ".join(lines).lower()


def test_errors_are_cut_and_bad_settings_raise_what_they_are():
    """An error line echoed a megabyte-long argument whole; EngineServer(depth=0)
    raised the module's private error class instead of the ValueError."""
    import io

    from connect6.protocol.server import MAX_ERROR_CHARS, EngineServer
    out = io.StringIO()
    server = EngineServer(out=out, depth=1)
    for line in ("move " + "A" * 10**6, "depth " + "9" * 5000, "black " + "Z" * 500, "scan " + "q" * 999):
        server.handle(line)
    answers = out.getvalue().splitlines()
    assert len(answers) == 4 and all(a.startswith("error ") and len(a) <= 6 + MAX_ERROR_CHARS for a in answers)
    assert server.board.move_stack == []
    with pytest.raises(ValueError, match="depth"):
        EngineServer(depth=0)
