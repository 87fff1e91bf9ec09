"""The bench node count is the search's signature."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import connect6
from _env import SUBPROCESS_ENV
from connect6 import benchmark

ROOT = Path(__file__).resolve().parents[1]
CHECKOUT_COPY = ROOT / "bench" / "signature.txt"


def test_bench_matches_signature():
    result = benchmark.run()
    expected = benchmark.read_signature()          # the package data, as installed
    assert result["nodes"] == expected, (
        f"bench total {result['nodes']} != signature {expected}: if search changed on purpose, "
        "update connect6/data/bench_signature.txt in the same commit and say so")


def test_the_checkout_signature_is_the_package_file():
    if not CHECKOUT_COPY.exists():
        pytest.skip("not run from a source checkout")
    package_file = ROOT / "connect6" / "data" / "bench_signature.txt"
    assert os.path.samefile(CHECKOUT_COPY, package_file), "bench/signature.txt must link to the package file"
    assert benchmark.read_signature(CHECKOUT_COPY) == benchmark.read_signature()


def test_read_signature_names_a_bad_file(tmp_path):
    bad = tmp_path / "sig.txt"
    bad.write_text("# comment\nlots\n")
    with pytest.raises(ValueError, match="sig.txt.*'lots' is not a node count"):
        benchmark.read_signature(bad)
    bad.write_text("# only comments\n")
    with pytest.raises(ValueError, match="no signature line"):
        benchmark.read_signature(bad)


def _bench_outside_checkout(tmp_path, *args):
    return subprocess.run([sys.executable, "-m", "connect6", "bench", *args], capture_output=True, text=True,
                          cwd=tmp_path, env=SUBPROCESS_ENV, timeout=300)


def test_check_outside_the_checkout_reports_a_mismatch_with_both_numbers(tmp_path):
    proc = _bench_outside_checkout(tmp_path, "--check", "--depth", "2", "--width", "5")
    assert proc.returncode == 1, proc.stderr
    got = int(next(line for line in proc.stdout.splitlines() if line.startswith("Nodes searched")).split()[-1])
    expected = benchmark.read_signature()
    assert got != expected
    assert f"expected {expected} nodes, got {got}" in proc.stderr
    assert "signature is for the defaults" in proc.stderr


def test_check_passes_in_process(monkeypatch, capsys):
    monkeypatch.setattr(benchmark, "read_signature", lambda path=None: 1234)
    monkeypatch.setattr(benchmark, "run", lambda *a, **k: {"nodes": 1234, "time_s": 0.5, "positions": [],
                                                           "engine": "stub"})
    assert benchmark.main(["--check"]) == 0
    assert "signature OK (1234 nodes)" in capsys.readouterr().out


def test_bench_positions_are_legal_and_unfinished():
    for _, moves in benchmark.BENCH_POSITIONS:
        board = connect6.Board(moves)
        assert not board.is_game_over()


def test_bench_is_the_same_in_every_scan_mode():
    a = benchmark.run(depth=2, width=6, scan="local")
    b = benchmark.run(depth=2, width=6, scan="incremental")
    assert a["nodes"] == b["nodes"]
    assert [p["move"] for p in a["positions"]] == [p["move"] for p in b["positions"]]


def test_bench_main_prints_total(capsys):
    assert benchmark.main(["--depth", "2", "--width", "5"]) == 0
    out = capsys.readouterr().out
    assert "Nodes searched" in out and out.count("position ") == 10
