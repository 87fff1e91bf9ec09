"""Type stubs of engine_core.tss (threat-space search)."""
from typing import List, Optional, Tuple

from engine_core.position import Position

def solve_vct(pos: Position, depth: int = ..., fours: int = ..., budget: int = ...,
              time_limit: float = ...) -> Tuple[int, List[Tuple[int, int]], int]: ...
def solve_forced(pos: Position, depth: int = ..., fours: int = ...,
                 budget: int = ...) -> Tuple[Optional[str], List[Tuple[int, int]], bool]: ...
def solve_vcdt(pos: Position, depth: int = ..., budget: int = ...,
               time_limit: float = ...) -> Tuple[int, List[Tuple[int, int]], int]: ...
