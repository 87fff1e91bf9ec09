"""Running a match: its configuration, the schedule of games, and the executor that plays them.

A match between players A and B is played in colour-swapped **pairs**: both
games of a pair start from the same opening, A has Black in the first and
White in the second.  Each game is a picklable, seeded
:class:`~connect6.match.game.GameJob` played by
:func:`~connect6.match.game.play_game` on a ``concurrent.futures.Executor``:
a ``ProcessPoolExecutor`` by default, or any executor passed to
:meth:`Match.run` whose ``submit`` returns ``concurrent.futures.Future``
objects (a ``ThreadPoolExecutor``, a Dask client's ``get_executor()``, ...).
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import json
import math
import os
import queue
import random
import threading
import time
from types import FrameType
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, NoReturn, Optional, Protocol, Union

if TYPE_CHECKING:
    from multiprocessing.managers import SyncManager

from connect6.match.game import GameJob, play_game
from connect6.match.players import PlayerSpec, time_control
from connect6.match.pool import UNWIND_S, manager_init, mp_context, new_pool, stop_workers
from connect6.match.progress import Progress, make_progress
from connect6.match.stats import MatchStats, SprtParams, compute_stats
from connect6.match.store import (
    FORMAT, RUNNING_FILE, ResultsDir, ResultsWriteError, interrupts_held, keep_record, write_file_atomic,
)
from connect6.options import check_seconds
from connect6.records import random_openings

__all__ = ["MatchConfig", "Match", "stop_on_sigterm"]


@dataclasses.dataclass
class MatchConfig:
    """Everything that defines a match (stored as ``match.json`` beside the results)."""

    a: PlayerSpec
    b: PlayerSpec
    games: int = 2
    openings: Optional[List[str]] = None     #: None: random 3-turn openings from the seed
    opening_order: str = "sequential"         #: or "random" (shuffled with the seed)
    move_time: Optional[float] = None
    game_time: Optional[float] = None
    time_margin: float = 0.25
    hang_timeout: float = 60.0
    seed: Optional[int] = None
    sprt: Optional[SprtParams] = None
    cwd: Optional[str] = None

    def __post_init__(self) -> None:
        check_schedule(self)
        if self.a.label == self.b.label:  # self-play: tell the two apart in results
            self.a = self.a.with_label(f"{self.a.label} (A)")
            self.b = self.b.with_label(f"{self.b.label} (B)")


class ScheduleSettings(Protocol):
    """What a match's and a tournament's settings share (checked by :func:`check_schedule`)."""

    games: int
    move_time: Optional[float]
    game_time: Optional[float]
    time_margin: float
    hang_timeout: float
    opening_order: str
    openings: Optional[List[str]]
    seed: Optional[int]


#: the most games a match or tournament schedules (at 8 000 games an hour, 125 hours)
MAX_GAMES = 1_000_000


def check_schedule(config: ScheduleSettings) -> None:
    """The settings a match and a tournament share: games, time controls, opening order."""
    if config.games < 1:
        raise ValueError(f"--games must be at least 1, not {config.games}")
    if config.games > MAX_GAMES:        # the schedule is made up front: 10**12 games would never start
        raise ValueError(f"--games must be at most {MAX_GAMES:,}, not {config.games:,}")
    for name in ("move_time", "game_time"):
        v = getattr(config, name)
        if v is not None and not (math.isfinite(v) and v > 0):
            raise ValueError(f"{name.replace('_', '-')} must be > 0 seconds, not {v}")
    check_seconds("hang_timeout", config.hang_timeout)          # -5: every game a stall
    check_seconds("time_margin", config.time_margin, allow_zero=True)     # nan: no move ever late
    if config.opening_order not in ("sequential", "random"):
        raise ValueError(f"opening order must be sequential or random, not {config.opening_order!r}")


def _cores() -> int:
    """The cores this process may run on (CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Match:
    """A match: a schedule of :class:`GameJob` and the results so far.

    ``out`` is the results directory (``games.jsonl``, ``match.json``,
    ``sgf/``; see :mod:`connect6.match.store`); with ``resume`` the games
    already in ``games.jsonl`` are kept and not played again.  Without
    ``out`` nothing is written.  Nothing on disk changes until :meth:`run`.
    """

    def __init__(self, config: MatchConfig, out: Optional[str] = None, resume: bool = False):
        self.config = config
        self.out = out
        self.store = None if out is None else ResultsDir(out)
        self.records: Dict[int, Dict[str, Any]] = {}
        self.interrupted = False
        self.failures = 0
        self.sprt_stopped_at: Optional[int] = None
        stored = None
        if self.store is not None:
            if resume:
                stored = self._load(self.store)
            elif self.store.holds_games():
                raise ValueError(f"{out} already holds match results: use --resume to continue it, "
                                 "or another --out directory")
        if stored is not None:
            config.seed = stored["seed"]
            self.pair_openings = list(stored["pair_openings"])
        else:
            if config.seed is None:
                config.seed = random.SystemRandom().randrange(2 ** 31)
            self.pair_openings = []
        self._extend_openings((config.games + 1) // 2)

    def _load(self, store: ResultsDir) -> Optional[Dict[str, Any]]:
        """Read a match to resume (its stored configuration) and its games; changes nothing."""
        c = self.config
        stored = store.read_resumable_config()
        if stored is not None:
            self._check_resumable(stored)
        for r in store.read_games():
            if r["a"] != c.a.text or r["b"] != c.b.text:
                raise ValueError(f"{store.games_path}: game {r['game']} was {r['a']} vs {r['b']}, "
                                 f"not {c.a.text} vs {c.b.text}")
            self.records[int(r["game"])] = r
        if self.records and stored is None:
            raise ValueError(f"cannot resume: {store.config_path} is missing")
        return stored

    def _check_resumable(self, stored: Mapping[str, Any]) -> None:
        c = self.config
        check_unchanged(stored, {"a": c.a.text, "b": c.b.text, **resumed_settings(c),
                                 "sprt": None if c.sprt is None else dataclasses.asdict(c.sprt)}, "match")

    def _extend_openings(self, pairs: int) -> None:
        c = self.config
        extend_openings(self.pair_openings, pairs, c.openings, c.opening_order, c.seed)

    # ------------------------------------------------------------ schedule
    def job(self, game: int) -> GameJob:
        """The job of game number ``game`` (1-based; games 2k-1 and 2k are a pair)."""
        c = self.config
        pair = (game + 1) // 2
        return GameJob(
            game=game, pair=pair, a=c.a, b=c.b, a_black=(game % 2 == 1), opening=self.pair_openings[pair - 1],
            seed=job_seed(c.seed, game), move_time=c.move_time, game_time=c.game_time,
            time_margin=c.time_margin, hang_timeout=c.hang_timeout, cwd=c.cwd or os.getcwd())

    def time_controls(self) -> str:
        """The players' time controls in one line, flagged when they differ.

        >>> from connect6.match.players import parse_player
        >>> Match(MatchConfig(parse_player("default:time=1"), parse_player("paper"), seed=1)).time_controls()
        'time control: A 1 s/move, B depth 3 (mismatched)'
        """
        c = self.config
        a, b = (time_control(spec, c.move_time, c.game_time, c.hang_timeout) for spec in (c.a, c.b))
        if a == b:
            return f"time control: {a} (both)"
        return f"time control: A {a}, B {b} (mismatched)"

    def pending(self) -> List[int]:
        return [g for g in range(1, self.config.games + 1) if g not in self.records]

    def stats(self) -> MatchStats:
        return compute_stats(self.results(), self.config.sprt)

    def results(self) -> List[Dict[str, Any]]:
        return [self.records[g] for g in sorted(self.records) if g <= self.config.games]

    # ------------------------------------------------------------ output
    def config_data(self) -> Dict[str, Any]:
        """What ``match.json`` holds: enough to resume the match."""
        c = self.config
        return {
            "format": FORMAT, "a": c.a.text, "b": c.b.text, "games": c.games, "seed": c.seed,
            "move_time": c.move_time, "game_time": c.game_time, "time_margin": c.time_margin,
            "hang_timeout": c.hang_timeout, "opening_order": c.opening_order,
            "openings": "random" if c.openings is None else "file",
            "sprt": None if c.sprt is None else dataclasses.asdict(c.sprt),
            "pair_openings": self.pair_openings,
        }

    def _save(self, record: Dict[str, Any]) -> None:
        keep_record(self.records, self.store, record)

    # ------------------------------------------------------------ running
    def run(self, executor: Optional[concurrent.futures.Executor] = None, concurrency: Optional[int] = None,
            progress: Union[str, Progress] = "auto") -> MatchStats:
        """Play the pending games and return the statistics.

        ``executor``: where the games run: any ``concurrent.futures.Executor``
        whose ``submit`` returns ``concurrent.futures.Future`` objects (it is
        not shut down), or None for a ``ProcessPoolExecutor`` of
        ``concurrency`` workers (default: the number of cores), started
        afresh if a worker process dies.  At most ``concurrency`` games are
        in flight, so an SPRT decision or Ctrl-C wastes little.
        ``progress``: a kind for :func:`make_progress` or an object with
        ``update(record, stats)``, ``note(text)`` and ``close()``.
        """
        pending = self.pending()
        with opened_run(self, progress, self.config.games, len(self.results())) as reporter:
            if reporter is None:
                return self.stats()
            stats = self.stats()
            if stats.sprt is not None and stats.sprt.decision is not None:
                reporter.note("SPRT already decided: nothing to play")
                pending = []
            schedule = run_schedule(self, pending, executor, concurrency, reporter)
        self.failures = schedule.failures if schedule is not None else 0
        return self.stats()

    def _finished(self, record: Dict[str, Any], reporter: Progress) -> bool:
        """Keep a finished game; True when the SPRT has just decided (stop scheduling)."""
        self._save(record)
        stats = self.stats()
        reporter.update(record, stats)
        if self.sprt_stopped_at is None and stats.sprt is not None and stats.sprt.decision:
            self.sprt_stopped_at = stats.games
            return True
        return False


def resumed_settings(c: ScheduleSettings) -> Dict[str, Any]:
    """The settings of a match or tournament that a resume must not change (as
    ``match.json`` holds them): the games already played were played under them.
    The number of games may grow; the seed is checked only when given."""
    mine: Dict[str, Any] = {
        "move_time": c.move_time, "game_time": c.game_time, "time_margin": c.time_margin,
        "hang_timeout": c.hang_timeout, "opening_order": c.opening_order,
        "openings": "random" if c.openings is None else "file"}
    if c.seed is not None:
        mine["seed"] = c.seed
    return mine


def check_unchanged(stored: Mapping[str, Any], mine: Mapping[str, Any], kind: str) -> None:
    """ValueError naming the first setting of ``mine`` that differs from the stored one."""
    for key, value in mine.items():
        if stored.get(key) != value:
            raise ValueError(f"cannot resume: the stored {kind} has {key} = {stored.get(key)!r}, "
                             f"this command gives {value!r}")


def extend_openings(pair_openings: List[str], pairs: int, openings: Optional[List[str]], order: str,
                    seed: Optional[int]) -> None:
    """Extend ``pair_openings`` (the opening of each colour-swapped pair so far)
    to ``pairs`` openings: from ``openings`` in file order or shuffled with the
    seed (``order``), cycled; or random 3-turn openings from the seed (None)."""
    if len(pair_openings) >= pairs:
        return
    if openings is None:
        fresh = random_openings(pairs, seed)
        pair_openings.extend(fresh[len(pair_openings):])
        return
    ordered = list(openings)
    if order == "random":
        random.Random(f"order:{seed}").shuffle(ordered)
    while len(pair_openings) < pairs:
        pair_openings.append(ordered[len(pair_openings) % len(ordered)])


def job_seed(seed: Optional[int], game: int) -> int:
    """The seed of game number ``game`` of a schedule seeded with ``seed``."""
    return random.Random(f"{seed}:{game}").getrandbits(63)


@contextlib.contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """Within it, SIGTERM stops a match as Ctrl-C does: the finished games are
    kept, the running ones and their engines are stopped, ``run`` returns the
    results so far and the match's ``interrupted`` is set, so a script can
    still report them (``kill PID`` on a long gauntlet).  Outside the main
    thread, where signals cannot be caught, it changes nothing."""
    import signal

    def _interrupt(signum: int, frame: Optional[FrameType]) -> NoReturn:
        raise KeyboardInterrupt

    previous = None
    if hasattr(signal, "SIGTERM"):
        try:
            previous = signal.signal(signal.SIGTERM, _interrupt)
        except ValueError:  # not the main thread
            previous = None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


class ScheduleOwner(Protocol):
    """What :func:`opened_run` and :func:`run_schedule` need of a :class:`Match` or a tournament."""

    interrupted: bool

    @property
    def store(self) -> Optional[ResultsDir]: ...

    @property
    def sprt_stopped_at(self) -> Optional[int]: ...

    def config_data(self) -> Dict[str, Any]: ...

    def job(self, game: int) -> GameJob: ...

    def results(self) -> List[Dict[str, Any]]: ...

    def _finished(self, record: Dict[str, Any], reporter: Progress) -> bool: ...


@contextlib.contextmanager
def opened_run(owner: ScheduleOwner, progress: Union[str, Progress], total: int,
               done: int) -> Iterator[Optional[Progress]]:
    """While ``owner`` (a :class:`Match` or a tournament) plays its games: its
    results folder opened (and locked) and its progress reporter made
    (``progress`` as in :meth:`Match.run`, ``total`` games of which ``done``
    are finished); the reporter (made here or given) and the folder are
    closed at the end, whatever ends the run, a refusal to open the folder
    included.  None, with ``owner.interrupted`` set, when Ctrl-C or kill PID
    came first: no game has started, so there is nothing to stop."""
    reporter: Optional[Progress] = None if isinstance(progress, str) else progress
    try:
        try:
            if owner.store is not None:
                owner.store.open(owner.config_data())
            if isinstance(progress, str):
                reporter = make_progress(progress, total, done)
        except KeyboardInterrupt:
            owner.interrupted = True
            yield None
        else:
            yield reporter
    finally:
        try:
            if reporter is not None:
                reporter.close()      # a bar or live display gives the terminal back
        finally:
            if owner.store is not None:
                owner.store.close()   # the folder is free for another run


def run_schedule(owner: ScheduleOwner, pending: List[int], executor: Optional[concurrent.futures.Executor],
                 concurrency: Optional[int], reporter: Progress) -> Optional["_Schedule"]:
    """Play the games ``pending`` of ``owner`` (a :class:`Match` or a
    tournament: ``job(game)``, ``_finished(record, reporter)``,
    ``sprt_stopped_at``, ``results()``) on ``executor``; Ctrl-C sets
    ``owner.interrupted``.  Returns the finished schedule (``failures``), or
    None when interrupted before it started."""
    schedule = None
    try:
        default = getattr(executor, "slots", None) or _cores()   # a cluster's game slots, else our cores
        workers = min(max(1, concurrency or default), max(1, len(pending)))
        # a Ctrl-C or kill PID while the pool and its manager start waits until they
        # have started, so that they are stopped like any interrupted schedule's
        with interrupts_held():
            schedule = _Schedule(owner, executor, workers, reporter, pending)
        schedule.play()
    except KeyboardInterrupt:
        owner.interrupted = True
        if schedule is not None:
            schedule.interrupt()
    except ResultsWriteError:
        # a result could not be written (a full disk, a folder gone read-only): the games are
        # stopped as on Ctrl-C, those written are kept, and --resume plays the rest
        if schedule is not None:
            schedule.unwritable = True
            schedule.interrupt()
        raise
    finally:
        if schedule is not None:
            schedule.close()
    return schedule


class _Schedule:
    """The games of one :meth:`Match.run` in flight on an executor: at most
    ``workers`` at a time; a broken pool of our own is replaced."""

    def __init__(self, match: ScheduleOwner, executor: Optional[concurrent.futures.Executor], workers: int,
                 reporter: Progress, pending: List[int]) -> None:
        self.match, self.reporter, self.workers = match, reporter, workers
        self.queue = list(pending)
        self.own = executor is None and bool(pending)
        self.executor = new_pool(workers) if self.own else executor
        self.running: Dict[concurrent.futures.Future[Optional[Dict[str, Any]]], int] = {}
        # the executor each running game was given to: a broken pool is replaced once, and the
        # replaced one's other games, collected later, must not break its successor
        self.pool_of: Dict[concurrent.futures.Future[Optional[Dict[str, Any]]], concurrent.futures.Executor] = {}
        self.failures = 0
        self.broken = False
        self.unwritable = False      # a result could not be written: the rest are not kept
        self.manager: Optional[SyncManager] = None
        # the games in progress go to the display and to running.json in the results folder
        out = getattr(match, "out", None)
        self.running_path = None if out is None or getattr(match, "store", None) is None else \
            os.path.join(out, RUNNING_FILE)
        self.running_text: Optional[str] = None
        wanted = hasattr(reporter, "running") or self.running_path is not None
        self.channel = self._status_channel() if wanted and pending else None
        self.status: Dict[int, Dict[str, Any]] = {}
        # the event that abandons the running games: when the SPRT decides, and on Ctrl-C where the
        # games do not run in our own pool (whose workers are stopped with a signal)
        with_sprt = getattr(getattr(match, "config", None), "sprt", None) is not None
        self.stop = self._stop_event() if (with_sprt or not self.own) and pending else None

    def _manager(self) -> SyncManager:
        if self.manager is None:
            from multiprocessing.managers import SyncManager
            self.manager = SyncManager(ctx=mp_context())
            self.manager.start(manager_init)
        return self.manager

    def _shared(self, kind: str, for_threads: Any, executor_method: str) -> Any:
        """An object the games can reach from where they run: the manager's ``kind``
        for our own process pool, ``for_threads()`` for threads, the executor's own
        ``executor_method()`` (Dask), or None when the executor offers none."""
        if self.own:
            return getattr(self._manager(), kind)()
        if isinstance(self.executor, concurrent.futures.ThreadPoolExecutor):
            return for_threads()
        make = getattr(self.executor, executor_method, None)
        return make() if make is not None else None

    def _stop_event(self) -> Any:
        """The event that abandons the running games when the SPRT decides."""
        return self._shared("Event", threading.Event, "stop_event")

    def _status_channel(self) -> Any:
        """Where games report their progress for a live display (None: no way back)."""
        return self._shared("Queue", queue.Queue, "status_queue")

    def _pool(self) -> concurrent.futures.Executor:
        """The executor (there is one whenever games are pending)."""
        if self.executor is None:
            raise RuntimeError("this schedule has no executor: it had no games to play")
        return self.executor

    def _show_status(self) -> None:
        """Pass the latest status of every running game to the display."""
        channel = self.channel
        if channel is None:
            return
        try:
            if hasattr(channel, "get_nowait"):
                while True:
                    item = channel.get_nowait()
                    self.status[item["game"]] = item
            else:
                for item in channel.get(batch=True):
                    self.status[item["game"]] = item
        except queue.Empty:
            pass
        except Exception:  # pragma: no cover - a display must not stop a match
            return
        running = set(self.running.values())
        self.status = {g: v for g, v in self.status.items() if g in running}
        statuses = [self.status[g] for g in sorted(self.status)]
        self._write_running(statuses)
        show: Optional[Callable[[List[Dict[str, Any]]], None]] = getattr(self.reporter, "running", None)
        if show is not None:          # a display with running(statuses): see connect6.match.progress
            show(statuses)

    def _write_running(self, statuses: List[Dict[str, Any]]) -> None:
        """running.json: the running games' statuses (``moves`` included), when they changed."""
        if self.running_path is None:
            return
        text = json.dumps({"games": statuses})
        if text == self.running_text:
            return
        self.running_text = text
        try:
            write_file_atomic(self.running_path, json.dumps({"updated": time.time(), "games": statuses}))
        except OSError as exc:  # pragma: no cover - a display must not stop a match
            self.reporter.note(f"cannot write {self.running_path}: {exc}")
            self.running_path = None

    def play(self) -> None:
        while self.queue or self.running:
            if self.broken and self.own and self.queue and self.match.sprt_stopped_at is None:
                # a worker process died (a crash in compiled code, os._exit in a bot): start afresh
                self._pool().shutdown(wait=False, cancel_futures=True)
                self.executor = new_pool(self.workers)
                self.broken = False
            while (self.queue and len(self.running) < self.workers and self.match.sprt_stopped_at is None
                   and not self.broken):
                game = self.queue.pop(0)
                job = self.match.job(game)
                if self.channel is not None or self.stop is not None:
                    job = dataclasses.replace(job, status=self.channel, stop=self.stop)
                try:
                    # our pool forks its workers in the first submit: a Ctrl-C or kill PID
                    # waits until they are registered (and the game counted as running), or
                    # a worker forked but not yet known to the pool is never stopped and
                    # the interpreter's exit waits on it for ever
                    with interrupts_held():
                        future = self._pool().submit(play_game, job)
                        self.running[future], self.pool_of[future] = game, self._pool()
                except Exception as exc:  # a shut-down executor, a game no cluster worker can take
                    self.failures += 1
                    self.reporter.note(f"game {game} cannot be scheduled: {type(exc).__name__}: {exc}; "
                                       f"{len(self.queue)} more not played")
                    self.queue.clear()
            if not self.running:
                if self.queue and self.broken:
                    self.reporter.note(f"the executor is broken: {len(self.queue)} game(s) not played")
                break
            cancelled = [f for f in self.running if f.cancelled()]
            if cancelled:
                # a cancelled future counts as done for wait() only once its executor notices, and
                # an executor that drops the work (Dask's) never does: collect them here
                for future in cancelled:
                    self._collect(future)
                continue
            done, _ = concurrent.futures.wait(self.running, timeout=None if self.channel is None else 0.5,
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                self._collect(future)
            if self.channel is not None:
                self._show_status()

    def _collect(self, future: concurrent.futures.Future[Optional[Dict[str, Any]]]) -> None:
        game = self.running.pop(future)
        current = self.pool_of.pop(future, None) is self.executor
        if future.cancelled() and not current and self.match.sprt_stopped_at is None:
            self.queue.insert(0, game)      # cancelled with the broken pool it waited in: play it on the new one
            return
        if future.cancelled() or self.unwritable:   # stopped before it finished, or nowhere to keep it
            return
        # the game's exception is read, not raised: one that is not an Exception (a worker that
        # someone else's SIGTERM unwound with SystemExit) must not end the driver
        exc = future.exception()
        if isinstance(exc, concurrent.futures.BrokenExecutor):
            self.failures += 1
            self.broken = self.broken or current
            self.reporter.note(f"game {game} lost its worker process ({exc}); it is not counted and "
                               "will be replayed by --resume")
            return
        if exc is not None:  # a bug in the runner, or a worker stopped from outside: not a player's fault
            self.failures += 1
            if isinstance(exc, SystemExit) and self.own and current:
                self.broken = True      # our worker was told to end: a fresh pool retires it
            what = f"its worker was stopped (exit code {exc.code})" if isinstance(exc, SystemExit) else \
                f"{type(exc).__name__}: {exc}"
            self.reporter.note(f"game {game} failed: {what} (it will be replayed by --resume)")
            return
        record = future.result()
        if record is None:   # abandoned at our request (the SPRT decided): not a result
            return
        if self.match._finished(record, self.reporter):
            self.queue.clear()
            if self.running:
                # games not started yet are cancelled; running ones are abandoned (the stop event)
                # and are not counted; without the event they are finished.  (A Dask future never
                # says it is running, so "cancelled" cannot tell the two apart.)
                if self.stop is not None:
                    self.stop.set()
                unfinished = len(self.running)
                cancelled = [f for f in list(self.running) if f.cancel()]
                assert isinstance(self.match, Match)    # only a match has an SPRT
                stats = self.match.stats()
                decision = stats.sprt.decision if stats.sprt is not None else None
                self.reporter.note(f"SPRT decided ({decision}) after {stats.games} games; "
                                   + (f"{unfinished} unfinished game(s) stopped, not counted (one that ends "
                                      "before the stop reaches it is)" if self.stop is not None
                                      else f"{len(cancelled)} game(s) in flight cancelled; finishing "
                                      f"{unfinished - len(cancelled)} running game(s)"))

    def interrupt(self) -> None:
        """Ctrl-C: abandon the running games.  Our own workers are stopped at
        once; games on threads or a cluster's workers see the stop event, kill
        their external engines and end, and are waited for up to ``UNWIND_S``
        (a local cluster is closed next, which would cut that short), or until
        the executor says no game is running (``busy()``: a cluster with no
        worker, or games queued behind the stopped ones)."""
        if self.stop is not None:
            try:
                self.stop.set()
            except Exception:  # pragma: no cover - the manager may already have caught the Ctrl-C
                pass
        abandoned = len(self.running)
        if not self.own and self.stop is not None and self.running:
            finished = len(self.match.results())
            busy: Optional[Callable[[], bool]] = getattr(self.executor, "busy", None)
            deadline = time.monotonic() + UNWIND_S
            while self.running and time.monotonic() < deadline:
                # asked before the wait, so that a game the scheduler has seen end is collected in it
                idle = busy is not None and not busy()
                done, _ = concurrent.futures.wait(list(self.running), timeout=INTERRUPT_POLL_S)
                for future in done:
                    try:
                        self._collect(future)   # a game that ended meanwhile is kept, an abandoned one is not
                    except ResultsWriteError as exc:
                        self.unwritable = True
                        self.reporter.note(f"{exc}: the games still ending are not kept")
                if idle:
                    break
            abandoned -= len(self.match.results()) - finished
        for future in self.running:
            future.cancel()
        self.reporter.note(f"interrupted: {len(self.match.results())} games finished, {abandoned} "
                           "abandoned; continue with --resume")
        if self.own:
            stop_workers(self._pool())
            self.own = False

    def close(self) -> None:
        if self.running_path is not None and self.running_text is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.running_path)      # nothing runs any more
        if self.own:
            self._pool().shutdown(wait=True)
        if self.manager is not None:
            self.manager.shutdown()


#: seconds between the driver's checks, after a Ctrl-C, that games still run on the executor
INTERRUPT_POLL_S = 0.25
