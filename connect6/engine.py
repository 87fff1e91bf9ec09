"""The engine facade: search a Board, get a SearchResult."""
from __future__ import annotations

import dataclasses
import threading
from typing import Optional, Tuple

from connect6._core import position as _position
from connect6.board import Board
from connect6.notation import Move
from connect6.weights import WeightsLike, resolve_weights

try:
    from engine_core import search as _search
except ImportError as exc:  # pragma: no cover
    raise ImportError(f"connect6: the compiled search module is missing ({exc}); run `pip install .`") from exc

SCANS = ("global", "local", "incremental")
DEFAULT_SCAN = "incremental"
MAX_DEPTH = _search.MAX_DEPTH
WIN_SCORE = _search.WIN
#: a score within this many turns of WIN_SCORE is a forced six (threat-space lines can be long)
FORCED_MARGIN = 1000

#: Named engine configurations.  "paper" is Li et al. (2015) exactly: Table 1
#: weights, local scanning, depth 3, width 10, radius 2, nothing else.
_PLAIN = dict(threats=False, tss_plies=0, tss_depth=10, tss_budget=20000, tss_root_budget=200000,
              tss_leaf_budget=0, defend=False, tt_bits=0, killers=False, aspiration=0)

PROFILES = {
    "paper": dict(depth=3, width=10, scan="local", radius=2, weights="paper", **_PLAIN),
    "plain": dict(depth=3, width=10, scan=DEFAULT_SCAN, radius=2, weights="paper", **_PLAIN),
    "default": dict(_PLAIN, depth=4, width=12, scan=DEFAULT_SCAN, radius=2, weights="paper", threats=True,
                    tss_plies=3, tss_depth=10, tss_budget=1000, tss_root_budget=100000, defend=True,
                    tt_bits=20, killers=True, aspiration=0),
}


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What a search found.  ``score`` is from the side to move's point of view;
    ``pv`` starts with ``move``; ``depth`` is the deepest finished iteration;
    ``nodes`` counts alpha-beta nodes, ``tss_nodes`` threat-space nodes.
    When the defence check replaces the searched move (the opponent would
    still win by VCDT after it), ``pv`` is the new move alone and ``score``
    stays the search's value of the position."""

    move: Move
    score: int
    pv: Tuple[Move, ...]
    depth: int
    nodes: int
    leaves: int
    time_s: float
    tss_nodes: int = 0          #: nodes of the threat-space (VCDT) searches

    @property
    def win_in(self) -> Optional[int]:
        """Turns to a forced six: positive when the side to move wins, negative
        when it loses, None when the search saw no forced result."""
        if self.score >= WIN_SCORE - FORCED_MARGIN:
            return WIN_SCORE - self.score
        if self.score <= -(WIN_SCORE - FORCED_MARGIN):
            return -(WIN_SCORE + self.score)
        return None

    @property
    def score_text(self) -> str:
        """The score for people: ``"+140"``, ``"win in 3"`` or ``"loss in 2"`` (turns)."""
        w = self.win_in
        if w is None:
            return f"{self.score:+d}"
        return f"win in {w}" if w > 0 else f"loss in {-w}"

    @property
    def nps(self) -> float:
        """Alpha-beta and threat-space nodes per second."""
        total = self.nodes + self.tss_nodes
        return total / self.time_s if self.time_s > 0 else float("inf")


def _pair_to_move(pair) -> Move:
    a, b = pair
    return Move((a,)) if b < 0 else Move((a, b))


def _positive_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, not {value!r}")
    return value


class Engine:
    """A Connect6 engine.

    >>> import connect6
    >>> board = connect6.Board("j10")
    >>> engine = connect6.Engine(depth=2, width=6)
    >>> result = engine.search(board)
    >>> board.is_legal(result.move)
    True

    ``profile`` picks a named configuration ("paper", "default"); any argument
    given explicitly overrides it.  ``weights`` evaluate positions;
    ``order_weights`` (default: the same) score the move pairs that are kept
    at each node.  With a time limit and no explicit depth the
    search deepens until the time is spent.
    """

    def __init__(self, depth: Optional[int] = None, width: Optional[int] = None,
                 scan: Optional[str] = None, radius: Optional[int] = None,
                 weights: Optional[WeightsLike] = None, profile: Optional[str] = None,
                 order_weights: Optional[WeightsLike] = None, **options):
        name = "default" if profile is None else profile
        if name not in PROFILES:
            raise ValueError(f"unknown profile {profile!r}: expected one of {', '.join(PROFILES)}")
        base = PROFILES[name]
        self.profile = name
        self._explicit_depth = depth is not None
        self.depth = _positive_int("depth", base["depth"] if depth is None else depth)
        if self.depth > MAX_DEPTH:
            raise ValueError(f"depth must be at most {MAX_DEPTH}, not {self.depth}")
        self.width = _positive_int("width", base["width"] if width is None else width)
        self.radius = _positive_int("radius", base["radius"] if radius is None else radius)
        self.scan = base["scan"] if scan is None else scan
        if self.scan not in SCANS:
            raise ValueError(f"unknown scan {self.scan!r}: expected one of {', '.join(SCANS)}")
        self.weights = resolve_weights(base["weights"] if weights is None else weights)
        order = base.get("order_weights") if order_weights is None else order_weights
        self.order_weights = self.weights if order is None else resolve_weights(order)
        unknown = set(options) - set(_PLAIN)
        if unknown:
            raise ValueError(f"unknown engine option(s) {', '.join(sorted(unknown))}: "
                             f"expected {', '.join(sorted(_PLAIN))}")
        self.options = {k: options.get(k, base[k]) for k in _PLAIN}
        self._context = None
        self._lock = threading.Lock()

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_context"] = None        # C tables are not pickled: rebuilt on first use
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def new_game(self) -> None:
        """Forget what earlier searches learnt (the tables kept between timed searches)."""
        with self._lock:
            if self._context is not None:
                self._context.clear()

    def __repr__(self) -> str:
        return (f"Engine(depth={self.depth}, width={self.width}, scan={self.scan!r}, "
                f"radius={self.radius}, profile={self.profile!r})")

    def search(self, board: Board, depth: Optional[int] = None, width: Optional[int] = None,
               time: Optional[float] = None) -> SearchResult:
        """Search ``board`` for the side to move.

        ``depth`` (turns) and ``width`` override the engine's for this call.
        ``time`` (seconds) turns on iterative deepening; the move of the
        deepest finished iteration is returned, and depth 1 always finishes.
        Timed searches keep their tables from one call to the next (call
        :meth:`new_game` between games); fixed-depth searches start afresh
        and are reproducible.
        """
        if not isinstance(board, Board):
            raise TypeError(f"search needs a connect6.Board, not {type(board).__name__}")
        if board.is_game_over():
            raise ValueError(f"the game is over ({board.outcome().result()}): nothing to search")
        if board.unfinished_turn:
            raise ValueError("the turn is half made (push_stone): finish it before searching")
        if depth is None:
            depth = self.depth if (time is None or self._explicit_depth) else MAX_DEPTH
        depth = _positive_int("depth", depth)
        if depth > MAX_DEPTH:
            raise ValueError(f"depth must be at most {MAX_DEPTH}, not {depth}")
        width = self.width if width is None else _positive_int("width", width)
        if time is not None:
            try:
                time = float(time)
            except (TypeError, ValueError):
                raise ValueError(f"time must be a number of seconds, not {time!r}") from None
            if not time > 0:
                raise ValueError(f"time must be > 0 seconds, not {time}")
        pos = board.position
        if board.weights != self.weights or self.order_weights != self.weights:
            pos = pos.copy()
            pos.set_weights(*self.weights)
            if self.order_weights != self.weights:
                pos.set_order_weights(*self.order_weights)
        with self._lock:
            if self._context is None:
                self._context = _search.SearchContext()
            # timed play keeps the tables from move to move; a fixed-depth
            # search starts empty, so it is reproducible
            raw = _search.search(pos, depth, width, self.radius, _position.scan_code(self.scan),
                                 time or 0.0, time is not None, context=self._context,
                                 keep_tables=time is not None, **self.options)
        return SearchResult(
            move=_pair_to_move(raw["move"]),
            score=raw["score"],
            pv=tuple(_pair_to_move(p) for p in raw["pv"]),
            depth=raw["depth"],
            nodes=raw["nodes"],
            leaves=raw["leaves"],
            time_s=raw["time_s"],
            tss_nodes=raw["tss_nodes"],
        )

    def play(self, board: Board, time: Optional[float] = None) -> Move:
        """The move to play (see :meth:`search`)."""
        return self.search(board, time=time).move
