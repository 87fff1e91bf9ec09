"""Type stubs of engine_core.attacks (the solver's candidate pairs: threats after a pair)."""
from typing import List, Tuple

from engine_core.position import Position

def threats_after(pos: Position, color: int, x: int, y: int) -> List[Tuple[int, Tuple[int, ...]]]: ...
def forcing_pairs(pos: Position, k: int = ..., both_fours: bool = ...) -> List[Tuple[int, int, int]]: ...
