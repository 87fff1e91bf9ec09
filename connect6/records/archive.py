"""The human-games archive: a CSV of ``game_id,stones,winner``, read whole or
streamed, with only :class:`RecordError` for bad content."""
from __future__ import annotations

import csv
import dataclasses
import io
import os
import re
from typing import IO, Iterator, List, Optional, Tuple, Union, cast

from connect6.notation import (
    Color, Move,
)
from connect6.records.core import MAX_GAME_CHARS, RecordError, parse_stone_list

# ---------------------------------------------------------------- the archive
@dataclasses.dataclass(frozen=True)
class GameRecord:
    """One game of a stone-list CSV: its id, moves and winner (None for a draw or unknown)."""

    game_id: str
    moves: Tuple[Move, ...]
    winner: Optional[Color]


_WINNERS = {"black": Color.BLACK, "white": Color.WHITE, "draw": None, "": None}
_CSV_FIELDS = ("game_id", "stones", "winner")

#: The longest line of a games CSV, in characters: one game per line, so the
#: same 1 MB as :data:`MAX_GAME_CHARS`.  A longer line is refused without being
#: read whole.
MAX_LINE_CHARS = MAX_GAME_CHARS
#: The most :func:`read_games_csv` reads into a list (50 MB, about 45 times
#: the human-games archive, a few hundred MB of games in memory): bytes for a
#: path, characters for an open file.  :func:`iter_games_csv` streams files of
#: any size.
MAX_CSV_CHARS = 50_000_000

CsvSource = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


_UNDECODED_RE = re.compile("[\udc80-\udcff]")    # what errors="surrogateescape" makes of bytes that are not UTF-8


class _LineFeed:
    """The lines of a text file, each checked: at most ``MAX_LINE_CHARS``, UTF-8 (for files opened from
    bytes here), at most ``limit`` characters in all.  ``count`` is the number of lines handed out so far."""

    def __init__(self, fh: IO[str], name: Optional[str], limit: Optional[int], from_bytes: bool):
        self.fh, self.name, self.limit, self.from_bytes = fh, name, limit, from_bytes
        self.count = 0
        self.total = 0
        self.bare_cr = False

    def error(self, reason: str, line: Optional[int] = None) -> RecordError:
        return RecordError(reason, file=self.name, line=self.count if line is None else line)

    def __iter__(self) -> Iterator[str]:
        while True:
            try:
                raw = self.fh.readline(MAX_LINE_CHARS + 1)
            except UnicodeDecodeError as exc:        # a text file the caller opened
                raise self.error(f"not UTF-8 text ({exc.reason})", self.count + 1) from None
            if not raw:
                return
            self.count += 1
            if not isinstance(raw, str):
                raise TypeError(f"read_games_csv(source): the file gave {type(raw).__name__}, not text")
            if len(raw) > MAX_LINE_CHARS and not raw.endswith(("\n", "\r")):
                raise self.error(f"line longer than {MAX_LINE_CHARS:,} characters (one game or opening is at "
                                 "most 1 MB): refused without reading it")
            bad = _UNDECODED_RE.search(raw) if self.from_bytes else None
            if bad is not None:
                raise RecordError(f"not UTF-8 text: byte 0x{ord(bad.group()) - 0xdc00:02x}", file=self.name,
                                  line=self.count, column=bad.start() + 1)
            self.total += len(raw)
            if self.limit is not None and self.total > self.limit:
                raise self.error(f"the file is longer than {self.limit:,} characters, the most read_games_csv "
                                 "reads into memory: use iter_games_csv to stream it")
            if self.count == 1:
                raw = raw.lstrip("\ufeff")       # a byte-order mark
            self.bare_cr = raw.endswith("\r")    # a lone carriage return ended this line
            yield raw


def iter_games_csv(source: CsvSource, *, max_chars: Optional[int] = None) -> Iterator[GameRecord]:
    """Yield the games of a CSV with the columns ``game_id,stones,winner``, one at a time.

    Like :func:`read_games_csv`, without holding the file or the games in
    memory: files of any size are streamed (up to ``max_chars`` characters
    if given).  The first bad line raises :class:`RecordError`; the games
    before it have been yielded.
    """
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if max_chars is not None and os.path.getsize(source) > max_chars:
            raise RecordError(f"{os.path.getsize(source):,} bytes, more than the {max_chars:,} read_games_csv "
                              "reads into memory: use iter_games_csv to stream it", file=name)
        return _games_of_path(name, max_chars)
    if not callable(getattr(source, "readline", None)):
        raise TypeError(f"read_games_csv(source): source is a path or an open file, not {type(source).__name__}")
    return _games_of_file(source, max_chars)


def _games_of_path(name: str, max_chars: Optional[int]) -> Iterator[GameRecord]:
    with open(name, encoding="utf-8", errors="surrogateescape", newline="") as fh:
        yield from _games_from(_LineFeed(fh, name, max_chars, from_bytes=True))


def _games_of_file(fh: Union[IO[str], IO[bytes]], max_chars: Optional[int]) -> Iterator[GameRecord]:
    given = getattr(fh, "name", None)
    name = os.fspath(given) if isinstance(given, (str, os.PathLike)) else None
    if not isinstance(fh.read(0), bytes):                 # a text file
        yield from _games_from(_LineFeed(cast(IO[str], fh), name, max_chars, from_bytes=False))
        return
    text = io.TextIOWrapper(cast(IO[bytes], fh), encoding="utf-8", errors="surrogateescape", newline="")
    try:
        yield from _games_from(_LineFeed(text, name, max_chars, from_bytes=True))
    finally:
        text.detach()                               # the caller's file stays open


def _games_from(feed: _LineFeed) -> Iterator[GameRecord]:
    reader = csv.reader(feed)
    try:
        header = next(reader, None)
        if header is None or {*_CSV_FIELDS} - set(header):
            missing = {*_CSV_FIELDS} - set(header or ())
            raise RecordError(f"missing CSV column(s) {', '.join(sorted(missing))}", file=feed.name, line=1)
        columns = [header.index(name) for name in _CSV_FIELDS]
        for row in reader:
            if not row:
                continue                                    # a blank line
            yield _game_of_row(row, columns, len(header), feed, reader.line_num)
    except csv.Error as exc:
        reason = ("a line break (a carriage return) inside an unquoted field: quote the field"
                  if "new-line" in str(exc) else f"not well-formed CSV ({exc})")
        raise RecordError(reason, file=feed.name, line=reader.line_num) from None


def _game_of_row(row: List[str], columns: List[int], width: int, feed: _LineFeed, line: int) -> GameRecord:
    name = feed.name
    if len(row) != width:
        hint = ("an unquoted comma in the stones?" if len(row) > width else
                "a carriage return inside an unquoted field ends the line early" if feed.bare_cr else
                "a missing comma, or a quote never closed?")
        raise RecordError(f"{len(row)} fields where the header has {width} ({hint})",
                          file=name, line=line, game=row[columns[0]] if len(row) > columns[0] else None)
    gid, stones, winner = (row[i] for i in columns)
    try:
        moves = parse_stone_list(stones)
    except RecordError as exc:
        raise exc.located(file=name, game=gid, line=line) from exc
    winner_text = winner.strip().lower()
    if winner_text not in _WINNERS:
        raise RecordError("winner must be black, white, draw or empty", file=name, game=gid, line=line,
                          text=winner)
    return GameRecord(gid, tuple(moves), _WINNERS[winner_text])


def read_games_csv(source: CsvSource, *, max_chars: Optional[int] = MAX_CSV_CHARS) -> List[GameRecord]:
    """Read a CSV with the columns ``game_id,stones,winner`` (the human-games archive).

    ``source`` is a path or an open file (text or binary; bytes must be
    UTF-8).  ``winner`` is ``black``, ``white``, ``draw`` or empty.  Any bad
    input raises :class:`RecordError` naming the file (when it has a name),
    the line, the game id when known and the reason: a malformed CSV line, a
    line over :data:`MAX_LINE_CHARS`, bytes that are not UTF-8, a bad stone
    list or winner.  More than ``max_chars`` characters in all (default
    :data:`MAX_CSV_CHARS`) are refused: stream big files with
    :func:`iter_games_csv`.  A path that cannot be opened raises ``OSError``.

    >>> import io
    >>> games = read_games_csv(io.StringIO('game_id,stones,winner\\n7,"j10,k11,k10",white\\n'))
    >>> games[0]
    GameRecord(game_id='7', moves=(Move.parse('j10'), Move.parse('k11k10')), winner=<Color.WHITE: 1>)
    >>> read_games_csv(io.StringIO('game_id,stones,winner\\n7,j10 \\r k11,white\\n'))
    Traceback (most recent call last):
    ...
    connect6.records.RecordError: line 2: a line break (a carriage return) inside an unquoted field: quote the field
    """
    games: List[GameRecord] = []
    for game in iter_games_csv(source, max_chars=max_chars):
        games.append(game)
    return games


