"""Type stubs of engine_core.kernels (timing kernels for bench/micro.py)."""
from typing import Sequence, Tuple

from engine_core.position import Position

def time_add_remove(pos: Position, cells: Sequence[int], color: int, repetitions: int) -> float: ...
def time_pair_deltas(pos: Position, pairs: Sequence[Tuple[int, int]], side: int, scan: str,
                     repetitions: int) -> Tuple[float, int]: ...
def time_gen_moves(pos: Position, width: int = ..., radius: int = ..., scan: int = ...,
                   repetitions: int = ...) -> float: ...
