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
import os
import re
from typing import Dict, IO, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from connect6.board import Board
from connect6.notation import (
    Color, IllegalMoveError, InvalidMoveError, Move, MoveLike, cell_name, parse_cell, to_move,
)
from connect6.weights import WeightsLike

__all__ = [
    "RecordError", "GameRecord", "parse_stone_list", "format_stone_list", "read_sgf", "write_sgf",
    "replay", "read_games_csv",
]


class RecordError(ValueError):
    """A game record that cannot be read, written or replayed.

    The message starts with where it broke; the same facts are kept as
    attributes (each None when it does not apply): ``game`` (a game id),
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

    _FIELDS = ("game", "line", "column", "offset", "node", "move", "stone", "text")

    def __init__(self, message: str, *, game: Optional[str] = None, line: Optional[int] = None,
                 column: Optional[int] = None, offset: Optional[int] = None, node: Optional[int] = None,
                 move: Optional[int] = None, stone: Optional[int] = None, text: Optional[str] = None):
        self.reason = message
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

    def located(self, **where) -> "RecordError":
        """A copy with more location facts filled in (existing ones are kept)."""
        fields = {k: getattr(self, k) for k in self._FIELDS}
        for k, v in where.items():
            if fields.get(k) is None:
                fields[k] = v
        return RecordError(self.reason, **fields)


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
_WS = " \t\r\n\f\v\ufeff"
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
    """A small recursive-descent reader of one SGF game tree without variations."""

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
        while self.pos < len(self.text) and self.text[self.pos] in _WS:
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def parse(self) -> List[_Node]:
        self.skip_ws()
        if self.peek() != "(":
            raise self.error("an SGF game starts with '('", self.pos)
        start = self.pos
        self.pos += 1
        self.skip_ws()
        nodes: List[_Node] = []
        while True:
            self.skip_ws()
            ch = self.peek()
            if ch == ";":
                nodes.append(self.node(len(nodes)))
            elif ch == ")":
                self.pos += 1
                break
            elif ch == "(":
                raise self.error("variations are not supported (a game is one line of moves)", self.pos,
                                 node=len(nodes))
            elif ch == "":
                raise self.error("unbalanced parentheses: the game opened here is never closed with ')'",
                                 start, snippet=self.text[start:start + 12])
            else:
                raise self.error(f"expected ';' (a node) or ')' (the end of the game), found {ch!r}",
                                 self.pos, node=len(nodes))
        if not nodes:
            raise self.error("a game needs at least one node", start)
        self.skip_ws()
        if self.pos < len(self.text):
            what = ("a second game (read one game at a time)" if self.peek() == "("
                    else "unbalanced parentheses" if self.peek() == ")" else "text")
            raise self.error(f"{what} after the end of the game", self.pos)
        return nodes

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
        self.pos += 1  # "["
        out = []
        while True:
            if self.pos >= len(self.text):
                raise self.error("unterminated value: no closing ']'", start, node=index)
            ch = self.text[self.pos]
            if ch == "]":
                self.pos += 1
                return "".join(out)
            if ch == "\\":
                nxt = self.text[self.pos + 1:self.pos + 2]
                if nxt == "":
                    raise self.error("unterminated value: no closing ']'", start, node=index)
                if nxt in "\r\n":   # a soft line break: dropped
                    self.pos += 2
                    if self.text[self.pos - 1:self.pos + 1] in ("\r\n", "\n\r"):
                        self.pos += 1
                    continue
                out.append(nxt)
                self.pos += 2
                continue
            out.append(ch)
            self.pos += 1


def read_sgf(text: str) -> Tuple[Dict[str, str], List[Move]]:
    """Read one Little Golem SGF game: ``(headers, moves)``.

    Strict about structure: one game tree ``(...)``, no variations; the root
    node (node 0) holds the headers, every later node one move ``B[...]`` or
    ``W[...]``; colours alternate starting with Black; Black's first turn is
    one stone, every later turn two (the last may be one, see the module
    docstring).

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
        raise TypeError(f"an SGF record is text, not {type(text).__name__}")
    reader = _SgfReader(text)
    nodes = reader.parse()

    headers: Dict[str, str] = {}
    moves: List[Move] = []
    resigned: Optional[Color] = None
    for n, node in enumerate(nodes):
        move_props = [p for p in node.props if p.ident in ("B", "W")]
        if n == 0:
            for p in node.props:
                if p.ident in ("B", "W"):
                    continue
                if p.ident in headers:
                    raise reader.error(f"header {p.ident} appears twice", p.offset, node=0, snippet=p.ident)
                if len(p.values) != 1:
                    raise reader.error(f"header {p.ident} has {len(p.values)} values; one is expected",
                                       p.offset, node=0, snippet=p.ident)
                headers[p.ident] = p.values[0]
            if not move_props:
                continue
        if resigned is not None:
            raise reader.error("a node after the resignation", node.offset, node=n)
        if len(move_props) != 1:
            what = "no B or W move" if not move_props else "both a B and a W move" \
                if len({p.ident for p in move_props}) == 2 else f"{len(move_props)} {move_props[0].ident} moves"
            raise reader.error(f"a move node needs exactly one B or W property, found {what}",
                               node.offset, node=n)
        p = move_props[0]
        turn = len(moves)
        expected = _turn_color(turn)
        snippet = text[p.offset:p.value_offsets[-1] + len(p.values[-1]) + 1]
        if p.ident != ("B" if expected == Color.BLACK else "W"):
            raise reader.error(f"expected {'B' if expected == Color.BLACK else 'W'} ({expected}'s turn), "
                               f"found {p.ident}", p.offset, node=n, snippet=snippet).located(move=turn + 1)
        if len(p.values) != 1:
            raise reader.error(f"a move has one value, found {len(p.values)}", p.offset, node=n,
                               snippet=snippet).located(move=turn + 1)
        value = "".join(p.values[0].split())
        if value.lower() == _RESIGN:
            if n != len(nodes) - 1:
                raise reader.error("a resignation must be the last node", p.offset, node=n, snippet=snippet)
            resigned = expected
            continue
        try:
            m = Move.parse(value)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise reader.error(str(exc), p.value_offsets[0], node=n,
                               snippet=p.values[0]).located(move=turn + 1) from exc
        moves.append(m)
        try:
            _check_structure_one(turn, m, last=(n == len(nodes) - 1))
        except RecordError as exc:
            raise reader.error(exc.reason, p.offset, node=n, snippet=snippet).located(move=turn + 1) from None
    if resigned is not None and "RE" not in headers:
        headers["RE"] = f"{'W' if resigned == Color.BLACK else 'B'}+R"
    return headers, moves


def _check_structure_one(index: int, m: Move, last: bool) -> None:
    if index == 0 and len(m) != 1:
        raise RecordError(f"Black's first turn is one stone, not {len(m)}")
    if index > 0 and len(m) != 2 and not last:
        raise RecordError(f"{_turn_color(index)}'s turn must be two stones, not {len(m)} "
                          "(only the last turn of a record may be a single stone)")


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


def read_games_csv(source: Union[str, "os.PathLike[str]", IO[str]]) -> List[GameRecord]:
    """Read a CSV with the columns ``game_id,stones,winner`` (the human-games archive).

    ``source`` is a path or an open text file.  ``winner`` is ``black``,
    ``white``, ``draw`` or empty.  Errors name the game id and the line.

    >>> import io
    >>> games = read_games_csv(io.StringIO('game_id,stones,winner\\n7,"j10,k11,k10",white\\n'))
    >>> games[0]
    GameRecord(game_id='7', moves=(Move.parse('j10'), Move.parse('k11k10')), winner=<Color.WHITE: 1>)
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, newline="", encoding="utf-8") as fh:
            return read_games_csv(fh)
    reader = csv.DictReader(source)
    missing = {"game_id", "stones", "winner"} - set(reader.fieldnames or ())
    if missing:
        raise RecordError(f"missing CSV column(s) {', '.join(sorted(missing))}", line=1)
    games: List[GameRecord] = []
    for row in reader:
        gid = row["game_id"]
        line = reader.line_num
        try:
            moves = parse_stone_list(row["stones"] or "")
        except RecordError as exc:
            raise exc.located(game=gid, line=line) from exc
        winner_text = (row["winner"] or "").strip().lower()
        if winner_text not in _WINNERS:
            raise RecordError("winner must be black, white, draw or empty", game=gid, line=line,
                              text=row["winner"])
        games.append(GameRecord(gid, tuple(moves), _WINNERS[winner_text]))
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
