"""connect6.match.cluster: matches on a real Dask LocalCluster (worker processes, no mocks).

Needs the ``cluster`` extra (``pip install ".[cluster]"``); skipped without it.
"""
import concurrent.futures
import os
import signal
import threading
import time

import pytest

from _match_helpers import QuietProgress, config
from connect6.match import Match, SprtParams
from connect6.match.cluster import Cluster, open_cluster



def test_without_the_extra_the_option_says_how_to_get_it(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "distributed", None)       # as if it were not installed
    with pytest.raises(ValueError, match=r'pip install "connect6\[cluster\]"'):
        open_cluster("local:2")


#: every test below needs the cluster extra (pip install ".[cluster]")
try:
    import distributed  # noqa: F401
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False
needs_dask = pytest.mark.skipif(not HAVE_DASK, reason='needs dask.distributed: pip install ".[cluster]"')

#: the fields of a record that do not depend on timing or on where the game ran
SAME = ("game", "pair", "seed", "a", "b", "black", "white", "opening", "moves", "result", "winner", "termination")


def essential(records):
    return [{k: r[k] for k in SAME} for r in records]


@pytest.fixture(scope="module")
def cluster():
    with open_cluster("local:2") as c:
        yield c


@needs_dask
def test_same_records_as_the_process_pool(cluster, tmp_path):
    cfg = dict(a="local:depth=1,width=3", b="default:depth=1")
    pool = Match(config(6, **cfg), out=str(tmp_path / "pool"))
    pool.run(concurrency=2, progress="none")
    dask = Match(config(6, **cfg), out=str(tmp_path / "dask"))
    stats = dask.run(executor=cluster.executor, concurrency=cluster.slots, progress="none")
    assert stats.games == 6 and dask.failures == 0 and cluster.slots == 2
    assert essential(dask.results()) == essential(pool.results())
    assert len(os.listdir(tmp_path / "dask" / "sgf")) == 6


@needs_dask
def test_a_worker_killed_mid_match_loses_no_result(tmp_path):
    # slow games (about 5 s: the bot waits 0.2 s a move); a worker process is killed while both play
    cfg = dict(a="py:pybots:slow", b="py:pybots:nearest")
    reference = Match(config(4, **cfg))
    with concurrent.futures.ThreadPoolExecutor(4) as executor:
        reference.run(executor=executor, concurrency=4, progress="none")
    with open_cluster("local:2") as c:
        pids = list(c.client.run(os.getpid).values())
        match = Match(config(4, **cfg), out=str(tmp_path / "m"))
        killer = threading.Timer(2.0, os.kill, (pids[0], signal.SIGKILL))
        killer.start()
        try:
            stats = match.run(executor=c.executor, concurrency=2, progress="none")
        finally:
            killer.cancel()
        alive = list(c.client.run(os.getpid).values())
    assert pids[0] not in alive                        # the worker really died (and was replaced)
    assert stats.games == 4 and match.failures == 0
    lines = open(tmp_path / "m" / "games.jsonl").read().splitlines()
    assert len(lines) == 4                              # nothing lost, nothing doubled
    assert essential(match.results()) == essential(reference.results())


@needs_dask
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_an_engine_dies_with_its_worker_killed_outright(tmp_path):
    """kill -9 of a worker runs no cleanup in it: the worker's reaper kills
    the external engine it started."""
    from test_protocol import read_pids, script, wait_dead

    def start_and_keep(argv):
        from distributed import get_worker
        from connect6.protocol import ProtocolEngine
        get_worker().kept_engine = ProtocolEngine.popen(argv)      # running until the worker ends
        return os.getpid()

    pidfile = tmp_path / "pids"
    pids = []
    with open_cluster("local:1") as c:
        worker = c.client.submit(start_and_keep, script("hang_engine.py", pidfile), pure=False).result()
        pids = read_pids(pidfile, timeout=60)
        os.kill(worker, signal.SIGKILL)
        try:
            assert all(wait_dead(pid, 60) for pid in pids)
        finally:
            for pid in pids:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass


@needs_dask
def test_sprt_cancels_the_games_in_flight(cluster):
    progress = QuietProgress()
    cfg = config(60, a="local:depth=1,width=3", b="py:pybots:slow", sprt=SprtParams(0, 400, 0.2, 0.2))
    match = Match(cfg)
    stats = match.run(executor=cluster.executor, concurrency=6, progress=progress)   # 4 wait in Dask's queue
    assert stats.sprt.decision == "H1" and match.sprt_stopped_at is not None
    assert any("unfinished game(s) stopped" in n for n in progress.notes), progress.notes
    assert stats.games < match.sprt_stopped_at + 5
    cluster.client.cancel(list(cluster.client.futures))   # nothing left on the workers for the next test


@needs_dask
def test_a_tournament_on_the_cluster(cluster, tmp_path):
    from connect6.match import Tournament, TournamentConfig, parse_player
    players = [parse_player(p) for p in ("local:depth=1,width=3", "default:depth=1", "py:pybots:nearest")]

    def tournament(out):
        return Tournament(TournamentConfig(list(players), games=2, seed=4, cwd=config().cwd), out=str(out))

    local = tournament(tmp_path / "pool")
    with concurrent.futures.ThreadPoolExecutor(2) as executor:
        local.run(executor=executor, concurrency=2, progress="none")
    remote = tournament(tmp_path / "dask")
    fit = remote.run(executor=cluster.executor, concurrency=cluster.slots, progress="none")
    assert essential(remote.results()) == essential(local.results()) and len(remote.results()) == 6
    assert [r["pairing"] for r in remote.results()] == [r["pairing"] for r in local.results()]
    assert fit == local.ratings()


@needs_dask
def test_bad_cluster_addresses():
    for address, message in [("local:0", "N >= 1"), ("local:x", "N >= 1"), ("local:257", "at most 256"),
                             ("local:" + "9" * 5000, "at most 256, not 'local:99999"), ("nowhere", "expected local:N"),
                             ("http://x:1", "expected local:N")]:
        with pytest.raises(ValueError, match=message):
            open_cluster(address)
    start = time.monotonic()
    with pytest.raises(ValueError, match="cannot reach"):
        open_cluster("tcp://127.0.0.1:9", timeout=1)
    assert time.monotonic() - start < 30


LOGBOT = '''
import os, threading, time
from connect6 import Move

ORDER = sorted(range(361), key=lambda c: (max(abs(c % 19 - 9), abs(c // 19 - 9)), c))


def play(board):
    start = time.time()
    time.sleep(0.05)
    free = [c for c in ORDER if board.stone_at(c) is None]
    with open(os.path.join(os.path.dirname(__file__), "log"), "a") as fh:
        fh.write(f"{os.getpid()} {len(board.move_stack)} {start} {time.time()}\\n")
    return Move(free[:board.stones_to_place])
'''


@needs_dask
def test_a_game_takes_its_players_slots(tmp_path):
    (tmp_path / "logbot.py").write_text(LOGBOT)
    local = distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True, resources={"slots": 2},
                                     dashboard_address=":0")
    from connect6.match.cluster import Cluster
    with Cluster(distributed.Client(local), local) as c:
        assert c.slots == 4
        bot = f"py:logbot:play,dir={tmp_path}"
        match = Match(config(4, a=bot + ",slots=2", b="py:pybots:nearest"))
        stats = match.run(executor=c.executor, concurrency=4, progress="none")
        assert stats.games == 4 and match.failures == 0
        # a game takes both slots of a worker: no two games overlap in one worker process
        moves = [line.split() for line in (tmp_path / "log").read_text().splitlines()]
        spans = {}
        for pid, _, start, end in moves:
            spans.setdefault(pid, []).append((float(start), float(end)))
        for pid, intervals in spans.items():
            intervals.sort()
            assert all(a[1] <= b[0] for a, b in zip(intervals, intervals[1:])), pid
        progress = QuietProgress()
        too_big = Match(config(2, a=bot + ",slots=3", b="py:pybots:nearest"))
        assert too_big.run(executor=c.executor, concurrency=2, progress=progress).games == 0
        assert too_big.failures == 1 and "needs 3 slots" in progress.notes[0]


@needs_dask
def test_live_status_from_the_workers(cluster):
    live = QuietProgress()
    Match(config(2, a="py:pybots:slow", b="py:pybots:nearest")).run(
        executor=cluster.executor, concurrency=2, progress=live)   # through a Dask queue
    assert {s["game"] for s in live.seen} == {1, 2} and max(s["turns"] for s in live.seen) > 5


@needs_dask
@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_interrupting_a_cluster_match_kills_the_engines_on_the_workers(tmp_path, signame):
    """Ctrl-C (SIGINT to the whole foreground group, Dask's worker processes
    included) or kill PID on ``--cluster local:N``: the game's external engine
    on a worker and its child are killed, the workers do not die with
    tracebacks, and the driver says how to resume.  The engines used to be
    left running, and Ctrl-C printed about 70 lines of Dask tracebacks."""
    import subprocess
    import sys

    from _env import RUN_DIR, SUBPROCESS_ENV
    from _match_helpers import TINY, cmd
    from test_protocol import read_pids, wait_dead
    pidfile = tmp_path / "pids"
    proc = subprocess.Popen(
        [sys.executable, "-m", "connect6", "match", TINY, cmd("hang_engine.py", pidfile), "--games", "1",
         "--cluster", "local:2", "--out", str(tmp_path / "m"), "--progress", "plain"],
        cwd=RUN_DIR, env=SUBPROCESS_ENV, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    pids = []
    try:
        pids = read_pids(pidfile, timeout=120)
        time.sleep(0.3)       # the engine is asked for a move and hangs (either way it must die)
        if signame == "SIGINT":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.terminate()
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:  # pragma: no cover - clean up after a failure
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for pid in pids:
            if not wait_dead(pid, timeout=10):  # pragma: no cover - clean up after a failure
                os.killpg(pid, signal.SIGKILL)
                raise AssertionError(f"process {pid} of the engine outlived the match")
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "--resume" in stderr
    assert "Traceback" not in stderr, stderr


@needs_dask
def test_a_driver_killed_outright_leaves_no_engine_on_a_remote_cluster(cluster, tmp_path):
    """kill -9 of the driver of a match on a cluster it does not own (``--cluster
    tcp://...``) runs no cleanup in it and sets no stop event: the scheduler lets
    go of the game's task, and the worker's game notices, kills its external
    engine and its child, and ends.  They used to play on until the game ended
    (here: the hour of the hang timeout)."""
    import subprocess
    import sys

    from _env import RUN_DIR, SUBPROCESS_ENV
    from _match_helpers import TINY, cmd
    from test_protocol import alive, read_pids, wait_dead
    pidfile = tmp_path / "pids"
    proc = subprocess.Popen(
        [sys.executable, "-m", "connect6", "match", TINY, cmd("hang_engine.py", pidfile), "--games", "1",
         "--cluster", cluster.address, "--hang-timeout", "3600", "--out", str(tmp_path / "m"),
         "--progress", "none"],
        cwd=RUN_DIR, env=SUBPROCESS_ENV, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pids = []
    try:
        pids = read_pids(pidfile, timeout=120)
        os.killpg(proc.pid, signal.SIGKILL)    # the driver only: the engine runs on the cluster's worker
        proc.wait()
        survivors = [pid for pid in pids if not wait_dead(pid, timeout=120)]
    finally:
        if proc.poll() is None:  # pragma: no cover - clean up after a failure
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for pid in pids:
            if alive(pid):  # pragma: no cover - clean up after a failure
                os.kill(pid, signal.SIGKILL)
    assert not survivors, f"processes {survivors} of the engine outlived the driver"
    assert cluster.client.run(lambda: True)          # the workers live on


@needs_dask
def test_a_local_clusters_workers_leave_ctrl_c_to_the_driver(cluster):
    """The workers of ``--cluster local:N``, those it starts and one started
    later to replace a dead one, ignore SIGINT (the plugin): Ctrl-C in a
    terminal reaches the whole group, and a worker that died of it could not
    stop its game's engines."""
    def ignores_sigint():
        return signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert all(cluster.client.run(ignores_sigint).values())
    before = set(cluster.client.run(os.getpid).values())
    cluster.client.restart()            # new worker processes, started after the cluster
    assert not before & set(cluster.client.run(os.getpid).values())
    assert all(cluster.client.run(ignores_sigint).values())


@needs_dask
def test_a_scheduler_without_workers_is_named_so(capsys):
    """A scheduler no worker has joined yet used to be announced as "1 game
    slot(s)", and the match then waited without a word."""
    import argparse

    import distributed

    from connect6.cli import _open_cluster
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=":0") as empty:
        opened = _open_cluster(argparse.Namespace(cluster=empty.scheduler_address))
        opened.close()
    assert "no worker yet; the games wait until one connects" in capsys.readouterr().err


@needs_dask
def test_ctrl_c_with_no_worker_does_not_wait_for_games_that_never_started(monkeypatch):
    """Ctrl-C waits for games running on the workers to unwind (``UNWIND_S``),
    not for games no worker took: with none connected it returns at once
    (it used to wait the whole ten seconds)."""
    import distributed

    from connect6.match import runner

    class CtrlC(QuietProgress):
        def running(self, statuses):        # the live display's first refresh: the games are queued
            raise KeyboardInterrupt

    monkeypatch.setattr(runner, "UNWIND_S", 3600.0)
    with distributed.LocalCluster(n_workers=0, dashboard_address=":0") as empty, \
            Cluster(distributed.Client(empty)) as c:
        assert c.workers == 0 and not c.executor.busy()
        match = Match(config(4, a="py:pybots:slow", b="py:pybots:nearest"))
        progress = CtrlC()
        ran = threading.Thread(target=match.run, kwargs=dict(executor=c.executor, concurrency=2, progress=progress))
        ran.start()
        ran.join(300)       # the old wait was UNWIND_S, an hour here
        assert not ran.is_alive()
    assert match.interrupted and match.results() == []
    assert any("interrupted: 0 games finished, 2 abandoned" in n for n in progress.notes), progress.notes


@needs_dask
def test_the_executor_says_when_a_worker_runs_a_task(cluster):
    started, release = distributed.Event(client=cluster.client), distributed.Event(client=cluster.client)

    def hold():
        started.set()
        release.wait(300)

    future = cluster.client.submit(hold, pure=False)
    try:
        started.wait(300)
        assert cluster.executor.busy()
    finally:
        release.set()
    future.result(300)
    deadline = time.monotonic() + 120       # a game an earlier test abandoned may still be ending
    while cluster.executor.busy() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not cluster.executor.busy()


@needs_dask
def test_a_cluster_match_ends_without_dask_errors(tmp_path):
    """A plain match on ``--cluster local:2`` ends with a clean stderr: the
    games' stop watches used to leave an event wait pending on the
    scheduler, which closing the cluster logged as an ERROR traceback."""
    import subprocess
    import sys

    from _env import RUN_DIR, SUBPROCESS_ENV
    from _match_helpers import TINY
    done = subprocess.run(
        [sys.executable, "-m", "connect6", "match", TINY, "default:depth=1", "--games", "2", "--cluster", "local:2",
         "--out", str(tmp_path / "m"), "--progress", "plain"],
        cwd=RUN_DIR, env=SUBPROCESS_ENV, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "ERROR" not in done.stderr, done.stderr
