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
    assert w.snapshot() is snap                            # unchanged files: the cached snapshot
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
