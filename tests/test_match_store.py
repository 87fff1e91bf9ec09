"""connect6.match results store: games.jsonl survives a crash at any byte, resume never glues records."""
import concurrent.futures
import json
import logging
import os

import pytest

from connect6.match import GAMES_FILE, Match, MatchConfig, parse_player, read_results

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
    out = write_dir(tmp_path / "m", b"\n".join(lines[:2]) + b"\n", config_bytes)   # two games
    match = Match(config(), out=str(out), resume=True)
    (out / GAMES_FILE).write_bytes(b"\n".join(lines[:2]))       # the newline is lost after loading
    match.run(executor=ReplayExecutor(cache), concurrency=1, progress="none")
    assert [r["game"] for r in lines_of((out / GAMES_FILE).read_bytes())] == [1, 2, 3, 4]


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
