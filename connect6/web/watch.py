"""Follow a ``connect6 match`` or ``connect6 tournament`` results directory for the watch view.

The directory holds ``match.json`` (a match's configuration, written when it
starts) or ``tournament.json`` (a tournament's), and ``games.jsonl`` (one
JSON record per finished game, appended as games end; see
:func:`connect6.match.play_game` for the fields; a tournament's records also
carry ``pairing``).  The runner may be writing while we read: a broken or
partial line is skipped (and counted), never fatal.

Games in progress are read from ``running.json`` when the runner writes it:
``{"updated": UNIX_TIME, "games": [STATUS, ...]}``, one status per running
game as :meth:`connect6.match.GameJob.status` reports it (``game``,
``black``, ``white``, ``turns``, ``to_move``, ``clock`` with ``black`` and
``white`` seconds left or null) plus ``moves`` (the turns so far, e.g.
``["j10", "k11i11"]``), rewritten whole (write and rename) as the games move.
A game that is already in ``games.jsonl`` is not shown as running, and a
status that does not fit is skipped.

>>> import tempfile
>>> d = tempfile.mkdtemp()
>>> MatchWatcher(d).snapshot()["summary"]
'no games yet'
"""
from __future__ import annotations

import json
import math
import os
import time
from typing import Any, Dict, List, Optional, Set, Tuple

from connect6.match.store import RUNNING_FILE  # the runner writes it

__all__ = ["MatchWatcher"]

_RESULTS = ("black", "white", "draw")
#: the files the watcher reads (running.json: the games in progress, see the module docstring)
_FILES = ("match.json", "tournament.json", "games.jsonl", RUNNING_FILE)


def _valid(record: Any) -> bool:
    """Whether a decoded line has what the score line needs."""
    if not isinstance(record, dict):
        return False
    try:
        return (isinstance(record["game"], int) and isinstance(record["pair"], int)
                and record["result"] in _RESULTS and record["winner"] in ("a", "b", None)
                and isinstance(record["termination"], str)
                and isinstance(record.get("moves", []), list)
                and all(isinstance(m, str) for m in record.get("moves", [])))
    except (KeyError, TypeError):
        return False


def _labels(records: List[Dict[str, Any]], config: Dict[str, Any]) -> Tuple[str, str]:
    """The names of players A and B, as the match prints them."""
    for r in records:
        black, white = str(r.get("black", "")), str(r.get("white", ""))
        if black and white:
            return (black, white) if r.get("a_color") == "black" else (white, black)
    return str(config.get("a", "A")), str(config.get("b", "B"))


class MatchWatcher:
    """Reads a results directory; :meth:`snapshot` is cached until the files change."""

    def __init__(self, directory: str):
        self.directory = os.fspath(directory)
        self._key: Optional[Tuple[Any, ...]] = None
        self._snapshot: Optional[Dict[str, Any]] = None

    def _path(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def _stamp(self) -> Tuple[Any, ...]:
        out: List[Any] = [os.path.isdir(self.directory)]
        for name in _FILES:
            try:
                st = os.stat(self._path(name))
                out.append((st.st_mtime_ns, st.st_size))
            except OSError:
                out.append(None)
        return tuple(out)

    def snapshot(self) -> Dict[str, Any]:
        """The directory's state as JSON-ready data: config, games, running games, score lines."""
        key = self._stamp()
        if key != self._key or self._snapshot is None:
            self._snapshot = self._read()
            self._key = key
        return dict(self._snapshot, now=time.time())   # the reader's clock, for the age of running.json

    def _read_config(self) -> Tuple[Dict[str, Any], str, Optional[str]]:
        """(config, kind "match" or "tournament", problem)."""
        for name, kind in (("tournament.json", "tournament"), ("match.json", "match")):
            try:
                with open(self._path(name), encoding="utf-8") as fh:
                    config = json.load(fh)
            except FileNotFoundError:
                continue
            except (OSError, ValueError, RecursionError) as exc:     # RecursionError: nested too deep
                return {}, kind, f"{name}: {exc}"
            if not isinstance(config, dict):
                return {}, kind, f"{name}: not a JSON object"
            return config, kind, None
        return {}, "match", None

    def _read_running(self, finished: Set[int]) -> Tuple[List[Dict[str, Any]], Optional[float]]:
        """The games in progress (not yet finished) and when the runner last wrote them."""
        try:
            with open(self._path(RUNNING_FILE), encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError, RecursionError):
            return [], None
        if not isinstance(data, dict) or not isinstance(data.get("games"), list):
            return [], None
        updated = _finite(data.get("updated"))
        games = [g for g in (_running_status(x) for x in data["games"]) if g is not None and g["game"] not in finished]
        return sorted(games, key=lambda g: g["game"]), updated

    def _read_games(self) -> Tuple[List[Dict[str, Any]], int]:
        try:
            with open(self._path("games.jsonl"), encoding="utf-8", errors="replace") as fh:
                lines = fh.read().split("\n")
        except OSError:
            return [], 0
        games: Dict[int, Dict[str, Any]] = {}
        skipped = 0
        for line in lines:
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except (ValueError, RecursionError):
                record = None
            if _valid(record):
                games[record["game"]] = record
            else:
                skipped += 1
        return [games[k] for k in sorted(games)], skipped

    @staticmethod
    def _line(record: Dict[str, Any]) -> List[str]:
        """The winning six of a game's final position ([] without one, or for a broken move list)."""
        from connect6.notation import cell_name
        from connect6.records import RecordError, replay
        try:
            out = replay(record.get("moves", [])).outcome()
        except RecordError:
            return []
        return [cell_name(c) for c in out.line] if out is not None and out.line else []

    def _read(self) -> Dict[str, Any]:
        from connect6.match import SprtParams, compute_stats, format_summary
        config, kind, problem = self._read_config()
        records, skipped = self._read_games()
        sprt = None
        if isinstance(config.get("sprt"), dict):
            try:
                sprt = SprtParams(**config["sprt"])
            except (TypeError, ValueError) as exc:
                problem = f"match.json: bad sprt ({exc})"
        a, b = _labels(records, config)
        if kind == "tournament" or any("pairing" in r for r in records):
            kind, summary = "tournament", _tournament_summary(records)
        else:
            summary = format_summary(compute_stats(records, sprt), a, b) if records else "no games yet"
        running, updated = self._read_running({r["game"] for r in records})
        games = [{
            "game": r["game"], "black": str(r.get("black", "")), "white": str(r.get("white", "")),
            "result": r["result"], "winner": r["winner"], "termination": str(r.get("termination", "")),
            "reason": str(r.get("reason") or ""), "moves": r.get("moves", []), "opening": str(r.get("opening", "")),
            "line": self._line(r),
        } for r in records]
        return {
            "directory": os.path.abspath(self.directory), "kind": kind, "a": a, "b": b, "games": games,
            "total": _total(config, kind),
            "config": {k: _plain(config.get(k)) for k in ("a", "b", "players", "games", "seed", "move_time",
                                                          "game_time")},
            "summary": summary, "skipped_lines": skipped, "problem": problem,
            "exists": os.path.isdir(self.directory), "running": running, "running_updated": updated,
        }


def _finite(value: Any) -> Optional[float]:
    """A number as a finite float; None for anything else (NaN, 1e999, an int past float's range)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _plain(value: Any) -> Any:
    """A setting of match.json as the page can take it: text, a whole number, a
    finite number or a list of texts; None for anything else (NaN would break the JSON reply)."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, float):
        return _finite(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


def _total(config: Dict[str, Any], kind: str) -> Optional[int]:
    """Games the match or tournament will play (None when unknown)."""
    games = config.get("games")
    if not isinstance(games, int) or isinstance(games, bool):
        return None
    players = config.get("players")
    if kind != "tournament":
        return games
    if not isinstance(players, list) or len(players) < 2:
        return None
    n = len(players)
    pairings = n - 1 if config.get("tournament_format") == "gauntlet" else n * (n - 1) // 2
    return games * pairings


def _running_status(x: Any) -> Optional[Dict[str, Any]]:
    """A running game's status from running.json, checked (None when it does not fit)."""
    if not isinstance(x, dict):
        return None
    try:
        game, turns, moves, clock = x["game"], x["turns"], x.get("moves", []), x.get("clock")
        ok = (isinstance(game, int) and isinstance(turns, int) and x["to_move"] in ("black", "white")
              and isinstance(moves, list) and all(isinstance(m, str) for m in moves)
              and (clock is None or isinstance(clock, dict)))
    except (KeyError, TypeError):
        return None
    if not ok:
        return None
    if clock is not None:
        clock = {c: _finite(clock.get(c)) for c in ("black", "white")}
    return {"game": game, "black": str(x.get("black", "")), "white": str(x.get("white", "")), "turns": turns,
            "to_move": x["to_move"], "clock": clock, "moves": moves}


def _tournament_summary(records: List[Dict[str, Any]]) -> str:
    """Standings (points of each player) and one score line per pairing."""
    from connect6.match import compute_stats
    if not records:
        return "no games yet"
    points: Dict[str, List[float]] = {}
    for r in records:
        for color in ("black", "white"):
            name = str(r.get(color, ""))
            got = 0.5 if r["result"] == "draw" else 1.0 if r["result"] == color else 0.0
            p = points.setdefault(name, [0.0, 0])
            p[0] += got
            p[1] += 1
    lines = ["Standings:"] + [f"  {name}: {p:g} / {n}" for name, (p, n) in
                              sorted(points.items(), key=lambda kv: (-kv[1][0] / kv[1][1], kv[0]))]
    pairings: Dict[Any, List[Dict[str, Any]]] = {}
    for r in records:
        pairing = r.get("pairing")
        key = tuple(pairing) if isinstance(pairing, list) and all(isinstance(p, int) for p in pairing) else None
        pairings.setdefault(key, []).append(r)
    for group in pairings.values():
        a, b = _labels(group, {})
        st = compute_stats(group)
        lines.append(f"Score of {a} vs {b}: {st.wins} - {st.losses} - {st.draws}  [{st.score:.3f}] {st.games}")
    return "\n".join(lines)
