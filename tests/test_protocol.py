"""connect6.protocol: ProtocolEngine against `connect6 engine` and against misbehaving engines."""
import os
import sys
import threading
import time

import pytest

from _env import RUN_DIR, SUBPROCESS_ENV  # noqa: E402
from connect6 import Board, Engine, IllegalMoveError, InvalidMoveError, Move
from connect6.protocol import (
    MOVE_REPLY_RE, EngineError, EngineProtocolError, EngineTerminated, EngineTimeout, ProtocolEngine,
    parse_protocol_move,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINES = os.path.join(ROOT, "tests", "engines")
CONNECT6 = [sys.executable, "-m", "connect6", "engine"]


def script(name, *args):
    return [sys.executable, os.path.join(ENGINES, name)] + [str(a) for a in args]


def alive(pid):
    """Whether pid is a live process (a zombie is dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover
        return True
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_dead(pid, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not alive(pid):
            return True
        time.sleep(0.02)
    return False


def read_pids(path, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open(path) as fh:
                text = fh.read()
            if text.endswith("\n"):
                return [int(p) for p in text.split()]
        except FileNotFoundError:
            pass
        time.sleep(0.02)
    raise AssertionError("the hang engine did not write its pids")


MID = Board("j10 j9k11 k10l10")


# ---------------------------------------------------------------- the reply form
@pytest.mark.parametrize("line, ok", [
    ("move JJ", True), ("move JJKK", True), ("move AASS", True),
    ("move jj", False), ("move JJK", False), ("move JJ KK", False), ("move JJKK ", False), (" move JJ", False),
    ("move TT", False), ("move JJKKLL", False), ("moveJJ", False), ("move XXXX", False), ("movegen: JJ", False),
])
def test_move_reply_form(line, ok):
    assert bool(MOVE_REPLY_RE.fullmatch(line)) is ok


def test_parse_protocol_move():
    assert parse_protocol_move("JJ", 1) == Move.parse("j10")
    assert parse_protocol_move("jjjj", 1) == Move.parse("j10")
    assert parse_protocol_move("JIKK", 2) == Move.parse("j9k11")
    with pytest.raises(IllegalMoveError):
        parse_protocol_move("JJJJ", 2)
    with pytest.raises(InvalidMoveError):
        parse_protocol_move("JJK", 2)
    with pytest.raises((IllegalMoveError, InvalidMoveError)):
        parse_protocol_move("ZZZZ", 1)


# ---------------------------------------------------------------- against connect6 engine
def test_against_connect6_engine():
    with ProtocolEngine.popen(CONNECT6 + ["--depth", "2", "--width", "5"], cwd=RUN_DIR, env=SUBPROCESS_ENV) as engine:
        assert engine.name.startswith("connect6-")
        assert engine.play(Board(), time_limit=30) == Move.parse("j10")
        assert engine.play(MID, time_limit=30) == Engine(depth=2, width=5).search(MID).move
        # the same engine plays on: a whole game, each move from a fresh `new xxx`
        board = Board("j10")
        while not board.is_game_over() and len(board.move_stack) < 60:
            board.push(engine.play(board, time_limit=30))
        assert board.is_game_over()
        proc = engine.process
    assert proc.poll() is not None and engine.closed


def test_first_stone_sent_both_ways():
    board = Board("j10")
    for double in (True, False):
        with ProtocolEngine.popen(CONNECT6 + ["--depth", "1", "--width", "3"], cwd=RUN_DIR, env=SUBPROCESS_ENV,
                                  double_first_stone=double) as engine:
            assert board.is_legal(engine.play(board, time_limit=30))


def test_time_command():
    with ProtocolEngine.popen(CONNECT6, cwd=RUN_DIR, env=SUBPROCESS_ENV, time_command="time {seconds:g}") as engine:
        start = time.monotonic()
        move = engine.play(MID, time_limit=0.3)
        assert time.monotonic() - start < 5
        assert MID.is_legal(move)


def test_error_answer():
    with ProtocolEngine.popen(CONNECT6, cwd=RUN_DIR, env=SUBPROCESS_ENV, time_command="time soon") as engine:
        with pytest.raises(EngineProtocolError) as info:
            engine.play(MID, time_limit=10)
    assert info.value.kind == "error" and info.value.reply.startswith("error time")
    assert engine.closed and engine.process.poll() is not None


def test_game_over_and_bad_arguments():
    over = Board("j10 a1a3 k10l10 a5a7 m10n10 a9a11 o10p10")
    with ProtocolEngine.popen(CONNECT6, cwd=RUN_DIR, env=SUBPROCESS_ENV) as engine:
        with pytest.raises(ValueError):
            engine.play(over, time_limit=5)
        with pytest.raises(ValueError):
            engine.play(MID, time_limit=0)
        with pytest.raises(TypeError):
            engine.play("j10", time_limit=5)
        with pytest.raises(ValueError):
            engine.send("name\nname")
    with pytest.raises(EngineTerminated):
        engine.play(MID, time_limit=5)   # closed


@pytest.mark.parametrize("bad, words", [
    (dict(time_limit=float("inf")), "time_limit must be at most"),     # queue.get raised OverflowError
    (dict(time_limit=1e300), "time_limit must be at most"),
    (dict(time_limit=True), "time_limit must be a number"),
    (dict(grace=float("nan")), "grace must be >= 0"),                 # timed out at once and killed it
    (dict(grace=-5), "grace must be >= 0"),
])
def test_bad_waits_are_refused_before_anything_is_sent(bad, words):
    with ProtocolEngine.popen(CONNECT6, cwd=RUN_DIR, env=SUBPROCESS_ENV) as engine:
        with pytest.raises((ValueError, TypeError), match=words):
            engine.play(MID, **bad)
        assert not engine.closed and engine.play(MID, time_limit=30) is not None
    with pytest.raises(ValueError, match="timeout must be at most"):
        ProtocolEngine.popen(CONNECT6, timeout=float("inf"))


def test_a_board_the_moves_do_not_describe_is_refused():
    """Only the move history is sent: a board set up from an array, or a half-made
    turn, was sent as another position and the engine's right answer blamed."""
    half = Board("j10 j9k11")
    half.push_stone(0)
    with ProtocolEngine.popen(CONNECT6, cwd=RUN_DIR, env=SUBPROCESS_ENV) as engine:
        with pytest.raises(ValueError, match="stones outside its move history"):
            engine.play(Board.from_numpy(MID.to_numpy()), time_limit=30)
        with pytest.raises(ValueError, match="half made"):
            engine.play(half, time_limit=30)
        assert not engine.closed


def test_an_interrupted_wait_kills_the_engine(monkeypatch):
    """Ctrl-C while waiting for the move left the answer to come: the next
    play() read it as the move of another position.  The engine is killed."""
    with ProtocolEngine.popen(CONNECT6, cwd=RUN_DIR, env=SUBPROCESS_ENV) as engine:
        def interrupted(deadline):
            raise KeyboardInterrupt
        monkeypatch.setattr(engine, "_next_line", interrupted)
        with pytest.raises(KeyboardInterrupt):
            engine.play(MID, time_limit=30)
        monkeypatch.undo()
        assert engine.closed
        with pytest.raises(EngineTerminated):
            engine.play(MID, time_limit=30)


def test_quit_is_clean():
    engine = ProtocolEngine.popen(CONNECT6, cwd=RUN_DIR, env=SUBPROCESS_ENV)
    engine.quit()
    assert engine.process.returncode == 0   # it left on `quit`, nothing had to be killed
    engine.close()                          # twice is fine


# ---------------------------------------------------------------- misbehaving engines
def test_banners_and_lines_starting_with_move():
    with ProtocolEngine.popen(script("banner_engine.py")) as engine:
        assert engine.name == "banner"
        assert engine.play(Board(), time_limit=10) == Move.parse("j10")
        assert MID.is_legal(engine.play(MID, time_limit=10))


def test_crash():
    with ProtocolEngine.popen(script("crash_engine.py", 1)) as engine:
        assert engine.play(Board(), time_limit=10) == Move.parse("j10")
        with pytest.raises(EngineTerminated) as info:
            engine.play(MID, time_limit=10)
    err = info.value
    assert err.returncode == 3
    assert "about to crash" in err.output and "crash engine: giving up" in err.stderr
    assert "about to crash" in str(err) and "exit status 3" in str(err)
    with pytest.raises(EngineTerminated):
        engine.play(MID, time_limit=10)


def test_timeout_kills_the_process_group(tmp_path):
    pidfile = tmp_path / "pids"
    engine = ProtocolEngine.popen(script("hang_engine.py", pidfile), grace=0.2)
    own, child = read_pids(pidfile)
    assert own == engine.process.pid and alive(child)
    start = time.monotonic()
    with pytest.raises(EngineTimeout) as info:
        engine.play(MID, time_limit=0.3)
    assert 0.45 <= time.monotonic() - start < 3
    assert "thinking very hard" in info.value.output
    assert engine.closed
    assert wait_dead(own) and wait_dead(child)
    with pytest.raises(EngineTerminated):
        engine.play(MID, time_limit=1)


def test_close_kills_what_quit_leaves_behind(tmp_path):
    pidfile = tmp_path / "pids"
    with ProtocolEngine.popen(script("hang_engine.py", pidfile)):
        own, child = read_pids(pidfile)
    assert wait_dead(own) and wait_dead(child)     # its child ignored nothing: the group was swept


def test_close_during_a_search(tmp_path):
    pidfile = tmp_path / "pids"
    engine = ProtocolEngine.popen(script("hang_engine.py", pidfile))
    own, child = read_pids(pidfile)
    errors = []

    def search():
        try:
            engine.play(MID, time_limit=30)
        except EngineError as exc:
            errors.append(exc)

    t = threading.Thread(target=search)
    t.start()
    time.sleep(0.3)
    engine.kill()
    t.join(timeout=10)
    assert not t.is_alive() and isinstance(errors[0], EngineTerminated)
    assert wait_dead(own) and wait_dead(child)


@pytest.mark.parametrize("mode", ["occupied", "count", "same"])
def test_illegal_moves(mode):
    with ProtocolEngine.popen(script("illegal_engine.py", mode)) as engine:
        assert engine.play(Board(), time_limit=10) == Move.parse("j10")
        with pytest.raises(EngineProtocolError) as info:
            engine.play(MID, time_limit=10)
        assert info.value.kind == "illegal" and info.value.reply.startswith("move ")
        assert not engine.closed          # an illegal answer does not kill the engine


@pytest.mark.parametrize("mode", ["lower", "short", "off", "spaces"])
def test_malformed_replies(mode):
    with ProtocolEngine.popen(script("malformed_engine.py", mode), grace=0.1) as engine:
        start = time.monotonic()
        with pytest.raises(EngineProtocolError) as info:
            engine.play(MID, time_limit=0.3)
        assert time.monotonic() - start < 3
    assert info.value.kind == "malformed" and info.value.reply.startswith("move")
    assert info.value.reply in str(info.value)


def test_malformed_then_exit():
    with ProtocolEngine.popen(script("malformed_engine.py", "exit")) as engine:
        with pytest.raises(EngineProtocolError) as info:
            engine.play(MID, time_limit=30)
    assert info.value.kind == "malformed"


# ---------------------------------------------------------------- starting
def test_missing_command():
    with pytest.raises(EngineTerminated, match="could not start"):
        ProtocolEngine.popen([os.path.join(ENGINES, "no-such-engine")])


def test_exits_before_name():
    with pytest.raises(EngineTerminated) as info:
        ProtocolEngine.popen([sys.executable, "-c", "print('hello'); raise SystemExit(5)"])
    assert info.value.returncode == 5 and info.value.output == ["hello"]


def test_a_failed_write_keeps_what_the_engine_printed_last():
    """The engine prints a line and exits; the next command finds its input
    closed.  The error keeps the exit status and the line, though the reader
    may not have taken it from the pipe when the write failed (under load the
    same race hits a start-up whose 'name' is written after the engine died)."""
    code = ("import sys\nfor line in sys.stdin:\n"
            "    if line.strip() == 'name': print('name stub', flush=True)\n"
            "    else: print('bye', flush=True); raise SystemExit(5)\n")
    engine = ProtocolEngine.popen([sys.executable, "-c", code])
    engine.send("go")
    engine.process.wait(timeout=30)
    with pytest.raises(EngineTerminated) as info:
        engine.send("again")
    assert info.value.returncode == 5 and info.value.output == ["bye"], info.value


def test_no_name_answer(tmp_path):
    code = "import os, sys, time; print(os.getpid(), flush=True); time.sleep(60)"
    start = time.monotonic()
    with pytest.raises(EngineTimeout) as info:
        ProtocolEngine.popen([sys.executable, "-c", code], timeout=0.5)
    assert time.monotonic() - start < 5
    pid = int(info.value.output[0])
    assert wait_dead(pid)


def test_command_string_is_split():
    command = f"{sys.executable} {os.path.join(ENGINES, 'banner_engine.py')}"
    with ProtocolEngine.popen(command) as engine:
        assert engine.name == "banner"
        assert "banner" in repr(engine)


def test_garbage_collected_engine_is_killed(tmp_path):
    pidfile = tmp_path / "pids"
    engine = ProtocolEngine.popen(script("hang_engine.py", pidfile))
    own, child = read_pids(pidfile)
    del engine
    import gc
    gc.collect()
    assert wait_dead(own) and wait_dead(child)


# ---------------------------------------------------------------- a process killed outright
OWNER = """
import sys, time
from connect6.protocol import ProtocolEngine, _reaper
engine = ProtocolEngine.popen(sys.argv[1:])
print(_reaper.reaper_pid(), flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_engines_die_with_a_process_killed_outright(tmp_path):
    """SIGKILL runs no cleanup in the process that started an engine (a Dask
    worker killed with kill -9): its reaper kills the engine's group."""
    import signal
    import subprocess
    pidfile = tmp_path / "pids"
    owner = subprocess.Popen([sys.executable, "-c", OWNER, *script("hang_engine.py", pidfile)], cwd=RUN_DIR,
                             env=SUBPROCESS_ENV, start_new_session=True, stdout=subprocess.PIPE, text=True)
    pids = []
    try:
        reaper = int(owner.stdout.readline())
        pids = own, child = read_pids(pidfile)
        owner.kill()
        owner.wait()
        # the engine ignores SIGTERM and the end of its input: only the reaper stops it
        assert wait_dead(own, 60) and wait_dead(child, 60)
        assert wait_dead(reaper, 60)
    finally:
        owner.kill()
        owner.wait()
        owner.stdout.close()
        for pid in pids:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass


@pytest.mark.skipif(os.name != "posix", reason="POSIX only")
def test_the_reaper_lists_running_engines_only(tmp_path):
    from connect6.protocol import _reaper
    with ProtocolEngine.popen(script("banner_engine.py")) as engine:
        assert engine.process.pid in _reaper.watched()
        reaper = _reaper.reaper_pid()
        assert reaper is not None and alive(reaper)
    assert engine.process.pid not in _reaper.watched()
    with ProtocolEngine.popen(script("banner_engine.py")):
        assert _reaper.reaper_pid() == reaper           # one reaper a process


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
@pytest.mark.parametrize("pid_after_wait", ["free", "recycled"])
def test_a_group_is_swept_after_its_leader_is_waited_for_only_if_its_pid_is_not_recycled(monkeypatch,
                                                                                         pid_after_wait):
    """Once the engine's leader has been waited for, its pid may be another
    process's, and killpg(pid) would kill that process's group: close() and the
    finalizer sweep the group then only by the reaper's rule (no process has the
    pid, or it has the engine's start time).  They used to send killpg regardless."""
    from connect6.protocol import _reaper, client
    engine = ProtocolEngine.popen(script("banner_engine.py"))
    pid = engine.process.pid
    assert _reaper.may_kill_group(pid) and not _reaper.may_kill_group(os.getpid())   # listed / not listed
    if pid_after_wait == "recycled":    # /proc shows a process with that pid and another start time
        real_start_time = _reaper._namespace["start_time"]
        monkeypatch.setitem(_reaper._namespace, "start_time",
                            lambda p: "1" if p == pid else real_start_time(p))
        assert not _reaper.may_kill_group(pid)
    calls = []
    real = os.killpg

    def logged(target, sig):
        calls.append((target, engine.process.returncode))
        return real(target, sig)

    monkeypatch.setattr(client.os, "killpg", logged)
    engine.close()
    after_wait = [c for c in calls if c[0] == pid and c[1] is not None]
    assert bool(after_wait) == (pid_after_wait == "free"), calls
    assert pid not in _reaper.watched()


@pytest.mark.skipif(os.name != "posix", reason="POSIX only")
def test_without_proc_a_group_is_killed_only_while_its_pid_leads_a_session_or_is_free(monkeypatch):
    """The rule where /proc gives no start times (macOS, the BSDs): kill while the
    pid leads a session (as the engines do) or no process has it; a process that
    cannot be asked (EPERM) is not ours to kill."""
    import subprocess
    from connect6.protocol import _reaper
    leader = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        assert _reaper._may_kill(leader.pid, "-")
        assert not _reaper._may_kill(os.getpid(), "-") or os.getsid(0) == os.getpid()
    finally:
        leader.kill()
        leader.wait()
    assert _reaper._may_kill(leader.pid, "-") or alive(leader.pid)     # gone: the group may hold leftovers

    def denied(pid):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "getsid", denied)
    assert not _reaper._may_kill(leader.pid, "-")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_does_not_share_the_reaper():
    from connect6.protocol import _reaper
    with ProtocolEngine.popen(script("banner_engine.py")):
        assert _reaper.watched()
        fd = _reaper._pipe_fd()
        assert fd is not None
        pid = os.fork()
        if pid == 0:    # pragma: no cover - the child reports by its exit status
            try:
                os.fstat(fd)
                closed = False              # the parent's reaper would wait for this child's end
            except OSError:
                closed = True
            os._exit(0 if closed and not _reaper.watched() and _reaper.reaper_pid() is None else 1)
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        assert _reaper.watched() and _reaper._pipe_fd() == fd
        os.fstat(fd)                        # still open here
