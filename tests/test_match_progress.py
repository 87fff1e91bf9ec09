"""connect6.match.progress: plain lines, tqdm and rich displays, and a missing library."""
import sys

import pytest

from _match_helpers import config
from connect6.match import Match, make_progress


def test_plain_progress_lines(tmp_path, capsys):
    Match(config(2)).run(concurrency=1, progress="plain")
    err = capsys.readouterr().err
    assert "[1/2] game 1:" in err and "[2/2] game 2:" in err


def test_tqdm_progress_is_used_when_asked(monkeypatch):
    import types
    calls = []

    class FakeBar:
        def __init__(self, **kw):
            calls.append(("init", kw["total"], kw["initial"]))

        def update(self, n):
            calls.append(("update", n))

        def set_postfix_str(self, text):
            calls.append(("postfix", text))

        def write(self, text, file=None):
            calls.append(("write", text))

        def close(self):
            calls.append(("close",))

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeBar))
    Match(config(2)).run(concurrency=1, progress="tqdm")
    assert calls[0] == ("init", 2, 0) and calls[-1] == ("close",)
    assert [c for c in calls if c[0] == "update"] == [("update", 1)] * 2


def test_missing_progress_library(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setitem(sys.modules, "rich.progress", None)
    with pytest.raises(ValueError, match="tqdm"):
        make_progress("tqdm", 2, 0)
    with pytest.raises(ValueError, match="rich"):
        make_progress("rich", 2, 0)
    assert make_progress("auto", 2, 0).__class__.__name__ == "_PlainProgress"
    with pytest.raises(ValueError):
        make_progress("fancy", 2, 0)
