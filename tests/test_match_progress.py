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


def test_live_plain_lines(capsys, monkeypatch):
    from connect6.match.progress import _LivePlainProgress, status_line
    monkeypatch.setitem(sys.modules, "rich", None)              # without rich: plain lines
    monkeypatch.setitem(sys.modules, "rich.progress", None)
    display = make_progress("live", 4, 0)
    assert isinstance(display, _LivePlainProgress)
    display.every = 0.0
    status = {"game": 2, "black": "a", "white": "b", "turns": 7, "to_move": "black",
              "clock": {"black": 3.0, "white": None}}
    display.running([status])
    err = capsys.readouterr().err
    assert "running: game 2: a (black) - b (white), 7 turns, black to move, clocks 3.0 / -" in err
    assert status_line(dict(status, clock=None)).endswith("black to move")
    display.every = 3600.0
    display.running([status])          # not again before `every` seconds
    assert capsys.readouterr().err == ""


def test_rich_live_rows_show_labels_as_they_are(capsys):
    """Rich reads ``[...]`` in text as markup: a label such as ``[/x]`` (a
    closing tag with nothing open) used to end the match with rich's
    MarkupError before any game was saved, and ``x[d6]`` lost its ``[d6]``.
    The live rows print labels as plain text."""
    pytest.importorskip("rich")
    from connect6.match.progress import _RichProgress
    display = make_progress("live", 2, 0)
    assert isinstance(display, _RichProgress)
    display.progress.console.width = 200
    status = {"game": 1, "black": "[/x]", "white": "x[d6]", "turns": 3, "to_move": "white", "clock": None}
    display.running([status])
    display.progress.refresh()
    display.close()
    display.note("a note")
    captured = capsys.readouterr()
    assert "[/x] (black) - x[d6] (white)" in captured.err and "a note" in captured.err
    assert captured.out == ""           # stdout is the summary's: the display and its notes go to stderr
    stats = Match(config(2, a="paper:depth=1,name=[/x]")).run(concurrency=1, progress="live")
    assert stats.games == 2


def test_bars_name_whose_score_a_tournament_line_shows():
    """In a tournament the stats are the finished game's pairing's: the tqdm
    and rich bars name its first player, as the plain lines do (they said
    "A", which in a tournament is no one)."""
    pytest.importorskip("rich")
    pytest.importorskip("tqdm")
    from connect6.match.stats import compute_stats
    record = {"game": 3, "black": "d1", "white": "paper", "a_color": "white", "result": "white",
              "winner": "a", "termination": "six", "moves": ["j10"], "pairing": [2, 0]}
    stats = compute_stats([dict(record, pair=2)])
    rich_bar = make_progress("rich", 4, 0)
    rich_bar.update(record, stats)
    assert rich_bar.progress.tasks[0].description.startswith("paper 1-0-0")
    rich_bar.close()
    tqdm_bar = make_progress("tqdm", 4, 0)
    tqdm_bar.update(record, stats)
    assert tqdm_bar.bar.postfix.startswith("paper 1-0-0")
    tqdm_bar.close()
