"""connect6.match.game: one game against well-behaved and misbehaving opponents, clocks, forfeits."""
import os
import pickle
import re
import time

import pytest

from _match_helpers import ENGINES, TINY, check_record, cmd, job
from connect6.match import play_game
from connect6.records import replay


def test_job_is_picklable():
    j = job(TINY, "py:pybots:nearest")
    assert pickle.loads(pickle.dumps(j)) == j
    assert j.black.text == TINY and job(TINY, "paper", a_black=False).black.text == "paper"


def test_engine_against_python_bot():
    r = check_record(play_game(job(TINY, "py:pybots:nearest")))
    assert r["termination"] == "six" and r["winner"] in ("a", "b")
    r2 = check_record(play_game(job("py:pybots:nearest_text", TINY, a_black=False)))
    assert r2["a_color"] == "white" and r2["black"] == TINY


def test_records_keep_each_engine_moves_search_report(tmp_path):
    """A game record's ``evals`` hold, for each move an in-process engine
    played, its score for the side that moved, depth and nodes (None for the
    opening and for a Python bot), and the SGF carries them as move comments
    (cutechess's score/depth time) that read_sgf passes over."""
    from connect6.match.store import sgf_text
    from connect6.records import read_sgf
    r = check_record(play_game(job(TINY, "py:pybots:nearest")))
    ours = [e for i, e in enumerate(r["evals"]) if i >= 3 and i % 2 == 0]      # a plays black: turns 4, 6, ...
    assert ours and all(type(e["score"]) is int and e["depth"] == 1 and e["nodes"] >= 1 for e in ours)
    assert all(e is None for i, e in enumerate(r["evals"]) if i % 2 == 1)
    text = sgf_text(r)
    assert len(re.findall(r";[BW]\[[a-s0-9]+\]C\[", text)) == len(r["moves"]) - 3    # every played move
    first = r["evals"][4]
    assert f"W[{r['moves'][3]}]C[{r['times'][3]:.1f}s]" in text                # the bot's: its time alone
    assert f"B[{r['moves'][4]}]C[{first['score']:+d}/1 {r['times'][4]:.1f}s]" in text
    assert [str(m) for m in read_sgf(text)[1]] == r["moves"]
    # a move the reply check expected to lose says so (the search's ``refuted``)
    r["evals"][4] = dict(first, refuted=True)
    assert f"B[{r['moves'][4]}]C[{first['score']:+d}/1 refuted {r['times'][4]:.1f}s]" in sgf_text(r)


def test_games_are_reproducible():
    a = play_game(job(TINY, "paper"))
    b = play_game(job(TINY, "paper"))
    assert a["moves"] == b["moves"] and a["result"] == b["result"]


def test_engine_against_banner_engine():
    r = check_record(play_game(job(TINY, cmd("banner_engine.py"), move_time=5)))
    assert r["names"]["white"] == "banner" and r["termination"] == "six"


@pytest.mark.parametrize("bot, termination", [
    ("raises", "crash"), ("garbage", "malformed"), ("bad_text", "malformed"), ("illegal", "illegal"),
    ("exits", "crash"), ("interrupts", "crash"),
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
    assert r["termination"] == "stall" and "hang timeout" in r["reason"] and time.monotonic() - start < 10


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


def test_a_forfeited_move_takes_its_time_off_the_clock_once():
    r = play_game(job(TINY, "py:pybots:slow_illegal", game_time=10.0))
    assert r["termination"] == "illegal"
    assert r["clock"]["white"] == pytest.approx(10.0 - r["forfeit_time"], abs=0.01)     # 9.8, not 9.6


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


def test_a_players_own_move_time_and_clock():
    # the bot's own time= is its limit although the match has none; the other side is unaffected
    r = play_game(job(TINY, "py:pybots:slow,time=0.05", time_margin=0.05))
    assert r["termination"] == "time" and r["winner"] == "a" and "0.05 s limit" in r["reason"]
    # its own clock; the other side plays without one (no clock recorded for it)
    r = play_game(job(TINY, "py:pybots:slow,clock=0.3", time_margin=0.05))
    assert r["termination"] == "time" and "clock" in r["reason"]
    assert r["clock"]["white"] < 0 and r["clock"]["black"] is None
    # a player's own setting beats the match's
    r = check_record(play_game(job(TINY, "py:pybots:slow,time=5", move_time=0.05, time_margin=0.05)))
    assert r["termination"] == "six"


def test_a_players_own_hang_timeout_and_name():
    start = time.monotonic()
    r = play_game(job(TINY, cmd("hang_engine.py") + ",hang=0.3,name=hangs", hang_timeout=600, time_margin=0.1))
    assert r["termination"] == "stall" and "0.3 s" in r["reason"] and time.monotonic() - start < 10
    assert r["white"] == "hangs" and r["reason"].startswith("white (hangs)")


def test_a_python_bot_that_never_returns_loses_instead_of_holding_the_game():
    """A py: bot that never returns used to hold its game (and the match) for
    ever, whatever the limits: it loses by a stall at the hang timeout, and
    on time under a time control."""
    import sys
    import threading

    from _match_helpers import ENGINES
    sys.path.insert(0, ENGINES)
    import pybots
    pybots.RELEASE = threading.Event()
    results = []

    def games():
        results.append(play_game(job(TINY, "py:pybots:hang", hang_timeout=0.3, time_margin=0.1)))
        results.append(play_game(job(TINY, "py:pybots:hang", move_time=0.1, time_margin=0.1)))
    runner = threading.Thread(target=games, daemon=True)
    runner.start()
    runner.join(300)                            # a regression fails here instead of hanging the suite
    pybots.RELEASE.set()                        # let the abandoned threads end
    assert len(results) == 2, "a game waited for ever for the bot"
    stall, timed = results
    assert stall["termination"] == "stall" and "hang timeout of 0.3 s" in stall["reason"]
    assert timed["termination"] == "timeout" and "did not return within" in timed["reason"]
    assert stall["winner"] == timed["winner"] == "a"


def test_crash_and_stall_are_told_apart():
    crash = play_game(job(TINY, cmd("crash_engine.py", 1), hang_timeout=5))
    stall = play_game(job(TINY, cmd("hang_engine.py"), hang_timeout=0.3, time_margin=0.1))
    slow = play_game(job(TINY, cmd("hang_engine.py"), move_time=0.3, time_margin=0.1))
    assert (crash["termination"], stall["termination"], slow["termination"]) == ("crash", "stall", "timeout")
    assert "exit status 3" in crash["reason"]


def test_cloudict_like_engine_with_init_and_dir(tmp_path):
    (tmp_path / "stub-patterns.txt").write_text("patterns\n")
    log = tmp_path / "log"
    b = cmd("cloudict_like.py", log) + f",dir={tmp_path},init=depth 2,name=cl"
    r = check_record(play_game(job(TINY, b, hang_timeout=30)))
    assert r["termination"] == "six" and r["names"]["white"] == "cloudict-like" and r["white"] == "cl"
    lines = log.read_text().split("\n")
    assert lines[1] == "depth 2" and lines[-2] == "quit"     # told to quit: it never exits on end of input


def test_the_runner_adjudicates_a_six():
    # the engine is never asked after a six on the board: the runner's board ends the game
    r = check_record(play_game(job("py:pybots:nearest", cmd("crash_engine.py", 100))))
    assert r["termination"] == "six" and r["result"] in ("black", "white")
    assert replay(r["moves"]).outcome() is not None


def _play_in_thread(game_job):
    """play_game(game_job) in a thread of its own: (the thread, the list its result goes to)."""
    import threading
    results = []
    runner = threading.Thread(target=lambda: results.append(play_game(game_job)), daemon=True)
    runner.start()
    return runner, results


@pytest.mark.parametrize("when", ["move", "start"])
def test_a_stop_kills_the_external_engine_in_the_middle_of_its_move(tmp_path, when):
    """Ctrl-C on a cluster or on threads: the driver sets the games' stop
    event.  An external engine thinking about its move (here for ever: no
    time control, a ten-minute hang timeout), or still starting (a
    ten-minute start-up allowed), is killed with its children at once, and
    the game ends uncounted (None).  It used to think on until the hang
    timeout, and a cluster worker closed meanwhile left it running."""
    import threading

    from test_protocol import read_pids, wait_dead
    pidfile = tmp_path / "pids"
    stop = threading.Event()
    engine = cmd("hang_engine.py", pidfile) if when == "move" else \
        cmd("hang_engine.py", pidfile, "start") + ",startup=600"
    runner, results = _play_in_thread(job(TINY, engine, hang_timeout=600, stop=stop))
    own, child = read_pids(pidfile)             # started: asked for its move now or in a moment
    stop.set()
    runner.join(120)                            # a regression fails here instead of hanging the suite
    assert results == [None]
    assert wait_dead(own) and wait_dead(child)


def test_a_stop_ends_the_wait_for_a_python_bot():
    """A py: bot that is thinking when the stop comes is not waited for
    (Python cannot stop its thread; the game ends uncounted), and a game
    whose stop came before it started opens no player at all."""
    import sys
    import threading

    sys.path.insert(0, ENGINES)
    import pybots
    pybots.RELEASE, pybots.HANGING = threading.Event(), threading.Event()
    stop = threading.Event()
    try:
        runner, results = _play_in_thread(job("py:pybots:hang", TINY, hang_timeout=600, stop=stop))
        assert pybots.HANGING.wait(120)
        stop.set()
        runner.join(120)
        assert results == [None]
        assert play_game(job(TINY, "cmd:" + os.path.join(ENGINES, "no-such-engine"), stop=stop)) is None
    finally:
        pybots.RELEASE.set()                    # let the abandoned thread end
        pybots.HANGING = None


def test_a_python_bot_abandoned_between_its_turns_is_not_waited_for():
    """abandon() can come before the bot's next turn has begun (the game is
    between turns): that turn must end at once, not wait out the hang
    timeout for a bot that was never called."""
    import threading

    from connect6 import Board
    from connect6.match.players import Forfeit, open_player, parse_player
    player = open_player(parse_player("py:pybots:hang"), ENGINES, 0.1, 10)
    player.abandon()
    ended = threading.Event()

    def turn():
        with pytest.raises(Forfeit, match="abandoned"):
            player.play(Board(), None, 600.0)
        ended.set()
    threading.Thread(target=turn, daemon=True).start()
    assert ended.wait(120)
