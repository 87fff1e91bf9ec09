"""Type stubs of engine_core.shape (the shape terms of the leaf evaluation)."""
from engine_core.position import Position

def count_three_lines(pos: Position, color: int) -> int: ...
