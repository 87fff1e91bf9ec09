"""Progress displays of a running match: plain lines, tqdm, rich, or nothing.

A display has ``update(record, stats)`` (a game finished), ``note(text)`` and
``close()``; :meth:`connect6.match.Match.run` accepts any object with these.
A display that also has ``running(statuses)`` is shown the running games
about twice a second: one dict per game (``game``, ``black``, ``white``,
``turns``, ``to_move``, ``clock``), sent by the games after every turn
(:attr:`connect6.match.GameJob.status`).
"""
from __future__ import annotations

import sys
import time
from typing import IO, TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Protocol

from connect6.match.stats import MatchStats, format_elo

if TYPE_CHECKING:
    from rich.progress import TaskID

__all__ = ["PROGRESS_KINDS", "INSTALL_HINT", "make_progress"]


class Progress(Protocol):
    """What :meth:`connect6.match.Match.run` calls on a progress display."""

    def update(self, record: Mapping[str, Any], stats: MatchStats) -> None: ...

    def note(self, text: str) -> None: ...

    def close(self) -> None: ...


class _PlainProgress:
    def __init__(self, total: int, done: int, stream: Optional[IO[str]] = None) -> None:
        self.total, self.done = total, done
        self.stream = sys.stderr if stream is None else stream

    def update(self, record: Mapping[str, Any], stats: MatchStats) -> None:
        self.done += 1
        r = record
        how = r["result"] if r["result"] == "draw" else f"{r['result']} wins"
        self.stream.write(
            f"[{self.done}/{self.total}] game {r['game']}: {r['black']} (black) - {r['white']} (white): "
            f"{how}, {r['termination']}, {len(r['moves'])} turns | {_who(r)}{stats.wins}-{stats.losses}-{stats.draws}"
            f" Elo {format_elo(stats.elo)}\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        pass


def _who(record: Mapping[str, Any]) -> str:
    """Whose score the line shows: A's in a match, the pairing's first player's in a tournament."""
    if "pairing" not in record:
        return "A "
    return f"{record['black'] if record.get('a_color') == 'black' else record['white']} "


def status_line(status: Mapping[str, Any]) -> str:
    """One running game in words.

    >>> status_line({"game": 3, "black": "paper", "white": "d1", "turns": 12, "to_move": "white",
    ...              "clock": {"black": 41.5, "white": 38.25}})
    'game 3: paper (black) - d1 (white), 12 turns, white to move, clocks 41.5 / 38.2'
    """
    s = status
    line = f"game {s['game']}: {s['black']} (black) - {s['white']} (white), {s['turns']} turns, {s['to_move']} to move"
    clock = s.get("clock")
    if clock:
        line += ", clocks " + " / ".join("-" if clock.get(c) is None else f"{clock[c]:.1f}" for c in ("black", "white"))
    return line


class _LivePlainProgress(_PlainProgress):
    """Plain lines, and every ``every`` seconds a line per running game."""

    def __init__(self, total: int, done: int, stream: Optional[IO[str]] = None, every: float = 10.0) -> None:
        super().__init__(total, done, stream)
        self.every = every
        self.last = time.monotonic()

    def running(self, statuses: List[Mapping[str, Any]]) -> None:
        if not statuses or time.monotonic() - self.last < self.every:
            return
        self.last = time.monotonic()
        for status in statuses:
            self.stream.write("  running: " + status_line(status) + "\n")
        self.stream.flush()


class _TqdmProgress:
    def __init__(self, total: int, done: int) -> None:
        from tqdm import tqdm
        self.bar = tqdm(total=total, initial=done, unit="game", desc="match", file=sys.stderr)

    def update(self, record: Mapping[str, Any], stats: MatchStats) -> None:
        self.bar.update(1)
        self.bar.set_postfix_str(f"{_who(record)}{stats.wins}-{stats.losses}-{stats.draws} Elo {format_elo(stats.elo)}")

    def note(self, text: str) -> None:
        self.bar.write(text, file=sys.stderr)

    def close(self) -> None:
        self.bar.close()


class _RichProgress:
    def __init__(self, total: int, done: int) -> None:
        import rich.console
        import rich.progress as rich_progress
        self.progress = rich_progress.Progress(
            rich_progress.TextColumn("{task.description}", markup=False),      # labels may hold [...]
            rich_progress.BarColumn(),
            rich_progress.MofNCompleteColumn(), rich_progress.TimeElapsedColumn(), transient=False,
            console=rich.console.Console(stderr=True))      # stdout is the summary's, as with the others
        self.progress.start()
        self.task = self.progress.add_task("match", total=total, completed=done)
        self.games: Dict[int, TaskID] = {}   # game number -> its row

    def update(self, record: Mapping[str, Any], stats: MatchStats) -> None:
        self.progress.update(self.task, advance=1, description=(
            f"{_who(record)}{stats.wins}-{stats.losses}-{stats.draws} Elo {format_elo(stats.elo)}"))

    def running(self, statuses: List[Mapping[str, Any]]) -> None:
        """A row per running game, updated as it goes; removed when it ends."""
        now = {s["game"]: s for s in statuses}
        for game in list(self.games):
            if game not in now:
                self.progress.remove_task(self.games.pop(game))
        for game, status in now.items():
            text = "  " + status_line(status)
            if game in self.games:
                self.progress.update(self.games[game], description=text)
            else:
                self.games[game] = self.progress.add_task(text, total=None)

    def note(self, text: str) -> None:
        self.progress.console.print(text, markup=False, highlight=False)

    def close(self) -> None:
        self.progress.stop()


class _NoProgress:
    def update(self, record: Mapping[str, Any], stats: MatchStats) -> None:
        pass

    def note(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


PROGRESS_KINDS = ("auto", "tqdm", "rich", "plain", "live", "none")

#: the extra that brings tqdm and rich
INSTALL_HINT = 'pip install "connect6[progress]"'


def make_progress(kind: str, total: int, done: int) -> Progress:
    """``auto`` (tqdm, else rich, else plain lines, when stderr is a terminal;
    plain lines otherwise), ``tqdm``, ``rich`` (with a live row per running
    game), ``plain``, ``live`` (rich with a live row per running game when
    installed, else plain lines and every 10 s a line per running game) or
    ``none``."""
    if kind not in PROGRESS_KINDS:
        raise ValueError(f"progress must be one of {', '.join(PROGRESS_KINDS)}, not {kind!r}")
    if kind == "none":
        return _NoProgress()
    if kind == "live":
        try:
            return _RichProgress(total, done)
        except ImportError:
            return _LivePlainProgress(total, done)
    if kind in ("auto", "tqdm"):
        if kind == "tqdm" or sys.stderr.isatty():
            try:
                return _TqdmProgress(total, done)
            except ImportError:
                if kind == "tqdm":
                    raise ValueError(f"--progress tqdm: tqdm is not installed: {INSTALL_HINT}") from None
    if kind in ("auto", "rich"):
        if kind == "rich" or sys.stderr.isatty():
            try:
                return _RichProgress(total, done)
            except ImportError:
                if kind == "rich":
                    raise ValueError(f"--progress rich: rich is not installed: {INSTALL_HINT}") from None
    return _PlainProgress(total, done)


