"""The engine facade: search a Board, get a SearchResult; :func:`make_engine`, the one way front ends build an engine."""
from __future__ import annotations

import atexit
import contextlib
import dataclasses
import math
import queue
import signal
import threading
import weakref
from time import perf_counter as _now
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Tuple, Union

from connect6._core import search as _search
from connect6._core import tss as _tss
from connect6.board import Board
from connect6.notation import Move
from connect6.options import (EngineOptions, Limits, check_table_memory, move_budget, parse_engine_spec,
                              profile_of, spec_text)
from connect6.options import profile as options_profile
from connect6.result import (FORCED_MARGIN, WIN_SCORE, Info, SearchResult, forced_loss, forced_win, score_text,
                              win_in)
from connect6.version import __version__, shipped_signature
from connect6.weights import Vector, WeightsLike

if TYPE_CHECKING:
    from connect6.book import OpeningBook
    from engine_core.position import Position
    from engine_core.search import CoreResult, SearchContext

Pair = Tuple[int, int]
#: the compiled search's report after each iteration: depth, score, line, nodes, threat-space nodes, seconds
Report = Callable[[int, int, List[Pair], int, int, float], None]

__all__ = ["Engine", "Analysis", "SearchResult", "Info", "make_engine", "search_depth", "score_text", "win_in",
           "MAX_DEPTH", "WIN_SCORE", "FORCED_MARGIN"]

MAX_DEPTH = _search.MAX_DEPTH
#: the share of a move's limit that must be left for a second search (``lost_width``, ``claim_zone``)
LOST_SHARE = 0.2
DEFAULT_SCAN = "incremental"
#: the check of a book move: the opponent's VCDT after it, in attacker turns and nodes
BOOK_VCDT_DEPTH = 12
BOOK_VCDT_BUDGET = 20_000


def _pair_to_move(pair: Pair) -> Move:
    a, b = pair
    return Move((a,)) if b < 0 else Move((a, b))


def _result(raw: "CoreResult") -> SearchResult:
    """The compiled search's CoreResult as a SearchResult."""
    return SearchResult(move=_pair_to_move(raw.move), score=raw.score, pv=tuple(_pair_to_move(p) for p in raw.pv),
                        depth=raw.depth, nodes=raw.nodes, leaves=raw.leaves, time_s=raw.time_s,
                        tss_nodes=raw.tss_nodes, refuted=raw.refuted, source=raw.source)


def _vcdt_after(after: "Position", depth: int, budget: int, seconds: Optional[float]) -> Tuple[int, int]:
    """Whether the side to move in ``after`` (the opponent of the side whose
    move made it) wins by VCDT, within ``budget`` nodes and ``seconds`` (None:
    no clock): (1 win, 0 none, -1 undecided; the solver's nodes).  A finished
    game: (0, 0)."""
    if after.is_over():
        return 0, 0
    result, _, nodes = _tss.solve_vcdt(after, depth, budget, seconds or 0.0)
    return result, nodes


def _combined(kept: SearchResult, first: "CoreResult", second: "CoreResult", solver_nodes: int) -> SearchResult:
    """The move of ``kept``, counting the time and nodes of both searches and
    of a solver check."""
    return dataclasses.replace(kept, nodes=first.nodes + second.nodes, leaves=first.leaves + second.leaves,
                               tss_nodes=first.tss_nodes + second.tss_nodes + solver_nodes,
                               time_s=first.time_s + second.time_s)


def _info(depth: int, score: int, pv: List[Pair], nodes: int, tss_nodes: int, seconds: float) -> Info:
    return Info(depth, score, tuple(_pair_to_move(p) for p in pv), nodes, tss_nodes, seconds)


def _reporter(info: Callable[[Info], None]) -> Report:
    """The compiled search's report callback that hands ``info`` an :class:`Info`."""
    def report(depth: int, score: int, pv: List[Pair], nodes: int, tss_nodes: int, seconds: float) -> None:
        info(_info(depth, score, pv, nodes, tss_nodes, seconds))
    return report


class Engine:
    """A Connect6 engine.

    >>> import connect6
    >>> board = connect6.Board("j10")
    >>> engine = connect6.Engine(depth=2, width=6)
    >>> result = engine.search(board)
    >>> board.is_legal(result.move)
    True

    ``profile`` picks a named configuration (``connect6.options.PROFILES``:
    "paper", "plain", "default"); any option given explicitly overrides it,
    and ``options=`` takes a whole :class:`~connect6.options.EngineOptions`.
    ``weights`` evaluate positions; ``order_weights`` (default: the same)
    score the move pairs that are kept at each node.  ``depth`` is a limit,
    not an option: it goes to ``limits`` (a :class:`~connect6.options.Limits`
    applied to every search unless the call gives its own), and caps every
    search; with a time limit and no depth the search deepens until the time
    is spent, without either it searches the profile's depth.  Front ends
    build engines with :func:`make_engine`.
    """

    def __init__(self, depth: Optional[int] = None, width: Optional[int] = None,
                 scan: Optional[str] = None, radius: Optional[int] = None,
                 weights: Optional[WeightsLike] = None, profile: Optional[str] = None,
                 order_weights: Optional[WeightsLike] = None, *, options: Optional[EngineOptions] = None,
                 limits: Optional[Limits] = None, **more: Any):
        if options is not None and not isinstance(options, EngineOptions):
            raise TypeError(f"options must be connect6.options.EngineOptions, not {type(options).__name__}")
        if limits is not None and not isinstance(limits, Limits):
            raise TypeError(f"limits must be connect6.options.Limits, not {type(limits).__name__}")
        changes = dict(width=width, scan=scan, radius=radius, weights=weights, order_weights=order_weights, **more)
        changes = {k: v for k, v in changes.items() if v is not None}
        if profile is None:
            profile = "default" if options is None else profile_of(options)
        base = options if options is not None else options_profile(profile)
        self.options: EngineOptions = base.replace(**changes) if changes else base
        self.profile = profile
        #: limits applied to every search unless the call gives its own
        self.limits = (limits or Limits()).merged(Limits(depth=depth))
        self._context: Optional["SearchContext"] = None
        self._helpers: List["SearchContext"] = []
        self._init_locks()
        self._book = _load_book(self.options.book)

    def _init_locks(self) -> None:
        self._lock = threading.Lock()   # held by the search running on the tables
        self._owner: Optional[int] = None       # the thread holding _lock
        self._guard = threading.Lock()  # orders a stop against the start and end of an analysis's search
        self._stoppable: Optional["Analysis"] = None    # the analysis whose search holds the tables
        self._analyses: "weakref.WeakSet[Analysis]" = weakref.WeakSet()    # started, for stop()
        self._tt_bits_checked: Optional[int] = None     # the table size check_table_memory last passed

    @contextlib.contextmanager
    def _held(self, what: str) -> Iterator[None]:
        """The engine's lock, for ``what``; a call from inside this engine's
        own ``info`` callback (the search holding the lock, in the same
        thread) is a RuntimeError instead of a deadlock."""
        if self._owner == threading.get_ident():
            raise RuntimeError(f"{what} was called from this engine's info callback while its search runs: "
                               "call it after the search returns, or use another Engine")
        with self._lock:
            self._owner = threading.get_ident()
            try:
                yield
            finally:
                self._owner = None

    @property
    def depth(self) -> int:
        """The depth a search without a time limit goes to: the limit's, else the profile's."""
        return self.limits.depth if self.limits.depth is not None else self.options.depth

    # the options most often read, by name
    @property
    def width(self) -> int:
        return self.options.width

    @property
    def radius(self) -> int:
        return self.options.radius

    @property
    def scan(self) -> str:
        return self.options.scan

    @property
    def weights(self) -> Tuple[Vector, Vector]:
        return self.options.weight_vectors

    @property
    def order_weights(self) -> Tuple[Vector, Vector]:
        return self.options.order_vectors

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_context"] = None        # C tables are not pickled: rebuilt on first use
        state["_helpers"] = []
        state["_book"] = None           # nor the book: read again from its file
        state["_tt_bits_checked"] = None    # another machine has other memory: checked again there
        for name in ("_lock", "_owner", "_guard", "_stoppable", "_analyses"):
            del state[name]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._init_locks()
        self._book = _load_book(self.options.book)

    def new_game(self) -> None:
        """Forget what earlier searches learnt (the tables kept between timed searches)."""
        with self._held("new_game"):
            for context in [self._context, *self._helpers]:
                if context is not None:
                    context.clear()

    @property
    def name(self) -> str:
        """Which engine this is, exactly enough to tell builds and settings apart in
        game records: ``connect6-VERSION PROFILE[:key=value,...] (bench N)``, the
        options that differ from the profile, and the bench signature shipped with
        this build: the node count ``connect6 bench`` checks, which changes with
        the search (Stockfish's bench number)."""
        return (f"connect6-{__version__} {spec_text(self.options, self.profile, self.limits)} "
                f"(bench {shipped_signature()})")

    def __repr__(self) -> str:
        return (f"Engine(depth={self.depth}, width={self.width}, scan={self.scan!r}, "
                f"radius={self.radius}, profile={self.profile!r})")

    def _limits(self, depth: Optional[int], width: Optional[int], time: Optional[float],
                limits: Optional[Limits]) -> Tuple[Limits, EngineOptions]:
        if limits is not None and not isinstance(limits, Limits):
            raise TypeError(f"limits must be connect6.options.Limits, not {type(limits).__name__}")
        call = Limits(depth=depth, time=time).merged(limits)
        options = self.options if width is None else self.options.replace(width=width)
        return self.limits.merged(call), options

    def _prepare(self, board: Board) -> "Position":
        if not isinstance(board, Board):
            raise TypeError(f"search needs a connect6.Board, not {type(board).__name__}")
        outcome = board.outcome()
        if outcome is not None:
            raise ValueError(f"the game is over ({outcome.result()}): nothing to search")
        if board.unfinished_turn:
            raise ValueError("the turn is half made (push_stone): finish it before searching")
        pos = board.position
        weights, order = self.options.weight_vectors, self.options.order_vectors
        if board.weights != weights or order != weights:
            pos = pos.copy()
            pos.set_weights(*weights)
            if order != weights:
                pos.set_order_weights(*order)
        return pos

    def _run(self, pos: "Position", options: EngineOptions, limits: Limits, stoppable: bool = False,
             report: Optional[Report] = None,
             started: Optional[Callable[["SearchContext"], None]] = None,
             finished: Optional[Callable[[], None]] = None) -> "CoreResult":
        time = move_budget(limits.time, limits.clock)
        depth = search_depth(options, Limits(limits.depth, time, nodes=limits.nodes))
        with self._held("search"):
            if options.tt_bits != self._tt_bits_checked:
                check_table_memory(options.tt_bits)
                self._tt_bits_checked = options.tt_bits
            if self._context is None:
                self._context = _search.SearchContext()
            # helper threads (options.threads - 1), each with tables of its own but the main one's
            # transposition table; kept, like the main context, from search to search
            del self._helpers[options.threads - 1:]
            self._helpers += [_search.SearchContext() for _ in range(options.threads - 1 - len(self._helpers))]
            if started is not None:
                started(self._context)
            context, helpers = self._context, self._helpers
            try:
                with _running(context):
                    # timed play keeps the tables from move to move; a fixed-depth or
                    # node-limited search starts empty, so it is reproducible (with one thread)
                    def run() -> "CoreResult":
                        return _search.search(pos, options.core_fields(), depth, time or 0.0, False, context,
                                              keep_tables=time is not None, stoppable=stoppable, report=report,
                                              helpers=helpers, nodes=limits.nodes or 0)
                    if report is not None or not _ctrl_c_waits(depth, time, limits.nodes):
                        return run()
                    return self._interruptible(run, context)
            finally:
                if finished is not None:
                    finished()          # still holding the tables: no other search has started

    def _interruptible(self, run: Callable[[], "CoreResult"], context: "SearchContext") -> "CoreResult":
        """``run()`` (the compiled search, which sees no signals) in a thread while
        this, the main thread, waits for it: Ctrl-C then raises KeyboardInterrupt
        here at once.  The search is abandoned (it ends at its next node, a
        fixed depth's single iteration too: it used to run on for minutes
        beside the next search) and its tables given up (the next search
        starts fresh ones).  The tables are given up unless the thread
        has ended: one interrupted while it was being started has not yet
        begun to search on them, but will (it used to be judged not alive,
        and the next search shared its tables with it: a crash)."""
        results: List["CoreResult"] = []
        errors: List[BaseException] = []
        ended, cancelled = threading.Event(), threading.Event()

        def work() -> None:
            try:
                if not cancelled.is_set():      # interrupted before it began: do not begin
                    results.append(run())
            except BaseException as exc:  # handed back below
                errors.append(exc)
            finally:
                ended.set()

        worker = threading.Thread(target=work, daemon=True, name="connect6-search")
        try:
            worker.start()
            worker.join()
        except BaseException:               # Ctrl-C, or whatever else a signal handler raised
            cancelled.set()
            context.abandon()
            if not ended.is_set():          # searching on them, or about to: these tables are no longer ours
                self._context, self._helpers = None, []
            raise
        if errors:
            raise errors[0]
        return results[0]

    def search(self, board: Board, depth: Optional[int] = None, width: Optional[int] = None,
               time: Optional[float] = None, *, limits: Optional[Limits] = None,
               info: Optional[Callable[[Info], None]] = None) -> SearchResult:
        """Search ``board`` for the side to move.

        ``depth`` (turns), ``width`` and ``time`` (seconds for the move), or
        ``limits`` (a :class:`~connect6.options.Limits`, also with a game
        ``clock``: the move gets :func:`~connect6.options.move_time` of it,
        within ``time`` if both are set), override the engine's for this call.  With a time the
        search deepens iteratively; the move of the deepest finished
        iteration is returned, and depth 1 always finishes.  Timed searches
        keep their tables from one call to the next (call :meth:`new_game`
        between games); fixed-depth searches start afresh and are
        reproducible.  ``info`` is called with an :class:`Info` after every
        finished iteration (in the searching thread).  An endless search, or
        one to stop from another thread, is :meth:`analysis`.
        """
        limits, options = self._limits(depth, width, time, limits)
        pos = self._prepare(board)
        if self._book is not None:
            found = self._book_move(board, move_budget(limits.time, limits.clock))
            if found is not None:
                return found
        report = None if info is None else _reporter(info)
        raw = self._run(pos, options, limits, report=report)
        again = self._search_again(pos, options, limits, raw, report)
        return _result(raw) if again is None else again

    def _search_again(self, pos: "Position", options: EngineOptions, limits: Limits, raw: "CoreResult",
                      report: Optional[Report]) -> Optional[SearchResult]:
        """A second search for the rest of the move's limit, when the first
        ended on a forced result with at least ``LOST_SHARE`` of its limit
        left (a timed or node-limited search; never a fixed depth, never in
        :meth:`analysis`).  Its tables are emptied first: the first search's
        entries would cut the second off with the same forced values.  Either
        way the result counts the time and nodes of both searches, and
        ``info`` hears the iterations of both.  None: no second search.

        * ``lost_width``: every root pair lost by force (the search's move,
          or the defence check's resisting one, source "resist"): searched
          again with the wider list (:meth:`_search_wider`).
        * ``claim_zone``: a forced win of the width-limited tree (source
          "search"; a win the solver proved is source "solver"): the claim
          is checked (:meth:`_check_claim`)."""
        if options.lost_width > options.width and forced_loss(raw.score) and raw.source in ("search", "resist"):
            check = self._search_wider
        elif options.claim_zone > 0 and forced_win(raw.score) and raw.source == "search":
            check = self._check_claim
        else:
            return None
        time = move_budget(limits.time, limits.clock)
        if time is None and limits.nodes is None:
            return None                 # a fixed depth: no limit left over
        left: Optional[float] = None
        left_nodes: Optional[int] = None
        if time is not None:            # with both limits, both hold for the rest (the first reached stops it)
            left = time - raw.time_s
            if left < LOST_SHARE * time:
                return None
        if limits.nodes is not None:
            left_nodes = limits.nodes - raw.nodes - raw.tss_nodes
            if left_nodes < LOST_SHARE * limits.nodes:
                return None
        return check(pos, options, Limits(depth=limits.depth, time=left, nodes=left_nodes), raw, report)

    def _search_wider(self, pos: "Position", options: EngineOptions, rest: Limits, raw: "CoreResult",
                      report: Optional[Report]) -> SearchResult:
        """The ``lost_width`` option: the width-limited search can miss a
        defence that a wider one sees.  The wider search's move is played
        unless it finds every pair lost too, plays the same move, or the
        solver (``tss_root_budget`` nodes) finds the opponent a VCDT after
        it; then the narrow, deeper search's move (the longest resistance)
        and value stay.  The check gets a tenth of the time or nodes left,
        kept back from the wider search, so the move stays within its limit."""
        check_time, budget = None, options.tss_root_budget
        if rest.time is not None:
            check_time = rest.time / 10
            rest = dataclasses.replace(rest, time=rest.time - check_time)
        if rest.nodes is not None:
            check_nodes = max(1, rest.nodes // 10)
            budget = check_nodes if budget <= 0 else min(budget, check_nodes)
            rest = dataclasses.replace(rest, nodes=max(1, rest.nodes - check_nodes))
        self.new_game()
        wide = self._run(pos, options.replace(width=options.lost_width), rest, report=report)
        kept, checked = raw, 0
        if not forced_loss(wide.score) and set(wide.move) != set(raw.move):
            after = pos.copy()
            after.push_move(*[c for c in wide.move if c >= 0])
            refuted, checked = _vcdt_after(after, options.tss_depth, budget, check_time)
            kept = wide if refuted != 1 else raw
        return _combined(_result(kept), raw, wide, checked)

    def _check_claim(self, pos: "Position", options: EngineOptions, rest: Limits, raw: "CoreResult",
                     report: Optional[Report]) -> SearchResult:
        """The ``claim_zone`` option.  A forced win of the width-limited tree
        is not a proof: typically a quiet root pair after which each of the
        opponent's best ``width`` replies loses to the mover's VCDT, while a
        reply outside them, on that VCDT's line, holds; or a root four whose
        lone block's best partners by score all lose while a partner on the
        mover's next VCDT line holds.  (Wins the solver proves at the root
        are source "solver" and not checked.)  The position is searched
        again for the rest with ``reply_zone`` = ``claim_zone``, where the
        opponent's replies after a quiet root pair also take the pairs
        against the mover's threat and its counter-threats, and, with
        ``block_partners`` or ``claim_partners`` (this search only), with
        ``defend_plies`` at least 2, where its lone block of a root four is
        also paired with each cell of the VCDT line the mover would have
        after it and with its counter-fours; that search's move is played."""
        self.new_game()
        checking = options.replace(reply_zone=options.claim_zone)
        if options.block_partners or options.claim_partners:
            checking = checking.replace(block_partners=True, defend_plies=max(options.defend_plies, 2))
        again = self._run(pos, checking, rest, report=report)
        return _combined(_result(again), raw, again, 0)

    def _book_move(self, board: Board, time: Optional[float]) -> Optional[SearchResult]:
        """The opening book's move, unless the solver finds the opponent a
        forced win after it (within a small budget and a tenth of the move's time)."""
        start = _now()
        if self._book is None:
            return None
        entry = self._book.probe(board)
        if entry is None:
            return None
        after = board.copy()
        after.push(entry.move)
        result, nodes = _vcdt_after(after.position, BOOK_VCDT_DEPTH, BOOK_VCDT_BUDGET,
                                    None if time is None else time / 10)
        if result != 0:
            return None                 # a forced loss (or not ruled out): search instead
        return SearchResult(move=entry.move, score=entry.score or 0, pv=(entry.move,), depth=0, nodes=0,
                            leaves=0, time_s=_now() - start, tss_nodes=nodes, book=True, source="book")

    def analysis(self, board: Board, depth: Optional[int] = None, time: Optional[float] = None, *,
                 limits: Optional[Limits] = None) -> "Analysis":
        """Start a search (never a book move) in a background thread and return its handle: iterate
        it for an :class:`Info` after every finished iteration, call
        ``stop()`` (from any thread) to end it, ``wait()`` for the
        :class:`SearchResult`.  With neither depth nor time (or
        ``time=float("inf")``) it runs until stopped or until the result is
        forced.

        >>> import connect6
        >>> with connect6.Engine(profile="plain").analysis(connect6.Board("j10"), depth=2) as handle:
        ...     depths = [info.depth for info in handle]
        >>> depths, handle.wait().depth
        ([1, 2], 2)
        """
        if limits is not None and not isinstance(limits, Limits):
            raise TypeError(f"limits must be connect6.options.Limits, not {type(limits).__name__}")
        if (time is not None and not isinstance(time, bool) and isinstance(time, float) and math.isinf(time)
                and time > 0):
            time = None
        call = Limits(depth=depth, time=time).merged(limits)
        if call.depth is None and call.time is None and call.clock is None and call.nodes is None:
            call = dataclasses.replace(call, depth=MAX_DEPTH)
        limits_, options = self._limits(None, None, None, call)
        # a copy: the caller may play on while the search waits for the engine
        pos = self._prepare(board).copy()
        return Analysis(self, pos, options, limits_)

    def stop(self) -> None:
        """End every analysis of this engine, running or waiting for the engine
        (thread-safe, returns at once): each ends with the best move it has
        found.  The way to end an endless analysis whose handle was dropped,
        which would otherwise hold the engine for ever.  A ``search()`` is not
        touched."""
        for handle in list(self._analyses):
            handle.stop()

    def play(self, board: Board, time: Optional[float] = None) -> Move:
        """The move to play (see :meth:`search`)."""
        return self.search(board, time=time).move


def make_engine(spec: Union[str, EngineOptions, None] = None, limits: Optional[Limits] = None, *,
                profile: Optional[str] = None, **changes: Any) -> Engine:
    """The one function that builds engines for the front ends (the command
    line, the engine server, the match players, the web board, the
    Gymnasium opponent, the bench scripts).

    ``spec`` is a player spec text (``"default:time=1,width=14"``, ``"paper"``,
    ``"local:depth=3"``; see :func:`connect6.options.parse_engine_spec`), or
    :class:`~connect6.options.EngineOptions` (named after ``profile``, else
    after the profile they differ least from), or None: the ``profile`` (by
    default "default").  ``limits`` apply to every search, over the spec's own
    (``depth``, ``time``, ``nodes``).  ``changes`` are option changes, checked; a None
    value is left out (so command-line flags that were not given pass through),
    and ``depth``/``time``/``nodes`` among them are limits.

    >>> make_engine("paper:width=8").name.split()[1]
    'paper:width=8'
    >>> make_engine("default", depth=2).depth
    2
    """
    given = {k: v for k, v in changes.items() if v is not None}
    call = Limits(depth=given.pop("depth", None), time=given.pop("time", None), nodes=given.pop("nodes", None))
    if isinstance(spec, str):
        if profile is not None:
            raise ValueError("give the profile in the spec text, not as profile=")
        profile, options, spec_limits = parse_engine_spec(spec)
    elif spec is None or isinstance(spec, EngineOptions):
        options = spec if spec is not None else options_profile("default" if profile is None else profile)
        spec_limits = Limits()
    else:
        raise TypeError(f"an engine spec is a spec text or EngineOptions, not {type(spec).__name__}")
    if given:
        options = options.replace(**given)
    return Engine(options=options, profile=profile, limits=spec_limits.merged(limits).merged(call))


def _load_book(spec: Union[bool, str]) -> Optional["OpeningBook"]:
    """The book an engine's ``book`` option names (None: no book)."""
    if spec is False:
        return None
    from connect6.book import default_book
    try:
        return default_book(None if spec is True else spec)
    except OSError as exc:              # a missing or unreadable file: a bad option value, like any other
        raise ValueError(f"book: {exc.strerror or exc}") from None


def _ctrl_c_waits(depth: int, time: Optional[float], nodes: Optional[int]) -> bool:
    """Whether a search could keep Ctrl-C waiting: in the main thread, with Python's
    own SIGINT handler, and not one of the tiny fixed-depth searches (depth 1 or 2),
    which end before a person notices (and are what learning code calls in loops)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    return time is not None or bool(nodes) or depth > 2


#: The searches running now, in any thread, and a condition notified as each ends.
_RUNNING: List["SearchContext"] = []
_RUNNING_CHANGED = threading.Condition()
#: The longest the interpreter's exit waits for running searches to end once asked to stop.
EXIT_WAIT_S = 2.0


@contextlib.contextmanager
def _running(context: "SearchContext") -> Iterator[None]:
    with _RUNNING_CHANGED:
        _RUNNING.append(context)
    try:
        yield
    finally:
        with _RUNNING_CHANGED:
            _RUNNING.remove(context)
            _RUNNING_CHANGED.notify_all()


@atexit.register
def _stop_searches_at_exit() -> None:
    """As the interpreter exits, a search may still run in a daemon thread (an
    analysis never stopped): its next report would take the GIL of an interpreter
    being torn down and crash the process.  Reports end here, every running
    search is asked to stop, and the exit waits a little for them to return."""
    _search.close_reports()
    with _RUNNING_CHANGED:
        for context in _RUNNING:
            context.request_stop()
        _RUNNING_CHANGED.wait_for(lambda: not _RUNNING, timeout=EXIT_WAIT_S)


def search_depth(options: EngineOptions, limits: Limits) -> int:
    """The deepest iteration: the limit's depth, else the options' depth for a
    fixed-depth search, else as deep as the core goes (a timed or node-limited search)."""
    if limits.depth is not None:
        return limits.depth
    return options.depth if limits.time is None and limits.nodes is None else MAX_DEPTH


class Analysis:
    """A running search (see :meth:`Engine.analysis`): iterate it for
    :class:`Info` records, ``stop()`` it, ``wait()`` for its result."""

    _DONE = object()

    def __init__(self, engine: Engine, pos: "Position", options: EngineOptions, limits: Limits):
        self._engine = engine
        self._queue: "queue.Queue[Any]" = queue.Queue()
        self._result: Optional[SearchResult] = None
        self._error: Optional[BaseException] = None
        self._stopped = False           # stop() was called
        engine._analyses.add(self)
        self._thread = threading.Thread(target=self._work, args=(pos, options, limits), daemon=True,
                                        name="connect6-analysis")
        self._thread.start()

    def _started(self, context: "SearchContext") -> None:
        """Under the engine's lock, just before this search starts: a stop
        requested before (or aimed at an earlier search) is settled here."""
        with self._engine._guard:
            context.clear_stop()
            self._engine._stoppable = self
            if self._stopped:
                context.request_stop()

    def _finished(self) -> None:
        """Under the engine's lock, as this search ends: a stop() from now on
        cannot reach the next search of the engine."""
        with self._engine._guard:
            self._engine._stoppable = None

    def _report(self, depth: int, score: int, pv: List[Pair], nodes: int, tss_nodes: int, seconds: float) -> None:
        self._queue.put(_info(depth, score, pv, nodes, tss_nodes, seconds))

    def _work(self, pos: "Position", options: EngineOptions, limits: Limits) -> None:
        try:
            self._result = _result(self._engine._run(pos, options, limits, stoppable=True, report=self._report,
                                                     started=self._started, finished=self._finished))
        except BaseException as exc:  # handed to the caller by wait()
            self._error = exc
        finally:
            self._queue.put(self._DONE)

    def __iter__(self) -> Iterator[Info]:
        while True:
            item = self._queue.get()
            if item is self._DONE:
                self._queue.put(self._DONE)        # later iterations end at once too
                return
            yield item

    def stop(self) -> None:
        """End this search soon (thread-safe; another search of the same engine
        is not touched); :meth:`wait` then gives the best move so far."""
        with self._engine._guard:
            self._stopped = True
            context = self._engine._context
            if self._engine._stoppable is self and context is not None:
                context.request_stop()

    def wait(self, timeout: Optional[float] = None) -> SearchResult:
        """The result, once the search has ended (TimeoutError if not within ``timeout``)."""
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError("the analysis is still running")
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def __enter__(self) -> "Analysis":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self._thread.join()
