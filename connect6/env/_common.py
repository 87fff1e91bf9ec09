"""What both environments share: observations, action checks and rendering."""
from __future__ import annotations

import importlib
import numbers
from types import ModuleType
from typing import Dict, Optional, Union

import numpy as np
import numpy.typing as npt

from connect6.board import Board
from connect6.notation import BOARD_SIZE, NUM_CELLS, cell_name

AGENTS = ("black", "white")
PLANES_SHAPE = (4, BOARD_SIZE, BOARD_SIZE)
RENDER_MODES = ("human", "ansi", "rgb_array")

#: what an agent observes: int8 planes (4, 19, 19) and its int8 action mask (361,)
Observation = Dict[str, npt.NDArray[np.int8]]
#: a rendered frame: the board as text ("ansi") or a uint8 (380, 380, 3) image ("rgb_array")
Frame = Union[str, npt.NDArray[np.uint8]]


def require(module: str) -> ModuleType:
    """Import an optional dependency of the ``rl`` extra, or say how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        # a ModuleNotFoundError naming the missing module, as the plain import would raise
        raise ModuleNotFoundError(f"connect6.env needs {module.split('.')[0]} ({exc}); "
                                  'install the extra with: pip install "connect6[rl]"',
                                  name=getattr(exc, "name", None) or module) from exc


def observe(board: Board, color: int) -> Observation:
    """The observation of ``color`` (0 black, 1 white): planes from its side, and its mask."""
    pos = board.position
    planes = pos.to_planes()
    if color != pos.to_move:
        planes[[0, 1]] = planes[[1, 0]]
        mask = np.zeros(NUM_CELLS, dtype=np.int8)
    else:
        mask = pos.legal_mask().view(np.int8)
    return {"observation": planes, "action_mask": mask}


def check_action(board: Board, action: object) -> int:
    """The cell of a valid ``action``, or TypeError/ValueError saying what is wrong
    (nothing is changed)."""
    if type(action) is int and 0 <= action < NUM_CELLS and board.position.stone_at(action) == 2:
        return action       # the common case, quickly
    if isinstance(action, (numbers.Integral, np.integer)) and not isinstance(action, (bool, np.bool_)):
        cell = int(action)
    elif isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        cell = int(action.item())
    else:
        raise TypeError(f"action must be an integer cell 0..{NUM_CELLS - 1}, not {action!r} "
                        f"({type(action).__name__})")
    if not 0 <= cell < NUM_CELLS:
        raise ValueError(f"action {cell} is off the board (0..{NUM_CELLS - 1})")
    if board.position.stone_at(cell) != 2:
        raise ValueError(f"action {cell} ({cell_name(cell)}) is masked: the cell is occupied")
    return cell


def render(board: Board, mode: Optional[str]) -> Optional[Frame]:
    """``"human"``: the board printed as text (None returned), as PettingZoo's
    classic games do; ``"ansi"``: the text; ``"rgb_array"``: a picture."""
    if mode is None:
        return None
    if mode == "human":
        print(board, flush=True)
        return None
    if mode == "ansi":
        return str(board)
    return board_image(board)


# ---------------------------------------------------------------- rgb_array
_PX = 20                                    # pixels per cell
_SIZE = BOARD_SIZE * _PX
_BACKGROUND = np.array([220, 179, 92], dtype=np.uint8)
_yy, _xx = np.mgrid[0:_PX, 0:_PX]
_DISC = (_yy - (_PX - 1) / 2) ** 2 + (_xx - (_PX - 1) / 2) ** 2 <= (0.42 * _PX) ** 2
_RING = _DISC & ((_yy - (_PX - 1) / 2) ** 2 + (_xx - (_PX - 1) / 2) ** 2 >= (0.30 * _PX) ** 2)


def board_image(board: Board) -> npt.NDArray[np.uint8]:
    """An RGB picture of the board: uint8 (380, 380, 3), row 19 at the top, stones of the
    turn being made ringed in red."""
    img = np.empty((_SIZE, _SIZE, 3), dtype=np.uint8)
    img[:] = _BACKGROUND
    mid = _PX // 2
    img[mid:_SIZE - mid + 1, mid::_PX] = 40           # vertical lines
    img[mid::_PX, mid:_SIZE - mid + 1] = 40           # horizontal lines
    stones = board.to_numpy()
    recent = set(board.unfinished_turn) or (set(board.peek().stones) if board.move_stack else set())
    for color, shade in ((0, 20), (1, 235)):
        for row, col in zip(*np.nonzero(stones[color])):
            y, x = (BOARD_SIZE - 1 - row) * _PX, col * _PX
            img[y:y + _PX, x:x + _PX][_DISC] = shade
            if row * BOARD_SIZE + col in recent:
                img[y:y + _PX, x:x + _PX][_RING] = (200, 30, 30)
    return img
