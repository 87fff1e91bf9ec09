"""connect6.match results store: games.jsonl survives a crash at any byte, resume never glues records."""
import concurrent.futures
import json
import logging
import os

import pytest

from _match_helpers import QuietProgress
from connect6.match import GAMES_FILE, Match, MatchConfig, parse_player, read_results
from connect6.match.store import ResultsDir, set_aside_torn_line

A, B = "default:depth=1", "paper:depth=1"     # fixed depth: the games are reproducible and cheap
GAMES = 4
TORN = GAMES_FILE + ".torn"
SEED = 11


class ReplayExecutor(concurrent.futures.Executor):
    """Plays each game once, in this process, and hands out the same record when
    the game is asked for again (the games are deterministic at fixed depth), so
    many resumes share one played match."""

    def __init__(self, cache):
        self.cache = cache
        self.games = []

    def submit(self, fn, *args, **kwargs):
        job = args[0]
        self.games.append(job.game)
        if job.game not in self.cache:
            self.cache[job.game] = fn(*args, **kwargs)
        future = concurrent.futures.Future()
        future.set_result(self.cache[job.game])
        return future


def config(games=GAMES):
    return MatchConfig(a=parse_player(A), b=parse_player(B), games=games, seed=SEED)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A real match of GAMES games: (its games.jsonl bytes, its match.json bytes, the record cache)."""
    out = tmp_path_factory.mktemp("played")
    cache = {}
    stats = Match(config(), out=str(out)).run(executor=ReplayExecutor(cache), concurrency=1, progress="none")
    assert stats.games == GAMES
    return (out / GAMES_FILE).read_bytes(), (out / "match.json").read_bytes(), cache


def lines_of(data):
    """Every non-empty line parsed: one record per line, or the test fails."""
    return [json.loads(line) for line in data.split(b"\n") if line.strip()]


def write_dir(path, games_bytes, config_bytes):
    path.mkdir(parents=True, exist_ok=True)
    (path / GAMES_FILE).write_bytes(games_bytes)
    (path / "match.json").write_bytes(config_bytes)
    return path


def test_a_repair_waits_for_the_run_writing_the_folder(played, tmp_path):
    """read_results(repair=True) and set_aside_torn_line cut the last line of a
    games.jsonl: while a run writes the folder that line may be a record being
    written, so they refuse, changing nothing; once it has ended they repair."""
    data, config_bytes, _ = played
    cut = len(data) - 40
    out = write_dir(tmp_path / "m", data[:cut], config_bytes)
    path = str(out / GAMES_FILE)
    running = Match(config(), out=str(out), resume=True)
    running.store.open(running.config_data())          # a run writes the folder (its own torn line set aside)
    (out / GAMES_FILE).write_bytes(data[:cut])           # ... and is writing a record now
    try:
        with pytest.raises(ValueError, match="being written by another run"):
            read_results(path, repair=True)
        with pytest.raises(ValueError, match="being written by another run"):
            set_aside_torn_line(path)
        assert (out / GAMES_FILE).read_bytes() == data[:cut]
    finally:
        running.store.close()
    assert [r["game"] for r in read_results(path, repair=True)] == list(range(1, GAMES))
    assert (out / GAMES_FILE).read_bytes() == data[:data.rfind(b"\n", 0, cut) + 1]


def test_resume_after_a_cut_at_every_byte_of_the_last_two_records(played, tmp_path, monkeypatch):
    data, config_bytes, cache = played
    fsyncs = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: fsyncs.append(fd))   # the disk is not what is tested here
    starts = [0] + [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    assert len(starts) == GAMES + 1 and starts[-1] == len(data)
    first_cut = starts[GAMES - 2]
    for cut in range(first_cut, len(data)):
        prefix = data[:cut]
        out = write_dir(tmp_path / f"cut{cut}", prefix, config_bytes)
        partial = prefix[prefix.rfind(b"\n") + 1:]
        whole = starts.index(cut) if cut in starts else None
        kept = prefix
        torn = b""
        if whole is None:
            try:
                json.loads(partial)
                kept = prefix + b"\n"          # a whole record that lost its newline
            except ValueError:
                torn = partial                 # a record cut short
                kept = prefix[:len(prefix) - len(partial)]
        executor = ReplayExecutor(cache)
        match = Match(config(), out=str(out), resume=True)
        assert (out / GAMES_FILE).read_bytes() == prefix        # reading changes nothing
        stats = match.run(executor=executor, concurrency=1, progress="none")
        after = (out / GAMES_FILE).read_bytes()
        records = lines_of(after)                                 # no line holds two records
        assert sorted(r["game"] for r in records) == list(range(1, GAMES + 1)), cut
        assert stats.games == GAMES
        if executor.games:
            assert after.startswith(kept) and after.endswith(b"\n"), cut
            assert sorted(executor.games) == [r["game"] for r in lines_of(after[len(kept):])], cut
        else:                                  # nothing to play: the file is left as it was
            assert after == prefix and whole is None and not torn, cut
        if torn:
            assert (out / TORN).read_bytes() == torn + b"\n", cut
        else:
            assert not (out / TORN).exists(), cut
        again = Match(config(), out=str(out), resume=True)
        assert again.pending() == []
    assert fsyncs, "a record is fsynced"
    monkeypatch.setattr(os, "fsync", real_fsync)


def test_resume_to_more_games_after_the_final_newline_is_lost(played, tmp_path):
    """The issue's recipe: play 4, drop the final newline, resume to 6."""
    data, config_bytes, cache = played
    out = write_dir(tmp_path / "m", data[:-1], config_bytes)
    Match(config(GAMES + 2), out=str(out), resume=True).run(
        executor=ReplayExecutor(cache), concurrency=1, progress="none")
    records = lines_of((out / GAMES_FILE).read_bytes())
    assert [r["game"] for r in records] == list(range(1, GAMES + 3))
    assert [r["game"] for r in read_results(str(out / GAMES_FILE))] == list(range(1, GAMES + 3))
    assert not (out / TORN).exists()


def test_a_torn_last_line_is_kept_aside_and_its_game_replayed(played, tmp_path, caplog):
    data, config_bytes, cache = played
    cut = len(data) - 40
    out = write_dir(tmp_path / "m", data[:cut], config_bytes)
    (out / TORN).write_bytes(b"older torn bytes\n")               # appended to, never replaced
    executor = ReplayExecutor(cache)
    with caplog.at_level(logging.WARNING):
        match = Match(config(), out=str(out), resume=True)
    assert f"line {GAMES}" in caplog.text and GAMES_FILE in caplog.text
    assert match.pending() == [GAMES]
    match.run(executor=executor, concurrency=1, progress="none")
    assert executor.games == [GAMES]
    assert (out / TORN).read_bytes() == b"older torn bytes\n" + data[data.rfind(b"\n", 0, cut) + 1:cut] + b"\n"
    assert [r["game"] for r in lines_of((out / GAMES_FILE).read_bytes())] == list(range(1, GAMES + 1))


@pytest.mark.parametrize("bad", [b"not json", b'{"game": 2', b"[1, 2]", b'{"pair": 1}', b"\xff\xfe"])
def test_a_bad_line_in_the_middle_is_an_error_and_changes_nothing(played, tmp_path, bad):
    data, config_bytes, _ = played
    lines = data.split(b"\n")
    lines[1] = bad
    broken = b"\n".join(lines)
    out = write_dir(tmp_path / "m", broken, config_bytes)
    with pytest.raises(ValueError, match="line 2"):
        Match(config(), out=str(out), resume=True)
    with pytest.raises(ValueError, match="line 2"):
        read_results(str(out / GAMES_FILE))
    assert (out / GAMES_FILE).read_bytes() == broken
    assert (out / "match.json").read_bytes() == config_bytes
    assert not (out / TORN).exists()


def test_a_record_is_one_whole_line_even_after_a_foreign_edit(played, tmp_path):
    """Whatever the file ends with, the next record starts a line of its own."""
    data, config_bytes, cache = played
    lines = data.split(b"\n")
    out = write_dir(tmp_path / "m", b"\n".join(lines[:2]), config_bytes)   # two games, no final newline
    match = Match(config(), out=str(out), resume=True)
    match.run(executor=ReplayExecutor(cache), concurrency=1, progress="none")
    assert [r["game"] for r in lines_of((out / GAMES_FILE).read_bytes())] == [1, 2, 3, 4]


# ---------------------------------------------------------------- one run at a time
def _granted(lock, fd):
    import fcntl
    try:
        lock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _locks_from_another_process(path, locks):
    """Whether another process gets the lock on ``path`` (flock, or record locks)."""
    import subprocess
    import sys
    how = "lockf" if locks == "per process" else "flock"
    code = ("import fcntl, sys\nf = open(sys.argv[1], 'a+b')\ntry:\n"
            f"    fcntl.{how}(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
            "except OSError:\n    sys.exit(3)\n")
    return subprocess.run([sys.executable, "-c", code, path]).returncode == 0


@pytest.mark.parametrize("locks", ["per open file", "per process"])
def test_a_second_run_on_a_folder_being_written_is_refused(played, tmp_path, monkeypatch, locks):
    """Two runs given one --out used to mix their games (two seeds, two sets of
    openings) in one games.jsonl, the later match.json describing only one.
    On NFS, flock() is emulated with record locks, which belong to the process:
    a second lock taken by the same process succeeds there, so two runs of one
    program (two threads, say) are told apart by the folders it holds."""
    import fcntl

    from connect6.match import store
    _, _, cache = played
    if locks == "per process":      # POSIX record locks, as NFS gives flock(): closing any descriptor drops them
        monkeypatch.setattr(store, "_try_lock", lambda fd, path: _granted(fcntl.lockf, fd))
    out = str(tmp_path / "m")
    first, second = Match(config(), out=out), Match(config(), out=out)    # both see an empty folder
    first.store.open(first.config_data())                                # the first run starts writing
    try:
        display = QuietProgress()
        with pytest.raises(ValueError, match="being written by another run"):
            second.run(executor=ReplayExecutor(cache), concurrency=1, progress=display)
        assert display.closed == 1       # a live display gives the terminal back (rich hid the cursor for good)
        # ... and the first run still holds its lock against another process
        assert not _locks_from_another_process(os.path.join(out, ".lock"), locks)
    finally:
        first.store.close()
    assert not os.path.exists(os.path.join(out, GAMES_FILE))
    display = QuietProgress()
    stats = second.run(executor=ReplayExecutor(cache), concurrency=1, progress=display)   # free again
    assert stats.games == GAMES and display.closed == 1


def test_a_run_whose_folder_got_games_after_it_read_it_is_refused(played, tmp_path):
    data, config_bytes, cache = played
    out = str(tmp_path / "m")
    late = Match(config(), out=out)                                      # reads an empty folder
    Match(config(), out=out).run(executor=ReplayExecutor(cache), concurrency=1, progress="none")
    written = (tmp_path / "m" / GAMES_FILE).read_bytes()
    with pytest.raises(ValueError, match="changed after this run read it"):
        late.run(executor=ReplayExecutor(cache), concurrency=1, progress="none")
    assert (tmp_path / "m" / GAMES_FILE).read_bytes() == written
    # opened without reading it first (the internal API): the cause is named, not "changed after"
    unread = ResultsDir(out)
    with pytest.raises(ValueError, match="holds games this run has not read: call read_games"):
        unread.open({"seed": 1})
    assert (tmp_path / "m" / GAMES_FILE).read_bytes() == written
    # the folder is free again: a resume of it runs (nothing left to play)
    again = Match(config(), out=out, resume=True)
    assert again.run(executor=ReplayExecutor(cache), concurrency=1, progress="none").games == GAMES


def test_a_game_twice_in_the_results_is_an_error_naming_both_lines(played, tmp_path):
    data, config_bytes, _ = played
    lines = [line for line in data.split(b"\n") if line.strip()]
    out = write_dir(tmp_path / "m", b"\n".join(lines + [lines[0], b""]), config_bytes)
    with pytest.raises(ValueError, match=f"lines 1 and {len(lines) + 1}: game 1 twice"):
        Match(config(), out=str(out), resume=True)


def test_deeply_nested_json_is_a_named_error(played, tmp_path):
    data, config_bytes, _ = played
    out = write_dir(tmp_path / "m", data, b"[" * 100_000)
    with pytest.raises(ValueError, match="match.json is not JSON text"):
        Match(config(), out=str(out), resume=True)
    lines = data.split(b"\n")
    out = write_dir(tmp_path / "n", b"\n".join([lines[0], b"[" * 100_000] + lines[1:]), config_bytes)
    with pytest.raises(ValueError, match="line 2: not a game record"):
        Match(config(), out=str(out), resume=True)


def test_a_result_that_cannot_be_written_stops_the_match(played, tmp_path, monkeypatch):
    """A full disk mid-match: the games written are kept, the run stops with
    the error (it used to wait for the running games, then lose them)."""
    import errno

    from connect6.match import store
    _, _, cache = played
    real, calls = store.append_record, []

    def append(path, record):
        calls.append(record["game"])
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, record)

    monkeypatch.setattr(store, "append_record", append)
    out = tmp_path / "m"
    match = Match(config(), out=str(out))
    with pytest.raises(OSError, match="No space left"):
        match.run(executor=ReplayExecutor(cache), concurrency=1, progress="none")
    assert [r["game"] for r in read_results(str(out / GAMES_FILE))] == [1]
    assert calls == [1, 2]                               # nothing written after the failure
    monkeypatch.setattr(store, "append_record", real)
    stats = Match(config(), out=str(out), resume=True).run(executor=ReplayExecutor(cache), concurrency=1,
                                                            progress="none")
    assert stats.games == GAMES


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_an_interrupt_while_a_game_is_written_waits_until_it_is_kept(played, tmp_path, monkeypatch, signame):
    """kill PID (a gauntlet's SIGTERM) or Ctrl-C arriving while a finished game
    is being written: the game is on disk and counted, then the interrupt comes
    (it used to be counted in the table but missing from games.jsonl)."""
    import signal

    from connect6.match import runner, store
    _, _, cache = played
    match = Match(config(), out=str(tmp_path / "m"))
    match.store.open(match.config_data())
    write = store.append_record

    def append_after_a_signal(path, record):
        os.kill(os.getpid(), getattr(signal, signame))
        write(path, record)

    monkeypatch.setattr(store, "append_record", append_after_a_signal)
    # Ctrl-C's usual handler, whatever this process inherited (a job started in the
    # background by a shell without job control starts with SIGINT ignored)
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with runner.stop_on_sigterm(), pytest.raises(KeyboardInterrupt):
            match._save(cache[1])
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert [r["game"] for r in read_results(str(tmp_path / "m" / GAMES_FILE))] == [1]
    assert list(match.records) == [1]


def test_a_process_forked_while_interrupts_are_held_is_not_held():
    """A pool worker forked inside interrupts_held inherits its handler: a
    SIGTERM sent to the worker (the pool being stopped) must reach the
    handler the worker would have had without the block, not be swallowed
    (a worker left alive that way hung strength.py's exit in CI), while the
    process that holds still waits until the block ends."""
    import multiprocessing
    import signal
    import time

    from connect6.match.store import interrupts_held
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Event()
    parent = os.getpid()
    got = []

    def on_sigterm(signum, frame):
        if os.getpid() != parent:
            os._exit(7)          # the child: ended by the handler it inherited from before the block
        got.append(signum)

    def child():
        ready.set()
        while True:
            time.sleep(1)

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    proc = None
    try:
        with interrupts_held():
            proc = ctx.Process(target=child)
            proc.start()
            assert ready.wait(60)
            proc.terminate()
            proc.join(60)
            os.kill(os.getpid(), signal.SIGTERM)
            assert got == []                # held here
        assert got == [signal.SIGTERM]      # and delivered when the block ends
        assert proc.exitcode == 7
    finally:
        signal.signal(signal.SIGTERM, previous)
        if proc is not None and proc.is_alive():   # pragma: no cover - a failure
            proc.kill()
            proc.join()


def test_a_label_with_bytes_that_are_not_utf8_loses_no_game(tmp_path):
    """A label (or an error message) may carry bytes of a file name that are
    not UTF-8: Python holds them as lone surrogates, which UTF-8 cannot
    encode.  The SGF copy writes them as escapes and the game is kept; the
    JSON line keeps the label exactly, so a resume finds the same players
    (writing the SGF used to raise, so no game of such a match was ever saved)."""
    from connect6.records import read_sgf_file
    label = "caf\udce9"                                  # b"caf\xe9" read as a file name is
    cfg = MatchConfig(a=parse_player(f"{A},name={label}"), b=parse_player(B), games=2, seed=SEED)
    out = tmp_path / "m"
    stats = Match(cfg, out=str(out)).run(concurrency=1, progress="none")
    assert stats.games == 2
    records = read_results(str(out / GAMES_FILE))
    assert [r["game"] for r in records] == [1, 2] and {r["black"] for r in records} >= {label}
    for r in records:
        headers, moves = read_sgf_file(str(out / "sgf" / f"game-{r['game']:04d}.sgf"))
        assert len(moves) == len(r["moves"]) and "caf\\udce9" in (headers["PB"], headers["PW"])
    assert Match(cfg, out=str(out), resume=True).pending() == []


@pytest.mark.parametrize("key, value", [("time_margin", 1.0), ("hang_timeout", 5.0), ("opening_order", "random"),
                                        ("sprt", {"elo0": 0, "elo1": 5, "alpha": 0.05, "beta": 0.05})])
def test_a_resume_that_changes_how_games_are_played_is_refused(played, tmp_path, key, value):
    data, config_bytes, _ = played
    stored = json.loads(config_bytes)
    stored[key] = value
    out = write_dir(tmp_path / "m", data, json.dumps(stored).encode())
    with pytest.raises(ValueError, match=f"cannot resume: the stored match has {key} = "):
        Match(config(), out=str(out), resume=True)
    assert (out / "match.json").read_bytes() == json.dumps(stored).encode()


@pytest.mark.parametrize("opening, why", [("j10,j10", "occupied"), ("j10,k", "k"), ("j10,zz99", "zz99")])
def test_a_broken_stored_opening_is_named_when_resuming(played, tmp_path, opening, why):
    data, config_bytes, _ = played
    stored = json.loads(config_bytes)
    stored["pair_openings"][1] = opening
    out = write_dir(tmp_path / "m", data, json.dumps(stored).encode())
    with pytest.raises(ValueError, match=r"match.json, opening 2 of pair_openings .*" + why):
        Match(config(), out=str(out), resume=True)


def test_the_folder_is_free_again_whatever_ends_a_run(played, tmp_path):
    """An error between opening the folder and scheduling (here the executor's
    slot count, which asks a Dask scheduler) used to leave the lock held."""
    _, _, cache = played

    class NoSlots(ReplayExecutor):
        @property
        def slots(self):
            raise TimeoutError("the scheduler did not answer")

    out = str(tmp_path / "m")
    with pytest.raises(TimeoutError):
        Match(config(), out=out).run(executor=NoSlots(cache), progress="none")
    stats = Match(config(), out=out, resume=True).run(executor=ReplayExecutor(cache), concurrency=1,
                                                       progress="none")
    assert stats.games == GAMES


def test_an_error_of_the_display_is_not_called_a_write_error(played, tmp_path):
    from connect6.match import ResultsWriteError
    _, _, cache = played

    class Broken:
        def update(self, record, stats):
            raise BrokenPipeError("the terminal went away")

        def note(self, text):
            pass

        def close(self):
            pass

    with pytest.raises(BrokenPipeError) as caught:
        Match(config(), out=str(tmp_path / "m")).run(executor=ReplayExecutor(cache), concurrency=1,
                                                      progress=Broken())
    assert not isinstance(caught.value, ResultsWriteError)


def test_a_file_system_that_cannot_lock_warns_and_plays(played, tmp_path, monkeypatch, caplog):
    import errno
    import fcntl
    _, _, cache = played

    def no_locks(fd, how):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    with caplog.at_level(logging.WARNING, logger="connect6.match"):
        stats = Match(config(), out=str(tmp_path / "m")).run(executor=ReplayExecutor(cache), concurrency=1,
                                                              progress="none")
    assert stats.games == GAMES
    assert "cannot lock files" in caplog.text


def test_after_a_failed_write_the_same_match_asks_for_a_fresh_read(played, tmp_path, monkeypatch):
    import errno

    from connect6.match import ResultsWriteError, store
    _, _, cache = played
    real = store.append_record

    def full(path, record):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store, "append_record", full)
    match = Match(config(), out=str(tmp_path / "m"))
    with pytest.raises(ResultsWriteError):
        match.run(executor=ReplayExecutor(cache), concurrency=1, progress="none")
    monkeypatch.setattr(store, "append_record", real)
    with pytest.raises(ValueError, match="a write of this run .* failed"):
        match.run(executor=ReplayExecutor(cache), concurrency=1, progress="none")
    assert Match(config(), out=str(tmp_path / "m"), resume=True).run(
        executor=ReplayExecutor(cache), concurrency=1, progress="none").games == GAMES


def test_two_threads_writing_one_file_at_once_each_publish_a_whole_text(tmp_path, monkeypatch):
    """write_file_atomic's temporary file was named by the process alone: two
    threads writing one path shared it, the second truncating the first's
    text, and one rename failed.  Both renames are held until both texts are
    written, so the two writes overlap every time."""
    import threading

    from connect6 import _files
    path = str(tmp_path / "f.json")
    both_written = threading.Barrier(2, timeout=60)
    real_replace = os.replace

    def replace_when_both_written(src, dst):
        both_written.wait()
        real_replace(src, dst)

    monkeypatch.setattr(_files.os, "replace", replace_when_both_written)
    texts, errors = ["a" * 100_000, "b" * 10], []

    def write(text):
        try:
            _files.write_file_atomic(path, text)
        except Exception as exc:  # pragma: no cover - the failure this test is about
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(text,)) for text in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert open(path).read() in texts
    assert os.listdir(tmp_path) == ["f.json"]


def test_a_file_whose_name_is_near_the_limit_is_written(tmp_path):
    """The temporary file was the name plus a suffix: a name of 244 bytes could be opened
    but not written atomically ('File name too long')."""
    from connect6._files import write_file_atomic
    path = tmp_path / ("g" * 250 + ".sgf")
    write_file_atomic(str(path), "(;GM[connect6])\n")
    assert path.read_text() == "(;GM[connect6])\n" and os.listdir(tmp_path) == [path.name]


def test_on_windows_the_lock_is_one_byte_locked_then_unlocked_before_the_close(tmp_path, monkeypatch):
    """msvcrt locks bytes from the file's position, and its documentation asks
    for a region to be unlocked before the file is closed (a lock left to the
    close may outlive it for a while, and an immediate resume would be refused).
    Checked with a stand-in for msvcrt: the calls, not Windows itself."""
    import sys
    import types

    from connect6.match import store
    calls = []
    held = set()

    def locking(fd, mode, nbytes):
        calls.append((mode, os.lseek(fd, 0, os.SEEK_CUR), nbytes))
        key = os.fstat(fd).st_ino
        if mode == 2:
            if key in held:
                raise OSError(36, "Resource deadlock avoided")
            held.add(key)
        else:
            held.discard(key)

    monkeypatch.setitem(sys.modules, "msvcrt", types.SimpleNamespace(LK_UNLCK=0, LK_NBLCK=2, locking=locking))
    monkeypatch.setattr(store, "_WINDOWS", True)
    results = store.ResultsDir(str(tmp_path / "m"))
    results.open({"games": 1})
    results.close()
    again = store.ResultsDir(str(tmp_path / "m"))
    again.open({"games": 1})                         # free again at once
    again.close()
    assert calls == [(2, 0, 1), (0, 0, 1)] * 2
