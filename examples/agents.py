"""Two small agents that act on the environments' observations.

* :func:`random_action`: a uniformly random cell among the action mask's.
* :func:`greedy_action`: one ply of look-ahead: rebuild the position from the
  planes (``Board.from_numpy``), try every legal stone with ``push_stone`` /
  ``pop_stone`` and keep the one that wins at once or leaves the best road
  evaluation for the side to move.

Both work for the PettingZoo and the Gymnasium environment alike (the
observation is the same dict).
"""
from __future__ import annotations

import random
from typing import Dict

import numpy as np
import numpy.typing as npt

from connect6 import Board

Observation = Dict[str, npt.NDArray[np.int8]]


def random_action(obs: Observation, rng: random.Random) -> int:
    """A random cell where the mask allows a stone."""
    free = np.flatnonzero(obs["action_mask"])
    return int(free[rng.randrange(len(free))])


def greedy_action(obs: Observation) -> int:
    """The legal stone after which the mover's evaluation is highest (a six first)."""
    board = Board.from_numpy(obs["observation"])
    me = board.turn
    best, best_score = -1, -(2**62)
    for cell in np.flatnonzero(obs["action_mask"]).tolist():
        board.push_stone(cell)
        outcome = board.outcome()
        score = 2**61 if outcome is not None and outcome.winner == me else board.evaluate(me)
        board.pop_stone()
        if score > best_score:
            best, best_score = cell, score
    return best
