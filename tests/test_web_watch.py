"""connect6.web.watch: reading a match results directory while it grows."""
import concurrent.futures
import json

from connect6 import match as m
from connect6.web.watch import MatchWatcher


def _record(game, result="black", moves=("j10", "a1a3", "k10l10", "a5a7", "m10n10", "a9a11", "o10")):
    a_black = game % 2 == 1
    winner = None if result == "draw" else "a" if (result == "black") == a_black else "b"
    return {"game": game, "pair": (game + 1) // 2, "a": "pa", "b": "pb", "black": "pa" if a_black else "pb",
            "white": "pb" if a_black else "pa", "a_color": "black" if a_black else "white", "opening": "j10",
            "moves": list(moves), "result": result, "winner": winner, "termination": "six", "reason": "six"}


def test_an_empty_or_missing_directory(tmp_path):
    snap = MatchWatcher(tmp_path / "nothing").snapshot()
    assert snap["games"] == [] and snap["summary"] == "no games yet" and snap["exists"] is False
    snap = MatchWatcher(tmp_path).snapshot()
    assert snap["exists"] is True and snap["problem"] is None and snap["total"] is None


def test_a_real_match_directory(tmp_path):
    out = tmp_path / "match"
    config = m.MatchConfig(a=m.parse_player("paper:depth=1"), b=m.parse_player("plain:depth=1,width=4"),
                           games=2, seed=3)
    match = m.Match(config, out=str(out))
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        stats = match.run(executor=pool, progress="none")
    snap = MatchWatcher(out).snapshot()
    assert snap["summary"] == m.format_summary(stats, config.a.label, config.b.label)
    assert snap["total"] == 2 and snap["config"]["seed"] == 3
    assert [g["game"] for g in snap["games"]] == [1, 2]
    for g, r in zip(snap["games"], match.results()):
        assert g["moves"] == r["moves"] and g["result"] == r["result"] and g["black"] == r["black"]
        if r["termination"] == "six":
            assert len(g["line"]) >= 6 and all(len(c) >= 2 for c in g["line"])


def test_the_watcher_follows_appends_and_skips_broken_lines(tmp_path):
    (tmp_path / "match.json").write_text(json.dumps({"a": "pa", "b": "pb", "games": 4,
                                                     "sprt": {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05}}))
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(_record(1)) + "\n" + '{"game": 2, "pair"')     # the match is writing game 2
    w = MatchWatcher(tmp_path)
    snap = w.snapshot()
    assert [g["game"] for g in snap["games"]] == [1] and snap["skipped_lines"] == 1
    assert snap["summary"].startswith("Score of pa vs pb: 1 - 0 - 0") and "SPRT: elo0 0" in snap["summary"]
    assert snap["games"][0]["line"] == ["j10", "k10", "l10", "m10", "n10", "o10"]
    assert w.snapshot()["games"] is snap["games"]          # unchanged files: the cached snapshot
    games.write_text(json.dumps(_record(1)) + "\n" + json.dumps(_record(2)) + "\n"
                     + "not json\n" + json.dumps({"game": "x"}) + "\n" + json.dumps(_record(3, "draw")) + "\n")
    snap = w.snapshot()
    assert [g["game"] for g in snap["games"]] == [1, 2, 3] and snap["skipped_lines"] == 2
    assert "1 - 1 - 1" in snap["summary"]


def test_a_broken_config_is_reported_not_fatal(tmp_path):
    (tmp_path / "match.json").write_text("{broken")
    (tmp_path / "games.jsonl").write_text(json.dumps(_record(1, moves=("j10", "j10k10"))) + "\n")
    snap = MatchWatcher(tmp_path).snapshot()
    assert snap["problem"].startswith("match.json:") and snap["a"] == "pa"
    assert snap["games"][0]["line"] == []                  # an unplayable move list has no six
    (tmp_path / "match.json").write_text(json.dumps({"sprt": {"elo0": 5, "elo1": 1}}))
    snap = MatchWatcher(tmp_path).snapshot()
    assert "bad sprt" in snap["problem"] and snap["summary"].startswith("Score of pa vs pb")


def _status(game, turns, moves=None, clock=None, to_move="white"):
    out = {"game": game, "black": "pa", "white": "pb", "turns": turns, "to_move": to_move, "clock": clock}
    if moves is not None:
        out["moves"] = moves
    return out


def test_running_games_are_read_from_running_json(tmp_path):
    (tmp_path / "match.json").write_text(json.dumps({"a": "pa", "b": "pb", "games": 4}))
    (tmp_path / "games.jsonl").write_text(json.dumps(_record(1)) + "\n")
    w = MatchWatcher(tmp_path)
    assert w.snapshot()["running"] == [] and w.snapshot()["running_updated"] is None
    (tmp_path / "running.json").write_text(json.dumps({"updated": 1700000000.5, "games": [
        _status(3, 2, ["j10", "k11i11"], {"black": 41.5, "white": None}, to_move="black"),
        _status(1, 7),                                     # finished meanwhile: not running
        _status(2, 1, ["j10"]),
        {"game": "x"}, _status(4, 1, [3]), 5,              # broken statuses are skipped
    ]}))
    snap = w.snapshot()
    assert [g["game"] for g in snap["running"]] == [2, 3] and snap["running_updated"] == 1700000000.5
    assert snap["running"][1] == {"game": 3, "black": "pa", "white": "pb", "turns": 2, "to_move": "black",
                                  "clock": {"black": 41.5, "white": None}, "moves": ["j10", "k11i11"]}
    assert snap["running"][0]["clock"] is None and snap["now"] > 1700000000
    (tmp_path / "running.json").write_text("{broken")       # being rewritten: no running games, no error
    assert w.snapshot()["running"] == [] and w.snapshot()["problem"] is None


def test_the_runners_own_statuses_fit(tmp_path):
    """The runner writes running.json before it hands the statuses to a display:
    the watcher reads every running game from it, with the moves so far."""
    out = tmp_path / "match"
    seen = []

    class Display:
        def update(self, record, stats):
            pass

        def note(self, text):
            pass

        def close(self):
            pass

        def running(self, statuses):
            snap = MatchWatcher(out).snapshot()["running"]
            assert [g["game"] for g in snap] == [s["game"] for s in statuses]
            seen.extend(snap)

    config = m.MatchConfig(a=m.parse_player("paper:depth=1"), b=m.parse_player("plain:depth=1,width=4"),
                           games=2, seed=3)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        m.Match(config, out=str(out)).run(executor=pool, progress=Display())
    assert seen, "the runner showed no running game"
    assert all(g["turns"] >= 0 and g["to_move"] in ("black", "white") and len(g["moves"]) == g["turns"]
               for g in seen)
    assert not (out / "running.json").exists()              # removed when nothing runs any more
    assert {g["black"] for g in seen} <= {config.a.label, config.b.label}


def test_a_tournament_directory(tmp_path):
    out = tmp_path / "t"
    players = [m.parse_player(p) for p in ("paper:depth=1", "plain:depth=1,width=4", "global:depth=1")]
    t = m.Tournament(m.TournamentConfig(players, format="round-robin", games=2, seed=1), out=str(out))
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        t.run(executor=pool, progress="none")
    snap = MatchWatcher(out).snapshot()
    assert snap["kind"] == "tournament" and snap["total"] == 6 and len(snap["games"]) == 6
    lines = snap["summary"].splitlines()
    assert lines[0] == "Standings:" and len([x for x in lines if x.startswith("  ")]) == 3
    points = sum(float(x.split(": ")[1].split(" / ")[0]) for x in lines[1:4])
    assert points == 6                                     # one point a game
    assert len([x for x in lines if x.startswith("Score of ")]) == 3   # one line per pairing


def test_running_json_follows_a_game_in_progress(tmp_path):
    """While a game waits for a bot's move, running.json in the match folder
    holds it with its moves; when the match ends the file is gone."""
    import sys
    import threading
    import time

    from _match_helpers import ENGINES, OPENING, TINY
    from connect6.records import parse_stone_list, replay
    sys.path.insert(0, ENGINES)
    import pybots
    pybots.GATE = threading.Event()
    out = tmp_path / "m"
    config = m.MatchConfig(a=m.parse_player("py:pybots:gated"), b=m.parse_player(TINY), games=1, seed=1,
                           openings=[OPENING], cwd=ENGINES)
    pool = concurrent.futures.ThreadPoolExecutor(1)
    runner = threading.Thread(target=lambda: m.Match(config, out=str(out)).run(executor=pool, progress="none"))
    runner.start()
    try:
        deadline = time.monotonic() + 120          # a guard against a hang, not a speed assertion
        running = []
        while not running and time.monotonic() < deadline:
            running = MatchWatcher(out).snapshot()["running"]
            if not running:
                time.sleep(0.05)
        assert running, "running.json never showed the game"
        game = running[0]
        opening = replay(parse_stone_list(OPENING))
        assert game["moves"][:len(opening.move_stack)] == [str(t) for t in opening.move_stack]
        assert game["turns"] == len(game["moves"]) > len(opening.move_stack) - 1
    finally:
        pybots.GATE.set()
        runner.join()
        pool.shutdown()
        pybots.GATE = None
    assert not (out / "running.json").exists()
    assert len(MatchWatcher(out).snapshot()["games"]) == 1


def test_numbers_json_cannot_send_are_dropped_not_fatal(tmp_path):
    """NaN, 1e999 or a 400-digit integer in running.json or match.json, and an
    unhashable pairing in games.jsonl, used to make every /api/watch poll fail
    (float() overflowed, the reply's JSON refuses NaN, tuple([[1]]) is no key).
    The snapshot leaves such values out and still encodes as strict JSON."""
    (tmp_path / "match.json").write_text('{"a": "pa", "b": "pb", "games": 4, "move_time": NaN, "seed": 1e999}')
    (tmp_path / "games.jsonl").write_text(json.dumps(dict(_record(1), pairing=[[1]])) + "\n")
    for updated in ("1e999", "NaN", "9" * 400):
        (tmp_path / "running.json").write_text(
            '{"updated": %s, "games": [{"game": 2, "black": "pa", "white": "pb", "turns": 1, "to_move": "white",'
            ' "clock": {"black": NaN, "white": 3.5}}]}' % updated)
        snap = MatchWatcher(tmp_path).snapshot()
        json.dumps(snap, allow_nan=False)
        assert snap["running_updated"] is None and snap["running"][0]["clock"] == {"black": None, "white": 3.5}
        assert snap["config"]["move_time"] is None and snap["config"]["seed"] is None
        assert snap["kind"] == "tournament" and snap["summary"].startswith("Standings:")
