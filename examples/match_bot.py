"""A Python bot for ``connect6 match``: one ply of look-ahead per stone.

Run from this folder (``py:`` imports bots from where the match is started)::

    connect6 match py:match_bot:greedy paper --games 2 --out /tmp/greedy-vs-paper

``connect6 match`` calls ``greedy(board)`` with a copy of the game's board for
every turn and plays the Move it returns.
"""
from __future__ import annotations

from typing import List

from connect6 import Board, Move


def best_stone(board: Board) -> int:
    """The empty cell after which the mover's evaluation is highest (a six first)."""
    me = board.turn
    best, best_score = -1, -(2**62)
    for cell in board.legal_stones():
        board.push_stone(cell)
        outcome = board.outcome()
        score = 2**61 if outcome is not None and outcome.winner == me else board.evaluate(me)
        board.pop_stone()
        if score > best_score:
            best, best_score = cell, score
    return best


def greedy(board: Board) -> Move:
    """A whole turn, stone by stone, each the best stone after the ones before it."""
    cells: List[int] = []
    mover = board.turn
    while not board.is_game_over() and board.turn == mover and len(cells) < 2:
        cells.append(best_stone(board))
        board.push_stone(cells[-1])
    return Move(cells)
