"""The results of a match on disk: ``match.json``, ``games.jsonl``, one SGF per game.

``games.jsonl`` holds one game record per line (see
:func:`connect6.match.game.play_game` for the fields).  A record is appended
in one write of a whole line, flushed and fsynced, and starts a line of its
own whatever the file ends with, so a crash tears at most the last line.  On
resume a torn last line is skipped with a warning naming it; before anything
is appended its bytes are moved to ``games.jsonl.torn`` (appended to, never
deleted) and its game is played again.  A bad line before the last is an
error naming it, and nothing changes.  ``match.json`` and the SGF files are
replaced atomically (a temporary file, then a rename).  A finished game is
written and counted by :func:`keep_record`, within :func:`interrupts_held`,
so Ctrl-C or SIGTERM cannot leave it counted in the results but missing from
the file (or the other way round).

One run at a time writes a results folder: :meth:`ResultsDir.open` takes an
exclusive lock on its ``.lock`` file (held until :meth:`ResultsDir.close`, and
dropped by the system however the process ends) and refuses a folder whose
``games.jsonl`` changed after this run read it, so two runs given the same
``--out`` cannot mix their games.  A game number twice in ``games.jsonl`` is an
error naming both lines.
"""
from __future__ import annotations

import contextlib
import dataclasses
import errno
import importlib
import json
import logging
import os
import signal
import sys
import threading
import weakref
from typing import IO, Any, Dict, Iterator, List, Mapping, Optional, Tuple

from connect6._files import write_file_atomic
from connect6.notation import Color
from connect6.records import write_sgf
from connect6.records.openings import check_opening
from connect6.records.sgf import sgf_result
from connect6.result import record_text

__all__ = [
    "GAMES_FILE", "CONFIG_FILE", "SGF_DIR", "TORN_SUFFIX", "ResultsDir", "ResultsFolderBusy", "ResultsWriteError",
    "read_results", "set_aside_torn_line", "append_record", "write_file_atomic", "sgf_text", "interrupts_held",
    "keep_record",
]

GAMES_FILE = "games.jsonl"
#: Beside a results file: the bytes of torn last lines set aside on resume.
TORN_SUFFIX = ".torn"
CONFIG_FILE = "match.json"
#: the version of the folder's files (``match.json``'s ``format``): what this version writes and reads
FORMAT = 1
SGF_DIR = "sgf"
#: The file a run holds an exclusive lock on while it writes the folder.
LOCK_FILE = ".lock"
#: Fields every line of games.jsonl has (the statistics read them).
_RECORD_KEYS = ("game", "pair", "a", "b", "result", "winner")
_log = logging.getLogger("connect6.match")


class ResultsDir:
    """A match's results directory ``out``; nothing is written until :meth:`open`."""

    def __init__(self, out: str):
        if os.path.exists(out) and not os.path.isdir(out):
            raise ValueError(f"{out} is a file: results go to a folder (give --out a new or a results folder)")
        self.out = out
        self.games_path = os.path.join(out, GAMES_FILE)
        self.config_path = os.path.join(out, CONFIG_FILE)
        self.sgf_dir = os.path.join(out, SGF_DIR)
        self._lock_file: Optional[IO[bytes]] = None
        self._save_failed = False
        self._seen: Optional[Tuple[int, int]] = None     # games.jsonl (size, mtime) when last read or written
        self._read = False                               # read_games or holds_games was called

    def _games_state(self) -> Optional[Tuple[int, int]]:
        try:
            st = os.stat(self.games_path)
        except FileNotFoundError:
            return None
        return (st.st_size, st.st_mtime_ns) if st.st_size else None

    def holds_games(self) -> bool:
        self._seen, self._read = self._games_state(), True
        return self._seen is not None

    def read_config(self) -> Optional[Dict[str, Any]]:
        """The stored ``match.json``, or None when there is none (ValueError
        naming the file when it is not a JSON object)."""
        if not os.path.exists(self.config_path):
            return None
        try:
            with open(self.config_path, encoding="utf-8") as fh:
                config = json.load(fh)
        except (ValueError, RecursionError) as exc:   # ValueError: not UTF-8, not JSON, a 5 000-digit number
            raise ValueError(f"{self.config_path} is not JSON text that this version reads ({exc})") from None
        if not isinstance(config, dict):
            raise ValueError(f"{self.config_path} holds a {type(config).__name__}, not the settings of a match")
        if config.get("format", FORMAT) != FORMAT:
            raise ValueError(f"{self.config_path} is of format {config['format']!r}, written by another "
                             f"version of connect6; this one reads format {FORMAT}")
        return config

    def read_resumable_config(self) -> Optional[Dict[str, Any]]:
        """:meth:`read_config` for a resume, which also needs the integer
        ``seed`` and the list of ``pair_openings`` (ValueError naming the file)."""
        try:
            config = self.read_config()
        except ValueError as exc:
            raise ValueError(f"cannot resume: {exc}") from None
        if config is None:
            return None
        seed, openings = config.get("seed"), config.get("pair_openings")
        if (not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(openings, list)
                or not all(isinstance(o, str) for o in openings)):
            raise ValueError(f"cannot resume: {self.config_path} lacks its seed (an integer) or its "
                             "pair_openings (a list of stone lists)")
        for number, opening in enumerate(openings, 1):
            try:
                check_opening(opening)
            except ValueError as exc:
                raise ValueError(f"cannot resume: {self.config_path}, opening {number} of pair_openings "
                                 f"({opening[:80]!r}): {exc}") from None
        return config

    def read_games(self) -> List[Dict[str, Any]]:
        """The game records so far (a torn last line skipped with a warning; nothing changes)."""
        self._seen, self._read = self._games_state(), True
        return read_results(self.games_path) if os.path.exists(self.games_path) else []

    def open(self, config: Mapping[str, Any]) -> None:
        """Get ready to add games: lock the folder, write ``match.json`` and set a
        torn last line aside.  :class:`ResultsFolderBusy`, with nothing written,
        when another run holds the folder or wrote games to it after this run
        read it; :class:`ResultsWriteError` when the folder cannot be written."""
        try:
            os.makedirs(self.sgf_dir, exist_ok=True)
            self._lock()
        except OSError as exc:
            raise ResultsWriteError(f"cannot write the results in {self.out}: {exc}") from exc
        try:
            if self._save_failed:
                raise ResultsFolderBusy(f"a write of this run to {self.games_path} failed: read the folder "
                                        "again to continue (a new Match with resume=True, or --resume)")
            if not self._read and self._games_state() is not None:
                raise ResultsFolderBusy(f"{self.games_path} holds games this run has not read: call read_games "
                                        "(or holds_games) before open, so that none of them is overwritten")
            if self._games_state() != self._seen:
                raise ResultsFolderBusy(f"{self.games_path} changed after this run read it: another run wrote "
                                        f"to {self.out} meanwhile (start again, with --resume to continue it)")
            try:
                write_file_atomic(self.config_path, json.dumps(config, indent=1) + "\n")
                if os.path.exists(self.games_path):
                    _set_aside(self.games_path)   # before anything is appended after it (this run holds the lock)
            except OSError as exc:
                raise ResultsWriteError(f"cannot write the results in {self.out}: {exc}") from exc
            self._seen = self._games_state()
        except BaseException:
            self.close()
            raise

    def save(self, record: Mapping[str, Any]) -> None:
        """Write a finished game: its SGF, then its line of ``games.jsonl`` (the commit).
        :class:`ResultsWriteError` (an OSError) when it cannot be written."""
        try:
            write_file_atomic(os.path.join(self.sgf_dir, f"game-{record['game']:04d}.sgf"), sgf_text(record))
            append_record(self.games_path, record)
        except OSError as exc:
            self._save_failed = True        # what is on disk is no longer what this run knows
            raise ResultsWriteError(f"cannot write game {record['game']} in {self.out}: {exc}") from exc
        self._seen = self._games_state()

    def close(self) -> None:
        """Let other runs write the folder (safe to call twice)."""
        lock, self._lock_file = self._lock_file, None
        _locked.discard(self)
        if lock is not None:
            _release(lock)

    def _lock(self) -> None:
        if self._lock_file is not None:
            return
        self._lock_file = _take_lock(self.out, "give this run another --out, or wait until that one ends")
        _locked.add(self)


def _take_lock(folder: str, advice: str) -> IO[bytes]:
    """The open lock file of results folder ``folder``, locked exclusively; closing it lets go.
    :class:`ResultsFolderBusy` (naming the file, then ``advice``) when a run holds it."""
    path = os.path.join(folder, LOCK_FILE)
    busy = ResultsFolderBusy(f"{folder} is being written by another run (it holds {path}): {advice}")
    # a run of this process first, before the file is opened: where flock is emulated by record
    # locks (NFS), a second lock taken by the same process would not conflict, and closing any
    # descriptor of the file would drop the lock the other run holds
    if _held_here(path):
        raise busy
    lock = open(path, "a+b")        # a file object: closed, and the lock with it, if this object is dropped
    try:
        if not _try_lock(lock.fileno(), path):
            raise busy
    except BaseException:
        lock.close()
        raise
    return lock


class ResultsFolderBusy(ValueError):
    """Another run writes the results folder, or wrote it after this run read it."""


class ResultsWriteError(OSError):
    """The results folder cannot be written (a full disk, no permission): the games
    written so far are kept, and a resume continues once it can be written."""


#: The folders this process holds locked.  A forked child (a pool worker, which never writes
#: results) closes its copies of their lock files, so that the lock ends with the run.
_locked: "weakref.WeakSet[ResultsDir]" = weakref.WeakSet()


def _held_here(path: str) -> bool:
    """Whether a run of this process holds the lock file ``path`` (the same file, by device and inode)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    for results in list(_locked):
        held = results._lock_file
        if held is None or held.closed:
            continue
        try:
            other = os.fstat(held.fileno())
        except OSError:  # pragma: no cover - closed meanwhile
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False


def _release(lock: IO[bytes]) -> None:
    """Let go of a lock file: closed, which ends a flock(); msvcrt asks for its byte
    to be unlocked first, or the lock may outlive the close for a while."""
    try:
        if _WINDOWS:
            msvcrt = _msvcrt()
            with contextlib.suppress(OSError):
                os.lseek(lock.fileno(), 0, os.SEEK_SET)
                msvcrt.locking(lock.fileno(), msvcrt.LK_UNLCK, 1)
    finally:
        lock.close()        # the lock goes with the last descriptor of the open file


def _after_fork_in_child() -> None:
    for results in list(_locked):
        lock, results._lock_file = results._lock_file, None
        if lock is not None:
            with contextlib.suppress(OSError):
                lock.close()
    _locked.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

#: What flock() raises on a file system that cannot lock (some network and FUSE mounts).
_NO_LOCKS = {getattr(errno, name) for name in ("ENOLCK", "EOPNOTSUPP", "ENOTSUP", "ENOSYS", "EINVAL")
             if hasattr(errno, name)}


#: Whether the lock file is locked with msvcrt (a byte range) rather than flock().
_WINDOWS = sys.platform == "win32"


def _msvcrt() -> Any:
    """Windows' msvcrt module, imported by name (type checks on other systems know no such module)."""
    return importlib.import_module("msvcrt")


def _try_lock(fd: int, path: str) -> bool:
    """An exclusive lock on the open file ``fd`` without waiting (False: another holds
    it).  Where the file system cannot lock, a warning, and the run goes on unlocked."""
    if _WINDOWS:
        msvcrt = _msvcrt()
        try:
            os.lseek(fd, 0, os.SEEK_SET)        # msvcrt locks bytes from the file's position: its first
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as exc:
        if exc.errno not in _NO_LOCKS:
            raise
        _log.warning("%s: this file system cannot lock files (%s): nothing stops another run from writing "
                     "the same folder", path, exc.strerror)
    return True


def sgf_text(record: Mapping[str, Any]) -> str:
    """A Little Golem SGF record of a finished game (``RE``: ``B+``, ``W+T`` on time,
    ``W+F`` by forfeit, ``Draw``; the reason in ``C``).  Each played move's
    ``C`` holds what is known of it, as cutechess writes its PGN comments:
    the engine's score for the side that moved, the depth and the time
    (``+140/12 29.8s``, ``loss in 7/14 5.6s``, ``book 0.0s``; ``-410/16 refuted 50.0s`` when the
    reply check expected a forced loss after it), or the time alone."""
    result = record["result"]
    how = {"six": "", "time": "T", "timeout": "T", "stall": "T"}.get(str(record.get("termination")), "F")
    re_value = sgf_result(None if result == "draw" else Color.BLACK if result == "black" else Color.WHITE, how)
    headers = {
        "EV": record.get("event", "connect6 match"), "RO": str(record["game"]),
        "PB": record["black"], "PW": record["white"], "RE": re_value,
        "DT": str(record.get("started", ""))[:10], "GC": f"opening {record['opening']}",
    }
    if record.get("reason"):
        headers["C"] = record["reason"]
    comments = [None if c is None else _utf8(c) for c in _move_comments(record)]
    return write_sgf(record["moves"], {k: _utf8(v) for k, v in headers.items()}, comments) + "\n"


def _utf8(text: str) -> str:
    """``text`` with what UTF-8 cannot hold written as a backslash escape: a
    lone surrogate, which is how Python holds the bytes of a file name that
    are not UTF-8 (a ``cmd:`` engine's path in a label, an error message
    naming it).  The JSON line of the game keeps the text exactly."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _move_comments(record: Mapping[str, Any]) -> List[Optional[str]]:
    """sgf_text's comment for each move of ``record`` (None for the opening's)."""
    times = record.get("times") or []
    evals = record.get("evals") or []
    out: List[Optional[str]] = []
    for i, t in enumerate(times[:len(record["moves"])]):
        e = evals[i] if i < len(evals) else None
        if t is None:
            out.append(None)
        elif not isinstance(e, dict):
            out.append(f"{t:.1f}s")
        else:
            out.append(f"{record_text(e)} {t:.1f}s")
    return out


def _record_from_line(line: bytes) -> Dict[str, Any]:
    """The game record held by one line of ``games.jsonl`` (ValueError saying why not)."""
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ValueError(f"not a game record ({exc})") from None
    if not isinstance(record, dict):
        raise ValueError(f"not a game record (a JSON {type(record).__name__}, not an object)")
    missing = [key for key in _RECORD_KEYS if key not in record]
    if missing:
        raise ValueError(f"not a game record (no {', '.join(missing)})")
    game = record["game"]
    if type(game) is not int or game < 1:
        raise ValueError(f"not a game record (game {game!r} is not a number >= 1)")
    return record


@dataclasses.dataclass
class _Scan:
    """What ``games.jsonl`` holds: the records, the bytes that hold them, and a torn last line."""

    records: Dict[int, Dict[str, Any]]
    good: int                            #: bytes from the start that hold whole records
    torn_line: Optional[int] = None      #: the number of a last line that is not a record
    torn: bytes = b""                    #: that line's bytes


def _scan_results(path: str) -> _Scan:
    """Read ``path`` without changing it.  A last line that is not a game record
    is torn (a match stopped while writing it); a bad line before it is an error."""
    with open(path, "rb") as fh:
        data = fh.read()
    lines = data.split(b"\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    records: Dict[int, Dict[str, Any]] = {}
    line_of: Dict[int, int] = {}
    offset = 0
    for index, line in enumerate(lines[:last + 1]):
        if line.strip():
            try:
                record = _record_from_line(line)
            except ValueError as exc:
                if index == last:
                    return _Scan(records, offset, index + 1, line)
                raise ValueError(f"{path}, line {index + 1}: {exc}") from None
            game = record["game"]
            if game in line_of:
                raise ValueError(f"{path}, lines {line_of[game]} and {index + 1}: game {game} twice (two runs "
                                 "wrote this file?); keep the right one and remove the other")
            records[game], line_of[game] = record, index + 1
        offset += len(line) + 1
    return _Scan(records, min(offset, len(data)))


def read_results(path: str, repair: bool = False) -> List[Dict[str, Any]]:
    """The game records of a JSONL results file, by game number.

    A torn *last* line (a match stopped while writing it) is skipped with a
    warning; with ``repair`` its bytes are moved to ``games.jsonl.torn`` (see
    :func:`set_aside_torn_line`, which refuses a folder a run is writing).  A
    bad line elsewhere is a ValueError naming it, and nothing is changed.
    """
    scan = _scan_results(path)
    if scan.torn_line is not None:
        _log.warning("%s, line %d: not a whole game record (cut short by a crash?): skipped; "
                     "its game will be played again", path, scan.torn_line)
        if repair:
            set_aside_torn_line(path)
    return [scan.records[k] for k in sorted(scan.records)]


def set_aside_torn_line(path: str) -> Optional[int]:
    """Move a torn last line of ``path`` to the end of ``path + ".torn"`` (appended,
    never deleted) and cut it from ``path``, so that new records follow the whole
    ones.  Returns the torn line's number, or None when there was none.  The
    folder's lock is held meanwhile: :class:`ResultsFolderBusy`, with nothing
    changed, while a run writes the folder (its last line may be a record
    being written, not a torn one)."""
    lock = _take_lock(os.path.dirname(path) or ".", "repair it once that run has ended")
    try:
        return _set_aside(path)
    finally:
        _release(lock)


def _set_aside(path: str) -> Optional[int]:
    """set_aside_torn_line's work, for a caller that holds the folder's lock."""
    scan = _scan_results(path)
    if scan.torn_line is None:
        return None
    with open(path + TORN_SUFFIX, "ab") as fh:
        fh.write(scan.torn + b"\n")
        fh.flush()
        os.fsync(fh.fileno())
    with open(path, "r+b") as fh:
        fh.truncate(scan.good)
        fh.flush()
        os.fsync(fh.fileno())
    _log.warning("%s, line %d: its bytes are kept in %s", path, scan.torn_line, path + TORN_SUFFIX)
    return scan.torn_line


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Within it, SIGINT (Ctrl-C) and SIGTERM wait: one that arrives is
    delivered again to its own handler when the block ends, so a
    ``KeyboardInterrupt`` (or the default action) comes after the block and
    not in the middle of it.  Outside the main thread, where no handler can be
    set, it holds nothing (signals go to the main thread anyway).  A process
    forked within the block (a worker of a pool started there) inherits the
    holding handler but is not held: a signal reaches it as it would have
    without the block, so that ``terminate()`` stops a worker that has not yet
    set its own handlers (it used to be swallowed, and the worker lived on)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: List[int] = []
    previous: Dict[int, Any] = {}
    holder = os.getpid()

    def hold(got: int, frame: Any) -> None:
        if os.getpid() == holder:
            caught.append(got)
            return
        signal.signal(got, previous[got])       # a forked child: its inherited handler, at once
        signal.raise_signal(got)

    for signum in (signal.SIGINT, getattr(signal, "SIGTERM", None)):
        if signum is not None and signal.getsignal(signum) is not None:   # None: set outside Python, left alone
            try:
                previous[signum] = signal.signal(signum, hold)
            except (ValueError, OSError):   # pragma: no cover - an embedding that forbids it
                pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(caught):
            signal.raise_signal(signum)


def keep_record(records: Dict[int, Any], store: Optional[ResultsDir], record: Dict[str, Any]) -> None:
    """A finished game: written to ``store`` (when there is one), then counted
    in ``records`` under its number; both or neither, whatever signal comes
    (see interrupts_held)."""
    with interrupts_held():
        if store is not None:
            store.save(record)
        records[int(record["game"])] = record


def append_record(path: str, record: Mapping[str, Any]) -> None:
    """Append one game record to a JSONL file as one whole line, in one write,
    flushed and fsynced: it starts a line of its own whatever the file ends
    with, so a crash can tear at most this last line."""
    line = json.dumps(record, separators=(",", ":")).encode("utf-8") + b"\n"
    with open(path, "a+b") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell() > 0:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                line = b"\n" + line
        fh.write(line)
        fh.flush()
        os.fsync(fh.fileno())


#: the games in progress, rewritten whole as they move (see _Schedule in runner.py; read by the web board's Watch)
RUNNING_FILE = "running.json"
