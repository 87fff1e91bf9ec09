"""How a game ended, said for people: one place for the sentences the engine
server, the match runner and the command line print or record.

>>> from connect6 import Board
>>> board = Board("j10 a1s1 k10l10 a19s19 m10n10 a10s10 o10p10")
>>> outcome_text(board.outcome())
'black won'
>>> outcome_reason(board.outcome())
'black made six in a row: j10 k10 l10 m10 n10 o10 p10'
>>> outcome_text(None)
'the game goes on'
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from connect6.notation import cell_name

if TYPE_CHECKING:  # pragma: no cover
    from connect6.board import Outcome

__all__ = ["outcome_text", "outcome_reason"]


def outcome_text(outcome: "Optional[Outcome]") -> str:
    """In a few words: ``"black won"``, ``"draw, the board is full"``, or
    ``"the game goes on"`` (no outcome yet)."""
    if outcome is None:
        return "the game goes on"
    if outcome.winner is None:
        return "draw, the board is full"
    return f"{outcome.winner} won"


def outcome_reason(outcome: "Outcome") -> str:
    """Why the game ended, with the winning row: ``"black made six in a row:
    k10 l10 m10 n10 o10 p10"`` or ``"draw: the board is full"``."""
    if outcome.winner is None:
        return "draw: the board is full"
    return f"{outcome.result()} made six in a row: " + " ".join(cell_name(c) for c in outcome.line or ())
