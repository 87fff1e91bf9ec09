"""One game as text, in either form: an SGF game tree or a stone list."""
from __future__ import annotations

from typing import Dict, List, Tuple

from connect6.notation import Move
from connect6.records.core import _check_size, parse_stone_list
from connect6.records.sgf import read_sgf

__all__ = ["read_game_text"]


def read_game_text(text: str) -> Tuple[Dict[str, str], List[Move]]:
    """``(headers, moves)`` of a game given as text: an SGF game tree when it starts
    with ``(`` (after whitespace), else a stone list on one line or many (a ``#``
    starts a comment to the end of its line; a line may end with a comma), as a
    file, a terminal or a text box gives it.  A stone list has no headers.

    >>> read_game_text("j10,k11,i11,  # the opening\\n h11,i10\\n")[1]
    [Move.parse('j10'), Move.parse('k11i11'), Move.parse('h11i10')]
    >>> read_game_text("(;PB[alice];B[j10])")
    ({'PB': 'alice'}, [Move.parse('j10')])
    """
    if not isinstance(text, str):
        raise TypeError(f"a game is SGF or stone-list text, not {type(text).__name__}")
    _check_size(text, "this game")
    stripped = text.strip()
    if stripped.startswith("("):
        return read_sgf(stripped)
    lines = (line.split("#", 1)[0].strip().strip(",") for line in stripped.splitlines())
    return {}, parse_stone_list(",".join(line for line in lines if line))
