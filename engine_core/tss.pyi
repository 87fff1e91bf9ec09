"""Type stubs of engine_core.tss (threat-space search, threats after a pair)."""
from typing import List, Tuple

from engine_core.position import Position

def solve_vct(pos: Position, depth: int = ..., fours: int = ..., budget: int = ...,
              time_limit: float = ...) -> Tuple[int, List[Tuple[int, int]], int]: ...
def solve_vcdt(pos: Position, depth: int = ..., budget: int = ...,
               time_limit: float = ...) -> Tuple[int, List[Tuple[int, int]], int]: ...
def threats_after(pos: Position, color: int, x: int, y: int) -> List[Tuple[int, Tuple[int, ...]]]: ...
