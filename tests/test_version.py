"""connect6.version and `connect6 --version`: one version, and the search it ships."""
import importlib.metadata
import re
import subprocess
import sys

import pytest

from _env import RUN_DIR, SUBPROCESS_ENV  # noqa: E402
from connect6 import version
from connect6.cli import main


def test_version_text_names_the_version_and_the_shipped_signature():
    text = version.version_text()
    assert re.fullmatch(r"connect6 \d+\.\d+\.\d+\S* \(bench \d+\)", text), text
    assert text == f"connect6 {version.__version__} (bench {version.read_signature()})"


def test_cli_version_prints_it(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == version.version_text() + "\n"


def test_python_m_connect6_version_in_a_subprocess():
    proc = subprocess.run([sys.executable, "-m", "connect6", "--version"], capture_output=True, text=True,
                          cwd=RUN_DIR, env=SUBPROCESS_ENV, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == version.version_text()


def test_installed_metadata_has_the_same_version():
    # pyproject.toml reads the version from connect6/version.py: there is one version
    assert importlib.metadata.version("connect6") == version.__version__


def test_unreadable_signature_is_named_not_raised(monkeypatch):
    def broken() -> int:
        raise ValueError("package data connect6/data/bench_signature.txt: no signature line")

    monkeypatch.setattr(version, "shipped_signature", broken)
    text = version.version_text()
    assert text.startswith(f"connect6 {version.__version__} (bench signature unreadable: ")
    assert "no signature line" in text
