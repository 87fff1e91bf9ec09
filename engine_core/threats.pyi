"""Type stubs of engine_core.threats (threat roads, blocking)."""
from typing import List, Tuple

from engine_core.position import Position

def threats(pos: Position, color: int) -> List[Tuple[int, Tuple[int, ...]]]: ...
def blocking(pos: Position, color: int) -> Tuple[int, List[Tuple[int, int]]]: ...
