"""The Connect6 engine protocol on the wire (Cloudict / ConnectMore): how
stones, turns, placements and replies are written.

Shared by the client that drives external engines
(:class:`connect6.protocol.ProtocolEngine`) and the server behind
``connect6 engine`` (:mod:`connect6.protocol.server`), so the two cannot drift
apart.  A stone is two letters A..S, column then row (``JJ`` is the centre);
a turn of two stones is four letters.  Black's first turn is one stone,
which the ConnectMore GUI sends doubled (``JJJJ``).

>>> from connect6.notation import Move
>>> placement("black", Move.parse("j10"))
'black JJJJ'
>>> placement("white", Move.parse("j9k11"))
'white JIKK'
>>> move_reply(Move.parse("j9k11"))
'move JIKK'
>>> parse_move_reply("move JIKK"), parse_move_reply("move jikk")
('JIKK', None)
>>> name_reply("connect6"), parse_name_reply("name connect6"), parse_name_reply("hello")
('name connect6', 'connect6', None)
"""
from __future__ import annotations

import re
from typing import Optional

from connect6.notation import Move, parse_protocol_cell

__all__ = [
    "MOVE_REPLY_RE", "MOVE_REPLY_FORM", "STONES_HELP", "parse_protocol_move", "turn_letters", "placement",
    "move_reply", "parse_move_reply", "looks_like_move_reply", "name_reply", "parse_name_reply",
]

#: The only accepted form of a move reply: ``move`` and 2 or 4 capital letters A..S.
MOVE_REPLY_RE = re.compile(r"move ([A-S]{2}|[A-S]{4})")
#: That form, said for people (in error messages).
MOVE_REPLY_FORM = "exactly 'move XX' or 'move XXXX', letters A..S"
#: How stones are written, said for people (in help texts).
STONES_HELP = "stones are two letters A..S, column then row; JJ is the centre"


def parse_protocol_move(text: str, stones_due: int) -> Move:
    """A turn in protocol letters, for a side that must place ``stones_due`` stones.

    ``"JJKK"`` is a pair.  When one stone is due (Black's first turn),
    ``"JJ"`` and the doubled ``"JJJJ"`` (what the ConnectMore GUI sends) both
    mean the single stone JJ.

    >>> parse_protocol_move("JJJJ", 1)
    Move.parse('j10')
    >>> parse_protocol_move("JIKK", 2)
    Move.parse('j9k11')
    """
    t = text.strip()
    if stones_due == 1 and len(t) == 4 and t[:2].upper() == t[2:].upper():
        parse_protocol_cell(t[2:])  # the same checks as the first half
        t = t[:2]
    return Move.from_protocol(t)


def turn_letters(move: Move, double_first_stone: bool = False) -> str:
    """A turn's letters; a single stone doubled (``JJJJ``) when ``double_first_stone``.

    >>> turn_letters(Move.parse("j10")), turn_letters(Move.parse("j10"), True)
    ('JJ', 'JJJJ')
    """
    text = move.to_protocol()
    return text * 2 if len(move) == 1 and double_first_stone else text


def placement(color: str, move: Move, double_first_stone: bool = True) -> str:
    """The command that places ``color``'s turn without a search: ``black JJJJ``, ``white JIKK``."""
    return f"{color} {turn_letters(move, double_first_stone)}"


def move_reply(move: Move) -> str:
    """An engine's answer with its move: ``move JIKK`` (``move JJ`` for Black's first stone)."""
    return f"move {turn_letters(move)}"


def parse_move_reply(line: str) -> Optional[str]:
    """The letters of a move reply in its exact form, or None for any other line."""
    match = MOVE_REPLY_RE.fullmatch(line)
    return match.group(1) if match else None


#: a line meant as a move reply, well formed or not: ``move`` and at most two short words
_MOVE_LOOKALIKE_RE = re.compile(r"move(?:\s*[A-Za-z0-9]{1,4}(?:\s+[A-Za-z0-9]{1,4})?)?\s*")


def looks_like_move_reply(line: str) -> bool:
    """A line meant as a move reply, well formed or not: ``move`` and at most
    two words of up to four letters or digits (``move jjkk``, ``move JJ KK``,
    ``moveJJK``), not a note that starts with the word (``move ordering
    done``, ``movegen: thinking``), which a correct engine may print.

    >>> [looks_like_move_reply(x) for x in ("move jjkk", "move JJ KK", "move ordering done", "movegen: 3")]
    [True, True, False, False]
    """
    return _MOVE_LOOKALIKE_RE.fullmatch(line) is not None


def name_reply(name: str) -> str:
    """The answer to ``name``."""
    return f"name {name}"


def parse_name_reply(line: str) -> Optional[str]:
    """The engine name in an answer to ``name``, or None for any other line."""
    if line == "name" or line.startswith("name "):
        return line[5:].strip()
    return None
