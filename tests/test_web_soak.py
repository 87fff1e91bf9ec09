"""bench/web_soak.py in a tiny run: it starts a real connect6 gui, plays tabs against it,
reads its memory and times its pages (the figures are printed, never asserted)."""
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the web board needs the web extra: pip install 'connect6[web]'")
pytest.importorskip("websockets", reason="the soak's tabs need websockets (uvicorn[standard])")
if not Path("/proc/self/status").exists():
    pytest.skip("the soak reads the server's memory from /proc (Linux)", allow_module_level=True)

from _env import subprocess_env  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "web_soak.py"


def test_a_tiny_soak_runs_and_reports(tmp_path):
    p = subprocess.run([sys.executable, str(SCRIPT), "--rounds", "2", "--tabs", "3", "--search-tabs", "3",
                        "--requests", "3", "--server-arg=--max-searches=1"], cwd=tmp_path, env=subprocess_env({}),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    rounds = [x for x in lines if x.strip()[:1].isdigit() and x.count("|") == 9]
    assert len(rounds) == 2 and all(x.split("|")[2].strip() == "3" for x in rounds)   # every tab played
    assert any(x.startswith("RSS growth after round 1") for x in lines)
    assert any("GET /          p50" in x for x in lines) and any("GET /api/info" in x for x in lines)
    served = next(x for x in lines if x.startswith("server: "))
    assert "9 tabs served, 0 refused" in served           # 2 rounds of 3, then 3 searching
