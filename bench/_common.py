"""Shared helpers of the benchmark scripts: data files, positions, timing."""
from __future__ import annotations

import os
import platform
import statistics
import sys
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a source checkout without installing

import connect6  # noqa: E402
from connect6.records import read_games_csv  # noqa: E402

HUMAN_GAMES = ROOT / "tests" / "data" / "human-games.csv"


def human_games():
    return read_games_csv(HUMAN_GAMES)


def position_after(moves, turns: int):
    """The board after the first ``turns`` turns of a game (None if it ended sooner)."""
    board = connect6.Board()
    for m in moves[:turns]:
        board.push(m)
    if board.is_game_over() or len(board.move_stack) < turns:
        return None
    return board


def step_positions(count: int, step: int = 9, skip: int = 0) -> List["connect6.Board"]:
    """``count`` positions where ``step`` is the next turn to play (the paper's
    "step 9" = after 8 turns), from the human games in file order."""
    out = []
    for g in human_games()[skip:]:
        b = position_after(g.moves, step - 1)
        if b is not None:
            out.append(b)
            if len(out) == count:
                break
    return out


def machine() -> str:
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def median(xs):
    return statistics.median(xs) if xs else float("nan")
