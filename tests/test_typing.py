"""The typed API: ``mypy --strict`` passes on ``examples/``, on the compiled
core's stubs (``engine_core/*.pyi``) and on the typed modules of the package
(``TYPED``, to grow to the whole of ``connect6/``), and sees the package's
real types (a wrong call is reported, so the annotations and stubs are not
``Any``).

The package is checked as a user's project sees an installed typed package:
its own modules are followed for their types (``--follow-imports=silent``)
and only the checked files report errors.  Needs mypy (skipped without it);
the environment examples also need the ``rl`` extra.
"""
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy is not installed")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
STUBS = sorted((ROOT / "engine_core").glob("*.pyi"))

#: the modules of connect6 that pass ``mypy --strict`` (files or whole packages); the
#: environments need the rl extra, so they are checked apart (TYPED_RL)
#: every module of the package but the environments (TYPED_RL), whose checks need the rl extra
TYPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "connect6").rglob("*.py")
               if "env" not in p.relative_to(ROOT / "connect6").parts)
TYPED_RL = ["connect6/env"]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("mypy_cache"))


def mypy(cache_dir, *paths, follow="silent"):
    """(exit status, report) of ``mypy --strict`` on ``paths``, run from the repository root."""
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", f"--follow-imports={follow}",
                           "--cache-dir", cache_dir, "--no-error-summary", *map(str, paths)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def test_the_examples_without_extras(cache_dir):
    status, report = mypy(cache_dir, EXAMPLES / "agents.py", EXAMPLES / "match_bot.py")
    assert status == 0, report


def test_the_environment_examples(cache_dir):
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    pytest.importorskip("gymnasium", reason="the rl extra is not installed")
    status, report = mypy(cache_dir, *sorted(EXAMPLES.glob("*.py")))
    assert status == 0, report


def test_the_typed_modules_of_the_package(cache_dir):
    assert all((ROOT / path).exists() for path in TYPED), [p for p in TYPED if not (ROOT / p).exists()]
    status, report = mypy(cache_dir, *TYPED)
    assert status == 0, report


def test_the_typed_environments(cache_dir):
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    pytest.importorskip("gymnasium", reason="the rl extra is not installed")
    status, report = mypy(cache_dir, *TYPED_RL)
    assert status == 0, report


def test_an_untyped_function_in_a_typed_module_is_reported(cache_dir, tmp_path):
    # the check is real: the same options flag a function without annotations
    module = tmp_path / "connect6_untyped.py"
    module.write_text("def f(x):\n    return x\n", encoding="utf-8")
    status, report = mypy(cache_dir, module)
    assert status == 1 and "connect6_untyped.py:1: error" in report and "no-untyped-def" in report


def test_the_stubs_of_the_compiled_core(cache_dir):
    assert len(STUBS) >= 5
    status, report = mypy(cache_dir, *STUBS, follow="normal")
    assert status == 0, report


def test_wrong_calls_are_reported(cache_dir, tmp_path):
    bot = tmp_path / "wrong_bot.py"
    bot.write_text(
        "import connect6\n"
        "from engine_core import geometry\n"
        "board = connect6.Board()\n"
        "board.push_stone('j10')\n"                        # a cell is an int
        "left: str = board.stones_to_place\n"              # an int
        "cells: int = geometry.road_cells(0)\n",           # a tuple (from the stub)
        encoding="utf-8")
    status, report = mypy(cache_dir, bot)
    assert status == 1
    assert "wrong_bot.py:4: error" in report and '"push_stone"' in report
    assert "wrong_bot.py:5: error" in report
    assert "wrong_bot.py:6: error" in report and "tuple[int, ...]" in report.lower()
