"""connect6.match.runner: matches in processes and threads, resume, SPRT stops, interrupts, dead workers."""
import concurrent.futures
import json
import os
import sys
import threading
import time

import pytest

from _env import RUN_DIR, SUBPROCESS_ENV  # noqa: E402
from _match_helpers import OPENING, TINY, QuietProgress, check_record, cmd, config
from connect6.match import GAMES_FILE, SGF_DIR, Match, SprtParams, compute_stats, read_results
from connect6.records import read_sgf


def test_match_in_processes_writes_jsonl_and_sgf(tmp_path):
    out = str(tmp_path / "m")
    match = Match(config(4, b=cmd("banner_engine.py"), move_time=5), out=out)
    stats = match.run(concurrency=2, progress="none")
    assert stats.games == 4 and stats.pairs == 2
    records = read_results(os.path.join(out, GAMES_FILE))
    assert [r["game"] for r in records] == [1, 2, 3, 4]
    assert [r["a_color"] for r in records] == ["black", "white", "black", "white"]
    assert records[0]["opening"] == records[1]["opening"] == OPENING
    assert records[2]["opening"] == records[3]["opening"] != OPENING
    for r in records:
        check_record(r, opening=None)
        headers, moves = read_sgf(open(os.path.join(out, SGF_DIR, f"game-{r['game']:04d}.sgf")).read())
        assert [str(m) for m in moves] == r["moves"]
        assert headers["PB"] == r["black"] and headers["PW"] == r["white"]
        assert headers["RE"] == ("B+" if r["result"] == "black" else "W+")
    stored = json.load(open(os.path.join(out, "match.json")))
    assert stored["seed"] == 5 and stored["pair_openings"][:2] == [OPENING, "j10,i9,i11,k11,k9"]
    assert compute_stats(records) == stats


def test_resume_plays_only_what_is_missing(tmp_path):
    out = str(tmp_path / "m")
    Match(config(2), out=out).run(concurrency=1, progress="none")
    path = os.path.join(out, GAMES_FILE)
    first = open(path).read()
    with pytest.raises(ValueError, match="--resume"):
        Match(config(4), out=out)
    with pytest.raises(ValueError, match="resume"):
        Match(config(4, b="paper"), out=out, resume=True)
    match = Match(config(4, seed=None), out=out, resume=True)
    assert match.pending() == [3, 4] and match.config.seed == 5
    with open(path, "a") as fh:
        fh.write('{"game": 3, "pai')          # a line cut short by a crash
    match = Match(config(4), out=out, resume=True)
    assert match.pending() == [3, 4]
    stats = match.run(concurrency=1, progress="none")
    assert stats.games == 4
    text = open(path).read()
    assert text.startswith(first)
    games = [r["game"] for r in read_results(path)]
    assert sorted(games) == [1, 2, 3, 4]
    # nothing left: resuming again plays nothing
    again = Match(config(4), out=out, resume=True)
    assert again.pending() == [] and again.run(progress="none").games == 4


@pytest.mark.parametrize("stored, message", [
    ("[]\n", "holds a list, not the settings of a match"),
    ('{"seed": 5}\n', "lacks its seed .an integer. or its pair_openings"),
    ('{"seed": "5", "pair_openings": []}\n', "lacks its seed"),
    ('{"seed": 5,\n', "is not JSON text"),
    (b"\xff\xfe{}", "is not JSON text"),
    ('{"seed": 1' + "0" * 5000 + ', "pair_openings": []}', "is not JSON text that this version reads"),
    ('{"format": 2, "seed": 5, "pair_openings": []}', "is of format 2, written by another version"),
])
def test_a_broken_match_json_is_named_on_resume(tmp_path, stored, message):
    """A match.json that is not a match's settings: a ValueError naming the
    file, not an AttributeError or KeyError from deep inside."""
    out = tmp_path / "m"
    out.mkdir()
    (out / "match.json").write_bytes(stored if isinstance(stored, bytes) else stored.encode())
    with pytest.raises(ValueError, match=f"cannot resume: .*match.json {message}"):
        Match(config(2), out=str(out), resume=True)


def test_results_folder_that_is_a_file(tmp_path):
    path = tmp_path / "afile"
    path.write_text("mine\n")
    with pytest.raises(ValueError, match="afile is a file: results go to a folder"):
        Match(config(2), out=str(path))
    assert path.read_text() == "mine\n"


def test_resume_needs_the_same_seed(tmp_path):
    out = str(tmp_path / "m")
    Match(config(2), out=out).run(concurrency=1, progress="none")
    with pytest.raises(ValueError, match="seed"):
        Match(config(4, seed=6), out=out, resume=True)


def test_injected_executor_and_sprt_stop():
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    cfg = config(200, a="local:depth=2,width=4", sprt=SprtParams(0, 200, 0.1, 0.1))
    match = Match(cfg)          # no out: nothing written
    notes = []

    class Progress:
        def update(self, record, stats):
            notes.append(record["game"])

        def note(self, text):
            pass

        def close(self):
            pass

    stats = match.run(executor=executor, concurrency=2, progress=Progress())
    assert stats.sprt.decision == "H1"
    assert match.sprt_stopped_at is not None and stats.games < 200 and len(notes) == stats.games
    executor.submit(int).result()   # an executor given is left running
    executor.shutdown()


def test_a_player_failing_every_game_does_not_stop_the_match(tmp_path):
    match = Match(config(4, b=cmd("crash_engine.py", 0), move_time=5), out=str(tmp_path / "m"))
    stats = match.run(concurrency=2, progress="none")
    assert stats.games == 4 and stats.wins == 4 and stats.forfeits["b"] == {"crash": 4}


def test_self_play_labels():
    cfg = config(2, a="paper", b="paper")
    assert cfg.a.label != cfg.b.label


def test_bad_config():
    with pytest.raises(ValueError):
        config(0)
    with pytest.raises(ValueError, match="--games must be at most 1,000,000, not 1,000,000,000,000"):
        config(10 ** 12)            # the schedule is made up front: it would never start
    with pytest.raises(ValueError, match="hang_timeout must be > 0 seconds"):
        config(2, hang_timeout=-5)          # every game a stall
    with pytest.raises(ValueError, match="time_margin must be >= 0 seconds"):
        config(2, time_margin=float("nan"))     # no move ever late
    with pytest.raises(ValueError):
        config(2, move_time=0)
    with pytest.raises(ValueError):
        config(2, opening_order="shuffled")


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_interrupted_match_leaves_no_process(tmp_path, signame):
    import signal
    import subprocess
    from test_protocol import read_pids, wait_dead
    pidfile = tmp_path / "pids"
    out = tmp_path / "m"
    proc = subprocess.Popen(
        [sys.executable, "-m", "connect6", "match", TINY, cmd("hang_engine.py", pidfile), "--games", "1",
         "--out", str(out), "--progress", "plain"],
        cwd=RUN_DIR, env=SUBPROCESS_ENV, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        own, child = read_pids(pidfile, timeout=20)
        time.sleep(0.3)       # the engine is asked for a move and hangs
        os.killpg(proc.pid, getattr(signal, signame)) if signame == "SIGINT" else proc.terminate()
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:  # pragma: no cover - clean up after a failure
            os.killpg(proc.pid, signal.SIGKILL)
            for pid in read_pids(pidfile):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
            proc.wait()
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "--resume" in stderr
    assert wait_dead(own) and wait_dead(child)
    assert not (out / GAMES_FILE).exists() or (out / GAMES_FILE).read_text() == ""


@pytest.mark.parametrize("window", ["pool-starting", "worker-forked", "before-the-schedule"])
def test_kill_pid_while_a_match_sets_up_stops_it_cleanly(tmp_path, monkeypatch, window):
    """SIGTERM (a gauntlet's kill PID, with stop_on_sigterm) arriving while the
    worker pool starts, just after it forks a worker (before the pool has
    registered it), or before the pool: run() returns, interrupted, with
    nothing played and no worker left behind (it used to escape run(); a
    worker forked but unregistered was never stopped and hung the
    interpreter's exit, as strength.py once did under CI)."""
    import concurrent.futures.process
    import multiprocessing
    import multiprocessing.process
    import signal

    from connect6.match import runner

    def new_children():
        return [p for p in multiprocessing.active_children() if p.pid not in before]

    if window == "worker-forked":
        original_start = multiprocessing.process.BaseProcess.start

        def start(process):
            pool_worker = getattr(process, "_target", None) is concurrent.futures.process._process_worker
            original_start(process)         # (it forgets the target)
            if pool_worker:
                os.kill(os.getpid(), signal.SIGTERM)

        monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", start)
    else:
        target = "new_pool" if window == "pool-starting" else "make_progress"
        original = getattr(runner, target)

        def signalled(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGTERM)
            return original(*args, **kwargs)

        monkeypatch.setattr(runner, target, signalled)
    before = {p.pid for p in multiprocessing.active_children()}
    match = Match(config(2), out=str(tmp_path / "m"))
    with runner.stop_on_sigterm():
        stats = match.run(concurrency=1, progress="plain")
    try:
        assert match.interrupted and stats.games == 0 and match.results() == []
        deadline = time.monotonic() + 10
        while new_children() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert new_children() == []
    finally:
        for child in new_children():   # pragma: no cover - a worker left behind by a failure
            child.kill()


def _children(pid):
    """The processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_workers_and_engines_end_when_the_driver_is_killed(tmp_path):
    """SIGKILL of the match driver stops nothing by itself: its workers must
    notice their parent is gone, unwind the game (killing its engines) and exit
    (an orphaned worker used to wait for work forever)."""
    import signal
    import subprocess
    from connect6.match.pool import PARENT_POLL_S, UNWIND_S
    from test_protocol import read_pids, wait_dead
    pidfile = tmp_path / "pids"
    proc = subprocess.Popen(
        [sys.executable, "-m", "connect6", "match", TINY, cmd("hang_engine.py", pidfile), "--games", "1",
         "--out", str(tmp_path / "m"), "--progress", "none", "--concurrency", "1"],
        cwd=RUN_DIR, env=SUBPROCESS_ENV, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        own, child = read_pids(pidfile, timeout=20)
        workers = _children(proc.pid)
        assert workers
        proc.kill()
        proc.wait()
        limit = PARENT_POLL_S + UNWIND_S + 10
        left = [pid for pid in [*workers, own, child] if not wait_dead(pid, limit)]
        assert not left, [open(f"/proc/{pid}/cmdline").read().replace("\0", " ") for pid in left]
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        for pid in read_pids(pidfile):
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass


def test_a_dead_worker_process_does_not_stop_the_match(tmp_path):
    out = str(tmp_path / "m")
    match = Match(config(4, b="py:pybots:die"), out=out)
    stats = match.run(concurrency=2, progress="none")
    assert match.failures == 4 and stats.games == 0          # nothing recorded: --resume will replay them
    assert not os.path.exists(os.path.join(out, GAMES_FILE)) or not read_results(os.path.join(out, GAMES_FILE))


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM to a process")
def test_a_worker_someone_else_stops_does_not_stop_the_match(tmp_path):
    """kill PID of one pool worker: its game unwinds with SystemExit, which is that game's
    failure (replayed by --resume), not the end of the driver and of the games beside it."""
    out = str(tmp_path / "m")
    match = Match(config(4, b="py:pybots:term_self"), out=out)
    stats = match.run(concurrency=2, progress="none")
    assert match.failures == 4 and stats.games == 0
    assert len(Match(config(4, b="py:pybots:term_self"), out=out, resume=True).pending()) == 4


class _ScriptedPool(concurrent.futures.Executor):
    """A stand-in for our process pool: the first one's first game finds it broken and its
    second waits (cancelled when the pool is shut down); later pools play games at once."""

    made = []

    def __init__(self, workers):
        self.first, self.futures = not _ScriptedPool.made, []
        _ScriptedPool.made.append(self)

    def submit(self, fn, *args, **kwargs):
        future = concurrent.futures.Future()
        if self.first and not self.futures:
            future.set_exception(concurrent.futures.BrokenExecutor("a worker died"))
        elif not self.first:
            future.set_result(fn(*args, **kwargs))
        self.futures.append(future)
        return future

    def shutdown(self, wait=True, *, cancel_futures=False):
        if cancel_futures:
            for future in self.futures:
                future.cancel()


def test_a_game_waiting_in_a_broken_pool_is_played_on_its_successor(monkeypatch):
    """Replacing a broken pool cancels the games waiting in it: they are played on the new
    pool, not dropped without a word (and the old pool's games cannot break the new one)."""
    import connect6.match.runner as runner
    _ScriptedPool.made = []
    monkeypatch.setattr(runner, "new_pool", _ScriptedPool)
    match = Match(config(4))
    stats = match.run(concurrency=2, progress="none")
    assert len(_ScriptedPool.made) == 2
    assert match.failures == 1 and stats.games == 3        # game 1 lost its worker; 2, 3 and 4 played


def test_mismatched_time_controls_are_shown():
    from connect6.match import Match, parse_player
    m = Match(config(2, a="default:depth=2,name=d2", b="py:pybots:nearest,time=2", move_time=1))
    assert m.time_controls() == "time control: A 1 s/move, depth 2, B 2 s/move (mismatched)"
    m = Match(config(2, a="py:pybots:nearest", b="py:pybots:nearest_text", move_time=1))
    assert m.time_controls() == "time control: 1 s/move (both)"


@pytest.mark.parametrize("threads", [True, False])
def test_live_status_of_running_games(threads):
    cfg = config(2, a="py:pybots:slow", b="py:pybots:nearest", game_time=100)
    live = QuietProgress()
    if threads:
        with concurrent.futures.ThreadPoolExecutor(2) as executor:
            Match(cfg).run(executor=executor, concurrency=2, progress=live)
    else:
        Match(cfg).run(concurrency=2, progress=live)       # our own process pool: a manager's queue
    assert {s["game"] for s in live.seen} == {1, 2}
    for game in (1, 2):
        turns = [s["turns"] for s in live.seen if s["game"] == game]
        assert turns == sorted(turns) and turns[-1] > turns[0]
    s = live.seen[-1]
    assert s["to_move"] in ("black", "white") and 0 < s["clock"]["black"] <= 100
    assert {s["black"], s["white"]} == {"py:pybots:slow", "py:pybots:nearest"}


@pytest.mark.parametrize("threads", [True, False])
def test_sprt_stops_the_running_games(threads):
    progress = QuietProgress()
    cfg = config(40, a="local:depth=1,width=3", b="py:pybots:slow", sprt=SprtParams(0, 400, 0.2, 0.2))
    match = Match(cfg)
    if threads:
        with concurrent.futures.ThreadPoolExecutor(3) as executor:
            stats = match.run(executor=executor, concurrency=3, progress=progress)
    else:
        stats = match.run(concurrency=3, progress=progress)
    assert stats.sprt.decision == "H1"
    assert any("unfinished game(s) stopped" in n for n in progress.notes), progress.notes
    # no game started after the decision counts; the two running beside the deciding one may
    # each make their winning move before the stop reaches them (a race this test must not need),
    # but the note above says that at least one was stopped unfinished
    assert stats.games <= match.sprt_stopped_at + 2
    assert all(r["termination"] == "six" for r in match.results())


def test_own_pool_while_other_threads_run():
    # a display's or a Dask client's thread is alive while our pool starts: the forked workers
    # keep the loaded modules (a forkserver or spawned child would import the package again by
    # sys.path, which finds a source checkout in the working directory first) and play the same games
    import multiprocessing

    from connect6.match.pool import mp_context
    reference = Match(config(2))
    reference.run(concurrency=2, progress="none")
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        assert mp_context().get_start_method() == multiprocessing.get_start_method()
        again = Match(config(2))
        again.run(concurrency=2, progress=QuietProgress())
    finally:
        stop.set()
        thread.join()
    same = ("game", "moves", "result", "termination")
    assert [{k: r[k] for k in same} for r in again.results()] == [{k: r[k] for k in same} for r in reference.results()]


def _miss_the_first_sigterm(flag):
    """A game whose worker misses the first SIGTERM (as one sent while the
    worker is being forked is lost), says it is ready, and never ends by itself."""
    import signal
    signal.signal(signal.SIGTERM, lambda signum, frame: signal.signal(signal.SIGTERM, lambda *a: os._exit(9)))
    open(flag, "w").close()
    while True:
        time.sleep(1)


def test_stopping_the_pool_stops_a_worker_that_missed_the_first_sigterm(tmp_path):
    """The pool's workers are sent SIGTERM until they end (for up to the unwind
    time): a worker that missed the first one lived on, and the interpreter's
    exit waited on it (strength.py's SIGTERM test hung that way in CI)."""
    from connect6.match import runner
    flag = tmp_path / "ready"
    pool = runner.new_pool(1)
    pool.submit(_miss_the_first_sigterm, str(flag))
    workers = list(pool._processes.values())
    try:
        deadline = time.monotonic() + 60
        while not flag.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert flag.exists()
        runner.stop_workers(pool)
        assert workers and [w.exitcode for w in workers] == [9]
    finally:
        for w in workers:   # pragma: no cover - a failure
            if w.is_alive():
                w.kill()


def test_a_worker_stopped_while_it_sets_up_ends_quietly(capfd, monkeypatch):
    """SIGTERM while a pool worker runs its initializer (a match stopped as it
    starts): the worker ends with 128 + SIGTERM, and the pool logs no
    'Exception in initializer' traceback."""
    import signal

    from connect6.match import runner
    start = threading.Thread.start

    def signalled_start(thread):
        if thread.name == "connect6-parent-watch":
            os.kill(os.getpid(), signal.SIGTERM)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", signalled_start)   # in the forked worker too
    pool = runner.new_pool(1)
    try:
        future = pool.submit(os.getpid)
        worker = list(pool._processes.values())[0]
        with pytest.raises(concurrent.futures.process.BrokenProcessPool):
            future.result(timeout=60)
        # The pool's manager thread reaps the broken worker too: until it is
        # done, a waitpid of ours can find no child and leave exitcode None.
        pool.shutdown(wait=True)
        worker.join(60)
        assert worker.exitcode == 128 + signal.SIGTERM
    finally:
        runner.stop_workers(pool)
    assert "Exception in initializer" not in capfd.readouterr().err
