"""Type stubs of engine_core.search (the compiled alpha-beta)."""
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from engine_core.position import Position

WIN: int
FORCED: int
MAX_DEPTH: int
MAX_THREADS: int

Pair = Tuple[int, int]
#: (a, b, value, depth, refuted: True/False/None when unjudged, refuting reply or None)
RootMove = Tuple[int, int, int, int, Optional[bool], Optional[Pair]]
SOURCES: Dict[int, str]

class CoreResult:
    move: Pair
    score: int
    pv: List[Pair]
    depth: int
    nodes: int
    leaves: int
    tss_nodes: int
    pairs_scored: int
    time_s: float
    refuted: bool
    source: str
    root_moves: List[RootMove]

class SearchContext:
    def __init__(self) -> None: ...
    def clear(self) -> None: ...
    def request_stop(self) -> None: ...
    def abandon(self) -> None: ...
    def clear_stop(self) -> None: ...
    @property
    def nodes(self) -> int: ...

def close_reports() -> None: ...
def search(pos: Position, options: Mapping[str, int], depth: int, time: float = ..., iterative: bool = ...,
           context: Optional[SearchContext] = ..., keep_tables: bool = ..., stoppable: bool = ...,
           report: Optional[Callable[[int, int, List[Pair], int, int, float], None]] = ...,
           helpers: Sequence[SearchContext] = ..., nodes: int = ...) -> CoreResult: ...
def reply_refuted(pos: Position, options: Mapping[str, int], a: int, b: int) -> int: ...
