"""Little Golem SGF: reading (checked as it is read, stopping at the first
error) and writing."""
from __future__ import annotations

import collections.abc
import dataclasses
import os
import re
from typing import Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from connect6.notation import (
    Color, IllegalMoveError, InvalidMoveError, Move, MoveLike,
)
from connect6.records.core import (
    MAX_GAME_CHARS, RecordError, _check_size, _check_structure, _moves, _turn_color,
)

# ---------------------------------------------------------------- SGF
_IDENT_RE = re.compile(r"[A-Za-z]+")
_WS_RE = re.compile(r"[ \t\r\n\f\v\ufeff]*")
_VALUE_RUN_RE = re.compile(r"[^\]\\]*")   # the plain characters of a value, up to "]" or a backslash


def _match_end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """Where a run of ``pattern`` (which matches the empty string too) starting at ``pos`` ends."""
    m = pattern.match(text, pos)
    return pos if m is None else m.end()


_RESIGN = "resign"


def sgf_result(winner: Optional[Color], how: str = "") -> str:
    """The SGF ``RE`` value of a finished game, as Little Golem writes it:
    ``B+`` or ``W+`` and how it was won (``""`` by six, ``R`` resignation,
    ``T`` time, ``F`` forfeit), or ``Draw`` (``winner`` None).

    >>> sgf_result(Color.WHITE, "R"), sgf_result(Color.BLACK), sgf_result(None)
    ('W+R', 'B+', 'Draw')
    """
    if how not in ("", "R", "T", "F"):
        raise ValueError(f"sgf_result: how {how!r} is not one of '', 'R', 'T', 'F'")
    return "Draw" if winner is None else f"{'B' if winner == Color.BLACK else 'W'}+{how}"


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

    def error(self, message: str, offset: int, *, node: Optional[int] = None,
              snippet: Optional[str] = None) -> RecordError:
        line = self.text.count("\n", 0, offset) + 1
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        if snippet is None:
            snippet = self.text[offset:offset + 12]
        return RecordError(message, line=line, column=column, offset=offset, node=node, text=snippet)

    def skip_ws(self) -> None:
        self.pos = _match_end(_WS_RE, self.text, self.pos)

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
            end = _match_end(_VALUE_RUN_RE, text, self.pos)
            out.append(text[self.pos:end])
            self.pos = end
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
        headers["RE"] = sgf_result(resigned.other, "R")
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


def write_sgf(moves: Iterable[MoveLike], headers: Optional[Mapping[str, object]] = None,
              comments: Optional[Sequence[Optional[str]]] = None) -> str:
    """A Little Golem SGF record of ``moves`` (one line, no trailing newline).

    ``FF[4]`` comes first unless ``headers`` gives ``FF``; the other headers
    follow in their order, values escaped (``]`` and ``\\``).  Header names are
    capital letters and may not be ``B`` or ``W``.  ``comments``, one per
    move at most (None or "" for none), go in the moves' ``C`` properties, as
    a match writes each engine's score, depth and time; :func:`read_sgf`
    ignores them.

    >>> write_sgf(["j10", "j9l11"], {"EV": "test ]", "PB": "me"})
    '(;FF[4]EV[test \\\\]]PB[me];B[j10];W[j9l11])'
    >>> write_sgf(["j10", "j9l11"], comments=[None, "+12/3 0.5s"])
    '(;FF[4];B[j10];W[j9l11]C[+12/3 0.5s])'
    >>> write_sgf([])
    '(;FF[4])'
    """
    ms = _moves(moves)
    _check_structure(ms)
    notes = _comments(comments, len(ms))
    if headers is not None and not isinstance(headers, Mapping):
        raise TypeError(f"headers are a mapping of names to values, like {{'PB': 'alice'}}, "
                        f"not {type(headers).__name__}")
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
    body = "".join(f";{'B' if i % 2 == 0 else 'W'}[{m}]" + (f"C[{_escape(notes[i])}]" if notes[i] else "")
                   for i, m in enumerate(ms))
    return f"(;{root}{body})"


def _comments(comments: Optional[Sequence[Optional[str]]], n: int) -> List[str]:
    """write_sgf's move comments, one per move ("" for none); RecordError when they do not fit."""
    if comments is None:
        return [""] * n
    if isinstance(comments, (str, bytes)) or not isinstance(comments, collections.abc.Sequence):
        raise RecordError(f"comments must be a sequence of strings, one per move, not {type(comments).__name__}")
    if len(comments) > n:
        raise RecordError(f"{len(comments)} comments for {n} moves")
    for c in comments:
        if c is not None and not isinstance(c, str):
            raise RecordError(f"a move comment must be a string or None, not {type(c).__name__}")
    return [c or "" for c in comments] + [""] * (n - len(comments))


