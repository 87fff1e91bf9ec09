"""connect6.match.game: one game against well-behaved and misbehaving opponents, clocks, forfeits."""
import os
import pickle
import time

import pytest

from _match_helpers import ENGINES, TINY, check_record, cmd, job
from connect6.match import play_game


def test_job_is_picklable():
    j = job(TINY, "py:pybots:nearest")
    assert pickle.loads(pickle.dumps(j)) == j
    assert j.black.text == TINY and job(TINY, "paper", a_black=False).black.text == "paper"


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
