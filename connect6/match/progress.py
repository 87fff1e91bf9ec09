"""Progress displays of a running match: plain lines, tqdm, rich, or nothing.

A display has ``update(record, stats)`` (a game finished), ``note(text)`` and
``close()``; :meth:`connect6.match.Match.run` accepts any object with these.
"""
from __future__ import annotations

import sys
from typing import Any, Mapping

from connect6.match.stats import MatchStats, format_elo

__all__ = ["PROGRESS_KINDS", "make_progress"]


class _PlainProgress:
    def __init__(self, total: int, done: int, stream=None):
        self.total, self.done = total, done
        self.stream = sys.stderr if stream is None else stream

    def update(self, record: Mapping[str, Any], stats: MatchStats) -> None:
        self.done += 1
        r = record
        how = r["result"] if r["result"] == "draw" else f"{r['result']} wins"
        self.stream.write(
            f"[{self.done}/{self.total}] game {r['game']}: {r['black']} (black) - {r['white']} (white): "
            f"{how}, {r['termination']}, {len(r['moves'])} turns | A {stats.wins}-{stats.losses}-{stats.draws}"
            f" Elo {format_elo(stats.elo)}\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        pass


class _TqdmProgress:
    def __init__(self, total: int, done: int, tqdm):
        self.bar = tqdm(total=total, initial=done, unit="game", desc="match", file=sys.stderr)

    def update(self, record, stats: MatchStats) -> None:
        self.bar.update(1)
        self.bar.set_postfix_str(f"A {stats.wins}-{stats.losses}-{stats.draws} Elo {format_elo(stats.elo)}")

    def note(self, text: str) -> None:
        self.bar.write(text, file=sys.stderr)

    def close(self) -> None:
        self.bar.close()


class _RichProgress:
    def __init__(self, total: int, done: int, rich_progress):
        self.progress = rich_progress.Progress(
            rich_progress.TextColumn("{task.description}"), rich_progress.BarColumn(),
            rich_progress.MofNCompleteColumn(), rich_progress.TimeElapsedColumn(), transient=False)
        self.progress.start()
        self.task = self.progress.add_task("match", total=total, completed=done)

    def update(self, record, stats: MatchStats) -> None:
        self.progress.update(self.task, advance=1, description=(
            f"A {stats.wins}-{stats.losses}-{stats.draws} Elo {format_elo(stats.elo)}"))

    def note(self, text: str) -> None:
        self.progress.console.print(text, markup=False, highlight=False)

    def close(self) -> None:
        self.progress.stop()


class _NoProgress:
    def update(self, record, stats) -> None:
        pass

    def note(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


PROGRESS_KINDS = ("auto", "tqdm", "rich", "plain", "none")


def make_progress(kind: str, total: int, done: int):
    """``auto`` (tqdm, else rich, else plain lines, when stderr is a terminal;
    plain lines otherwise), ``tqdm``, ``rich``, ``plain`` or ``none``."""
    if kind not in PROGRESS_KINDS:
        raise ValueError(f"progress must be one of {', '.join(PROGRESS_KINDS)}, not {kind!r}")
    if kind == "none":
        return _NoProgress()
    if kind in ("auto", "tqdm"):
        if kind == "tqdm" or sys.stderr.isatty():
            try:
                from tqdm import tqdm
                return _TqdmProgress(total, done, tqdm)
            except ImportError:
                if kind == "tqdm":
                    raise ValueError("--progress tqdm: tqdm is not installed (pip install tqdm)") from None
    if kind in ("auto", "rich"):
        if kind == "rich" or sys.stderr.isatty():
            try:
                import rich.progress
                return _RichProgress(total, done, rich.progress)
            except ImportError:
                if kind == "rich":
                    raise ValueError("--progress rich: rich is not installed (pip install rich)") from None
    return _PlainProgress(total, done)


