"""Type stubs of engine_core.movegen (candidates and width-limited pairs)."""
from typing import List, Optional, Sequence, Tuple

from engine_core.position import Position

def candidates(pos: Position, radius: int = ...) -> List[int]: ...
def best_moves(pos: Position, width: int = ..., radius: int = ..., scan: int = ...,
               side: Optional[int] = ...) -> List[Tuple[int, int, int]]: ...
def pairs_with(pos: Position, stones: Sequence[int], width: int = ..., radius: int = ...,
               side: Optional[int] = ...) -> List[Tuple[int, int, int]]: ...
