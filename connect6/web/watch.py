"""Follow a ``connect6 match`` results directory for the watch view.

The directory holds ``match.json`` (the configuration, written when the match
starts) and ``games.jsonl`` (one JSON record per finished game, appended as
games end; see :func:`connect6.match.play_game` for the fields).  The match
may be writing while we read: a broken or partial line is skipped (and
counted), never fatal.

>>> import tempfile
>>> d = tempfile.mkdtemp()
>>> MatchWatcher(d).snapshot()["summary"]
'no games yet'
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["MatchWatcher"]

_RESULTS = ("black", "white", "draw")


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
        self._key: Optional[tuple] = None
        self._snapshot: Optional[Dict[str, Any]] = None

    def _path(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def _stamp(self) -> tuple:
        out: List[Any] = [os.path.isdir(self.directory)]
        for name in ("match.json", "games.jsonl"):
            try:
                st = os.stat(self._path(name))
                out.append((st.st_mtime_ns, st.st_size))
            except OSError:
                out.append(None)
        return tuple(out)

    def snapshot(self) -> Dict[str, Any]:
        """The directory's state as JSON-ready data: config, games, score line."""
        key = self._stamp()
        if key != self._key or self._snapshot is None:
            self._snapshot = self._read()
            self._key = key
        return self._snapshot

    def _read_config(self) -> Tuple[Dict[str, Any], Optional[str]]:
        try:
            with open(self._path("match.json"), encoding="utf-8") as fh:
                config = json.load(fh)
        except FileNotFoundError:
            return {}, None
        except (OSError, ValueError) as exc:
            return {}, f"match.json: {exc}"
        if not isinstance(config, dict):
            return {}, "match.json: not a JSON object"
        return config, None

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
        config, problem = self._read_config()
        records, skipped = self._read_games()
        sprt = None
        if isinstance(config.get("sprt"), dict):
            try:
                sprt = SprtParams(**config["sprt"])
            except (TypeError, ValueError) as exc:
                problem = f"match.json: bad sprt ({exc})"
        a, b = _labels(records, config)
        summary = format_summary(compute_stats(records, sprt), a, b) if records else "no games yet"
        games = [{
            "game": r["game"], "black": str(r.get("black", "")), "white": str(r.get("white", "")),
            "result": r["result"], "winner": r["winner"], "termination": str(r.get("termination", "")),
            "reason": str(r.get("reason") or ""), "moves": r.get("moves", []), "opening": str(r.get("opening", "")),
            "line": self._line(r),
        } for r in records]
        total = config.get("games") if isinstance(config.get("games"), int) else None
        return {
            "directory": os.path.abspath(self.directory), "a": a, "b": b, "games": games, "total": total,
            "config": {k: config.get(k) for k in ("a", "b", "games", "seed", "move_time", "game_time")},
            "summary": summary, "skipped_lines": skipped, "problem": problem,
            "exists": os.path.isdir(self.directory),
        }
