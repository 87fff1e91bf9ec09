"""Connect6 as a PettingZoo AEC environment (``pip install "connect6[rl]"``).

Agents ``"black"`` and ``"white"``.  An action is one cell 0..360
(``row * 19 + col``, ``a1`` = 0, ``j10`` = 180).  Black's first turn is one
stone; every later turn is two, made as **two consecutive actions by the same
agent**: ``agent_selection`` stays on the agent after the first stone of its
pair and passes to the other agent after the second (or as soon as a stone
makes six, which ends the game).  The observation is a dict: ``observation``,
int8 planes (4, 19, 19) ``[plane, row, column]``: the observer's stones, the
opponent's, the stones placed so far in the current turn, and the side to move
(all 1 when White is to move); ``action_mask``, int8 (361,), 1 on the cells the
observer may play now (all 0 when it is not its turn).  Rewards: +1 to the
winner and -1 to the loser when a six is made; 0 on a draw (full board).

An occupied or masked cell, an action that is not an integer, or an action
other than ``None`` for a finished agent raises ``ValueError``/``TypeError``
and changes nothing.

>>> from connect6.env.pettingzoo import env
>>> e = env()
>>> e.reset(seed=0)
>>> e.agent_selection
'black'
>>> e.step(180)             # black's one-stone first turn
>>> e.agent_selection
'white'
>>> e.step(181); e.agent_selection      # white's first stone: still white
'white'
>>> e.step(200); e.agent_selection
'black'
"""
from __future__ import annotations

from typing import Any, Dict, Literal, Optional, Tuple, overload

import numpy as np

from connect6.board import Board
from connect6.env._common import (
    AGENTS, PLANES_SHAPE, RENDER_MODES, Frame, Observation, check_action, observe, render, require,
)
from connect6.notation import NUM_CELLS

require("pettingzoo")       # a clear error naming the rl extra when it is missing
require("gymnasium")
import gymnasium  # noqa: E402
from gymnasium import spaces as _spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: E402


class raw_env(AECEnv):
    """The unwrapped environment; :func:`env` adds PettingZoo's order checks."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "connect6_v0", "is_parallelizable": False,
                "render_fps": 2}

    def __init__(self, render_mode: Optional[str] = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.board = Board()
        obs = _spaces.Dict({
            "observation": _spaces.Box(low=0, high=1, shape=PLANES_SHAPE, dtype=np.int8),
            "action_mask": _spaces.Box(low=0, high=1, shape=(NUM_CELLS,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs for a in AGENTS}
        self.action_spaces = {a: _spaces.Discrete(NUM_CELLS) for a in AGENTS}
        self._reset_state()

    def observation_space(self, agent: str) -> _spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> _spaces.Discrete:
        return self.action_spaces[agent]

    def _reset_state(self) -> None:
        self.board = Board()
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in AGENTS}
        self._cumulative_rewards = {a: 0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """A new game, Black to move.  The game has no randomness: ``seed`` only seeds
        the action spaces (for their ``sample()``)."""
        if seed is not None:
            for i, a in enumerate(AGENTS):
                self.action_spaces[a].seed(seed + i)
        self._reset_state()

    def observe(self, agent: str) -> Observation:
        return observe(self.board, AGENTS.index(agent))

    def step(self, action: object) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        cell = check_action(self.board, action)
        self._cumulative_rewards[agent] = 0
        board = self.board
        board.push_stone(cell)
        if board.is_game_over():
            self.rewards = {a: 0 for a in self.agents}
            outcome = board.outcome()
            winner = None if outcome is None else outcome.winner
            if winner is not None:
                self.rewards[AGENTS[winner]] = 1
                self.rewards[AGENTS[1 - winner]] = -1
            self.terminations = {a: True for a in self.agents}
        self.agent_selection = AGENTS[board.position.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":     # as PettingZoo's classic games: each step shows the board
            self.render()

    def render(self) -> Optional[Frame]:
        """``"human"``: the board printed as text; ``"ansi"``: the board as text;
        ``"rgb_array"``: a uint8 (380, 380, 3) image."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: nothing to render")
            return None
        return render(self.board, self.render_mode)

    def close(self) -> None:
        pass


class _OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's order checks, with ``last()`` and ``step()`` going straight to the
    environment once it has been reset (the inherited ones read their attributes
    through the wrapper's checks, which made them the costliest calls of a step)."""

    @overload
    def last(self, observe: Literal[True] = True) -> Tuple[Observation, float, bool, bool, Dict[str, Any]]: ...

    @overload
    def last(self, observe: Literal[False]) -> Tuple[None, float, bool, bool, Dict[str, Any]]: ...

    def last(self, observe: bool = True) -> Tuple[Optional[Observation], float, bool, bool, Dict[str, Any]]:
        """(observation, the agent's cumulative reward, terminated, truncated, info) of the agent to act."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        step: Tuple[Optional[Observation], float, bool, bool, Dict[str, Any]] = self.env.last(observe)
        return step

    def step(self, action: object) -> None:
        if self._has_reset and self.env.agents:        # the common case, without attribute lookups
            self._has_updated = True
            self.env.step(action)
        else:                                           # the wrapper's errors and warnings
            super().step(action)


def env(render_mode: Optional[str] = None) -> "_OrderEnforcing":
    """The environment with PettingZoo's order checks (step before reset, etc.)."""
    return _OrderEnforcing(raw_env(render_mode=render_mode))
