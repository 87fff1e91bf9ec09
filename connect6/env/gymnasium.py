"""Connect6 as a Gymnasium environment: one agent against a built-in opponent
(``pip install "connect6[rl]"``).

The agent plays ``color`` (Black by default); after each of its turns the
opponent plays a whole turn at once.  An action is one cell 0..360
(``row * 19 + col``); the agent's two-stone turns are **two consecutive
steps**, the first returning reward 0 with the agent still to move.  The
observation is the dict of :mod:`connect6.env` (int8 planes (4, 19, 19) from
the agent's side, and the int8 ``action_mask``); ``info`` holds
``"turn_stones_left"``.  Rewards: +1 when the agent makes six, -1 when the
opponent does, 0 otherwise (a full board is a draw); the episode then
terminates (it is never truncated).

Opponents: ``"random"`` (uniform over the empty cells, from a generator
seeded by the environment's ``np_random`` at each reset), ``"engine"`` (:class:`connect6.Engine` with
``profile``, searching ``depth`` turns, or ``time`` seconds a move when a
time is given and no depth: depth 1 when neither is), any :class:`connect6.Engine`,
or a callable ``f(board) -> Move | str`` (the ``py:`` bots of ``connect6 match``).

A masked (occupied) cell, an action that is not an integer, or a step after
the episode ended raises (``ValueError``, ``TypeError``,
``gymnasium.error.ResetNeeded``) and changes nothing.  So does an opponent
that raises (a bot's bad move, Ctrl-C in the engine's search) in
:meth:`~Connect6Env.step`: the agent's stone is taken back, so the next step
is the agent's again; in :meth:`~Connect6Env.reset` the episode is left
ended (reset again).

>>> import gymnasium, connect6.env.gymnasium
>>> env = gymnasium.make("Connect6-v0", opponent="random")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((4, 19, 19), 361)
>>> obs, reward, terminated, truncated, info = env.step(180)
>>> int(obs["observation"][1].sum())        # the opponent answered with two stones
2
"""
from __future__ import annotations

import copy
import weakref
from typing import Any, Callable, Dict, Optional, SupportsFloat, Tuple, Union

import numpy as np
import numpy.typing as npt

from connect6.board import Board
from connect6.engine import Engine, make_engine
from connect6.env._common import (
    PLANES_SHAPE, RENDER_MODES, Frame, Observation, check_action, observe, render, require,
)
from connect6.notation import NUM_CELLS, Color, Move, MoveLike, to_move
from connect6.options import Limits

require("gymnasium")        # a clear error naming the rl extra when it is missing
import gymnasium as gym  # noqa: E402
from gymnasium import spaces as _spaces  # noqa: E402

ENV_ID = "Connect6-v0"
#: "random", "engine", an Engine, or a callable from a board to its move
Opponent = Union[str, Engine, Callable[[Board], MoveLike]]


class LegalCells(_spaces.Discrete):
    """``Discrete(361)`` whose ``sample()`` without a mask draws among the cells its
    environment accepts now (so ``env.action_space.sample()`` is always a legal
    action); with a mask or probabilities it is plain ``Discrete``.  Pickled or
    detached from its environment it samples like ``Discrete``."""

    def __init__(self, env: Optional["Connect6Env"] = None, seed: Optional[int] = None) -> None:
        super().__init__(NUM_CELLS, seed=seed)
        self._env = None if env is None else weakref.ref(env)

    def sample(self, mask: Optional[npt.NDArray[np.int8]] = None,
               probability: Optional[npt.NDArray[np.int8]] = None) -> np.int64:
        env = self._env() if self._env is not None else None
        if mask is None and probability is None and env is not None and not env._done:
            mask = env.board.legal_mask().view(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> Dict[str, object]:
        state = dict(self.__dict__)
        state["_env"] = None
        return state

    def __deepcopy__(self, memo: Dict[int, Any]) -> "LegalCells":
        """A copy that follows the copy of its environment when that is copied too
        (``copy.deepcopy(env)``, as tree searches do), else detached."""
        env = self._env() if self._env is not None else None
        twin = copy.copy(self)
        twin.__dict__.update({k: copy.deepcopy(v, memo) for k, v in self.__dict__.items() if k != "_env"})
        copied = memo.get(id(env)) if env is not None else None
        twin._env = weakref.ref(copied) if copied is not None else None
        return twin


class Connect6Env(gym.Env[Dict[str, Any], np.int64]):    # the types of gymnasium's Dict and Discrete spaces
    """One agent against a built-in opponent (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, opponent: Opponent = "random", color: Union[str, int] = "black",
                 profile: str = "default", depth: Optional[int] = None, time: Optional[float] = None,
                 render_mode: Optional[str] = None) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.color = _color_arg(color)
        self._time = time
        self._opponent_move = self._make_opponent(opponent, profile, depth, time)
        self.observation_space = _spaces.Dict({
            "observation": _spaces.Box(low=0, high=1, shape=PLANES_SHAPE, dtype=np.int8),
            "action_mask": _spaces.Box(low=0, high=1, shape=(NUM_CELLS,), dtype=np.int8),
        })
        self.action_space = LegalCells(self)
        self.board = Board()
        self._done = True
        self._opponent_rng = np.random.default_rng()

    def __setstate__(self, state: Dict[str, Any]) -> None:
        """An unpickled environment's action space follows it again (a pickled
        space alone stays detached): a third of its samples were occupied cells."""
        self.__dict__.update(state)
        space = self.__dict__.get("action_space")
        if isinstance(space, LegalCells):
            space._env = weakref.ref(self)

    def _make_opponent(self, opponent: Opponent, profile: str, depth: Optional[int],
                       time: Optional[float]) -> Callable[[Board], Optional[Move]]:
        if time is not None:
            Limits(time=time)               # a bad time is named now, not at the opponent's first turn
        if opponent == "random":
            return self._random_move        # depth, time and profile are the engine's (one config fits both)
        if opponent == "engine":
            opponent = make_engine(None, profile=profile, depth=1 if depth is None and time is None else depth)
        if isinstance(opponent, Engine):
            engine = opponent
            return lambda board: engine.search(board, time=time).move
        if callable(opponent):
            bot = opponent
            return lambda board: to_move(bot(board))
        raise ValueError(f"opponent must be 'random', 'engine', a connect6.Engine or a callable, not {opponent!r}")

    def _random_move(self, board: Board) -> Optional[Move]:
        """Random stones, placed one by one (it ends sooner if a stone makes six)."""
        pos, rng = board.position, self._opponent_rng
        mover = pos.to_move
        while not pos.is_over() and pos.to_move == mover:
            free = np.flatnonzero(pos.legal_mask())
            board.push_stone(int(free[rng.integers(len(free))]))
        return None

    def _opponent_turn(self) -> None:
        move = self._opponent_move(self.board)
        if move is not None:
            self.board.push(move)

    def _obs(self) -> Observation:
        return observe(self.board, int(self.color))

    def _info(self) -> Dict[str, Any]:
        return {"turn_stones_left": self.board.stones_to_place}

    def reset(self, *, seed: Optional[int] = None,
              options: Optional[Dict[str, Any]] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        super().reset(seed=seed)
        # the random opponent draws from its own stream, seeded from np_random: a user's
        # generator seeded like the environment does not then replay the opponent's moves
        self._opponent_rng = np.random.default_rng(int(self.np_random.integers(2**63)))
        self.board = Board()
        self._done = True                   # until the opponent's first turn, if it has one, is made
        if self.color == Color.WHITE:
            self._opponent_turn()
        self._done = False
        if self.render_mode == "human":     # Gymnasium's human mode renders in reset and step itself
            self.render()
        return self._obs(), self._info()

    def step(self, action: Union[int, np.integer[Any]]) -> Tuple[Dict[str, Any], SupportsFloat, bool, bool,
                                                                  Dict[str, Any]]:
        if self._done:
            raise gym.error.ResetNeeded("the episode is over: call reset() before step()")
        cell = check_action(self.board, action)
        before = self.board.copy()
        self.board.push_stone(cell)
        if not self.board.is_game_over() and self.board.position.to_move != self.color:
            try:
                self._opponent_turn()
            except BaseException:
                self.board = before         # the agent's stone back: its turn again
                raise
        reward = 0.0
        if self.board.is_game_over():
            self._done = True
            outcome = self.board.outcome()
            winner = None if outcome is None else outcome.winner
            reward = 0.0 if winner is None else (1.0 if winner == self.color else -1.0)
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, self._done, False, self._info()

    def render(self) -> Optional[Frame]:
        """``"human"``: the board printed as text; ``"ansi"``: the board as text;
        ``"rgb_array"``: a uint8 (380, 380, 3) image."""
        return render(self.board, self.render_mode)


def _color_arg(color: Union[str, int]) -> Color:
    if isinstance(color, str) and color.lower() in ("black", "white"):
        return Color.BLACK if color.lower() == "black" else Color.WHITE
    if isinstance(color, int) and not isinstance(color, bool) and color in (0, 1):
        return Color(color)
    raise ValueError(f"color must be 'black' or 'white', not {color!r}")


if ENV_ID not in gym.envs.registry:
    gym.register(id=ENV_ID, entry_point="connect6.env.gymnasium:Connect6Env")
