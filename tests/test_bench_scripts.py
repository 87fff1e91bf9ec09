"""Smoke runs of the benchmark scripts (tiny sizes, no timing assertions)."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import connect6
from connect6.benchmark import BENCH_POSITIONS, read_signature
from connect6.records import parse_stone_list, replay

from _env import subprocess_env

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
# the tuning tools' engines in their mechanics tests: a 2 000-node root solver and no
# reply check make a depth-1 game about 12 times as quick and leave the mechanics the same
CHEAP_SPEC = "default:tss_root_budget=2000,reply_check=0"


def run_script(name, *args, cwd):
    env = subprocess_env({"MPLBACKEND": "Agg"})
    return subprocess.run([sys.executable, str(BENCH / name), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_scan_compare_smoke(tmp_path):
    out = tmp_path / "sc"
    p = run_script("scan_compare.py", "--depths", "2,3", "--games", "1", "--max-step", "4", "--out", str(out),
                   cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "same moves: yes" in p.stdout
    rows = (out / "scan_compare.csv").read_text().splitlines()
    assert rows[0].startswith("game,step,depth,width,mode")
    assert len(rows) == 1 + 2 * 4 * 3          # depths x steps x modes
    md = (out / "scan_compare.md").read_text()
    assert "Same moves: yes" in md and "23.030" in md


def test_micro_smoke(tmp_path):
    out = tmp_path / "micro"
    p = run_script("micro.py", "--smoke", "--out", str(out), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "all modes gave the same deltas: yes" in p.stdout
    assert "the pure-Python reference found the engine's moves" in p.stdout
    md = (out / "micro.md").read_text()
    assert "Cython against the pure-Python reference" in md


def test_python_reference_search_matches_the_engine():
    step_positions = _bench_module("_common").step_positions
    compare_with_engine = _bench_module("py_reference_search").compare_with_engine
    for board in step_positions(2, step=6):
        for depth, width in ((1, 4), (2, 3)):
            out = compare_with_engine(board, depth, width)
            assert out["same"], (depth, width, out["engine"], out["python"])


def test_scan_strength_smoke(tmp_path):
    out = tmp_path / "ss"
    p = run_script("scan_strength.py", "--widths", "10", "--depths", "", "--games", "2", "--move-time", "0.05",
                   "--depth-samples", "1", "--concurrency", "2", "--no-plot",
                   "--out", str(out), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (out / "scan_strength.md").exists()
    assert len((out / "scan_strength.csv").read_text().splitlines()) == 3


def test_strength_smoke(tmp_path):
    out, games = tmp_path / "st", tmp_path / "games"
    p = run_script("strength.py", "--games", "2", "--move-time", "0.05", "--opponents", "paper", "default:tt_bits=0",
                   "--concurrency", "1", "--out", str(out), "--games-dir", str(games), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    rows = [line for line in (out / "strength.md").read_text().splitlines() if line.startswith("| `")]
    assert [r.split("|")[1].strip() for r in rows] == ["`paper`", "`default:tt_bits=0`"]
    assert all(r.split("|")[2].strip() == "2" for r in rows)
    assert len(list(games.glob("*/games.jsonl"))) == 2


def test_strength_resume_continues_the_latest_match(tmp_path):
    out, games = tmp_path / "st", tmp_path / "games"
    common = ["--opponents", "paper", "--concurrency", "1", "--out", str(out), "--games-dir", str(games)]
    p = run_script("strength.py", "--games", "2", "--move-time", "0.05", *common, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    p = run_script("strength.py", "--games", "4", "--move-time", "0.05", "--resume", *common, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    [folder] = games.iterdir()                  # the same match, two more games
    assert len(folder.joinpath("games.jsonl").read_text().splitlines()) == 4
    row = next(line for line in (out / "strength.md").read_text().splitlines() if line.startswith("| `"))
    assert row.split("|")[2].strip() == "4"
    p = run_script("strength.py", "--games", "4", "--move-time", "0.1", "--resume", *common, cwd=tmp_path)
    assert p.returncode == 2 and "cannot resume" in p.stderr, p.stderr


def test_strength_engine_with_its_own_time(tmp_path):
    """An engine spec that names its time plays at that time (no common limit
    for the match); the table gives each side's mean time per move."""
    out, games = tmp_path / "st", tmp_path / "games"
    p = run_script("strength.py", "--engine", "default:settle_percent=20,time=0.2", "--opponents", "paper",
                   "--games", "2", "--move-time", "0.05", "--concurrency", "1", "--out", str(out),
                   "--games-dir", str(games), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    [folder] = games.iterdir()
    config = json.loads((folder / "match.json").read_text())
    assert config["a"] == "default:settle_percent=20,time=0.2" and config["b"] == "paper:time=0.05"
    assert config["move_time"] is None
    table = (out / "strength.md").read_text()
    assert "s/move (engine : opponent)" in table and "Time per move: " in p.stdout
    header = next(line for line in table.splitlines() if line.startswith("| opponent"))
    row = next(line for line in table.splitlines() if line.startswith("| `"))
    column = [cell.strip() for cell in header.split("|")].index("s/move (engine : opponent)")
    engine_s, opponent_s = (float(x) for x in row.split("|")[column].split(":"))
    # the engine searches to its own 0.2 s limit; the paper's depth-3 search may take under 5 ms
    assert engine_s > 0 and opponent_s >= 0


def test_strength_ablation_table(tmp_path):
    out = tmp_path / "st"
    p = run_script("strength.py", "--engine", "default", "default:killers=false", "--opponents", "paper",
                   "--games", "2", "--move-time", "0.05", "--concurrency", "1", "--table", "ablation.md",
                   "--out", str(out), "--games-dir", str(tmp_path / "games"), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    rows = [line.split("|") for line in (out / "ablation.md").read_text().splitlines() if line.startswith("| `")]
    assert [(r[1].strip(), r[2].strip(), r[3].strip()) for r in rows] == [
        ("`default`", "`paper`", "2"), ("`default:killers=false`", "`paper`", "2")]


def test_strength_rejects_a_bad_player_before_playing(tmp_path):
    p = run_script("strength.py", "--opponents", "default:nonsense=1", "--out", str(tmp_path / "st"),
                   "--games-dir", str(tmp_path / "games"), cwd=tmp_path)
    assert p.returncode == 2 and "nonsense" in p.stderr
    assert not (tmp_path / "games").exists() or not any((tmp_path / "games").iterdir())


def test_strength_base_must_be_a_commit(tmp_path):
    p = run_script("strength.py", "--base", "no-such-revision", "--opponents", "--out", str(tmp_path / "st"),
                   "--games-dir", str(tmp_path / "games"), cwd=tmp_path)
    assert p.returncode == 2 and "no-such-revision" in p.stderr and "not a commit" in p.stderr, p.stderr


def test_strength_plays_the_base_revision(tmp_path, monkeypatch):
    """--base REV: the revision's engine joins as the opponent "base" (here
    this checkout's, standing in for a build under bench/out), every engine
    over the protocol on its own clock."""
    strength = _bench_module("strength")
    monkeypatch.setattr(strength, "base_player",
                        lambda rev, t: strength.protocol_player("default", t, ROOT, f"base-{rev}"))
    code = strength.main(["--base", "test", "--opponents", "--games", "2", "--move-time", "0.05",
                          "--engine", "default:depth=1", "--out", str(tmp_path / "st"),
                          "--games-dir", str(tmp_path / "games"), "--concurrency", "1"])
    assert code == 0
    table = (tmp_path / "st" / "strength.md").read_text()
    assert "base-test" in table and "| 2 |" in table, table


def test_strength_needs_an_opponent(tmp_path):
    p = run_script("strength.py", "--opponents", "--out", str(tmp_path / "st"), cwd=tmp_path)
    assert p.returncode == 2 and "no opponent" in p.stderr, p.stderr


def test_tactics_smoke(tmp_path):
    out = tmp_path / "tac"
    p = run_script("tactics.py", "--sizes", "4,3,2,2", "--time", "0.05", "--profiles", "default",
                   "--verify-budget", "20000", "--out", str(out), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    md = (out / "tactics.md").read_text()
    assert "| win-in-one | 4 | 4/4 (100.0%) |" in md          # a six on the board is always taken
    assert "| must-block | 3 | 3/3 (100.0%) |" in md          # and a blockable threat always stopped
    assert "| vcdt-win | 2 |" in md and "| vcdt-defence | 2 |" in md


# ---------------------------------------------------------------- tools/make_openings.py
def _tool(name: str):
    """The script tools/NAME.py as a module, registered under its name (so that worker
    processes find its functions) and loaded with tools/ on the path (for its imports)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return module


def _make_openings():
    return _tool("make_openings")


def test_make_openings_merges_symmetric_forms_and_filters():
    from connect6.records import GameRecord, parse_stone_list
    mo = _make_openings()
    base = parse_stone_list("j10,k11,j12,l10,k9")
    mirror = parse_stone_list("j10,i11,j12,h10,i9")         # the same opening reflected left-right
    rotated = parse_stone_list("j10,i11,h10,j12,k11")       # ... and turned a quarter
    other = parse_stone_list("j10,j11,k9,k11,i9")
    assert mo.canonical(base) == mo.canonical(mirror) == mo.canonical(rotated) != mo.canonical(other)
    tail = parse_stone_list("j10,a1,b1,a19,b19,s1,s2")[1:]

    def game(opening, winner):
        return GameRecord(game_id="t", moves=tuple(opening) + tuple(tail), winner=winner)

    games = [game(base, 0), game(mirror, 1), game(rotated, 1), game(other, 0), game(other, 0)]
    kept = mo.select(games, turns=3, min_games=3, min_wins=1, budget=10_000, depth=6)
    assert [k[1:] for k in kept] == [(3, 1, 2)]               # "other": 2 games, Black won both
    assert kept[0][0] in ("j10,k11,j12,l10,k9", "j10,i11,j12,h10,i9", "j10,i11,h10,j12,k11")
    assert [k[1:] for k in mo.select(games, turns=3, min_games=2, min_wins=0, budget=10_000, depth=6)] \
        == [(3, 1, 2), (2, 2, 0)]
    # White, to move after five turns, has four in a column: decided, so dropped
    won = parse_stone_list("j10,a1,a2,k10,l10,a3,a4,s18,s19")
    tail5 = parse_stone_list("j10,p1,p2,a5,a6")[1:]
    decided = [GameRecord(game_id="t", moves=tuple(won) + tuple(tail5), winner=w) for w in (0, 1)]
    assert mo.select(decided, turns=5, min_games=1, min_wins=1, budget=10_000, depth=6) == []
    assert len(mo.select(decided, turns=4, min_games=1, min_wins=1, budget=10_000, depth=6)) == 1


def test_shipped_human_openings_are_open_games(tmp_path):
    """The committed file is what the tool writes, and no opening is decided already."""
    mo = _make_openings()
    out = tmp_path / "openings.txt"
    assert mo.main(["--out", str(out)]) == 0
    assert out.read_text() == (ROOT / "data" / "openings-human.txt").read_text()


def test_make_openings_names_a_broken_games_file(tmp_path, capsys):
    mo = _make_openings()
    bad = tmp_path / "games.csv"
    bad.write_text("game_id,stones,winner\n1,\"j10,zz99\",black\n")
    for path in (bad, tmp_path / "missing.csv"):
        with pytest.raises(SystemExit) as exc:
            mo.main(["--games", str(path), "--out", str(tmp_path / "o.txt")])
        assert exc.value.code == 2
        assert "cannot read the games" in capsys.readouterr().err
    assert not (tmp_path / "o.txt").exists()


def test_engine_openings_verification_drops_decided_openings():
    """tools/make_engine_openings.py --verify-time: an opening where a search
    proves a forced result is dropped; an open one keeps both scores."""
    meo = _tool("make_engine_openings")
    # Black to move with five in a row: a win now, so dropped
    assert meo.verify("j10,a1,a2,k10,l10,s1,s2,m10,n10,s19,r19", 0.2) is None
    # the second turn played, Black to move: nothing is forced either way in 0.2 s
    scores = meo.verify("j10,j11,k10", 0.2)
    assert scores is not None and len(scores.split()) == 2, scores
    for part in scores.split():
        value, depth = part.split("@")
        assert abs(int(value)) < 10 ** 6 and int(depth) >= 1
    # in order until `count` pass, each verified `rounds` times; the rest is not tried
    decided, open_a, open_b = "j10,a1,a2,k10,l10,s1,s2,m10,n10,s19,r19", "j10,j11,k10", "j10,k11,j12"
    tried = meo.verified_openings([decided, open_a, open_b], 0.1, 2, 1, 1)
    assert list(tried) == [decided, open_a] and tried[decided] is None and tried[open_a] is not None


def test_engine_openings_seeded_draw_excludes_symmetric_forms(tmp_path):
    """--seed draws the same candidates each time (another seed, another
    draw); --exclude drops an opening in any symmetric form, whatever the
    order of its stones."""
    meo = _tool("make_engine_openings")
    base, mirror = "j10,k11,j12,l10,k9", "j10,i11,j12,h10,i9"      # reflected left-right
    swapped = "j10,j12,k11,k9,l10"                                   # base, stones of a turn swapped
    assert meo.position_key(base) == meo.position_key(mirror) == meo.position_key(swapped)
    assert meo.position_key(base) != meo.position_key("j10,j11,k9,k11,i9")
    candidates = [(f"j10,{c}10,{c}11,a1,a2", 5, 2, 3) for c in "klmnopqrs"] + [(mirror, 4, 2, 2)]
    first = meo.draw(candidates, 7, set(), 5)
    assert first == meo.draw(candidates, 7, set(), 5) != meo.draw(candidates, 8, set(), 5)
    assert len(first) == 5 and meo.draw(candidates, None, set(), 3) == candidates[:3]
    other = tmp_path / "other.txt"
    other.write_text(f"# openings\n{base}\n")
    kept = meo.draw(candidates, 7, meo.excluded_keys([str(other)]), 100)
    assert len(kept) == 9 and mirror not in [k[0] for k in kept]


def _bench_module(name):
    """A bench script imported as a module (bench/ on the path for its imports)."""
    import importlib
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCH))


def test_loss_positions_parse_and_name_a_bad_line(tmp_path):
    """bench/loss_positions.txt: each line a legal position with our colour
    to move, a legal move played and a recorded proof; a bad line is named."""
    ls = _bench_module("loss_suite")
    entries = ls.read_positions()
    assert len(entries) >= 6 and all(e.proof in ls.PROOFS and e.source for e in entries)
    assert {e.ours for e in entries} == {"black", "white"}
    good = (ROOT / "bench" / "loss_positions.txt").read_text().splitlines()
    line = next(text for text in good if text.startswith("j10"))
    for bad, words in ((line.replace(" | black | ", " | white | "), "not to move"),
                       (line.replace(" | four | ", " | maybe | "), "proof one of"),
                       (line.rsplit(" | ", 1)[0], "6 fields")):
        path = tmp_path / "bad.txt"
        path.write_text(f"# a comment\n{line}\n{bad}\n")
        with pytest.raises(ValueError, match=f"line 3: .*{words}"):
            ls.read_positions(path)


def test_loss_suite_runs_on_one_position(tmp_path):
    """--only: the part gets a file of its own (it used to replace the whole
    suite's loss-suite-SECONDSs.md), its command says --only, and its row
    keeps the position's number."""
    whole = tmp_path / "loss-suite-0.05s.md"
    whole.write_text("the whole suite's results\n")
    p = run_script("loss_suite.py", "--only", "5", "--time", "0.05", "--budget", "2000", "--out", str(tmp_path),
                   "--note", "A note.", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert whole.read_text() == "the whole suite's results\n"
    out = tmp_path / "loss-suite-0.05s-only-5-budget2000.md"
    assert "A note." in out.read_text() and "--only 5`" in out.read_text()
    assert "default at 0.05 s a position: avoided " in p.stdout and " of 1 losses" in p.stdout
    row = [text for text in out.read_text().splitlines() if text.startswith("| 5 |")]
    assert len(row) == 1 and "l10m11" in row[0]
    assert any(v in row[0] for v in ("same move", "loses (", "undecided", "avoided")), row
    p = run_script("loss_suite.py", "--only", "5", "--out", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert p.returncode == 2 and "not a folder" in p.stderr          # before the suite runs, not after
    # a candidate's run (another engine) keeps the default's file
    p = run_script("loss_suite.py", "--only", "5", "--time", "0.05", "--budget", "2000", "--out", str(tmp_path),
                   "--engine", "default:width=10", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "A note." in out.read_text()
    [candidate] = set(tmp_path.glob("loss-suite-0.05s-only-5-budget2000-*.md"))
    assert "default:width=10" in candidate.read_text()
    # --prove numbers the positions as the file does
    p = run_script("loss_suite.py", "--prove", "--only", "5", "--budget", "1", cwd=tmp_path)
    assert p.stdout.splitlines()[0].startswith("5: l10m11"), p.stdout


def test_strength_folder_labels_keep_long_specs_apart():
    label = _bench_module("strength").folder_label
    a, b = (f"default:tss_four_budget=20000,reply_four_budget=20000,rescue_width=64,width={w}-vs-paper"
            for w in (12, 14))
    assert label("default-vs-paper") == "default_vs_paper"
    assert len(label(a)) == 80 and label(a) != label(b) and label(a)[:71] == label(b)[:71]


def test_python_api_speed_smoke(tmp_path):
    p = run_script("python_api_speed.py", "--smoke", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    for words in ("two-stone push+pop", "single-stone push_stone+pop", "legal_mask()",
                  "random games via Board.push_stone"):
        assert words in p.stdout


@pytest.mark.parametrize("script, args, words", [
    ("play_speed.py", ("--games", "1", "--turns", "7", "--depth", "3"), "3 positions"),
    ("play_speed.py", ("--games", "1", "--turns", "6", "--engine", "default:nodes=4000"), "to its node limit"),
    ("play_speed.py", ("--games", "1", "--turns", "6", "--depth", "3", "--no-clock"),
     "depth 3, tables kept between moves, no clock"),
    ("solver_speed.py", ("--positions", "3", "--repeat", "1"), "calls"),
    ("solver_speed.py", ("--positions", "3", "--repeat", "1", "--fours", "1"), "single fours allowed a line: 1"),
])
def test_speed_scripts_measure_this_tree(tmp_path, script, args, words):
    p = run_script(script, *args, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "this tree:" in p.stdout and words in p.stdout and "nodes/s" in p.stdout


def test_time_profile_replays_stop_rules_on_its_traces(tmp_path):
    traces = tmp_path / "traces.json"
    p = run_script("time_profile.py", "--games", "1", "--turns", "8", "--time", "0.3", "--save", str(traces),
                   cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    again = run_script("time_profile.py", "--load", str(traces), str(traces), cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    data = json.loads(traces.read_text())
    assert data["time"] == 0.3 and all(len(t["iterations"]) >= 2 for t in data["traces"])
    rows = {line.split("|")[1].strip(): line.split("|")[3].strip() for line in again.stdout.splitlines()
            if line.startswith("| hard") or line.startswith("| stop")}
    assert rows["hard 1 x time"] == "100.0%" and "stop after stable pair, 0.2 x time" in rows, again.stdout
    assert f"{2 * len(data['traces'])} positions not decided by force" in again.stdout
    bad = run_script("time_profile.py", "--time", "0", cwd=tmp_path)
    assert bad.returncode == 2 and "--time in (0, 3600]" in bad.stderr, bad.stderr
    other = run_script("time_profile.py", "--engine", "cmd:./engine", cwd=tmp_path)
    assert other.returncode != 0 and "a built-in engine's spec is needed" in other.stderr, other.stderr


def test_threads_speed_compares_thread_counts(tmp_path):
    p = run_script("threads_speed.py", "--games", "1", "--turns", "6", "--depth", "2", "--time", "0.1",
                   cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    rows = [line for line in p.stdout.splitlines() if line.startswith(("| 1 |", "| 2 |"))]
    assert len(rows) == 2 and rows[0].split("|")[3].strip() == "1.00x", p.stdout
    bad = run_script("threads_speed.py", "--threads", "0", cwd=tmp_path)
    assert bad.returncode == 2 and "--threads 1..64" in bad.stderr


def test_play_speed_refuses_bad_sizes(tmp_path):
    p = run_script("play_speed.py", "--turns", "2", cwd=tmp_path)
    assert p.returncode == 2 and "--turns >= 5" in p.stderr


def test_play_speed_measures_the_engine_it_is_given(tmp_path):
    narrow = run_script("play_speed.py", "--games", "1", "--turns", "6", "--depth", "3", "--engine",
                        "default:width=3", cwd=tmp_path)
    wide = run_script("play_speed.py", "--games", "1", "--turns", "6", "--depth", "3", cwd=tmp_path)
    assert narrow.returncode == 0 and wide.returncode == 0, narrow.stderr + wide.stderr
    assert narrow.stdout.startswith("# default:width=3, depth 3")

    def nodes(p):
        return int(p.stdout.split(" positions, ")[1].split(" nodes")[0])
    assert nodes(narrow) < nodes(wide)
    for spec, words in (("default:width=0", "width"), ("cmd:./engine", "built-in engine")):
        p = run_script("play_speed.py", "--engine", spec, cwd=tmp_path)
        assert p.returncode != 0 and words in p.stderr, (spec, p.stderr)


def test_make_book_counts_checks_and_writes_a_book_that_reads(tmp_path):
    from connect6.book import OpeningBook
    import connect6
    mb = _tool("make_book")
    csv = tmp_path / "games.csv"
    rows = ["game_id,stones,winner"]
    rows += [f'{i},"j10,k11,i11,h11,i10,k9,k10",black' for i in range(3)]
    rows += [f'{i + 3},"j10,j11,j9,k10,i10",white' for i in range(2)]        # played twice only
    csv.write_text("\n".join(rows) + "\n")
    out = tmp_path / "book.txt"
    assert mb.main(["--games", str(csv), "--depth", "1", "--out", str(out)]) == 0
    book = OpeningBook.load(out)
    first = book.entries(connect6.Board(["j10"]))
    assert [e.move for e in first] == [connect6.Move.parse("k11i11")]
    assert first[0].games == 3 and first[0].wins == 0 and first[0].score is not None
    assert "from games.csv (5 decided human games)" in out.read_text()


def _cloudict_stand_in(tmp_path):
    """A wrapper script like build.sh's that runs the Cloudict-like test engine."""
    work = tmp_path / "engine"
    work.mkdir()
    (work / "stub-patterns.txt").write_text("stub\n")
    wrapper = tmp_path / "cloudict"
    wrapper.write_text(f"#!/bin/sh\ncd {work}\nexec {sys.executable} {ROOT / 'tests' / 'engines' / 'cloudict_like.py'}"
                       f" {tmp_path / 'log.txt'}\n")
    wrapper.chmod(0o755)
    return wrapper


def test_cloudict_gauntlet_table_counts_only_the_games_asked_for(tmp_path):
    """bench/cloudict.py against a stand-in that speaks Cloudict's protocol; resumed
    with fewer --games than its folder holds, the table counts those games only."""
    wrapper = _cloudict_stand_in(tmp_path)
    common = ["--depths", "5", "--time", "0.05", "--cloudict", str(wrapper), "--hang", "30",
              "--games-dir", str(tmp_path / "games"), "--out", str(tmp_path)]
    p = run_script("cloudict.py", *common, "--games", "4", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    # before the games, Cloudict and our bench were timed on the bench positions, one move each
    blocks = (tmp_path / "log.txt").read_text().split("new xxx\n")[1:len(BENCH_POSITIONS) + 1]
    placed = [sum(line.split()[0] in ("black", "white") for line in b.splitlines()) for b in blocks]
    assert placed == [len(moves.split()) for _, moves in BENCH_POSITIONS]
    assert re.search(r"Calibration .*: Cloudict depth 5 \d+\.\d\d s, our `connect6 bench` \d+\.\d\d s "
                     r"\([\d,]+ nodes/s\)\.", (tmp_path / "cloudict.md").read_text())
    p = run_script("cloudict.py", *common, "--games", "2", "--resume", "--table", "two.md", "--no-calibrate",
                   cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "Calibration" not in (tmp_path / "two.md").read_text()
    row = [line for line in (tmp_path / "two.md").read_text().splitlines() if line.startswith("| 5 |")][0]
    cells = [c.strip() for c in row.split("|")]
    wins, losses, draws = (int(x) for x in cells[4].split("-"))
    assert wins + losses + draws == 2
    per_colour = [sum(int(x) for x in cells[i].split("-")) for i in (8, 9)]
    assert per_colour == [1, 1]
    # the table names the engine that played, build and options, as the game records do
    assert f"`connect6-{connect6.__version__} default (bench {read_signature()})`" in (tmp_path / "two.md").read_text()


def test_cloudict_calibration_names_a_cloudict_that_fails(tmp_path):
    """A wrapper that cannot play stops the run before any game, with the reason."""
    wrapper = tmp_path / "cloudict"
    wrapper.write_text("#!/bin/sh\necho 'no patterns file' >&2\nexit 3\n")
    wrapper.chmod(0o755)
    p = run_script("cloudict.py", "--depths", "5", "--time", "0.05", "--cloudict", str(wrapper), "--games", "2",
                   "--games-dir", str(tmp_path / "games"), "--out", str(tmp_path), cwd=tmp_path)
    assert p.returncode != 0 and "Traceback" not in p.stderr
    assert "calibration: Cloudict depth 5 failed" in p.stderr and "no patterns file" in p.stderr
    assert not (tmp_path / "games").exists()


def test_cloudict_table_names_the_games_lost_by_forfeit(tmp_path):
    """A Cloudict that dies on its first move loses both games by a crash: the row
    counts them as wins of ours and its last column says they were forfeits."""
    wrapper = tmp_path / "cloudict"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} {ROOT / 'tests' / 'engines' / 'crash_engine.py'} 0\n")
    wrapper.chmod(0o755)
    p = run_script("cloudict.py", "--depths", "5", "--time", "0.05", "--cloudict", str(wrapper), "--hang", "30",
                   "--games", "2", "--games-dir", str(tmp_path / "games"), "--out", str(tmp_path),
                   "--no-calibrate", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    table = (tmp_path / "cloudict.md").read_text().splitlines()
    header = [line for line in table if line.startswith("| Cloudict depth |")][0]
    assert header.rstrip(" |").endswith("games lost by forfeit, ours / Cloudict's")
    cells = [c.strip() for c in [line for line in table if line.startswith("| 5 |")][0].split("|")]
    assert cells[4] == "2-0-0" and cells[-2] == "0 / crash 2"


def test_cloudict_built_by_build_sh_that_dies_loses_by_a_crash_not_a_stall(tmp_path):
    """build.sh's wrapper pipes `{ echo depth N; cat; echo quit; }` into its engine
    and outlives it; run through bench/cloudict_exec.sh, an engine that dies ends
    its game at once as a crash (else the game would wait for the hang timeout and
    be lost by a stall), Cloudict's depth is still its first command, and the
    records name the opponent as --pool compares it: the wrapper."""
    peers = tmp_path / "peers"
    (peers / "cloudict.d").mkdir(parents=True)
    wrapper = peers / "cloudict"
    wrapper.write_text('#!/bin/sh\ncd "$(dirname "$0")/cloudict.d" || exit 1\n'
                       '{ if [ -n "${1:-}" ]; then echo "depth $1"; fi; cat; echo quit; } | ./gameEngine\n')
    engine = peers / "cloudict.d" / "gameEngine"
    engine.write_text(f"#!/bin/sh\nread first\necho \"$first\" > first.txt\n"
                      f"exec {sys.executable} {ROOT / 'tests' / 'engines' / 'crash_engine.py'} 0\n")
    for path in (wrapper, engine):
        path.chmod(0o755)
    p = run_script("cloudict.py", "--depths", "5", "--time", "0.05", "--cloudict", str(wrapper), "--hang", "600",
                   "--games", "2", "--games-dir", str(tmp_path / "games"), "--out", str(tmp_path),
                   "--no-calibrate", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    records = [json.loads(line) for line in (tmp_path / "games" / "d5-default-t0.05" / "games.jsonl").open()]
    assert [r["termination"] for r in records] == ["crash", "crash"], [r["reason"] for r in records]
    assert (peers / "cloudict.d" / "first.txt").read_text() == "depth 5\n"
    assert _bench_module("cloudict").opponent(records[0]["b"]) == f"cmd:{wrapper} 5"


def test_cloudict_plays_the_openings_of_several_files_in_turn(tmp_path):
    """--openings A B: A's openings, then B's, a colour-swapped pair each; the table
    names both files; a missing file, or a broken opening's line, is named."""
    wrapper = _cloudict_stand_in(tmp_path)
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("# one\nj10,k11,k9\n")
    second.write_text("j10,i9,k11\n")
    common = ["--depths", "5", "--time", "0.05", "--cloudict", str(wrapper), "--hang", "30",
              "--games-dir", str(tmp_path / "games"), "--out", str(tmp_path), "--games", "4", "--no-calibrate"]
    p = run_script("cloudict.py", *common, "--openings", str(first), str(second), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    config = json.loads((tmp_path / "games" / "d5-default-t0.05" / "match.json").read_text())
    assert config["pair_openings"] == ["j10,k11,k9", "j10,i9,k11"]
    named = " + ".join(os.path.relpath(f, ROOT) for f in (first, second))
    assert f"openings {named}," in (tmp_path / "cloudict.md").read_text()
    p = run_script("cloudict.py", *common, "--openings", str(first), str(tmp_path / "none.txt"),
                   "--games-dir", str(tmp_path / "other"), cwd=tmp_path)
    assert p.returncode != 0 and "none.txt" in p.stderr and "Traceback" not in p.stderr
    second.write_text("j10,k11,k9\nj10,zz\n")
    p = run_script("cloudict.py", *common, "--openings", str(first), str(second),
                   "--games-dir", str(tmp_path / "other"), cwd=tmp_path)
    assert p.returncode != 0 and "b.txt, line 2" in p.stderr and "Traceback" not in p.stderr


def _two_cloudict_runs(tmp_path):
    """The match folders of two gauntlets against the stand-in on the same openings: 4 and 2 games."""
    wrapper = _cloudict_stand_in(tmp_path)
    folders = []
    for run, games in (("one", "4"), ("two", "2")):
        p = run_script("cloudict.py", "--depths", "5", "--time", "0.05", "--cloudict", str(wrapper),
                       "--hang", "30", "--games", games, "--games-dir", str(tmp_path / run),
                       "--out", str(tmp_path), "--no-calibrate", cwd=tmp_path)
        assert p.returncode == 0, p.stdout + p.stderr
        folders.append(str(tmp_path / run / "d5-default-t0.05"))
    return folders


def test_cloudict_pool_counts_every_run_and_keeps_their_pairs_apart(tmp_path):
    """--pool reads the match folders of two runs as one match: 4 + 2 games, 3 pairs."""
    folders = _two_cloudict_runs(tmp_path)
    p = run_script("cloudict.py", "--pool", *folders, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    rows = [[c.strip() for c in line.split("|")] for line in p.stdout.splitlines() if line.startswith("| 5 |")]
    assert [r[3] for r in rows] == ["4", "2", "6"] and "2 runs pooled" in rows[2][2]
    assert sum(int(x) for x in rows[2][7].strip("[]").split(",")) == 3      # pentanomial: 2 + 1 pairs
    other = tmp_path / "other"
    shutil.copytree(folders[1], other)
    config = json.loads((other / "match.json").read_text())
    (other / "match.json").write_text(json.dumps(dict(config, a="default:time=9")))
    p = run_script("cloudict.py", "--pool", folders[0], str(other), cwd=tmp_path)
    assert p.returncode != 0 and "different players" in p.stderr
    # another name for the same engine (the default's own width): pooled, and the table says so
    (other / "match.json").write_text(json.dumps(dict(config, a=config["a"] + ",width=12")))
    p = run_script("cloudict.py", "--pool", folders[0], str(other), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "2 runs pooled" in p.stdout and "resolves the names to the same engine" in p.stdout
    # the same spec, but the games record another build of our engine: not pooled
    games = (other / "games.jsonl").read_text().splitlines()
    renamed = [json.loads(line) for line in games]
    for r in renamed:
        r["names"][r["a_color"]] = r["names"][r["a_color"]].replace("(bench ", "(bench 1")
    (other / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in renamed))
    p = run_script("cloudict.py", "--pool", folders[0], str(other), cwd=tmp_path)
    assert p.returncode != 0 and "different builds or settings" in p.stderr and "(bench 1" in p.stderr
    # games that record no build (before names said it) pool on their specs, and the table says so
    for r in renamed:
        r["names"][r["a_color"]] = "Engine(depth=4, width=12, scan='incremental', radius=2, profile='default')"
    (other / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in renamed))
    p = run_script("cloudict.py", "--pool", folders[0], str(other), cwd=tmp_path)
    assert p.returncode == 0 and f"Some games of {other} do not record" in p.stdout
    (other / "games.jsonl").write_text("\n".join(games) + "\n")
    (other / "match.json").write_text(json.dumps(dict(config, a="default:no_such_option=1")))
    p = run_script("cloudict.py", "--pool", folders[0], str(other), cwd=tmp_path)
    assert p.returncode != 0 and "no_such_option" in p.stderr and "Traceback" not in p.stderr
    p = run_script("cloudict.py", "--pool", str(tmp_path), cwd=tmp_path)
    assert p.returncode != 0 and "not a match folder" in p.stderr
    p = run_script("cloudict.py", "--pool", folders[0], folders[0], cwd=tmp_path)       # counted twice
    assert p.returncode != 0 and "given twice" in p.stderr
    (other / "match.json").write_text(json.dumps(dict(config, hang_timeout=60.0)))     # stalls decided otherwise
    p = run_script("cloudict.py", "--pool", folders[0], str(other), cwd=tmp_path)
    assert p.returncode != 0 and "different hang_timeout" in p.stderr
    (other / "match.json").write_text(json.dumps(config))
    (other / "games.jsonl").write_text("".join(json.dumps({k: v for k, v in json.loads(line).items()
                                                           if k != "a_color"}) + "\n" for line in games))
    p = run_script("cloudict.py", "--pool", folders[0], str(other), cwd=tmp_path)
    assert p.returncode != 0 and "needs a_color" in p.stderr and "Traceback" not in p.stderr
    (other / "games.jsonl").write_text("\n".join(games) + "\n")
    for broken in ('{"a": "def', '["a", "b"]'):
        (other / "match.json").write_text(broken)
        p = run_script("cloudict.py", "--pool", folders[0], str(other), cwd=tmp_path)
        assert p.returncode != 0 and str(other) in p.stderr and "Traceback" not in p.stderr


def test_cloudict_self_play_one_game_an_opening_and_resume(tmp_path):
    """--self: the stand-in against itself, one game on each of the first --games / 2
    openings; --resume plays only the openings not played; a folder of another opening
    set, or one that holds games without --resume, is refused by name."""
    wrapper = _cloudict_stand_in(tmp_path)
    openings = tmp_path / "openings.txt"
    openings.write_text("j10,k11,k9\nj10,i9,k11\nj10,j11,k9\n")
    common = ["--self", "--depths", "5", "--cloudict", str(wrapper), "--hang", "30", "--openings", str(openings),
              "--games-dir", str(tmp_path / "games"), "--out", str(tmp_path), "--concurrency", "2"]
    p = run_script("cloudict.py", *common, "--games", "4", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    folder = tmp_path / "games" / "self-d5"
    first = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert sorted(r["opening"] for r in first) == ["j10,i9,k11", "j10,k11,k9"]
    assert all(r["black"] == r["white"] == "cloudict-d5" for r in first)
    rows = [[c.strip() for c in line.split("|")] for line in (tmp_path / "cloudict.md").read_text().splitlines()
            if line.startswith("| 1 |") or line.startswith("| 2 |")]
    assert [(r[2], r[3]) for r in rows] == [(g["opening"], g["result"]) for g in sorted(first, key=lambda g: g["pair"])]
    p = run_script("cloudict.py", *common, "--games", "6", cwd=tmp_path)
    assert p.returncode != 0 and "--resume" in p.stderr and "Traceback" not in p.stderr
    p = run_script("cloudict.py", *common, "--games", "6", "--resume", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    after = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert after[:2] == first and [r["opening"] for r in after[2:]] == ["j10,j11,k9"]
    assert "of 3 openings" in (tmp_path / "cloudict.md").read_text()
    openings.write_text("j10,k11,k9\nj10,k10,k11\nj10,j11,k9\n")
    p = run_script("cloudict.py", *common, "--games", "6", "--resume", cwd=tmp_path)
    assert p.returncode != 0 and "another opening set" in p.stderr and "Traceback" not in p.stderr


def test_cloudict_sign_test_is_the_exact_binomial_tail():
    sign_test = _bench_module("cloudict").sign_test
    assert sign_test(0, 0) == 1.0 and sign_test(3, 3) == 1.0
    assert sign_test(2, 0) == 0.5 and sign_test(0, 2) == 0.5
    assert abs(sign_test(6, 0) - 2 / 64) < 1e-12
    assert abs(sign_test(8, 1) - 2 * 10 / 512) < 1e-12          # P(X <= 1), n = 9, twice


def test_cloudict_pairs_names_the_turn_where_two_games_part():
    cloudict = _bench_module("cloudict")
    first_difference, parting = cloudict.first_difference, cloudict.parting
    game = ["j10", "j9k11", "k9l8", "m7l10"]
    assert first_difference(game, list(game)) is None
    assert first_difference(game, game[:2] + ["k9l7", "m7l10"]) == 2
    assert first_difference(game, game[:3]) == 3 == first_difference(game[:3], game)
    first = {(1, "black"): game, (1, "white"): game, (2, "black"): game, (3, "black"): None}
    later = {(1, "black"): game, (1, "white"): game[:1] + ["j9k12"], (2, "white"): game, (3, "black"): game}
    assert parting(first, later, "x") == ("x against the first run, turn for turn: 1 of 2 games the same; "
                                          "the others part at (pair, our colour, turn from 0) 1W 1.\n")
    assert parting(first, {}, "x") == ""


def test_cloudict_pairs_lists_each_runs_results_by_opening(tmp_path):
    """--pairs: a row per run of our results by opening pair (Black then White), the
    games that differ counted; runs on other openings are refused."""
    folders = _two_cloudict_runs(tmp_path)
    p = run_script("cloudict.py", "--pairs", *folders, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "| run | 1 | 2 |"
    runs = [[c.strip() for c in line.split("|")][2:4] for line in lines if line.startswith("| `default")]
    assert len(runs) == 2 and all(len(c) == 2 and set(c) <= set("WLD") for c in runs[0])
    assert runs[1][1] == ".."                               # the second run played pair 1 only
    differ = sum(a != b for a, b in zip(runs[0][0], runs[1][0]))
    assert f"Games whose result differs between the runs: {differ}." in p.stdout
    order = "LDW"
    better = sum(order.index(b) > order.index(a) for a, b in zip(runs[0][0], runs[1][0]))
    worse = sum(order.index(b) < order.index(a) for a, b in zip(runs[0][0], runs[1][0]))
    assert f"against the first run: {better} game(s) better, {worse} worse; sign test p = " in p.stdout
    assert re.search(r"against the first run, turn for turn: \d of 2 games the same", p.stdout)
    moved = tmp_path / "moved"
    shutil.copytree(folders[1], moved)
    config = json.loads((moved / "match.json").read_text())
    config["pair_openings"][0] = "j10,k10,l10"
    (moved / "match.json").write_text(json.dumps(config))
    p = run_script("cloudict.py", "--pairs", folders[0], str(moved), cwd=tmp_path)
    assert p.returncode != 0 and "not the same openings" in p.stderr


@pytest.mark.parametrize("early", [False, True], ids=["after-a-game", "before-any-game"])
@pytest.mark.parametrize("script", ["cloudict.py", "strength.py"])
def test_a_gauntlet_stopped_by_sigterm_writes_the_table_of_the_games_finished(tmp_path, script, early):
    """kill PID on a long gauntlet (as cutechess reports on Ctrl-C): the games
    finished are kept and tabled with a note that the run was stopped, the
    engines are stopped, and the exit status is 130; also when no game had
    finished (cloudict.py used to fail reading a games.jsonl not yet written)."""
    import json
    import signal
    import time
    games = tmp_path / "games"
    if script == "cloudict.py":
        args = ["--depths", "5", "--time", "0.05", "--cloudict", str(_cloudict_stand_in(tmp_path)), "--hang", "30"]
        table = tmp_path / "cloudict.md"
    else:
        args = ["--move-time", "0.05", "--opponents", "paper", "--concurrency", "1"]
        table = tmp_path / "strength.md"
    env = subprocess_env({"MPLBACKEND": "Agg"})
    proc = subprocess.Popen([sys.executable, str(BENCH / script), *args, "--games", "400", "--games-dir",
                             str(games), "--out", str(tmp_path)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not (
                any(games.glob("*/match.json")) if early
                else any(f.stat().st_size for f in games.glob("*/games.jsonl"))):
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        output = proc.communicate(timeout=60)[0]
    finally:
        proc.kill()
    assert proc.returncode == 130, output
    finished = [json.loads(line) for f in games.glob("*/games.jsonl") for line in f.read_text().splitlines()]
    assert (0 if early else 1) <= len(finished) < 400
    text = table.read_text()
    assert "**Stopped**" in text and f"the {len(finished)} games finished of 400" in text
    row = [line for line in text.splitlines() if line.startswith(("| 5 |", "| `paper`"))][0]
    assert row.split("|")[3 if script == "cloudict.py" else 2].strip() == str(len(finished))


def test_move_stats_counts_times_claims_and_vanished_claims(tmp_path, capsys):
    """tools/move_stats.py reads our reports: moves run to the limit, the
    search's win claims (not the solver's), the claims gone at our next turn;
    the opponent's reports (a built-in engine's) are not ours."""
    from connect6.engine import WIN_SCORE
    win, even = {"score": WIN_SCORE - 5, "depth": 9, "nodes": 9, "tss_nodes": 0}, {"score": 40, "depth": 9, "nodes": 9}
    solver = dict(win, source="solver")

    def record(game, winner, times, evals):
        moves = ["j10"] + ["a1b1"] * (len(times) - 1)
        return {"game": game, "pair": 1, "a": "default:time=2", "b": "cloudict-d5", "a_color": "white",
                "result": "x", "winner": winner, "moves": moves, "times": times, "evals": evals}
    games = [record(1, "a", [None, 2.0, 0.1, 1.0, 0.1, 1.95],       # a claim that held, a move at the limit
                    [None, dict(win, source="unfinished"), win, win, even, solver]),   # 2, 4: b's, not ours
             record(2, "b", [None, 1.0, 0.1, 0.5],                  # a claim that vanished, then a loss
                    [None, win, None, even])]
    out = tmp_path / "m"
    out.mkdir()
    (out / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))
    ms = _tool("move_stats")
    assert ms.main([str(out)]) == 0
    row = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| m |")][0]
    cells = [c.strip() for c in row.split("|")[2:-1]]
    assert cells == ["2", "5", "1.29", "1.00", "2", "3", "2", "1", "1", "1", "1"], cells
    assert ms.main(["--games", str(out)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [r.split("|")[3].strip() for r in rows] == ["won", "lost"]
    assert rows[1].split("|")[6:8] == [" 1 ", " turn 1 a1b1 "]
    with pytest.raises(SystemExit) as exc:
        ms.main([str(tmp_path / "nowhere")])
    assert exc.value.code == 2 and "no games.jsonl" in capsys.readouterr().err
    games[1]["evals"] = [None, {"depth": 3}]                  # a report without a score: named, not a traceback
    (out / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))
    with pytest.raises(SystemExit) as exc:
        ms.main([str(out)])
    assert exc.value.code == 2 and "not a match record this tool can read (KeyError" in capsys.readouterr().err


def test_first_move_probe_searches_our_first_move_again(tmp_path, capsys):
    """tools/first_move_probe.py searches our first searched move of the games
    we lost again and writes the position after a different move as an opening;
    --pairs picks games by pair and colour, won or lost."""
    opening = ["j10", "j11k9", "k10k11", "i10i9"]
    report = {"score": -300, "depth": 12, "nodes": 9}

    def record(pair, colour, winner, ours):
        return {"game": pair, "pair": pair, "a": "default:time=6.5", "b": "cloudict-d5", "a_color": colour,
                "result": "x", "winner": winner, "moves": opening + [ours, "s1s2"], "times": [None] * 6,
                "evals": [None] * 3 + [report, report, None]}     # turn 3 is White's (b's), not ours
    games = [record(1, "black", "b", "a1a19"),      # a corner pair no search plays: the probe differs
             record(2, "black", "a", "a1a19")]      # won: not probed unless picked
    out = tmp_path / "m"
    out.mkdir()
    (out / "games.jsonl").write_text("".join(json.dumps(g) + "\n" for g in games))
    fmp = _tool("first_move_probe")
    openings = tmp_path / "probe.txt"
    assert fmp.main([str(out), "--time", "0.05", "--openings-out", str(openings)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 1 |")]
    assert len(rows) == 1 and rows[0].split("|")[2:5] == [" black ", " 4 ", " a1a19 "] and rows[0].endswith("| no |")
    line = openings.read_text().splitlines()
    assert len(line) == 1 and line[0].startswith("j10,j11,k9,k10,k11,i10,i9,") and "pair 1, ours black" in line[0]
    stones = line[0].split()[0].split(",")
    assert len(stones) == 9                                 # the opening's 7 stones and the probe's two
    board = replay(parse_stone_list(line[0].split()[0]))     # a legal position, White to move
    assert board.turn == connect6.WHITE and "a1" not in stones
    assert fmp.main([str(out), "--time", "0.05", "--pairs", "2B"]) == 0
    assert [r for r in capsys.readouterr().out.splitlines() if r.startswith("| 2 |")]
    for bad, said in ((["--pairs", "2X"], "not a pair number"), (["--time", "0"], "--time must be"),
                      (["--engine", "default:width=0"], "width must be")):
        with pytest.raises(SystemExit) as exc:
            fmp.main([str(out)] + bad)
        assert exc.value.code == 2 and said in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        fmp.main([str(tmp_path / "nowhere")])
    assert exc.value.code == 2 and "no games.jsonl" in capsys.readouterr().err


def test_first_loss_reports_where_the_search_sees_each_loss(tmp_path, capsys):
    """tools/first_loss.py on a real match that player a loses: one row per lost
    game, each naming the turn our search first sees the loss and the rank of
    the opponent's move before it (or 'never')."""
    import json
    env = subprocess_env()
    out = tmp_path / "m"
    p = subprocess.run([sys.executable, "-m", "connect6", "match", "py:pybots:nearest", "local:depth=1,width=3",
                        "--games", "2", "--out", str(out), "--concurrency", "1", "--seed", "3",
                        "--progress", "plain"], cwd=ROOT / "tests" / "engines", env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    lost = [r for r in records if r["winner"] == "b"]
    assert lost, "the nearest-cell bot should lose to a depth-1 search"
    fl = _tool("first_loss")
    assert fl.main([str(out), "--search", "0.05", "--budget", "2000"]) == 0
    printed = capsys.readouterr().out
    rows = [line for line in printed.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert sorted(int(r.split("|")[1]) for r in rows) == sorted(r["game"] for r in lost)
    for row in rows:
        seen = row.split("|")[7].strip()
        assert seen == "never" or (seen.startswith("turn ") and "(loss in " in seen)
        if seen != "never":
            rank = row.split("|")[9].strip()
            assert rank == "not listed" or int(rank) >= 1
    assert fl.main([str(out), "--budget", "2000", "--refuted", "2000"]) == 0
    rows = [line.split("|") for line in capsys.readouterr().out.splitlines() if line.startswith("| ")
            and line[2].isdigit()]
    for row in rows:
        first, last = row[4].strip(), row[7].strip()
        if first == "none found":
            assert last == ""
        elif last.startswith("after turn "):
            assert int(last.split()[2]) <= int(first) and row[8].strip().endswith("(not refuted)")
        elif last != "lost from the opening":
            assert int(last) <= int(first) and row[9].strip() and " of " in row[10]
    # --emit: each found position becomes a loss-suite line that the suite reads and proves alike
    suite = tmp_path / "suite.txt"
    assert fl.main([str(out), "--budget", "20000", "--fours", "1", "--emit", str(suite)]) == 0
    found = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and line[2].isdigit()
             and line.split("|")[4].strip() != "none found"]
    ls = _bench_module("loss_suite")
    entries = ls.read_positions(suite) if found else []
    assert found and len(entries) == len(found) and all(e.source.endswith(")") for e in entries)
    for entry in entries:
        assert ls.prove(entry, 20000) == entry.proof
    with pytest.raises(SystemExit) as exc:
        fl.main([str(out), "--search", "-1"])
    assert exc.value.code == 2 and "--search 0..3600" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        fl.main([str(tmp_path / "nowhere")])
    assert exc.value.code == 2 and "has no games.jsonl" in capsys.readouterr().err
    # a loser whose records hold its searches' reports gets the turn it first reported a forced loss
    from connect6.engine import WIN_SCORE
    game = lost[0]
    ours = 0 if game["a_color"] == "black" else 1
    turns = [i for i in range(3, len(game["moves"])) if i % 2 == ours]
    game["evals"] = [None] * len(game["moves"])
    for k, i in enumerate(turns):
        game["evals"][i] = {"score": -(WIN_SCORE - 3) if k >= 1 else 12, "depth": 2, "nodes": 9, "tss_nodes": 0}
    (out / "games.jsonl").write_text(json.dumps(game) + "\n")
    assert fl.main([str(out), "--budget", "2000"]) == 0
    printed = capsys.readouterr().out
    assert "| the loss seen in play |" in printed
    before = game["moves"][turns[1] - 1]
    assert f"| turn {turns[1]} (loss in 3), after {before} (rank " in printed


def test_tdleaf_leaf_value_is_the_cores_and_the_step_is_the_td_direction():
    """tools/tdleaf.py: the leaf of a search's PV gives back its value through the
    core's own evaluation, and with lambda = 1 the TD-leaf direction is minus the
    gradient of the squared distance of each turn's value from the result (checked
    by finite differences in the weights' logarithms)."""
    import math
    td = _tool("tdleaf")
    from connect6.weights import PAPER
    board = connect6.Board()
    for m in ("j10", "k11k9", "l10i10", "j11j9", "h10k10"):
        board.push(m)
    used = 0
    for depth in (1, 2, 3):
        result = connect6.make_engine("default", depth=depth).search(board)
        stm, score, leaf = td.turn_data(board, result, PAPER)
        if leaf is None:
            continue
        used += 1
        end = board.copy()
        for move in result.pv:
            end.push(move)
        last = 1 - int(end.turn)
        assert leaf[0] * end.evaluate(last) == score == result.score and leaf[0] == (1 if last == stm else -1)
    assert used >= 2
    theta = {"f2": 20.4, "f3": 39.7, "g2": 25.3, "g3": 50.6, "f4": 200.2}     # not whole: dlog w, not the rounded w
    rng = __import__("random").Random(3)
    leaves = [(rng.choice((1, -1)), [0] + [rng.randrange(9) for _ in range(6)],
               [0] + [rng.randrange(9) for _ in range(6)]) for _ in range(7)]
    leaves = [(s, hl[:5] + [0, 0], ho[:5] + [0, 0]) for s, hl, ho in leaves]     # no six at a leaf

    def turns_at(th):
        f, g = (list(v) for v in PAPER)
        for name, value in th.items():
            vector, n = td.TUNABLE[name]
            for k in ((n, 5) if n == 4 else (n,)):
                (f, g)[vector][k] = value
        return [(t % 2, leaf[0] * td.leaf_value((f, g), leaf[1], leaf[2]), leaf) for t, leaf in enumerate(leaves)]

    def loss(th):          # the result: White won (-1 from Black's side)
        return 0.5 * sum((-1.0 - td.squashed(stm, score, 300.0)) ** 2 for stm, score, _ in turns_at(th))

    grad, err, n = td.td_gradient(turns_at(theta), 1, theta, 300.0, 1.0)
    assert n == len(leaves) and err > 0
    for name in theta:
        h = 1e-5
        up, down = (dict(theta, **{name: theta[name] * math.exp(s * h)}) for s in (1, -1))
        assert grad[name] == pytest.approx(-(loss(up) - loss(down)) / (2 * h), rel=1e-4, abs=1e-9)


def test_tdleaf_iterations_resume_and_replay(tmp_path, capsys):
    """tools/tdleaf.py: an iteration of two games at depth 1 (two worker
    processes), then another with --resume; each step is the recorded gradient
    over its running RMS, and bad settings are refused by name."""
    import json
    import math
    td = _tool("tdleaf")
    state = tmp_path / "td.json"
    common = ["--state", str(state), "--depth", "1", "--games", "2", "--concurrency", "2", "--params", "f2,g3",
              "--spec", CHEAP_SPEC]
    assert td.main(common + ["--iterations", "1"]) == 0
    assert td.main(["--state", str(state), "--resume", "--iterations", "2"]) == 0
    assert "[2/2] td error " in capsys.readouterr().out
    saved = json.loads(state.read_text())
    assert saved["iteration"] == 2 and [h["k"] for h in saved["history"]] == [0, 1]
    theta, rms = dict(saved["start"]), {name: 0.0 for name in saved["start"]}
    for h in saved["history"]:
        assert h["turns_used"] > 0 and sum(h["black_white_draw"]) == 2
        for name, g in h["gradient"].items():
            rms[name] = math.sqrt(0.7 * rms[name] ** 2 + 0.3 * g * g) if rms[name] else abs(g)
            theta[name] *= math.exp(saved["rate"] * g / rms[name]) if rms[name] else 1.0
        assert theta == pytest.approx(h["theta"])
    assert theta != saved["start"]
    for bad, words in ((["--params", "f9"], "unknown f9"), (["--iterations", "1"], "exists"),
                       (["--lam", "2", "--state", str(tmp_path / "new.json")], "--lam 0..1"),
                       (["--spec", "nosuch", "--state", str(tmp_path / "new.json")], "nosuch")):
        with pytest.raises(SystemExit):
            td.main(common + bad)
        assert words in capsys.readouterr().err


def test_spsa_against_an_opponent_plays_both_engines_pairs_against_it(tmp_path, capsys):
    """tools/spsa.py --opponent: each iteration the "+" and "-" engines play a
    colour-swapped pair each against the opponent; R is the "+" pair's points less
    the "-" pair's, and it moves the weights by the same rule as self-play."""
    spsa = _tool("spsa")
    state = tmp_path / "spsa.json"
    args = ["--state", str(state), "--depth", "1", "--move-time", "0", "--concurrency", "2",
            "--opponent", "paper:depth=1", "--params", "f2,g3", "--iterations", "2"]
    assert spsa.main(args) == 0
    saved = json.loads(state.read_text())
    assert saved["opponent"] == "paper:depth=1" and saved["iteration"] == 2
    theta = dict(saved["start"])
    for pair in saved["pairs"]:
        assert pair["result"] in (-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0)
        c_k, a_k = spsa.gains(pair["k"], 2, saved["c"], saved["a0"])
        theta = spsa.step(theta, pair["signs"], pair["result"], c_k, a_k)
    assert theta == pytest.approx(saved["theta"])
    # the four games: "+" as Black and White, then "-"; our engine is "a"
    jobs = spsa.opponent_jobs(((1,) * 6, (1,) * 6), ((2,) * 6, (2,) * 6), "j10,k11,k9", saved)
    assert [(j.pair, j.a_black) for j in jobs] == [(1, True), (1, False), (2, True), (2, False)]
    assert "weights=1/1/1/1/1/1:1/1/1/1/1/1" in jobs[0].a.text and "depth=1" in jobs[0].a.text
    assert all(j.b.text == "paper:depth=1" and j.move_time is None for j in jobs)
    won, lost, drawn = {"winner": "a"}, {"winner": "b"}, {"winner": None}
    assert spsa.opponent_result([won, won, lost, lost]) == 2.0
    assert spsa.opponent_result([drawn, lost, won, drawn]) == -1.0
    timed = dict(saved, spec="default:nodes=5000", move_time=2.5, depth=0)
    assert spsa.our_spec(timed, ((1,) * 6, (1,) * 6)).endswith(",time=2.5")
    with pytest.raises(SystemExit):
        spsa.main(["--state", str(tmp_path / "bad.json"), "--depth", "1", "--opponent", "cmd:"])
    assert "--opponent" in capsys.readouterr().err


def test_spsa_plays_pairs_moves_the_weights_by_their_results_and_resumes(tmp_path, capsys):
    """tools/spsa.py: two iterations (colour-swapped pairs at depth 1, two
    worker processes), then a third with --resume; every iteration is in the
    state file, and replaying the recorded signs and results through the
    update rule from the start gives the weights it holds."""
    import json
    spsa = _tool("spsa")
    state = tmp_path / "spsa.json"
    common = ["--state", str(state), "--depth", "1", "--move-time", "0", "--concurrency", "2", "--spec", CHEAP_SPEC]
    assert spsa.main(common + ["--iterations", "2", "--params", "f2,f3,g3"]) == 0
    assert spsa.main(["--state", str(state), "--resume", "--iterations", "3"]) == 0
    printed = capsys.readouterr().out
    assert "[3/3] pair " in printed and "weights: " in printed
    saved = json.loads(state.read_text())
    assert saved["iteration"] == 3 and [p["k"] for p in saved["pairs"]] == [0, 1, 2]
    assert saved["start"] == {"f2": 20.0, "f3": 40.0, "g3": 50.0}
    theta = dict(saved["start"])
    for pair in saved["pairs"]:
        assert pair["result"] in (-2.0, -1.0, 0.0, 1.0, 2.0) and set(pair["signs"]) == set(theta)
        c_k, a_k = spsa.gains(pair["k"], 3 if pair["k"] == 2 else 2, saved["c"], saved["a0"])
        theta = spsa.step(theta, pair["signs"], pair["result"], c_k, a_k)
    assert theta == pytest.approx(saved["theta"])
    f, g = spsa.weights_of(saved["theta"])
    assert f[5] == f[4] and g[4] == 6000 and f[2] == round(saved["theta"]["f2"])
    for bad, words in ((["--params", "f7"], "unknown f7"), (["--iterations", "1"], "exists"),
                       (["--depth", "0", "--state", str(tmp_path / "new.json")], "nodes=N"),
                       (["--spec", "default:nodes=x", "--state", str(tmp_path / "new.json")], "nodes")):
        with pytest.raises(SystemExit):
            spsa.main(common + bad)
        assert words in capsys.readouterr().err
    # a node limit instead of a time: the games are the same however busy the machine
    by_nodes = ["--spec", CHEAP_SPEC + ",nodes=2000", "--move-time", "0", "--iterations", "1", "--concurrency", "1"]
    assert spsa.main(["--state", str(tmp_path / "n1.json")] + by_nodes) == 0
    assert spsa.main(["--state", str(tmp_path / "n2.json")] + by_nodes) == 0
    first, second = (json.loads((tmp_path / n).read_text()) for n in ("n1.json", "n2.json"))
    assert first["pairs"] == second["pairs"] and first["theta"] == second["theta"]


def test_cloudict_memo_answers_the_positions_it_saw_and_asks_the_engine_elsewhere(tmp_path):
    """--memo DIR: where a game reaches a position the stand-in answered in DIR's
    records, the recorded reply is played and the stand-in is not asked; in the
    other games it is.  Our engine searches depth 1 only (deterministic), so the
    memo run repeats the first run's two games turn for turn, and the table gives
    the stand-in's turns from the memo the seconds the first run recorded."""
    wrapper = _cloudict_stand_in(tmp_path)
    common = ["--depths", "5", "--time", "30", "--engine", "default:depth=1", "--cloudict", str(wrapper),
              "--hang", "30", "--no-calibrate"]
    first = run_script("cloudict.py", *common, "--games", "2", "--games-dir", str(tmp_path / "one"),
                       "--out", str(tmp_path), "--table", "one.md", cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    log = tmp_path / "log.txt"
    asked_before = log.read_text().split().count("next")
    folder = tmp_path / "one" / "d5-default_depth=1-t30"
    memo_run = run_script("cloudict.py", *common, "--games", "4", "--games-dir", str(tmp_path / "two"),
                          "--out", str(tmp_path), "--table", "two.md", "--memo", str(folder), cwd=tmp_path)
    assert memo_run.returncode == 0, memo_run.stdout + memo_run.stderr
    one = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    two = {r["game"]: r for r in map(json.loads, (tmp_path / "two" / "d5-default_depth=1-t30" / "games.jsonl")
                                                      .read_text().splitlines())}
    assert [two[r["game"]]["moves"] for r in one] == [r["moves"] for r in one]
    theirs = [(r, i) for r in two.values() for i, t in enumerate(r["times"])
              if t is not None and (i % 2 == 0) == (r["a_color"] == "white")]
    asked = log.read_text().split().count("next") - asked_before
    assert asked == sum(1 for r, _ in theirs if r["game"] > 2) > 0          # games 3 and 4 only
    assert "memo: " in memo_run.stdout and "replies of cloudict-d5" in memo_run.stdout
    memo = _bench_module("memo_engine").load_memo(str(tmp_path / "two" / "d5-default_depth=1-t30" / "memo.json"))
    assert len(memo["replies"]) == sum(1 for r in one for i, t in enumerate(r["times"])
                                       if t is not None and (i % 2 == 0) == (r["a_color"] == "white"))
    # the pooled table of both runs (one opponent, memo or not) and the memo's times in the rows
    p = run_script("cloudict.py", "--pool", str(folder), str(tmp_path / "two" / "d5-default_depth=1-t30"),
                   cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "2 runs pooled" in p.stdout
    # --memo added by mistake to a resume of the run played without it: refused, and the folder
    # is left as it was (a memo.json there would give its table another run's times)
    again = run_script("cloudict.py", *common, "--games", "2", "--games-dir", str(tmp_path / "one"), "--resume",
                       "--out", str(tmp_path), "--table", "again.md", "--memo", str(tmp_path / "two"), cwd=tmp_path)
    assert again.returncode != 0 and "cannot resume" in again.stderr
    assert not (folder / "memo.json").exists()


def test_memo_refuses_an_engine_that_answers_one_position_two_ways(tmp_path):
    memo_engine = _bench_module("memo_engine")
    record = {"game": 1, "pair": 1, "a": "ours", "b": "cloudict-d6", "result": "black", "winner": "b",
              "black": "cloudict-d6", "white": "ours", "names": {"black": "Cloudict"},
              "moves": ["j10", "j9k11", "k9l8"], "times": [None, 1.0, 2.5]}
    other = dict(record, game=2, moves=["j10", "j9k11", "k9l7"])
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    memo = memo_engine.build_memo([str(tmp_path)], "cloudict-d6")
    assert memo["name"] == "Cloudict" and [v for v in memo["replies"].values()] == [["KILH", 2.5]]
    assert memo_engine.build_memo([str(tmp_path)], "cloudict-d5")["replies"] == {}
    fast = dict(record, times=[None, 1.0, 0.01])
    assert memo_engine.with_memo_times([fast], memo)[0]["times"] == [None, 1.0, 2.5]
    # a match played with that memo records the lookup's time; a memo made from it keeps the memo's
    played = tmp_path / "played"
    played.mkdir()
    (played / "games.jsonl").write_text(json.dumps(fast) + "\n")
    (played / "memo.json").write_text(json.dumps(memo))
    assert memo_engine.build_memo([str(played)], "cloudict-d6")["replies"] == memo["replies"]
    path.write_text(json.dumps(record) + "\n" + json.dumps(other) + "\n")
    with pytest.raises(ValueError, match="not a deterministic engine"):
        memo_engine.build_memo([str(tmp_path)], "cloudict-d6")
    path.write_text(json.dumps(dict(record, moves=["j10", "zz"])) + "\n")
    with pytest.raises(ValueError, match="games.jsonl, game 1: not a game record"):
        memo_engine.build_memo([str(path)], "cloudict-d6")
    # a torn last line (a run cut short) is skipped, as --resume skips it, not an error
    path.write_text(json.dumps(record) + "\n" + json.dumps(other)[:40])
    assert memo_engine.build_memo([str(path)], "cloudict-d6")["replies"] == memo["replies"]
    # against itself (--self) both colours are its turns
    both = dict(record, white="cloudict-d6", moves=["j10", "j9k11", "k9l8", "m12n13"], times=[None, 1.0, 2.5, 3.5])
    path.write_text(json.dumps(both) + "\n")
    self_memo = memo_engine.build_memo([str(path)], "cloudict-d6")
    assert sorted(v[1] for v in self_memo["replies"].values()) == [1.0, 2.5, 3.5]
    assert memo_engine.with_memo_times([dict(both, times=[None, 0, 0, 0])], self_memo)[0]["times"] == \
        [None, 1.0, 2.5, 3.5]


# ---------------------------------------------------------------- tools/order_fit.py
def test_order_fit_features_are_the_pair_score():
    """tools/order_fit.py: f . d_own - g . d_opp of a pair's histogram changes is the
    engine's pair score, for every weight set, on pairs of a real game."""
    order_fit = _tool("order_fit")
    game = connect6.records.read_games_csv(order_fit.HUMAN)[0]
    board = connect6.Board(game.moves[:9])
    pos = board.position.copy()
    for weights in ("paper", "texel"):
        w = order_fit.vector(weights)
        pos.set_weights(*connect6.resolve_weights(weights))
        for _, a, b in order_fit.best_moves(pos, 20, 2, order_fit.INCREMENTAL):
            me = pos.to_move
            assert w @ order_fit.features(pos, a, b) == pos.pair_delta(a, b, me, me, "incremental")


def test_order_fit_learns_the_order_that_chose_the_moves():
    """tools/order_fit.py: when every move played is the best pair by "texel"'s
    scores, the fit ranks them first far more often than "paper" does, and its
    weights read back as a weight set."""
    order_fit = _tool("order_fit")
    texel = order_fit.vector("texel")
    turns = []
    for game in connect6.records.read_games_csv(order_fit.HUMAN)[:12]:
        for before, _ in order_fit._turns(game.moves[:16], 1):
            board = connect6.Board(before)
            if order_fit.quiet(board):
                x, _ = order_fit.sample(board, game.moves[len(before)], 40)
                pos = board.position.copy()
                pairs = [(a, b) for _, a, b in order_fit.best_moves(pos, 40, 2, order_fit.INCREMENTAL)]
                best = max(range(len(pairs)), key=lambda i: texel @ x[i])
                turns.append((before, connect6.Move(pairs[best])))
    data = order_fit.dataset(turns, 40)
    assert len(data) > 50
    arrays = order_fit.pad(data)
    w = order_fit.fit(arrays)
    fitted, paper = (order_fit.ranks(arrays, w) == 0).mean(), (order_fit.ranks(arrays, order_fit.vector("paper")) == 0).mean()
    assert fitted > 0.8 and fitted > paper + 0.2, (fitted, paper)
    f, g = connect6.resolve_weights(order_fit.as_weights(w))
    assert g[3] == 50 and f[6] == g[6] == 1_000_000


def test_cloudict_against_self_says_where_each_lost_game_leaves_cloudicts_own(tmp_path):
    """--against-self: each game of a match our engine lost, against Cloudict's own game
    from the same opening: whether Cloudict wins that side, and the turn (and whose) where
    the two part, a turn's stones in either order being the same turn; a folder of
    another depth, or one not written by --self, is refused by name."""
    def folder(name, config, records):
        path = tmp_path / name
        path.mkdir()
        (path / "match.json").write_text(json.dumps(config))
        players = {"a": config.get("a", config.get("self")), "b": config.get("b", config.get("self"))}
        (path / "games.jsonl").write_text("".join(json.dumps(dict(players, **r)) + "\n" for r in records))
        return str(path)

    ours, them = "default:time=1", "cloudict-d5"
    match = folder("match", {"a": ours, "b": "cmd:cloudict 5"}, [
        {"game": 1, "pair": 1, "a_color": "black", "black": ours, "white": them, "winner": "b",
         "result": "white", "opening": "j10,k11,k9", "moves": ["j10", "k11k9", "l10m10", "n10o10"]},
        {"game": 2, "pair": 1, "a_color": "white", "black": them, "white": ours, "winner": "a",
         "result": "white", "opening": "j10,k11,k9", "moves": ["j10", "k11k9", "l10m11"]},
        {"game": 3, "pair": 2, "a_color": "white", "black": them, "white": ours, "winner": "b",
         "result": "black", "opening": "j10,i9,k11", "moves": ["j10", "i9k11", "k10k12", "j12i12", "l10l12"]}])
    own = folder("self-d5", {"self": "cmd:cloudict 5", "depth": 5, "openings": ["j10,k11,k9", "j10,i9,k11"]}, [
        {"game": 1, "pair": 1, "black": them, "white": them, "result": "black", "winner": "a", "opening": "j10,k11,k9",
         "moves": ["j10", "k11k9", "l10m11", "n11o11"]},
        {"game": 2, "pair": 2, "black": them, "white": them, "result": "black", "winner": "a", "opening": "j10,i9,k11",
         "moves": ["j10", "i9k11", "k12k10", "h12i12", "l10l12"]}])
    p = run_script("cloudict.py", "--against-self", match, own, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    rows = [[c.strip() for c in line.split("|")][1:-1] for line in p.stdout.splitlines() if re.match(r"\| \d", line)]
    assert rows == [["1", "1", "black", "wins this side", "2", "ours, our 1st out of the opening", "l10m10", "l10m11"],
                    ["3", "2", "white", "loses this side", "3", "ours, our 1st out of the opening", "j12i12", "h12i12"]]
    assert ("2 games lost; 1 on sides Cloudict's own play wins (1 of them part from its game at our first turn "
            "out of the opening), 1 on sides it loses too.") in p.stdout
    deeper = folder("self-d6", {"self": "cmd:cloudict 6", "depth": 6, "openings": []}, [])
    p = run_script("cloudict.py", "--against-self", match, deeper, cwd=tmp_path)
    assert p.returncode != 0 and "plays cloudict-d5" in p.stderr and "depth 6" in p.stderr
    assert "Traceback" not in p.stderr
    p = run_script("cloudict.py", "--against-self", match, match, cwd=tmp_path)
    assert p.returncode != 0 and "not a folder of Cloudict against itself" in p.stderr
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("script, args, said", [
    ("bench/strength.py", ["--table", ""], "is a folder, not a file"),
    ("bench/strength.py", ["--games", "0"], "--games must be at least 1"),
    ("bench/strength.py", ["--sprt", "0", "50", "2", "0.05"], "SPRT alpha"),
    ("bench/runner_scale.py", ["--games", "0"], "--games must be at least 1"),
    ("tools/first_loss.py", ["{match}", "--emit", "{tmp}"], "--emit: {tmp} is a folder"),
    ("tools/first_move_probe.py", ["{match}", "--openings-out", "{tmp}"], "--openings-out: {tmp} is a folder"),
    ("tools/spsa.py", ["--state", "{tmp}/no/state.json"], "the folder {tmp}/no does not exist"),
    ("tools/spsa.py", ["--state", "{tmp}/empty.json", "--resume"], "is not a state file this script wrote"),
    ("tools/spsa.py", ["--state", "{tmp}/s.json", "--base", "bogus"], "unknown weight set 'bogus'"),
    ("tools/order_fit.py", ["--weights", "bogus"], "--weights 'bogus'"),
])
def test_scripts_refuse_a_bad_argument_before_their_work(tmp_path, script, args, said):
    """Each used to end in a traceback, several only after their whole run
    (strength's table, first_loss's --emit, first_move_probe's openings,
    spsa's state after the first iteration): a usage error, status 2, at once."""
    match = ROOT / "bench" / "results" / "games" / "change-claim-partners" / "d5-default_claim_partners=true-t6.5"
    (tmp_path / "empty.json").write_text("")
    fill = dict(match=str(match), tmp=str(tmp_path))
    p = subprocess.run([sys.executable, str(ROOT / script), *[a.format(**fill) for a in args]], cwd=tmp_path,
                       env=subprocess_env({"MPLBACKEND": "Agg"}), capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and said.format(**fill) in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_first_loss_names_a_folder_of_broken_records(tmp_path, capsys):
    fl = _tool("first_loss")
    good = {"game": 1, "pair": 1, "a": "x", "b": "y", "result": "black", "winner": "a", "a_color": "black",
            "moves": ["j10"]}
    (tmp_path / "games.jsonl").write_text(json.dumps(good) + "\n{broken\n" + json.dumps(dict(good, game=2)) + "\n")
    with pytest.raises(SystemExit) as stop:
        fl.main([str(tmp_path)])
    assert stop.value.code == 2 and "line 2" in capsys.readouterr().err
    (tmp_path / "games.jsonl").write_text(json.dumps({k: v for k, v in good.items() if k != "moves"}) + "\n")
    with pytest.raises(SystemExit) as stop:
        fl.main([str(tmp_path)])
    assert stop.value.code == 2 and "game 1: not a record of the match runner" in capsys.readouterr().err


# ---------------------------------------------------------------- tools/eval_study.py
def test_eval_study_road_features_are_the_cores_histogram_and_holdout_runs_are_never_read(tmp_path):
    """tools/eval_study.py: its live-road counts agree with the core's on random
    positions; it learns only from timed searches that ended on a value, each
    position once, and never from a run whose folder says holdout."""
    import random

    import numpy as np
    study = _tool("eval_study")
    rng = random.Random(7)
    for _ in range(20):
        board = connect6.Board()
        for _ in range(rng.randint(5, 60)):
            if board.is_game_over():
                break
            board.push_stone(rng.choice(list(board.legal_stones())))
        if board.is_game_over():
            continue
        got = study.features(study._cells(board), int(board.turn))
        for tag, colour in (("s", int(board.turn)), ("o", 1 - int(board.turn))):
            assert [got[f"roads{n}{tag}"] for n in range(1, 6)] == board.position.histogram(colour)[1:6]
    moves = ["j10", "j9k11", "k9l8", "m7l10", "m9k7"]
    evals = [None, {"score": 120, "depth": 9}, {"score": 5, "depth": 3}, {"score": 999999999, "depth": 9},
             {"score": -40, "depth": 10, "source": "solver"}]
    line = json.dumps({"game": 1, "moves": moves, "evals": evals}) + "\n"
    held_out = json.dumps({"game": 1, "moves": ["j10", "a1a2", "s19s18"], "evals": [None, {"score": 777, "depth": 9}]})
    screen = json.dumps({"game": 1, "a": "default:nodes=200000", "moves": ["j10", "a1a2", "s19s18"],
                         "evals": [None, {"score": 555, "depth": 9}]})
    for folder, text in (("run-a", line), ("run-b", line), ("cloudict-d5-holdout-x/inner", held_out + "\n"),
                         ("screen", screen + "\n")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "games.jsonl").write_text(text + "not json\n")
    rows = list(study.teacher_positions(str(tmp_path)))
    assert [(r[2], r[3]) for r in rows] == [(120, 9)]          # once, though two runs hold it; 777, 555 never
    x = np.linspace(0, 1, 200)
    fold = np.arange(200) % 5
    assert study.r2_by_game(x[:, None], 3 * x + 1, fold) > 0.999
    assert study.r2_by_game(np.random.default_rng(1).random((200, 1)), x, fold) < 0.05
