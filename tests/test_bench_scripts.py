"""Smoke runs of the benchmark scripts (tiny sizes, no timing assertions)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from _env import subprocess_env

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"


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
    sys.path.insert(0, str(BENCH))
    try:
        from _common import step_positions
        from py_reference_search import compare_with_engine
    finally:
        sys.path.remove(str(BENCH))
    for board in step_positions(2, step=6):
        for depth, width in ((1, 4), (2, 3)):
            out = compare_with_engine(board, depth, width)
            assert out["same"], (depth, width, out["engine"], out["python"])


@pytest.mark.skipif(not (ROOT / "connect6" / "match.py").exists(), reason="no match runner")
def test_scan_strength_smoke(tmp_path):
    out = tmp_path / "ss"
    p = run_script("scan_strength.py", "--widths", "10", "--depths", "", "--games", "2", "--move-time", "0.05",
                   "--depth-samples", "1", "--concurrency", "2", "--no-plot",
                   "--out", str(out), cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (out / "scan_strength.md").exists()
    assert len((out / "scan_strength.csv").read_text().splitlines()) == 3
