"""Game records: Little Golem stone lists, Little Golem SGF and replaying them.

Two text forms of a game are read and written here:

* the **stone list** of the human-games archive, ``"j10,k11,i11,h11,i10"``:
  Black's single first stone, then the stones two by two, one pair per turn;
* the **Little Golem SGF** dialect,
  ``(;FF[4]EV[...]PB[...]PW[...];B[j10];W[k11i11];B[h11i10])``: a root node of
  headers, then one node per turn with both stones of a turn in one value.

Both readers check the *structure* of a record (Black's first turn is one
stone, every later turn two, colours alternate) and build their whole result
before returning: a broken record raises :class:`RecordError` and nothing is
returned.  Whether the moves are *legal* on a board (no stone on an occupied
cell, nothing after the game is won) is checked by :func:`replay`.

Bad content, whatever its bytes, raises only :class:`RecordError`, naming
where (file, line, column, game, move) and why.  Input is checked as it is
read and the first error stops the reading.  Limits: one game (an SGF text or
a stone list, a CSV line) is at most :data:`MAX_GAME_CHARS` = 1 MB and a
bigger one is refused without being read whole; :func:`read_games_csv`
reads at most :data:`MAX_CSV_CHARS` (50 MB) into a list, and
:func:`iter_games_csv` streams a file of any size.

A game ends as soon as a side has six in a row, so a record may end on a
**single stone** where two were due: the winner's six was made by the first
stone of the last turn and the second stone was never played.  About 2% of the
human-games archive ends that way.  Both readers and both writers accept such
a short *last* turn (and only the last).

>>> moves = parse_stone_list("j10,k11,i11,h11,i10")
>>> [str(m) for m in moves]
['j10', 'k11i11', 'h11i10']
>>> format_stone_list(moves)
'j10,k11,i11,h11,i10'
>>> text = write_sgf(moves, {"PB": "alice", "PW": "bob"})
>>> text
'(;FF[4]PB[alice]PW[bob];B[j10];W[k11i11];B[h11i10])'
>>> read_sgf(text) == ({"FF": "4", "PB": "alice", "PW": "bob"}, moves)
True
>>> replay(moves).turn
<Color.WHITE: 1>
"""
from __future__ import annotations

import csv
import dataclasses
import io
import os
import re
from typing import Dict, IO, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from connect6.board import Board
from connect6.notation import (
    Color, IllegalMoveError, InvalidMoveError, Move, MoveLike, cell_name, parse_cell, to_move,
)
from connect6.weights import WeightsLike

__all__ = [
    "RecordError", "GameRecord", "parse_stone_list", "format_stone_list", "read_sgf", "write_sgf",
    "replay", "read_games_csv", "iter_games_csv", "read_sgf_file", "MAX_GAME_CHARS", "MAX_LINE_CHARS",
    "MAX_CSV_CHARS",
]


class RecordError(ValueError):
    """A game record that cannot be read, written or replayed.

    The message starts with where it broke; the same facts are kept as
    attributes (each None when it does not apply): ``file`` (the file read),
    ``game`` (a game id),
    ``line`` and ``column`` (1-based) and ``offset`` (0-based character index)
    in the text, ``node`` (SGF node index, the root is node 0), ``move``
    (1-based turn number), ``stone`` (1-based index in a stone list) and
    ``text`` (the offending text).

    >>> try:
    ...     parse_stone_list("j10,k11,z99")
    ... except RecordError as exc:
    ...     print(exc)
    ...     print(exc.stone, exc.offset)
    stone 3 (offset 8) 'z99': 'z99': z99 is off the board (a1..s19)
    3 8
    """

    _FIELDS = ("file", "game", "line", "column", "offset", "node", "move", "stone", "text")

    def __init__(self, message: str, *, file: Optional[str] = None, game: Optional[str] = None,
                 line: Optional[int] = None,
                 column: Optional[int] = None, offset: Optional[int] = None, node: Optional[int] = None,
                 move: Optional[int] = None, stone: Optional[int] = None, text: Optional[str] = None):
        self.reason = message
        self.file = None if file is None else os.fspath(file)
        self.game = game
        self.line = line
        self.column = column
        self.offset = offset
        self.node = node
        self.move = move
        self.stone = stone
        self.text = text
        super().__init__(self._compose())

    def _compose(self) -> str:
        parts = []
        if self.file is not None:
            parts.append(self.file)
        if self.game is not None:
            parts.append(f"game {self.game}")
        if self.line is not None:
            parts.append(f"line {self.line}" + (f", column {self.column}" if self.column is not None else ""))
        if self.node is not None:
            parts.append(f"node {self.node}")
        if self.move is not None:
            parts.append(f"move {self.move}")
        if self.stone is not None:
            parts.append(f"stone {self.stone}")
        where = ", ".join(parts)
        if self.offset is not None:
            where += f" (offset {self.offset})" if where else f"offset {self.offset}"
        if self.text is not None:
            where += f" {self.text!r}" if where else repr(self.text)
        return f"{where}: {self.reason}" if where else self.reason

    def __reduce__(self):
        return (_rebuild_record_error, (self.reason, {k: getattr(self, k) for k in self._FIELDS}))

    def located(self, **where) -> "RecordError":
        """A copy with more location facts filled in (existing ones are kept)."""
        fields = {k: getattr(self, k) for k in self._FIELDS}
        for k, v in where.items():
            if fields.get(k) is None:
                fields[k] = v
        return RecordError(self.reason, **fields)


def _rebuild_record_error(reason: str, fields: dict) -> RecordError:
    return RecordError(reason, **fields)


# ---------------------------------------------------------------- structure
def _check_structure(moves: Sequence[Move]) -> None:
    """Turn sizes: 1 stone first, then 2, the last turn may be 1 (a game won mid-turn)."""
    for i, m in enumerate(moves):
        if i == 0:
            if len(m) != 1:
                raise RecordError(f"Black's first turn is one stone, not {len(m)}", move=1, text=str(m))
        elif len(m) != 2 and i != len(moves) - 1:
            raise RecordError(
                f"{_turn_color(i)}'s turn must be two stones, not {len(m)} "
                "(only the last turn of a record may be a single stone)", move=i + 1, text=str(m))


def _turn_color(index: int) -> Color:
    """The colour of the turn with 0-based ``index``."""
    return Color.BLACK if index % 2 == 0 else Color.WHITE


def _moves(moves: Iterable[MoveLike]) -> List[Move]:
    out = []
    for i, m in enumerate(moves):
        try:
            out.append(to_move(m))
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise RecordError(str(exc), move=i + 1, text=str(m)) from exc
    return out


# ---------------------------------------------------------------- stone lists
def parse_stone_list(text: str) -> List[Move]:
    """Read the archive's stone list: the first stone alone, then two stones per turn.

    Spaces around stones are ignored and cells may be upper case.  An empty
    text is a game with no moves.  The last turn may be a single stone (see
    the module docstring).

    >>> [str(m) for m in parse_stone_list("j10, K11,i11, h11")]
    ['j10', 'k11i11', 'h11']
    >>> parse_stone_list("")
    []
    >>> parse_stone_list("j10,j10,j10")
    Traceback (most recent call last):
    ...
    connect6.records.RecordError: move 2, stone 2 (offset 4) 'j10,j10': j10j10: the same stone twice
    """
    if not isinstance(text, str):
        raise TypeError(f"a stone list is text like 'j10,k11,i11', not {type(text).__name__}")
    _check_size(text, "this stone list")
    if not text.strip():
        return []
    cells: List[int] = []
    offsets: List[int] = []
    pos = 0
    for k, token in enumerate(text.split(",")):
        stripped = token.strip()
        where = pos + (len(token) - len(token.lstrip()))
        if not stripped:
            raise RecordError("empty stone (two commas in a row, or a comma at an end)",
                              stone=k + 1, offset=where)
        try:
            cells.append(parse_cell(stripped))
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise RecordError(str(exc), stone=k + 1, offset=where, text=stripped) from exc
        offsets.append(where)
        pos += len(token) + 1
    moves: List[Move] = []
    groups = [(0, 1)] + [(i, min(i + 2, len(cells))) for i in range(1, len(cells), 2)]
    for turn, (lo, hi) in enumerate(groups):
        try:
            moves.append(Move(cells[lo:hi]))
        except IllegalMoveError as exc:
            end = offsets[hi - 1] + len(text.split(",")[hi - 1].strip())
            raise RecordError(str(exc), move=turn + 1, stone=lo + 1, offset=offsets[lo],
                              text=text[offsets[lo]:end]) from exc
    return moves


def format_stone_list(moves: Iterable[MoveLike]) -> str:
    """The archive's stone list of ``moves`` (the inverse of :func:`parse_stone_list`).

    >>> format_stone_list(["j10", "k11i11", "h11"])
    'j10,k11,i11,h11'
    >>> format_stone_list(["j10k11"])
    Traceback (most recent call last):
    ...
    connect6.records.RecordError: move 1 'j10k11': Black's first turn is one stone, not 2
    """
    ms = _moves(moves)
    _check_structure(ms)
    return ",".join(cell_name(c) for m in ms for c in m.stones)


# ---------------------------------------------------------------- SGF
_IDENT_RE = re.compile(r"[A-Za-z]+")
_WS_RE = re.compile(r"[ \t\r\n\f\v\ufeff]*")
_VALUE_RUN_RE = re.compile(r"[^\]\\]*")   # the plain characters of a value, up to "]" or a backslash
_RESIGN = "resign"


@dataclasses.dataclass
class _Prop:
    ident: str
    values: List[str]
    offset: int                 # where the identifier starts
    value_offsets: List[int]    # where each value's text starts (after "[")


@dataclasses.dataclass
class _Node:
    props: List[_Prop]
    offset: int                 # where its ";" is


class _SgfReader:
    """A small recursive-descent reader of one SGF game tree without variations.

    :meth:`nodes` yields each node as soon as it is read, so the caller can
    check it and stop at the first bad one without reading the rest.
    """

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def error(self, message: str, offset: int, *, node: Optional[int] = None, snippet: Optional[str] = None):
        line = self.text.count("\n", 0, offset) + 1
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        if snippet is None:
            snippet = self.text[offset:offset + 12]
        return RecordError(message, line=line, column=column, offset=offset, node=node, text=snippet)

    def skip_ws(self) -> None:
        self.pos = _WS_RE.match(self.text, self.pos).end()

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def nodes(self) -> Iterator[Tuple[_Node, bool]]:
        """Yield ``(node, is_last)`` in order; raise RecordError at the first syntax error."""
        self.skip_ws()
        if self.peek() != "(":
            raise self.error("an SGF game starts with '('", self.pos)
        start = self.pos
        self.pos += 1
        count = 0
        while True:
            self.skip_ws()
            ch = self.peek()
            if ch == ";":
                node = self.node(count)
                count += 1
                yield node, self.peek() != ";"     # node() stops at the next ";", ")", "(" or the end
            elif ch == ")":
                self.pos += 1
                break
            elif ch == "(":
                raise self.error("variations are not supported (a game is one line of moves)", self.pos,
                                 node=count)
            elif ch == "":
                raise self.error("unbalanced parentheses: the game opened here is never closed with ')'",
                                 start, snippet=self.text[start:start + 12])
            else:
                raise self.error(f"expected ';' (a node) or ')' (the end of the game), found {ch!r}",
                                 self.pos, node=count)
        if not count:
            raise self.error("a game needs at least one node", start)
        self.skip_ws()
        if self.pos < len(self.text):
            what = ("a second game (read one game at a time)" if self.peek() == "("
                    else "unbalanced parentheses" if self.peek() == ")" else "text")
            raise self.error(f"{what} after the end of the game", self.pos)

    def node(self, index: int) -> _Node:
        node = _Node([], self.pos)
        self.pos += 1  # ";"
        while True:
            self.skip_ws()
            ch = self.peek()
            if ch in (";", ")", "(", ""):
                return node
            m = _IDENT_RE.match(self.text, self.pos)
            if not m:
                raise self.error(f"expected a property name (capital letters) or ';', found {ch!r}",
                                 self.pos, node=index)
            ident = m.group()
            if not ident.isupper():
                raise self.error(f"property name {ident!r} must be capital letters", self.pos, node=index,
                                 snippet=ident)
            prop = _Prop(ident, [], self.pos, [])
            self.pos = m.end()
            self.skip_ws()
            if self.peek() != "[":
                raise self.error(f"property {ident} has no value (expected '[')", prop.offset, node=index,
                                 snippet=ident)
            while self.peek() == "[":
                prop.value_offsets.append(self.pos + 1)
                prop.values.append(self.value(index))
                self.skip_ws()
            node.props.append(prop)

    def value(self, index: int) -> str:
        start = self.pos
        text = self.text
        self.pos += 1  # "["
        out = []
        while True:
            run = _VALUE_RUN_RE.match(text, self.pos)
            out.append(run.group())
            self.pos = run.end()
            if self.pos >= len(text):
                raise self.error("unterminated value: no closing ']'", start, node=index)
            if text[self.pos] == "]":
                self.pos += 1
                return "".join(out)
            nxt = text[self.pos + 1:self.pos + 2]          # after a backslash
            if nxt == "":
                raise self.error("unterminated value: no closing ']'", start, node=index)
            if nxt in "\r\n":   # a soft line break: dropped
                self.pos += 2
                if text[self.pos - 1:self.pos + 1] in ("\r\n", "\n\r"):
                    self.pos += 1
                continue
            out.append(nxt)
            self.pos += 2


#: The largest SGF game or stone list read, in characters (1 MB).  A Connect6
#: game has at most 181 turns, a few kilobytes even with comments; anything
#: bigger is refused before it is read.
MAX_GAME_CHARS = 1_000_000


def _check_size(text: str, what: str) -> None:
    if len(text) > MAX_GAME_CHARS:
        raise RecordError(f"{what} is {len(text):,} characters; one game is at most {MAX_GAME_CHARS:,} "
                          "(1 MB): refused without reading it")


def read_sgf(text: str) -> Tuple[Dict[str, str], List[Move]]:
    """Read one Little Golem SGF game: ``(headers, moves)``.

    Strict about structure: one game tree ``(...)``, no variations; the root
    node (node 0) holds the headers, every later node one move ``B[...]`` or
    ``W[...]``; colours alternate starting with Black; Black's first turn is
    one stone, every later turn two (the last may be one, see the module
    docstring).  Each node is checked as soon as it is read, and the first
    error stops the reading.  A text longer than :data:`MAX_GAME_CHARS` (1 MB)
    is refused unread.

    Lenient where real files vary: whitespace and newlines between nodes and
    properties, upper or lower case cells, spaces inside a move value, headers
    in any order, SGF escapes in header values (``\\]``, ``\\\\``, a
    backslash-newline soft break), a byte-order mark.  A header may only
    have one value and may appear once.  Properties other than ``B``/``W`` in
    a move node (comments, times) are ignored.  A root node may also hold the
    first move.

    A final ``B[resign]`` or ``W[resign]`` node (only as the last node, in its
    colour's turn) ends the game without a move: it is not in ``moves``, and
    when the headers have no ``RE`` result it is recorded as
    ``RE = "W+R"`` (White won by resignation) or ``"B+R"``.

    >>> headers, moves = read_sgf('''(;FF[4]EV[connect6.ch.1]PB[a\\\\]b]PW[c]
    ...   ;B[J10]
    ...   ;W[j9l11];B[resign])''')
    >>> headers
    {'FF': '4', 'EV': 'connect6.ch.1', 'PB': 'a]b', 'PW': 'c', 'RE': 'W+R'}
    >>> moves
    [Move.parse('j10'), Move.parse('j9l11')]
    >>> read_sgf("(;FF[4];B[j10];B[k10l10])")
    Traceback (most recent call last):
    ...
    connect6.records.RecordError: line 1, column 16, node 2, move 2 (offset 15) 'B[k10l10]': expected W (white's turn), found B
    """
    if not isinstance(text, str):
        raise TypeError(f"read_sgf(text): an SGF record is text, not {type(text).__name__} "
                        "(bytes: decode them, or use read_sgf_file)")
    _check_size(text, "this SGF text")
    reader = _SgfReader(text)
    headers: Dict[str, str] = {}
    moves: List[Move] = []
    resigned: Optional[Color] = None
    for n, (node, last) in enumerate(reader.nodes()):
        if n == 0:
            _read_headers(reader, node, headers)
        move_props = [p for p in node.props if p.ident in ("B", "W")]
        if n == 0 and not move_props:
            continue
        if resigned is not None:
            raise reader.error("a node after the resignation", node.offset, node=n)
        m = _read_move(reader, node, n, move_props, len(moves), last)
        if m is None:
            resigned = _turn_color(len(moves))
        else:
            moves.append(m)
    if resigned is not None and "RE" not in headers:
        headers["RE"] = f"{'W' if resigned == Color.BLACK else 'B'}+R"
    return headers, moves


def _read_headers(reader: _SgfReader, root: _Node, headers: Dict[str, str]) -> None:
    for p in root.props:
        if p.ident in ("B", "W"):
            continue
        if p.ident in headers:
            raise reader.error(f"header {p.ident} appears twice", p.offset, node=0, snippet=p.ident)
        if len(p.values) != 1:
            raise reader.error(f"header {p.ident} has {len(p.values)} values; one is expected",
                               p.offset, node=0, snippet=p.ident)
        headers[p.ident] = p.values[0]


def _read_move(reader: _SgfReader, node: _Node, n: int, move_props: List[_Prop], turn: int,
               last: bool) -> Optional[Move]:
    """The move of node ``n`` (turn ``turn``, 0-based), or None for a resignation; RecordError if wrong."""
    if len(move_props) != 1:
        what = "no B or W move" if not move_props else "both a B and a W move" \
            if len({p.ident for p in move_props}) == 2 else f"{len(move_props)} {move_props[0].ident} moves"
        raise reader.error(f"a move node needs exactly one B or W property, found {what}",
                           node.offset, node=n)
    p = move_props[0]
    expected = _turn_color(turn)
    letter = "B" if expected == Color.BLACK else "W"
    snippet = reader.text[p.offset:p.value_offsets[-1] + len(p.values[-1]) + 1]
    if p.ident != letter:
        raise reader.error(f"expected {letter} ({expected}'s turn), found {p.ident}", p.offset, node=n,
                           snippet=snippet).located(move=turn + 1)
    if len(p.values) != 1:
        raise reader.error(f"a move has one value, found {len(p.values)}", p.offset, node=n,
                           snippet=snippet).located(move=turn + 1)
    value = "".join(p.values[0].split())
    if value.lower() == _RESIGN:
        if not last:
            raise reader.error("a resignation must be the last node", p.offset, node=n, snippet=snippet)
        return None
    try:
        m = Move.parse(value)
    except (InvalidMoveError, IllegalMoveError) as exc:
        raise reader.error(str(exc), p.value_offsets[0], node=n,
                           snippet=p.values[0]).located(move=turn + 1) from exc
    try:
        _check_structure_one(turn, m, last=last)
    except RecordError as exc:
        raise reader.error(exc.reason, p.offset, node=n, snippet=snippet).located(move=turn + 1) from None
    return m


def _check_structure_one(index: int, m: Move, last: bool) -> None:
    if index == 0 and len(m) != 1:
        raise RecordError(f"Black's first turn is one stone, not {len(m)}")
    if index > 0 and len(m) != 2 and not last:
        raise RecordError(f"{_turn_color(index)}'s turn must be two stones, not {len(m)} "
                          "(only the last turn of a record may be a single stone)")


def read_sgf_file(path: Union[str, "os.PathLike[str]"]) -> Tuple[Dict[str, str], List[Move]]:
    """:func:`read_sgf` of a file: UTF-8 (a byte-order mark is dropped), at most 1 MB of text.

    Every problem with the content raises :class:`RecordError` naming the
    file and the line: bytes that are not UTF-8, a file over the size limit
    (refused after reading at most 4 MB of it), any SGF error.  A path that
    cannot be opened raises ``OSError``.
    """
    name = os.fspath(path)
    with open(path, "rb") as fh:
        data = fh.read(4 * MAX_GAME_CHARS + 1)         # UTF-8 takes at most 4 bytes per character
    if len(data) > 4 * MAX_GAME_CHARS:
        raise RecordError(f"more than {4 * MAX_GAME_CHARS:,} bytes; one game is at most {MAX_GAME_CHARS:,} "
                          "characters (1 MB): refused without reading it all", file=name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RecordError(f"not UTF-8 text: byte 0x{data[exc.start]:02x} ({exc.reason})", file=name,
                          line=line, column=column, offset=exc.start) from None
    try:
        return read_sgf(text)
    except RecordError as exc:
        raise exc.located(file=name) from None


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(moves: Iterable[MoveLike], headers: Optional[Mapping[str, object]] = None) -> str:
    """A Little Golem SGF record of ``moves`` (one line, no trailing newline).

    ``FF[4]`` comes first unless ``headers`` gives ``FF``; the other headers
    follow in their order, values escaped (``]`` and ``\\``).  Header names are
    capital letters and may not be ``B`` or ``W``.

    >>> write_sgf(["j10", "j9l11"], {"EV": "test ]", "PB": "me"})
    '(;FF[4]EV[test \\\\]]PB[me];B[j10];W[j9l11])'
    >>> write_sgf([])
    '(;FF[4])'
    """
    ms = _moves(moves)
    _check_structure(ms)
    hs: Dict[str, str] = {}
    if headers is None or "FF" not in headers:
        hs["FF"] = "4"
    for key, value in (headers or {}).items():
        if not isinstance(key, str) or not key.isalpha() or not key.isupper() or not key.isascii():
            raise RecordError("a header name is capital letters A..Z", text=str(key))
        if key in ("B", "W"):
            raise RecordError("B and W are moves, not headers", text=key)
        hs[key] = str(value)
    root = "".join(f"{k}[{_escape(v)}]" for k, v in hs.items())
    body = "".join(f";{'B' if i % 2 == 0 else 'W'}[{m}]" for i, m in enumerate(ms))
    return f"(;{root}{body})"


# ---------------------------------------------------------------- replay
def replay(moves: Iterable[MoveLike], *, weights: WeightsLike = "paper") -> Board:
    """Play ``moves`` on a new :class:`~connect6.Board` and return it.

    Raises :class:`RecordError` naming the move number (1-based) when a move
    is malformed or illegal (occupied cell, wrong number of stones, a move
    after the game was won).  A single stone ends a two-stone turn only when
    it makes six (:meth:`connect6.Board.push` decides).  The board is built privately and only returned
    when every move was played.

    >>> board = replay(parse_stone_list("j10,k11,i11,h11,i10"))
    >>> board.turn, len(board.move_stack)
    (<Color.WHITE: 1>, 3)
    >>> replay(["j10", "k11j10"])
    Traceback (most recent call last):
    ...
    connect6.records.RecordError: move 2 'k11j10': white: k11j10: j10 is occupied
    """
    board = Board(weights=weights)
    ms = list(moves)
    for i, raw in enumerate(ms):
        try:
            m = to_move(raw)
            board.push(m)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise RecordError(f"{_turn_color(i)}: {exc}", move=i + 1, text=str(raw)) from exc
    return board


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
                raise self.error(f"line longer than {MAX_LINE_CHARS:,} characters (one game is at most "
                                 "1 MB): refused without reading it")
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


def _games_of_file(fh, max_chars: Optional[int]) -> Iterator[GameRecord]:
    name = getattr(fh, "name", None)
    name = name if isinstance(name, (str, os.PathLike)) else None
    if not isinstance(fh.read(0), bytes):
        yield from _games_from(_LineFeed(fh, name, max_chars, from_bytes=False))
        return
    text = io.TextIOWrapper(fh, encoding="utf-8", errors="surrogateescape", newline="")
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


# ================================================================= openings
# Openings files for matches (one stone list per line) and random openings.
__all__ += ["load_openings", "random_openings"]


def load_openings(path: str) -> List[str]:
    """Openings from a file: one stone list per line (``j10,k11,i11``); ``#``
    starts a comment (a whole line, or after the stones).

    Every opening is replayed; a broken or finished one is an error naming its line.
    """
    openings = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                board = replay(parse_stone_list(text))
            except RecordError as exc:
                raise ValueError(f"{path}, line {number}: {exc}") from None
            if board.is_game_over():
                raise ValueError(f"{path}, line {number}: the opening already ends the game")
            openings.append(format_stone_list(board.move_stack))
    if not openings:
        raise ValueError(f"{path}: no openings (one stone list per line, like j10,k11,i11)")
    return openings


def random_openings(count: int, seed: int, radius: int = 3) -> List[str]:
    """``count`` 3-turn openings (j10, a white pair, a black pair) within ``radius``
    cells of the centre, drawn with ``seed``.

    >>> random_openings(2, seed=1) == random_openings(2, seed=1)
    True
    >>> len(parse_stone_list(random_openings(1, seed=1)[0]))
    3
    """
    import random

    rng = random.Random(f"openings:{seed}")
    centre = 9
    cells = [r * 19 + c for r in range(centre - radius, centre + radius + 1)
             for c in range(centre - radius, centre + radius + 1) if r * 19 + c != 180]
    out = []
    for _ in range(count):
        stones = rng.sample(cells, 4)
        out.append(format_stone_list([Move((180,)), Move(stones[:2]), Move(stones[2:])]))
    return out
