"""One game of a match: the job that describes it, the clock, and :func:`play_game`."""
from __future__ import annotations

import dataclasses
import datetime
import math
import random
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Protocol, Tuple, TypeVar

from connect6.match.cluster import released_task_probe
from connect6.match.players import Forfeit, PlayerSpec, open_player
from connect6.notation import IllegalMoveError, InvalidMoveError, Move
from connect6.options import CLOCK_SHARE, MIN_MOVE_TIME, move_budget
from connect6.records import parse_stone_list, replay
from connect6.sentences import outcome_reason

__all__ = ["GameJob", "play_game", "CLOCK_SHARE", "MIN_BUDGET"]

#: the least time a move is asked to take under --game-time (connect6.options.MIN_MOVE_TIME)
MIN_BUDGET = MIN_MOVE_TIME


class StatusQueue(Protocol):
    """Where a game reports how it stands (``put_nowait`` is used when it has one)."""

    def put(self, item: Dict[str, Any]) -> None: ...


class StopSignal(Protocol):
    """What the driver sets to abandon a game."""

    def is_set(self) -> bool: ...


@dataclasses.dataclass(frozen=True)
class GameJob:
    """One game to play: picklable, with its own seed.

    ``game`` and ``pair`` are 1-based.  ``opening`` is a stone list.
    ``move_time``: seconds per move; ``game_time``: each side's clock for
    the game; ``time_margin``: lateness tolerated before a loss on time;
    ``hang_timeout``: without any time control, how long an external engine
    or bot may take for one move.  A player's own settings
    (:class:`PlayerSpec` ``move_time``, ``game_time``, ``hang``) take
    precedence over these.
    """

    game: int
    pair: int
    a: PlayerSpec
    b: PlayerSpec
    a_black: bool
    opening: str
    seed: int
    move_time: Optional[float] = None
    game_time: Optional[float] = None
    time_margin: float = 0.25
    hang_timeout: float = 60.0
    startup_timeout: float = 20.0
    cwd: Optional[str] = None
    #: where the game reports its progress after every turn (a queue with ``put_nowait`` or
    #: ``put``: a multiprocessing manager's or a Dask queue), or None; not part of the game
    status: Optional[StatusQueue] = dataclasses.field(default=None, compare=False, repr=False)
    #: an event (``is_set()``: threading's, a multiprocessing manager's or Dask's) the driver sets
    #: to abandon the game (an SPRT decision, Ctrl-C on a cluster): the move being thought about
    #: is cut short (:class:`_StopWatch`) and the game ends, not counted
    stop: Optional[StopSignal] = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def black(self) -> PlayerSpec:
        return self.a if self.a_black else self.b

    @property
    def white(self) -> PlayerSpec:
        return self.b if self.a_black else self.a

    @property
    def slots(self) -> int:
        """The cores the game needs: its hungrier player's ``slots``."""
        return max(self.a.slots, self.b.slots)

    def limits_of(self, spec: PlayerSpec) -> Tuple[Optional[float], Optional[float], float]:
        """(seconds per move, game clock, hang timeout) of a player: its own, else the match's."""
        return (_pick(spec.move_time, self.move_time), _pick(spec.game_time, self.game_time),
                _pick(spec.hang, self.hang_timeout))


_T = TypeVar("_T")


def _pick(own: Optional[_T], common: _T) -> _T:
    """A player's own setting, else the match's."""
    return own if own is not None else common


def _seed_everything(seed: int) -> None:
    random.seed(seed)
    try:
        import numpy as np
        np.random.seed(seed % 2 ** 32)
    except ImportError:  # pragma: no cover
        pass


def _budget(per_move: Optional[float], remaining: Optional[float]) -> Tuple[Optional[float], Optional[float]]:
    """(the time a side is asked to spend, the limit after which it loses), without the margin."""
    limits = [t for t in (per_move, None if remaining is None else max(remaining, 0.0)) if t is not None]
    return move_budget(per_move, remaining), (min(limits) if limits else None)


def play_game(job: GameJob) -> Optional[Dict[str, Any]]:
    """Play one game and return its record (the JSONL line), or None when the
    driver abandoned it (``job.stop`` was set before it ended).

    Fields: ``game``, ``pair``, ``seed``, ``a``/``b`` (the players' texts),
    ``black``/``white`` (labels), ``a_color``, ``names`` (what each colour's
    engine called itself), ``opening`` (stone list), ``moves`` (every turn
    including the opening, Little Golem notation), ``times`` (seconds per
    turn, null for the opening's turns), ``evals`` (per turn, what an
    in-process engine's search reported for the move it played: ``score``
    for the side that moved, ``depth``, ``nodes``, ``tss_nodes``, and
    ``book`` when the move came from its opening book, ``refuted`` when the
    reply check expected a forced loss after it (SearchResult.refuted), ``source``
    when the move did not come from the finished search (SearchResult.to_record); null for the
    opening's turns and for players that report nothing), ``clock`` (remaining game time per
    colour when a clock is used), ``result`` (``black``/``white``/``draw``),
    ``winner`` (``a``/``b``/null), ``termination`` (``six``, ``board_full``,
    ``time`` (a late move), ``timeout`` (no move within the time control),
    ``stall`` (no move within the hang timeout, without a time control),
    ``crash`` (the player died or could not start), ``illegal``,
    ``malformed``, ``protocol``; the runner's board decides ``six`` and
    ``board_full`` whatever an engine says), ``reason`` (a sentence), ``loser_move`` (the offending
    reply when a move was rejected), ``started`` and ``duration_s``.
    """
    _seed_everything(job.seed)
    released = released_task_probe()       # on a Dask worker; None elsewhere
    if _stopped(job, released):
        return None            # abandoned before it started (this also binds a Dask event to this thread)
    game = _Game(job)
    watch = None if job.stop is None and released is None else _StopWatch(job.stop, released, game)
    aborted = True  # until the game ends normally: players are then killed, not asked to quit
    try:
        if game.open_players():
            while game.result is None:
                if _stopped(job, released):
                    return None        # the players are told to quit, then killed
                game.report()
                game.play_turn()
        aborted = False
    finally:
        abandoned = watch is not None and watch.close()
        game.close_players(aborted or abandoned)
    return None if abandoned else game.record()


#: seconds between a stop watch's looks at the stop event of its game
STOP_POLL_S = 0.5


class _StopWatch:
    """A thread that abandons ``game`` as soon as ``stop`` is set, or, on a
    Dask worker, as soon as the scheduler lets go of the game's task
    (``released``: the driver died, even by kill -9, or cancelled it), so
    that a game abandoned on a cluster's worker or a thread (Ctrl-C, an SPRT
    decision, a dead driver) leaves no engine running there: an external
    engine is killed in the middle of its move, the wait for a Python bot's
    move ends, and a built-in engine's search ends at its own limit with no
    other after it.  The game is then not counted.  A stop event that cannot
    be reached, off a Dask worker, leaves the game to finish."""

    def __init__(self, stop: Optional[StopSignal], released: Optional[Callable[[], bool]],
                 game: "_Game") -> None:
        self._over = threading.Event()
        self._lock = threading.Lock()
        self._fired = False
        threading.Thread(target=self._watch, args=(stop, released, game),
                         name=f"connect6-stop-watch {game.job.game}", daemon=True).start()

    def _watch(self, stop: Optional[StopSignal], released: Optional[Callable[[], bool]],
               game: "_Game") -> None:
        # a look every STOP_POLL_S, not a long wait on the event: a Dask event's wait stays pending
        # on the scheduler, and closing a local cluster cancels it with an ERROR traceback in the log
        while True:
            if stop is not None:
                try:
                    if stop.is_set():
                        break
                except Exception:  # the driver went away: only a released task can stop the game now
                    stop = None
            if _probe(released):
                break
            if stop is None and released is None:  # nothing left to watch: the game finishes
                return
            if self._over.wait(STOP_POLL_S):
                return
        with self._lock:
            if self._over.is_set():
                return
            self._fired = True
        game.abandon()

    def close(self) -> bool:
        """The game is over: stop watching; True when the stop came first (the game was abandoned)."""
        with self._lock:
            self._over.set()
            return self._fired


def _signal_set(stop: Optional[StopSignal]) -> bool:
    """Whether the driver has set the stop event (one it cannot reach counts as not)."""
    if stop is None:
        return False
    try:
        return bool(stop.is_set())
    except Exception:  # the driver went away: only a released task stops the game then
        return False


def _probe(released: Optional[Callable[[], bool]]) -> bool:
    """Whether the Dask scheduler has let go of the game's task (False off a worker, or if it cannot tell)."""
    if released is None:
        return False
    try:
        return released()
    except Exception:  # pragma: no cover - a worker's state that cannot be read: play on
        return False


def _stopped(job: GameJob, released: Optional[Callable[[], bool]] = None) -> bool:
    """Whether the driver has abandoned the game: its stop event is set, or on
    a Dask worker the scheduler has let go of the game's task."""
    return _signal_set(job.stop) or _probe(released)


class _Game:
    """The state of one game being played: board, times, clock, players, result."""

    def __init__(self, job: GameJob):
        self.job = job
        self.started = datetime.datetime.now(datetime.timezone.utc)
        self.t_start = time.monotonic()
        self.board = replay(parse_stone_list(job.opening))
        self.moves = [str(m) for m in self.board.move_stack]
        self.times: List[Optional[float]] = [None] * len(self.moves)
        self.evals: List[Optional[Dict[str, Any]]] = [None] * len(self.moves)
        self.specs = {"black": job.black, "white": job.white}
        self.names: Dict[str, str] = {}
        self.limits = {color: job.limits_of(spec) for color, spec in self.specs.items()}
        self.clock: Optional[Dict[str, float]] = None
        if any(limits[1] is not None for limits in self.limits.values()):
            self.clock = {color: (math.inf if limits[1] is None else float(limits[1]))
                          for color, limits in self.limits.items()}
        self.players: Dict[str, Any] = {}
        self._engines: List[Any] = []      # every external engine started, from before its name is known
        self._abandoned = False
        self._abandon_lock = threading.Lock()
        self.result: Optional[str] = None
        self.termination: Optional[str] = None
        self.reason: Optional[str] = None
        self.loser_move: Optional[str] = None

    def open_players(self) -> bool:
        """Start both players; False (and the game lost) when one cannot start."""
        job = self.job
        for color in ("black", "white"):
            try:
                self.players[color] = open_player(self.specs[color], job.cwd, job.time_margin, job.startup_timeout,
                                                  started=self._started)
                self.names[color] = self.players[color].name
            except Forfeit as exc:
                self.result = "white" if color == "black" else "black"
                self.termination, self.reason = exc.termination, f"{color} ({self.specs[color].label}) {exc}"
                return False
        return True

    def report(self) -> None:
        """Tell ``job.status`` how the game stands (turns played, side to move, clocks);
        a status that cannot be sent is dropped, never a reason to stop the game."""
        if self.job.status is None:
            return
        status = {"game": self.job.game, "black": self.specs["black"].label, "white": self.specs["white"].label,
                  "turns": len(self.moves), "to_move": str(self.board.turn), "moves": [str(m) for m in self.moves],
                  "clock": None if self.clock is None else {
                      k: (None if math.isinf(v) else round(v, 1)) for k, v in self.clock.items()}}
        try:
            put: Callable[[Dict[str, Any]], None] = getattr(self.job.status, "put_nowait", None) or self.job.status.put
            put(status)
        except Exception:  # pragma: no cover - a display must not cost a game
            pass

    def play_turn(self) -> None:
        """Ask the side to move for its turn and play it; sets the result when the game ends."""
        outcome = self.board.outcome()
        if outcome is not None:
            self.result, self.termination = outcome.result(), outcome.termination.value
            self.reason = outcome_reason(outcome)
            return
        color = str(self.board.turn)
        t0 = time.monotonic()
        try:
            move, elapsed = self._timed_move(color, t0)
        except Forfeit as exc:
            elapsed = time.monotonic() - t0
            if self.clock is not None:
                self.clock[color] -= elapsed
            self.result = "white" if color == "black" else "black"
            self.termination = exc.termination
            self.reason = f"{color} ({self.specs[color].label}) loses: {exc}"
            self.loser_move = exc.move
            self.times.append(round(elapsed, 4))
            return
        if self.clock is not None:
            self.clock[color] -= elapsed
        self.moves.append(str(move))
        self.times.append(round(elapsed, 4))
        self.evals.append(getattr(self.players[color], "last_eval", None))

    def _timed_move(self, color: str, t0: float) -> Tuple[Move, float]:
        """The move of ``color`` within its time, pushed on the board (Forfeit if not); the
        caller takes the time from the clock, whether the move stands or forfeits."""
        job = self.job
        move_time, _, hang = self.limits[color]
        remaining = None if self.clock is None or math.isinf(self.clock[color]) else self.clock[color]
        budget, limit = _budget(move_time, remaining)
        stall = limit is None and self.specs[color].kind != "engine"
        if stall:
            limit = hang
        try:
            move = self.players[color].play(self.board.copy(), budget, limit)
        except Forfeit as exc:
            if stall and exc.termination == "timeout":  # no time control: it hangs, it is not slow
                raise Forfeit("stall", f"no move within the hang timeout of {hang:g} s ({exc})") from exc
            raise
        elapsed = time.monotonic() - t0
        if limit is not None and elapsed > limit + job.time_margin:
            what = "its clock" if self.clock is not None and self.clock[color] - elapsed < -job.time_margin else \
                f"the {limit:g} s limit"
            if stall:
                raise Forfeit("stall", f"took {elapsed:.2f} s, over the hang timeout of {hang:g} s", move=str(move))
            raise Forfeit("time", f"took {elapsed:.2f} s, over {what} (+{job.time_margin:g} s margin)",
                          move=str(move))
        try:
            self.board.push(move)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise Forfeit("illegal", f"illegal move {move}: {exc}", move=str(move)) from None
        return move, elapsed

    def _started(self, engine: Any) -> None:
        """An external engine's process runs (it is asked its name next): one
        abandoned meanwhile is killed, not left to start (that can take long)."""
        with self._abandon_lock:
            if not self._abandoned:
                self._engines.append(engine)
                return
        engine.kill()

    def abandon(self) -> None:
        """From another thread: cut short the move each player may be thinking
        about, and the start of an external engine."""
        with self._abandon_lock:
            self._abandoned = True
            engines, players = list(self._engines), list(self.players.values())
        for engine in engines:            # its player, once open, kills it again: no harm
            engine.kill()
        for player in players:
            try:
                player.abandon()
            except Exception:  # pragma: no cover - the game ends anyway
                pass

    def close_players(self, aborted: bool) -> None:
        for player in self.players.values():
            try:
                player.kill() if aborted else player.close()
            except Exception:  # pragma: no cover - closing must not lose the result
                pass

    def record(self) -> Dict[str, Any]:
        job = self.job
        record: Dict[str, Any] = {
            "game": job.game, "pair": job.pair, "seed": job.seed, "a": job.a.text, "b": job.b.text,
            "black": job.black.label, "white": job.white.label, "a_color": "black" if job.a_black else "white",
            "names": dict(self.names), "opening": job.opening,
        }
        winner = None if self.result == "draw" else ("a" if (self.result == "black") == job.a_black else "b")
        record.update({
            "moves": self.moves, "times": self.times, "evals": self.evals, "result": self.result, "winner": winner,
            "termination": self.termination, "reason": self.reason, "loser_move": self.loser_move,
            "clock": None if self.clock is None else {k: (None if math.isinf(v) else round(v, 3))
                                                      for k, v in self.clock.items()},
            "started": self.started.isoformat(timespec="seconds"),
            "duration_s": round(time.monotonic() - self.t_start, 3),
        })
        if len(self.times) > len(self.moves):  # the forfeited turn has a time but no move
            record["times"] = self.times[:len(self.moves)]
            record["forfeit_time"] = self.times[len(self.moves)]
        return record
