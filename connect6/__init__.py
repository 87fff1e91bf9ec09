"""connect6: a Cython-accelerated Connect6 engine with a python-chess-like API.

>>> import connect6
>>> board = connect6.Board()
>>> board.push("j10")
>>> board.turn
<Color.WHITE: 1>
"""
from connect6 import _core  # noqa: F401  (fails with build instructions when the core is missing)
from connect6 import records
from connect6.board import Board, Outcome, Termination
from connect6.engine import Analysis, Engine, make_engine
from connect6.options import PROFILES, EngineOptions, Limits
from connect6.notation import (
    BLACK, CENTER, WHITE, Color, IllegalMoveError, InvalidMoveError, Move, cell_name,
    parse_cell,
)
from connect6.records import RecordError
from connect6.result import Info, PovScore, Score, SearchResult
from connect6.version import __version__
from connect6.weights import WEIGHT_SETS, resolve_weights


__all__ = [
    "BLACK", "WHITE", "CENTER", "Color", "Board", "Engine", "SearchResult", "Move", "Outcome", "Termination",
    "InvalidMoveError", "IllegalMoveError", "RecordError", "cell_name", "parse_cell", "PROFILES",
    "WEIGHT_SETS", "EngineOptions", "Limits", "Analysis", "Info", "resolve_weights", "records", "__version__", "make_engine", "Score", "PovScore",
]
