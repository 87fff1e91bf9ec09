"""The release artefacts, not the tree: `bash tools/release.sh` builds the sdist
and a wheel from it (auditwheel-repaired to a manylinux tag on Linux); each is
installed in a fresh virtual environment and run from a folder outside the
checkout: `connect6 --version`, `connect6 bench --check` and a short search.

Slow (the core is compiled twice: the wheel, then the sdist when pip installs
it; about 2 minutes on 2 cores), so these run only with `pytest --artefacts`
or CONNECT6_TEST_ARTEFACTS=1, which .ci/run sets.
"""
import glob
import os
import subprocess
import sys
import tarfile
import zipfile

import pytest

from connect6.version import __version__, version_text

pytestmark = pytest.mark.artefacts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = f"connect6-{__version__}"

# a short search from the installed package; prints where it was imported from
SEARCH = """
import connect6
board = connect6.Board()
board.push("j10")
board.push("i9k11")
result = connect6.Engine(depth=2, width=6).search(board)
board.push(result.move)
assert result.nodes > 0 and result.depth == 2, result
print(connect6.__file__)
print(result.move)
"""


def _run(args, cwd, timeout=900):
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")})
    assert proc.returncode == 0, f"{args} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    _run(["bash", os.path.join(ROOT, "tools", "release.sh"), str(out)], cwd=ROOT)
    sdists = glob.glob(str(out / "connect6-*.tar.gz"))
    wheels = glob.glob(str(out / "connect6-*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, os.listdir(out)
    return sdists[0], wheels[0]


def _tracked(pattern):
    return {os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern))}


def test_sdist_carries_the_sources_and_nothing_generated(artefacts):
    sdist, _ = artefacts
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    wanted = set()
    for pattern in ("engine_core/*.pyx", "engine_core/*.pxd", "engine_core/*.pyi", "engine_core/py.typed",
                    "connect6/py.typed", "connect6/data/*", "connect6/web/static/*", "connect6/*.py"):
        found = _tracked(pattern)
        assert found, pattern
        wanted |= found
    wanted |= {"LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", "setup.py"}
    assert wanted <= names, sorted(wanted - names)
    generated = [n for n in names if n.endswith((".c", ".so", ".pyd", ".o"))
                 or (n.startswith("engine_core/") and n.endswith(".html"))]
    assert generated == []


def test_wheel_is_manylinux_and_carries_the_licence(artefacts):
    _, wheel = artefacts
    if sys.platform.startswith("linux"):
        assert "manylinux" in os.path.basename(wheel), wheel
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    assert f"{NAME}.dist-info/licenses/LICENSE" in names
    assert "connect6/data/bench_signature.txt" in names
    assert not [n for n in names if n.endswith((".pyx", ".c"))]


def _install_and_run(artefact, tmp_path):
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    _run([str(bindir / "python"), "-m", "pip", "install", "-q", artefact], cwd=tmp_path)
    away = tmp_path / "elsewhere"          # outside the checkout: the installed package must stand alone
    away.mkdir()
    assert _run([str(bindir / "connect6"), "--version"], cwd=away).strip() == version_text()
    assert "signature OK" in _run([str(bindir / "connect6"), "bench", "--check"], cwd=away)
    where, move = _run([str(bindir / "python"), "-c", SEARCH], cwd=away).split()
    assert where.startswith(str(venv)) and not where.startswith(ROOT), where
    assert move


def test_wheel_installs_and_plays_outside_the_checkout(artefacts, tmp_path):
    _install_and_run(artefacts[1], tmp_path)


def test_sdist_installs_and_plays_outside_the_checkout(artefacts, tmp_path):
    _install_and_run(artefacts[0], tmp_path)
