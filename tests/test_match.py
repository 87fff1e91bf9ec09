"""connect6.match: players, games against misbehaving opponents, statistics, SPRT, the runner, resume."""
import concurrent.futures
import json
import math
import os
import pickle
import sys
import time

import pytest

from _env import RUN_DIR, SUBPROCESS_ENV  # noqa: E402
from connect6.engine import PROFILES, SCANS
from connect6.match import (
    GAMES_FILE, PENTA_SCORES, SGF_DIR, TRI_SCORES, GameJob, Match, MatchConfig, SprtParams, check_player,
    compute_stats, elo_from_score, format_summary, load_openings, los, parse_player, play_game,
    random_openings, read_results, score_from_elo, sprt_llr,
)
from connect6.records import read_sgf, replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINES = os.path.join(ROOT, "tests", "engines")
TINY = "local:depth=1,width=3"
OPENING = "j10,j9,k11,k10,l10"


def cmd(name, *args):
    parts = [sys.executable, os.path.join(ENGINES, name)] + [str(a) for a in args]
    return "cmd:" + " ".join(parts)


def job(a, b, a_black=True, **kw):
    kw.setdefault("cwd", ENGINES)
    return GameJob(game=1, pair=1, a=parse_player(a), b=parse_player(b), a_black=a_black, opening=OPENING,
                   seed=1, **kw)


# ---------------------------------------------------------------- players
def test_parse_builtin_players():
    p = parse_player("local:depth=3,width=10")
    assert p.kind == "engine" and dict(p.options) == {"profile": "paper", "scan": "local", "depth": 3, "width": 10}
    p = parse_player("global:depth=3,width=10,time=2")
    assert dict(p.options)["time"] == 2.0
    # a scan name is the paper's engine with that scan: local and global differ only in scanning
    from connect6.match import _make_engine
    local, glob = _make_engine(parse_player("local")), _make_engine(parse_player("global"))
    assert local.options == glob.options == _make_engine(parse_player("paper")).options
    assert (local.scan, glob.scan) == ("local", "global")
    assert parse_player("paper").options == (("profile", "paper"),)
    assert dict(parse_player("default:time=1").options) == {"profile": "default", "time": 1.0}
    assert dict(parse_player("paper:scan=global,radius=3").options)["scan"] == "global"


def test_engine_keyword_options_pass_through():
    base = PROFILES["default"]
    for key, value in base.items():
        if key in ("depth", "width", "scan", "radius", "weights"):
            continue
        text = str(value).lower() if isinstance(value, bool) else str(value)
        assert dict(parse_player(f"default:{key}={text}").options)[key] == value
    with pytest.raises(ValueError, match="no_such_option"):
        parse_player("default:no_such_option=1")


def test_every_profile_and_scan_is_a_player():
    for name in list(PROFILES) + list(SCANS):
        assert parse_player(name).kind == "engine"


def test_parse_external_and_python_players():
    p = parse_player('cmd:"./engine --flag x"')
    assert p.kind == "cmd" and p.argv == ("./engine", "--flag", "x")
    assert parse_player("cmd:./engine --flag").argv == ("./engine", "--flag")
    p = parse_player("py:package.module:function")
    assert p.kind == "py" and p.target == "package.module:function"


@pytest.mark.parametrize("text", [
    "", "nope", "local:depth=x", "local:depth=0", "local:depth", "local:colour=red", "local:time=0",
    "local:time=-1", "local:scan=fast", "paper:profile=nope", "cmd:", 'cmd:"unclosed', "py:module",
    "py::f", "py:mod:", "py:1mod:f", "local:depth=1,depth=2",
])
def test_bad_players(text):
    with pytest.raises(ValueError):
        parse_player(text)


def test_check_player():
    check_player(parse_player("py:pybots:nearest"), cwd=ENGINES)
    with pytest.raises(ValueError, match="cannot import"):
        check_player(parse_player("py:no_such_module_here:f"), cwd=ENGINES)
    with pytest.raises(ValueError, match="has no"):
        check_player(parse_player("py:pybots:missing"), cwd=ENGINES)
    with pytest.raises(ValueError):
        check_player(parse_player("cmd:./no-such-engine"), cwd=ENGINES)
    with pytest.raises(ValueError):
        check_player(parse_player("cmd:no-such-engine-on-the-path"))
    check_player(parse_player(cmd("banner_engine.py")))


def test_job_is_picklable():
    j = job(TINY, "py:pybots:nearest")
    assert pickle.loads(pickle.dumps(j)) == j
    assert j.black.text == TINY and job(TINY, "paper", a_black=False).black.text == "paper"


# ---------------------------------------------------------------- single games
def check_record(r, opening=OPENING, moves_replay=True):
    assert r["result"] in ("black", "white", "draw")
    assert len(r["times"]) == len(r["moves"])
    assert r["times"][:3] == [None, None, None] and r["opening"] == (opening or r["opening"])
    assert json.loads(json.dumps(r)) == r
    if moves_replay:
        board = replay(r["moves"])
        if r["termination"] == "six":
            assert str(board.outcome().winner) == r["result"]
    return r


def test_engine_against_python_bot():
    r = check_record(play_game(job(TINY, "py:pybots:nearest")))
    assert r["termination"] == "six" and r["winner"] in ("a", "b")
    r2 = check_record(play_game(job("py:pybots:nearest_text", TINY, a_black=False)))
    assert r2["a_color"] == "white" and r2["black"] == TINY


def test_games_are_reproducible():
    a = play_game(job(TINY, "paper"))
    b = play_game(job(TINY, "paper"))
    assert a["moves"] == b["moves"] and a["result"] == b["result"]


def test_engine_against_banner_engine():
    r = check_record(play_game(job(TINY, cmd("banner_engine.py"), move_time=5)))
    assert r["names"]["white"] == "banner" and r["termination"] == "six"


@pytest.mark.parametrize("bot, termination", [
    ("raises", "crash"), ("garbage", "malformed"), ("bad_text", "malformed"), ("illegal", "illegal"),
])
def test_python_bot_failures(bot, termination):
    r = check_record(play_game(job(TINY, f"py:pybots:{bot}")))
    assert r["termination"] == termination and r["winner"] == "a" and r["result"] == "black"
    assert "white (py:pybots:" in r["reason"]


@pytest.mark.parametrize("engine, termination", [
    (("crash_engine.py", 1), "crash"),
    (("illegal_engine.py", "occupied"), "illegal"),
    (("illegal_engine.py", "count"), "illegal"),
    (("malformed_engine.py", "lower"), "malformed"),
    (("malformed_engine.py", "short"), "malformed"),
    (("hang_engine.py",), "timeout"),
])
def test_external_failures(engine, termination):
    start = time.monotonic()
    r = check_record(play_game(job(TINY, cmd(*engine), a_black=False, move_time=0.3, time_margin=0.1)))
    assert time.monotonic() - start < 10
    assert r["termination"] == termination, r["reason"]
    assert r["winner"] == "a" and r["result"] == "white"
    assert r["reason"].startswith("black (cmd:")
    if termination in ("illegal", "malformed"):
        assert r["loser_move"].startswith("move")
    if engine[0] == "crash_engine.py":
        assert len(r["moves"]) > 4     # it played a move first


def test_external_engine_that_cannot_start():
    r = play_game(job(TINY, "cmd:" + os.path.join(ENGINES, "no-such-engine")))
    assert r["winner"] == "a" and r["termination"] == "crash" and "failed to start" in r["reason"]


def test_hang_without_time_control_uses_the_hang_timeout():
    start = time.monotonic()
    r = play_game(job(TINY, cmd("hang_engine.py"), hang_timeout=0.4, time_margin=0.1))
    assert r["termination"] == "timeout" and time.monotonic() - start < 10


def test_no_process_left_behind(tmp_path):
    from test_protocol import read_pids, wait_dead
    pidfile = tmp_path / "pids"
    r = play_game(job(TINY, cmd("hang_engine.py", pidfile), move_time=0.2, time_margin=0.1))
    assert r["termination"] == "timeout"
    own, child = read_pids(pidfile)
    assert wait_dead(own) and wait_dead(child)


def test_game_clock():
    r = play_game(job(TINY, "py:pybots:slow", game_time=0.3, time_margin=0.05))
    assert r["termination"] == "time" and r["winner"] == "a"
    assert r["clock"]["white"] < 0 and r["clock"]["black"] > 0
    assert "clock" in r["reason"]


def test_move_time_overrun_by_a_bot():
    r = play_game(job(TINY, "py:pybots:slow", move_time=0.05, time_margin=0.05))
    assert r["termination"] == "time" and "limit" in r["reason"]


def test_builtin_engines_get_the_move_time():
    start = time.monotonic()
    r = play_game(job("default", "py:pybots:nearest", move_time=0.05))
    assert r["termination"] == "six"
    played = [t for t in r["times"][3::2] if t is not None]   # black's own turns (a plays black)
    assert played and max(played) < 1.0
    assert time.monotonic() - start < 10


# ---------------------------------------------------------------- openings
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
    for name in ("openings.txt", "openings-human.txt"):
        assert len(load_openings(os.path.join(ROOT, "data", name))) >= 40


def test_random_openings():
    a = random_openings(5, seed=3)
    assert a == random_openings(5, seed=3) and a != random_openings(5, seed=4)
    for text in a:
        board = replay(text.split(",")[:1] + [text.split(",")[i] + text.split(",")[i + 1] for i in (1, 3)])
        assert len(board.move_stack) == 3 and not board.is_game_over()


# ---------------------------------------------------------------- statistics
def test_elo_and_score():
    assert elo_from_score(0.5) == 0
    assert elo_from_score(1) == math.inf and elo_from_score(0) == -math.inf
    for elo in (-400, -35.5, 0, 100, 800):
        assert score_from_elo(elo) == pytest.approx(1 / (1 + 10 ** (-elo / 400)))
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)
    assert elo_from_score(0.75) == pytest.approx(190.848, abs=1e-3)


def test_los():
    assert los(0, 0) == 0.5 and los(5, 5) == 0.5
    assert los(10, 0) > 0.99 and los(0, 10) < 0.01
    assert los(12, 8) == pytest.approx(0.8145, abs=1e-4)


def rec(game, winner, result="black", termination="six"):
    return {"game": game, "pair": (game + 1) // 2, "winner": winner, "result": result, "termination": termination}


def test_compute_stats_and_pentanomial():
    records = [rec(1, "a"), rec(2, "a", "white"),          # WW
               rec(3, "a"), rec(4, "b", "black"),          # WL
               rec(5, None, "draw", "board_full"), rec(6, None, "draw", "board_full"),   # DD
               rec(7, "b", "white", "timeout"), rec(8, None, "draw", "board_full"),      # LD
               rec(9, "a")]                                # unpaired
    s = compute_stats(records)
    assert (s.wins, s.losses, s.draws, s.games) == (4, 2, 3, 9)
    assert s.penta == (0, 1, 2, 0, 1) and s.pairs == 4
    assert s.score == pytest.approx(5.5 / 9)
    assert s.forfeits == {"a": {"timeout": 1}, "b": {}}
    assert (s.black_wins, s.white_wins) == (4, 2)
    elo, lo, hi, model = s.elo_estimate()
    assert model == "pentanomial" and lo < elo < hi
    assert elo == pytest.approx(elo_from_score(4.5 / 8))     # the complete pairs: WW 2 + WL 1 + DD 1 + LD 0.5
    text = format_summary(s, "A", "B")
    assert "4 - 2 - 3" in text and "[0, 1, 2, 0, 1]" in text and "A lost by forfeit: timeout 1" in text


def test_trinomial_interval_without_pairs():
    s = compute_stats([rec(1, "a"), rec(3, "b")])
    elo, lo, hi, model = s.elo_estimate()
    assert model == "trinomial" and lo < elo == 0 < hi
    assert math.isnan(compute_stats([rec(1, "a"), rec(2, "a")]).elo_estimate()[1])   # no spread: no interval


def test_interval_shrinks_with_more_games():
    few = compute_stats([rec(g, "a" if g % 3 else "b") for g in range(1, 21)])
    many = compute_stats([rec(g, "a" if g % 3 else "b") for g in range(1, 201)])
    width = lambda s: s.elo_estimate()[2] - s.elo_estimate()[1]   # noqa: E731
    assert width(many) < width(few)


def test_sprt_llr_matches_the_normal_approximation_on_large_samples():
    counts = [100, 200, 400, 250, 150]
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, PENTA_SCORES)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PENTA_SCORES)) / n
    s0, s1 = score_from_elo(0), score_from_elo(10)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert sprt_llr(counts, 0, 10) == pytest.approx(approx, rel=0.03)


def test_sprt_llr_properties():
    assert sprt_llr([0, 0, 0, 0, 0], 0, 10) == 0
    assert sprt_llr([0, 0, 0, 0, 1], 0, 10) < 0.1          # one pair decides nothing
    assert sprt_llr([0, 0, 0, 0, 30], 0, 100) > 2.94       # but thirty won pairs do
    assert sprt_llr([30, 0, 0, 0, 0], 0, 100) < -2.94
    assert sprt_llr([1, 2, 4, 2, 1], -10, 10) == pytest.approx(0, abs=1e-9)   # symmetric
    assert sprt_llr([10, 5, 10], -50, 50, TRI_SCORES) == pytest.approx(0, abs=1e-9)
    assert sprt_llr([5, 5, 20], 0, 50, TRI_SCORES) > 0 > sprt_llr([20, 5, 5], 0, 50, TRI_SCORES)
    assert sprt_llr([0, 5, 10, 20, 10], 0, 50) > sprt_llr([0, 5, 10, 20, 10], 0, 5)


def test_sprt_params():
    p = SprtParams(0, 10, 0.05, 0.05)
    assert p.lower == pytest.approx(math.log(0.05 / 0.95)) and p.upper == pytest.approx(math.log(0.95 / 0.05))
    for bad in [(10, 0), (0, 10, 0, 0.05), (0, 10, 0.05, 0.6)]:
        with pytest.raises(ValueError):
            SprtParams(*bad)
    s = compute_stats([rec(g, "a", "black" if g % 2 else "white") for g in range(1, 61)], SprtParams(0, 100))
    assert s.sprt.decision == "H1" and "H1 was accepted" in format_summary(s, "A", "B")


# ---------------------------------------------------------------- the runner
def config(games=4, **kw):
    kw.setdefault("openings", [OPENING, "j10,i9,i11,k11,k9"])
    kw.setdefault("seed", 5)
    kw.setdefault("cwd", ENGINES)
    return MatchConfig(a=parse_player(kw.pop("a", TINY)), b=parse_player(kw.pop("b", "py:pybots:nearest")),
                       games=games, **kw)


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


def test_plain_progress_lines(tmp_path, capsys):
    Match(config(2)).run(concurrency=1, progress="plain")
    err = capsys.readouterr().err
    assert "[1/2] game 1:" in err and "[2/2] game 2:" in err


def test_self_play_labels():
    cfg = config(2, a="paper", b="paper")
    assert cfg.a.label != cfg.b.label


def test_bad_config():
    with pytest.raises(ValueError):
        config(0)
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


def test_tqdm_progress_is_used_when_asked(monkeypatch):
    import types
    calls = []

    class FakeBar:
        def __init__(self, **kw):
            calls.append(("init", kw["total"], kw["initial"]))

        def update(self, n):
            calls.append(("update", n))

        def set_postfix_str(self, text):
            calls.append(("postfix", text))

        def write(self, text, file=None):
            calls.append(("write", text))

        def close(self):
            calls.append(("close",))

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeBar))
    Match(config(2)).run(concurrency=1, progress="tqdm")
    assert calls[0] == ("init", 2, 0) and calls[-1] == ("close",)
    assert [c for c in calls if c[0] == "update"] == [("update", 1)] * 2


def test_missing_progress_library(monkeypatch):
    from connect6.match import make_progress
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setitem(sys.modules, "rich.progress", None)
    with pytest.raises(ValueError, match="tqdm"):
        make_progress("tqdm", 2, 0)
    with pytest.raises(ValueError, match="rich"):
        make_progress("rich", 2, 0)
    assert make_progress("auto", 2, 0).__class__.__name__ == "_PlainProgress"
    with pytest.raises(ValueError):
        make_progress("fancy", 2, 0)


def test_a_dead_worker_process_does_not_stop_the_match(tmp_path):
    out = str(tmp_path / "m")
    match = Match(config(4, b="py:pybots:die"), out=out)
    stats = match.run(concurrency=2, progress="none")
    assert match.failures == 4 and stats.games == 0          # nothing recorded: --resume will replay them
    assert not os.path.exists(os.path.join(out, GAMES_FILE)) or not read_results(os.path.join(out, GAMES_FILE))
