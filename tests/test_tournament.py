"""connect6.match.tournament: schedules, results, resume, ratings and the summary."""
import concurrent.futures
import json
import os

import pytest

from _match_helpers import ENGINES, OPENING, TINY, check_record
from connect6.match import parse_player
from connect6.match.tournament import TOURNAMENT_FILE, Tournament, TournamentConfig

OPENINGS = [OPENING, "j10,i9,i11,k11,k9"]


def tconfig(players=(TINY, "py:pybots:nearest", "default:depth=1,name=d1"), **kw):
    kw.setdefault("openings", OPENINGS)
    kw.setdefault("seed", 5)
    kw.setdefault("cwd", ENGINES)
    kw.setdefault("games", 2)
    return TournamentConfig([parse_player(p) for p in players], **kw)


def test_schedules():
    rr = Tournament(tconfig(("paper", "local:depth=1", "global:depth=1", "default:depth=1"), games=3))
    assert rr.config.pairings() == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert len(rr.pending()) == rr.total_games == 18                 # 3 games per pairing: the last unpaired
    jobs = [rr.job(g) for g in rr.pending()]
    for i, j in rr.config.pairings():
        mine = [jb for jb in jobs if (jb.a, jb.b) == (rr.config.players[i], rr.config.players[j])]
        assert [jb.a_black for jb in mine] == [True, False, True]     # colour-swapped pairs
        assert [jb.opening for jb in mine] == [OPENINGS[0], OPENINGS[0], OPENINGS[1]]   # the same for all
        assert mine[0].pair == mine[1].pair != mine[2].pair
    assert len({jb.seed for jb in jobs}) == len(jobs)
    g = Tournament(tconfig(("paper", "local:depth=1", "global:depth=1"), format="gauntlet", games=2))
    assert g.config.pairings() == [(0, 1), (0, 2)] and len(g.pending()) == 4


@pytest.mark.parametrize("kw, message", [
    (dict(players=("paper",)), "at least 2"), (dict(format="swiss"), "format"), (dict(games=0), "games"),
    (dict(anchor="nobody"), "anchor"), (dict(move_time=-1), "move-time"), (dict(anchor="7"), "anchor"),
])
def test_bad_config(kw, message):
    with pytest.raises(ValueError, match=message):
        tconfig(**kw)


def test_same_names_are_told_apart_and_anchor_by_name_or_place():
    cfg = tconfig(("paper", "paper", "local:depth=1"), anchor="3")
    assert [p.label for p in cfg.players] == ["paper #1", "paper #2", "local:depth=1"]
    assert cfg.anchor_index() == 2
    assert tconfig(anchor="d1").anchor_index() == 2


def test_a_tournament_played_and_resumed(tmp_path):
    out = str(tmp_path / "t")
    t = Tournament(tconfig(games=4, anchor="d1"), out=out)
    with concurrent.futures.ThreadPoolExecutor(2) as executor:
        fit = t.run(executor=executor, concurrency=2, progress="none")
    assert len(t.results()) == 12 and t.failures == 0
    lines = [json.loads(x) for x in open(os.path.join(out, "games.jsonl"))]
    assert sorted(r["game"] for r in lines) == list(range(1, 13))
    for r in lines:
        check_record(r, opening=None)
        i, j = r["pairing"]
        assert (r["a"], r["b"]) == (t.config.players[i].text, t.config.players[j].text)
    assert os.path.exists(os.path.join(out, TOURNAMENT_FILE)) and len(os.listdir(os.path.join(out, "sgf"))) == 12
    points, games = t.table()
    assert games.sum() == 24 and points.sum() == 12 and (games == games.T).all()
    assert fit.elo[2] == 0 and fit.anchor == 2
    text = t.summary()
    assert "Cross-table" in text and "d1" in text and "pairs [" in text
    for k in range(3):
        assert t.pairing_stats(k).games == 4 and t.pairing_stats(k).pairs == 2
    # resume: nothing to play; a torn last line is played again
    with open(os.path.join(out, "games.jsonl"), "rb+") as fh:
        data = fh.read()
        fh.seek(0)
        fh.truncate()
        fh.write(data[:-40])
    again = Tournament(tconfig(games=4, anchor="d1"), out=out, resume=True)
    assert len(again.pending()) == 1
    with concurrent.futures.ThreadPoolExecutor(1) as executor:
        again.run(executor=executor, concurrency=1, progress="none")
    assert len(Tournament(tconfig(games=4), out=out, resume=True).pending()) == 0
    with pytest.raises(ValueError, match="already holds"):
        Tournament(tconfig(games=4), out=out)
    with pytest.raises(ValueError, match="players"):
        Tournament(tconfig(("paper", "py:pybots:nearest", "default:depth=1,name=d1"), games=4), out=out, resume=True)
    # resumed with fewer games a pairing: the stored games past them are not counted
    # (it said "12 of 6 games" and fitted the ratings on all 12)
    fewer = Tournament(tconfig(games=2, anchor="d1"), out=out, resume=True)
    assert fewer.pending() == [] and len(fewer.results()) == 6
    assert all(fewer.pairing_stats(k).games == 2 for k in range(3)) and fewer.table()[1].sum() == 12
    assert "6 of 6 games" in fewer.summary()


def test_kill_pid_before_a_tournament_schedules_returns_interrupted(tmp_path, monkeypatch):
    """SIGTERM (with stop_on_sigterm) while the tournament opens its folder and
    progress: run() returns, interrupted, nothing played (as Match.run does)."""
    import signal

    from connect6.match import runner
    original = runner.make_progress

    def signalled(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGTERM)
        return original(*args, **kwargs)

    monkeypatch.setattr(runner, "make_progress", signalled)
    t = Tournament(tconfig(games=2), out=str(tmp_path / "t"))
    with runner.stop_on_sigterm():
        t.run(concurrency=1, progress="plain")
    assert t.interrupted and t.results() == []


def test_players_keep_distinct_names():
    """Equal players are numbered (#1, #2); a name= that equals such a number
    used to give two players one name in the tables: it is refused."""
    same = tconfig(("paper:depth=1", "paper:depth=1", "plain:depth=1"))
    assert [p.label for p in same.players][:2] == ["paper:depth=1 #1", "paper:depth=1 #2"]
    with pytest.raises(ValueError, match="two players are named 'paper:depth=1 #2'"):
        tconfig(("paper:depth=1", "paper:depth=1", "plain:depth=1,name=paper:depth=1 #2"))


def test_a_match_directory_is_not_a_tournament(tmp_path):
    from _match_helpers import config
    from connect6.match import Match
    out = str(tmp_path / "m")
    with concurrent.futures.ThreadPoolExecutor(1) as executor:
        Match(config(2), out=out).run(executor=executor, progress="none")
    with pytest.raises(ValueError, match="tournament.json is missing"):
        Tournament(tconfig(), out=out, resume=True)


def test_no_ratings_until_the_players_are_linked():
    t = Tournament(tconfig())
    assert t.ratings() is None and "no ratings yet" in t.summary()


def run_cli(*args, cwd=ENGINES):
    import subprocess
    import sys
    from _env import subprocess_env  # the child imports the package the tests imported (installed in CI)
    return subprocess.run([sys.executable, "-m", "connect6", *args], cwd=cwd, env=subprocess_env(),
                          capture_output=True, text=True, timeout=300)


def test_command_line(tmp_path):
    out = str(tmp_path / "t")
    p = run_cli("tournament", TINY, "py:pybots:nearest", "default:depth=1,name=d1", "--format", "gauntlet",
                "--games", "2", "--concurrency", "1", "--seed", "3", "--out", out, "--progress", "none",
                "--anchor", "d1", "--anchor-elo", "1000")
    assert p.returncode == 0, p.stderr
    assert "Cross-table" in p.stdout and "gauntlet" in p.stdout and "1000" in p.stdout
    assert len(open(os.path.join(out, "games.jsonl")).readlines()) == 4
    p = run_cli("tournament", TINY, "cmd:./no-such-engine,name=x", "--out", str(tmp_path / "u"))
    assert p.returncode == 2 and "no-such-engine" in p.stderr and not os.path.exists(tmp_path / "u")
    p = run_cli("tournament", TINY, "--out", str(tmp_path / "u"))
    assert p.returncode == 2 and "at least 2" in p.stderr
