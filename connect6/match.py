"""Engine-vs-engine matches: players, games, statistics, SPRT and the runner.

A match between players A and B is played in colour-swapped **pairs**: both
games of a pair start from the same opening, A has Black in the first and
White in the second.  Each game is a picklable, seeded :class:`GameJob`
played by :func:`play_game` in a ``concurrent.futures`` executor (a
``ProcessPoolExecutor`` by default; any executor can be passed in).

Players (see :func:`parse_player`):

* built-in engines: ``paper``, ``default:time=1``, ``local:depth=3,width=10``,
  ``global:depth=3,width=10,time=2`` -- a profile of
  ``connect6.engine.PROFILES`` or a scan of ``connect6.engine.SCANS`` (the
  paper's engine with that scanning method, as in its experiments), then options ``depth``, ``width``, ``time`` (seconds
  per move), ``radius``, ``scan``, ``profile``, ``weights`` and any other
  keyword of :class:`connect6.Engine` (``threats=false``, ...);
* external engines over the engine protocol: ``cmd:"./engine --flag"``;
* Python bots: ``py:package.module:function``, a callable taking a
  :class:`~connect6.Board` and returning a Move (or move text).  If it has a
  ``time_limit`` parameter it gets the move's time budget (or None).

A crash, timeout, illegal or malformed move loses that game for that side;
the reason is recorded and the match goes on.

Each finished game is one JSON line of ``games.jsonl`` (see
:func:`play_game` for the fields) and one Little Golem SGF file; the JSONL is
enough to resume a match and to recompute its summary.  A record is appended
in one write of a whole line, fsynced, so a crash tears at most the last line;
on resume a torn last line is set aside in ``games.jsonl.torn`` and its game
played again.
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import datetime
import importlib
import inspect
import json
import logging
import math
import os
import random
import shlex
import sys
import time
import traceback
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from connect6.board import Board
from connect6.notation import IllegalMoveError, InvalidMoveError, Move, cell_name
from connect6.records import RecordError, format_stone_list, parse_stone_list, replay, write_sgf

__all__ = [
    "PlayerSpec", "parse_player", "check_player", "GameJob", "play_game", "load_openings", "random_openings",
    "MatchConfig", "Match", "MatchStats", "SprtParams", "Sprt", "compute_stats", "elo_from_score",
    "score_from_elo", "los", "sprt_llr", "format_summary", "read_results",
]

GAMES_FILE = "games.jsonl"
#: Beside a results file: the bytes of torn last lines set aside on resume.
TORN_SUFFIX = ".torn"
CONFIG_FILE = "match.json"
SGF_DIR = "sgf"
#: A game's share of the remaining clock per move under --game-time.
CLOCK_SHARE = 20
MIN_BUDGET = 0.01
_INT_OPTIONS = ("depth", "width", "radius")
_TEXT_OPTIONS = ("scan", "profile")
#: Fields every line of games.jsonl has (the statistics read them).
_RECORD_KEYS = ("game", "pair", "a", "b", "result", "winner")
_log = logging.getLogger(__name__)


def _engine_module():
    from connect6 import engine  # the compiled search; imported where it is needed
    return engine


# ================================================================= players
@dataclasses.dataclass(frozen=True)
class PlayerSpec:
    """A player as given on the command line, parsed.

    ``kind`` is ``"engine"`` (built-in; ``options`` holds the Engine
    arguments and ``time``), ``"cmd"`` (``argv``) or ``"py"`` (``target``
    ``"module:function"``).  ``label`` names the player in results.
    """

    text: str
    kind: str
    label: str
    options: Tuple[Tuple[str, Any], ...] = ()
    argv: Tuple[str, ...] = ()
    target: str = ""

    def option(self, key: str, default=None):
        return dict(self.options).get(key, default)

    def with_label(self, label: str) -> "PlayerSpec":
        return dataclasses.replace(self, label=label)


def _strip_quotes(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def parse_player(text: str) -> PlayerSpec:
    """Parse a player given as text.

    >>> parse_player("local:depth=3,width=10").options
    (('profile', 'paper'), ('scan', 'local'), ('depth', 3), ('width', 10))
    >>> parse_player('cmd:"./engine --fast"').argv
    ('./engine', '--fast')
    >>> parse_player("py:mybots:greedy").target
    'mybots:greedy'
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("a player is needed: a profile or scan (paper, local:depth=3), cmd:\"...\" or py:module:function")
    text = text.strip()
    head, sep, rest = text.partition(":")
    if head == "cmd":
        command = _strip_quotes(rest)
        try:
            argv = tuple(shlex.split(command, posix=os.name == "posix"))
        except ValueError as exc:
            raise ValueError(f"player {text!r}: cannot split the command: {exc}") from None
        if not argv:
            raise ValueError(f"player {text!r}: cmd: needs a command, e.g. cmd:\"./engine --flag\"")
        return PlayerSpec(text, "cmd", text, argv=argv)
    if head == "py":
        target = rest.strip()
        module, colon, func = target.partition(":")
        if not colon or not module or not func or not all(p.isidentifier() for p in module.split(".") + func.split(".")):
            raise ValueError(f"player {text!r}: expected py:package.module:function")
        return PlayerSpec(text, "py", text, target=target)
    engine = _engine_module()
    options: Dict[str, Any] = {}
    if head in engine.SCANS:
        # the paper's engine with this scanning method (its experiments compare exactly these)
        options["profile"] = "paper"
        options["scan"] = head
    elif head in engine.PROFILES:
        options["profile"] = head
    else:
        raise ValueError(
            f"unknown player {text!r}: expected a profile ({', '.join(engine.PROFILES)}) or a scan "
            f"({', '.join(engine.SCANS)}) with options like :depth=3,width=10,time=1; cmd:\"...\"; "
            "or py:module:function")
    if sep and rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key or not value:
                raise ValueError(f"player {text!r}: options are key=value separated by commas, not {item!r}")
            if key in options and not (key == "scan" and head in engine.SCANS) and key != "profile":
                raise ValueError(f"player {text!r}: option {key} given twice")
            if key in _INT_OPTIONS:
                try:
                    options[key] = int(value)
                except ValueError:
                    raise ValueError(f"player {text!r}: {key} must be a whole number, not {value!r}") from None
            elif key == "time":
                try:
                    seconds = float(value)
                except ValueError:
                    seconds = float("nan")
                if not (math.isfinite(seconds) and seconds > 0):
                    raise ValueError(f"player {text!r}: time must be seconds > 0, not {value!r}")
                options[key] = seconds
            elif key in _TEXT_OPTIONS:
                options[key] = value
            elif key.isidentifier():
                options[key] = _literal(value)   # an engine option (threats=0, ...): Engine checks it
            else:
                raise ValueError(f"player {text!r}: {key!r} is not an option name")
    spec = PlayerSpec(text, "engine", text, options=tuple(options.items()))
    try:
        _make_engine(spec)  # validates the values (depth range, scan and profile names, engine options)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"player {text!r}: {exc}") from None
    return spec


def _literal(text: str):
    """``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"true"``/``"false"`` (or on/off, yes/no) -> bool, else the text."""
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _make_engine(spec: PlayerSpec):
    engine = _engine_module()
    kwargs = {k: v for k, v in spec.options if k != "time"}
    return engine.Engine(**kwargs)


def _resolve_callable(target: str, cwd: Optional[str] = None) -> Callable:
    module_name, _, attr = target.partition(":")
    base = os.path.abspath(cwd or os.getcwd())
    if base not in sys.path:
        sys.path.insert(0, base)  # like `python -m`: bots next to where the match is run
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:
        raise ValueError(f"py:{target}: cannot import {module_name}: {type(exc).__name__}: {exc}") from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"py:{target}: {module_name} has no {attr}") from None
    if not callable(obj):
        raise ValueError(f"py:{target}: {attr} is not callable")
    return obj


def check_player(spec: PlayerSpec, cwd: Optional[str] = None) -> None:
    """Fail early (ValueError) for a player that cannot work: a Python bot that
    does not import, an external command that is not there."""
    if spec.kind == "py":
        _resolve_callable(spec.target, cwd)
    elif spec.kind == "cmd":
        exe = spec.argv[0]
        if os.sep in exe or (os.altsep and os.altsep in exe):
            path = exe if os.path.isabs(exe) else os.path.join(cwd or os.getcwd(), exe)
            if not os.path.exists(path):
                raise ValueError(f"{spec.text}: {exe} does not exist")
        else:
            import shutil
            if shutil.which(exe) is None:
                raise ValueError(f"{spec.text}: {exe} is not on the PATH")


class _Forfeit(Exception):
    """The side to move loses: ``termination`` is the category, str(self) the reason."""

    def __init__(self, termination: str, reason: str, move: Optional[str] = None):
        super().__init__(reason)
        self.termination = termination
        self.move = move


class _EnginePlayer:
    def __init__(self, spec: PlayerSpec):
        self.engine = _make_engine(spec)
        self.time = spec.option("time")
        self.name = repr(self.engine)

    def play(self, board: Board, budget: Optional[float], hard_limit: Optional[float]) -> Move:
        limits = [t for t in (self.time, budget) if t is not None]
        t = min(limits) if limits else None
        try:
            return self.engine.search(board, time=t).move
        except Exception as exc:
            raise _Forfeit("crash", f"engine error: {type(exc).__name__}: {exc}") from exc

    def close(self) -> None:
        pass

    kill = close


class _ExternalPlayer:
    def __init__(self, spec: PlayerSpec, cwd: Optional[str], margin: float, startup: float):
        from connect6.protocol import EngineError, ProtocolEngine
        self._errors = EngineError
        self.margin = margin
        try:
            self.engine = ProtocolEngine.popen(list(spec.argv), cwd=cwd, timeout=startup, grace=margin)
        except EngineError as exc:
            raise _Forfeit("crash", f"failed to start: {exc}") from exc
        self.name = self.engine.name

    def play(self, board: Board, budget: Optional[float], hard_limit: Optional[float]) -> Move:
        from connect6.protocol import EngineProtocolError, EngineTimeout
        limit = None if hard_limit is None else max(hard_limit - self.margin, 1e-3)
        try:
            return self.engine.play(board, time_limit=limit, grace=self.margin)
        except EngineTimeout as exc:
            raise _Forfeit("timeout", str(exc)) from exc
        except EngineProtocolError as exc:
            kind = exc.kind if exc.kind in ("illegal", "malformed") else "protocol"
            raise _Forfeit(kind, str(exc), move=exc.reply) from exc
        except self._errors as exc:
            raise _Forfeit("crash", str(exc)) from exc

    def close(self) -> None:
        self.engine.close()

    def kill(self) -> None:
        self.engine.kill()


class _PythonPlayer:
    def __init__(self, spec: PlayerSpec, cwd: Optional[str]):
        try:
            self.function = _resolve_callable(spec.target, cwd)
        except ValueError as exc:
            raise _Forfeit("crash", str(exc)) from exc
        self.name = spec.target
        try:
            params = inspect.signature(self.function).parameters
            self.pass_time = "time_limit" in params or any(
                p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values())
        except (TypeError, ValueError):
            self.pass_time = False

    def play(self, board: Board, budget: Optional[float], hard_limit: Optional[float]) -> Move:
        try:
            if self.pass_time:
                reply = self.function(board.copy(), time_limit=budget)
            else:
                reply = self.function(board.copy())
        except Exception as exc:
            tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
            raise _Forfeit("crash", f"the bot raised {tb}") from exc
        if isinstance(reply, Move):
            return reply
        if isinstance(reply, str):
            try:
                return Move.parse(reply)
            except (InvalidMoveError, IllegalMoveError) as exc:
                raise _Forfeit("malformed", f"malformed move {reply!r}: {exc}", move=reply) from None
        raise _Forfeit("malformed", f"the bot returned {reply!r} ({type(reply).__name__}), not a Move",
                       move=repr(reply)[:80])

    def close(self) -> None:
        pass

    kill = close


def _open_player(spec: PlayerSpec, job: "GameJob"):
    if spec.kind == "engine":
        try:
            return _EnginePlayer(spec)
        except Exception as exc:
            raise _Forfeit("crash", f"failed to start: {exc}") from exc
    if spec.kind == "cmd":
        return _ExternalPlayer(spec, job.cwd, job.time_margin, job.startup_timeout)
    if spec.kind == "py":
        return _PythonPlayer(spec, job.cwd)
    raise ValueError(f"unknown player kind {spec.kind!r}")


# ================================================================= games
@dataclasses.dataclass(frozen=True)
class GameJob:
    """One game to play: picklable, with its own seed.

    ``game`` and ``pair`` are 1-based.  ``opening`` is a stone list.
    ``move_time``: seconds per move; ``game_time``: each side's clock for
    the game; ``time_margin``: lateness tolerated before a loss on time;
    ``hang_timeout``: without any time control, how long an external engine
    or bot may take for one move.
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

    @property
    def black(self) -> PlayerSpec:
        return self.a if self.a_black else self.b

    @property
    def white(self) -> PlayerSpec:
        return self.b if self.a_black else self.a


def _seed_everything(seed: int) -> None:
    random.seed(seed)
    try:
        import numpy as np
        np.random.seed(seed % 2 ** 32)
    except ImportError:  # pragma: no cover
        pass


def _budget(job: GameJob, remaining: Optional[float]) -> Tuple[Optional[float], Optional[float]]:
    """(the time a side is asked to spend, the limit after which it loses), without the margin."""
    limits = []
    budget = None
    if job.move_time is not None:
        limits.append(job.move_time)
        budget = job.move_time
    if remaining is not None:
        limits.append(max(remaining, 0.0))
        share = max(remaining / CLOCK_SHARE, MIN_BUDGET)
        budget = share if budget is None else min(budget, share)
    return budget, (min(limits) if limits else None)


def play_game(job: GameJob) -> Dict[str, Any]:
    """Play one game and return its record (the JSONL line).

    Fields: ``game``, ``pair``, ``seed``, ``a``/``b`` (the players' texts),
    ``black``/``white`` (labels), ``a_color``, ``names`` (what each colour's
    engine called itself), ``opening`` (stone list), ``moves`` (every turn
    including the opening, Little Golem notation), ``times`` (seconds per
    turn, null for the opening's turns), ``clock`` (remaining game time per
    colour when a clock is used), ``result`` (``black``/``white``/``draw``),
    ``winner`` (``a``/``b``/null), ``termination`` (``six``, ``board_full``,
    ``time``, ``timeout``, ``crash``, ``illegal``, ``malformed``,
    ``protocol``), ``reason`` (a sentence), ``loser_move`` (the offending
    reply when a move was rejected), ``started`` and ``duration_s``.
    """
    _seed_everything(job.seed)
    started = datetime.datetime.now(datetime.timezone.utc)
    t_start = time.monotonic()
    board = replay(parse_stone_list(job.opening))
    moves = [str(m) for m in board.move_stack]
    times: List[Optional[float]] = [None] * len(moves)
    specs = {"black": job.black, "white": job.white}
    record: Dict[str, Any] = {
        "game": job.game, "pair": job.pair, "seed": job.seed, "a": job.a.text, "b": job.b.text,
        "black": job.black.label, "white": job.white.label, "a_color": "black" if job.a_black else "white",
        "names": {}, "opening": job.opening,
    }
    clock: Optional[Dict[str, float]] = None
    if job.game_time is not None:
        clock = {"black": float(job.game_time), "white": float(job.game_time)}
    players: Dict[str, Any] = {}
    result = termination = reason = loser_move = None
    aborted = True  # until the game ends normally: players are then killed, not asked to quit
    try:
        for color in ("black", "white"):
            try:
                players[color] = _open_player(specs[color], job)
                record["names"][color] = players[color].name
            except _Forfeit as exc:
                result = "white" if color == "black" else "black"
                termination, reason = exc.termination, f"{color} ({specs[color].label}) {exc}"
                break
        while result is None:
            outcome = board.outcome()
            if outcome is not None:
                result = outcome.result()
                termination = outcome.termination.value
                if outcome.winner is None:
                    reason = "draw: the board is full"
                else:
                    reason = f"{result} made six in a row: " + " ".join(cell_name(c) for c in outcome.line)
                break
            color = str(board.turn)
            other = "white" if color == "black" else "black"
            remaining = None if clock is None else clock[color]
            budget, limit = _budget(job, remaining)
            if limit is None and specs[color].kind != "engine":
                limit = job.hang_timeout
            t0 = time.monotonic()
            try:
                move = players[color].play(board.copy(), budget, limit)
                elapsed = time.monotonic() - t0
                if clock is not None:
                    clock[color] -= elapsed
                if limit is not None and elapsed > limit + job.time_margin:
                    what = "its clock" if clock is not None and clock[color] < -job.time_margin else \
                        f"the {limit:g} s limit"
                    raise _Forfeit("time", f"took {elapsed:.2f} s, over {what} (+{job.time_margin:g} s margin)",
                                   move=str(move))
                try:
                    board.push(move)
                except (InvalidMoveError, IllegalMoveError) as exc:
                    raise _Forfeit("illegal", f"illegal move {move}: {exc}", move=str(move)) from None
            except _Forfeit as exc:
                elapsed = time.monotonic() - t0
                if clock is not None and exc.termination != "time":
                    clock[color] -= elapsed
                result, termination = other, exc.termination
                reason = f"{color} ({specs[color].label}) loses: {exc}"
                loser_move = exc.move
                times.append(round(elapsed, 4))
                break
            moves.append(str(move))
            times.append(round(elapsed, 4))
        aborted = False
    finally:
        for player in players.values():
            try:
                player.kill() if aborted else player.close()
            except Exception:  # pragma: no cover - closing must not lose the result
                pass
    winner = None if result == "draw" else ("a" if (result == "black") == job.a_black else "b")
    record.update({
        "moves": moves, "times": times, "result": result, "winner": winner, "termination": termination,
        "reason": reason, "loser_move": loser_move,
        "clock": None if clock is None else {k: round(v, 3) for k, v in clock.items()},
        "started": started.isoformat(timespec="seconds"), "duration_s": round(time.monotonic() - t_start, 3),
    })
    if len(times) > len(moves):  # the forfeited turn has a time but no move
        record["times"] = times[:len(moves)]
        record["forfeit_time"] = times[len(moves)]
    return record


def sgf_text(record: Mapping[str, Any]) -> str:
    """A Little Golem SGF record of a finished game (``RE``: ``B+``, ``W+T`` on time,
    ``W+F`` by forfeit, ``Draw``; the reason in ``C``)."""
    result = record["result"]
    if result == "draw":
        re_value = "Draw"
    else:
        suffix = {"six": "", "time": "T", "timeout": "T"}.get(record.get("termination"), "F")
        re_value = f"{'B' if result == 'black' else 'W'}+{suffix}"
    headers = {
        "EV": record.get("event", "connect6 match"), "RO": str(record["game"]),
        "PB": record["black"], "PW": record["white"], "RE": re_value,
        "DT": str(record.get("started", ""))[:10], "GC": f"opening {record['opening']}",
    }
    if record.get("reason"):
        headers["C"] = record["reason"]
    return write_sgf(record["moves"], headers) + "\n"


# ================================================================= openings
def load_openings(path: str) -> List[str]:
    """Openings from a file: one stone list per line (``j10,k11,i11``); ``#``
    starts a comment (a whole line, or after the stones).

    Every opening is replayed; a broken or finished one is an error naming its line.
    """
    openings = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                board = replay(parse_stone_list(text))
            except RecordError as exc:
                raise ValueError(f"{path}, line {number}: {exc}") from None
            if board.is_game_over():
                raise ValueError(f"{path}, line {number}: the opening already ends the game")
            openings.append(format_stone_list(board.move_stack))
    if not openings:
        raise ValueError(f"{path}: no openings (one stone list per line, like j10,k11,i11)")
    return openings


def random_openings(count: int, seed: int, radius: int = 3) -> List[str]:
    """``count`` 3-turn openings (j10, a white pair, a black pair) within ``radius``
    cells of the centre, drawn with ``seed``."""
    rng = random.Random(f"openings:{seed}")
    centre = 9
    cells = [r * 19 + c for r in range(centre - radius, centre + radius + 1)
             for c in range(centre - radius, centre + radius + 1) if r * 19 + c != 180]
    out = []
    for _ in range(count):
        stones = rng.sample(cells, 4)
        out.append(format_stone_list([Move((180,)), Move(stones[:2]), Move(stones[2:])]))
    return out


# ================================================================= statistics
def score_from_elo(elo: float) -> float:
    """Expected score for an Elo difference (the logistic model)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    """The Elo difference of an expected score (±inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: P(A is stronger), from wins and losses (draws do not count)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def _mean_var(values: Sequence[float], counts: Sequence[float]) -> Tuple[float, float, float]:
    n = float(sum(counts))
    if n <= 0:
        return math.nan, math.nan, 0.0
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    return mean, var, n


_Z95 = 1.959963984540054
PENTA_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)   # a pair's mean score for 0, 1/2, 1, 3/2, 2 points
TRI_SCORES = (0.0, 0.5, 1.0)


@dataclasses.dataclass(frozen=True)
class SprtParams:
    """H0: Elo = ``elo0`` against H1: Elo = ``elo1`` (logistic Elo), error rates ``alpha`` and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not 0.0 < v < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5, not {v}")
        if not self.elo1 > self.elo0:
            raise ValueError(f"SPRT elo1 ({self.elo1}) must be greater than elo0 ({self.elo0})")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)


def _tilt(probs: Sequence[float], scores: Sequence[float], target: float) -> float:
    """The theta for which p_i = probs_i / (1 + theta (scores_i - target)) is the
    maximum-likelihood distribution with mean ``target`` (found by bisection)."""
    d = [a - target for a in scores]
    lo = -1.0 / max(d) if max(d) > 0 else -1e12
    hi = -1.0 / min(d) if min(d) < 0 else 1e12

    def excess(theta: float) -> float:  # decreasing in theta; zero at the answer
        return sum(p * di / (1.0 + theta * di) for p, di in zip(probs, d))

    span = hi - lo
    lo, hi = lo + 1e-12 * span, hi - 1e-12 * span
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def sprt_llr(counts: Sequence[float], elo0: float, elo1: float, scores: Sequence[float] = PENTA_SCORES) -> float:
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0): the generalized SPRT.

    ``counts`` are the frequencies of the outcomes whose scores are ``scores``
    (pentanomial pairs by default, ``TRI_SCORES`` for single games).  Under
    each hypothesis the outcome distribution is the maximum-likelihood one
    whose expected score is that of its Elo (logistic model); the LLR is
    N * sum_i f_i log(p1_i / p0_i) over the observed frequencies f.  Empty
    outcome classes count as 1e-3 so that every expected score is reachable.
    """
    n = float(sum(counts))
    if n <= 0:
        return 0.0
    regular = [c if c > 0 else 1e-3 for c in counts]
    total = sum(regular)
    freqs = [c / total for c in regular]
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    t0, t1 = _tilt(freqs, scores, s0), _tilt(freqs, scores, s1)
    return n * sum(f * (math.log1p(t0 * (a - s0)) - math.log1p(t1 * (a - s1))) for f, a in zip(freqs, scores))


@dataclasses.dataclass(frozen=True)
class Sprt:
    params: SprtParams
    llr: float

    @property
    def decision(self) -> Optional[str]:
        """``"H1"`` (A is better by elo1), ``"H0"`` or None (go on)."""
        if self.llr >= self.params.upper:
            return "H1"
        if self.llr <= self.params.lower:
            return "H0"
        return None


@dataclasses.dataclass(frozen=True)
class MatchStats:
    """A match from A's point of view."""

    wins: int
    losses: int
    draws: int
    penta: Tuple[int, int, int, int, int]   #: pairs with A's points 0, 1/2, 1, 3/2, 2: [LL, LD, WL+DD, WD, WW]
    black_wins: int
    white_wins: int
    forfeits: Dict[str, Dict[str, int]]      #: {"a"/"b": {termination: count}} for non-six losses
    sprt: Optional[Sprt] = None

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def pairs(self) -> int:
        return sum(self.penta)

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    @property
    def draw_ratio(self) -> float:
        return self.draws / self.games if self.games else math.nan

    @property
    def los(self) -> float:
        return los(self.wins, self.losses)

    @property
    def elo(self) -> float:
        return elo_from_score(self.score) if self.games else math.nan

    def elo_estimate(self) -> Tuple[float, float, float, str]:
        """The Elo difference and its 95% interval: (elo, low, high, model).

        A normal approximation of the mean score: per colour-swapped pair
        (``"pentanomial"``, from the complete pairs only) when there are at
        least two complete pairs, else per game (``"trinomial"``).  The
        interval is (nan, nan) when every pair (game) scored the same.
        """
        if self.pairs >= 2:
            mean, var, n = _mean_var(PENTA_SCORES, self.penta)
            model = "pentanomial"
        else:
            mean, var, n = _mean_var(TRI_SCORES, (self.losses, self.draws, self.wins))
            model = "trinomial"
        if n == 0:
            return math.nan, math.nan, math.nan, model
        if var == 0:
            return elo_from_score(mean), math.nan, math.nan, model
        half = _Z95 * math.sqrt(var / n)
        return elo_from_score(mean), elo_from_score(mean - half), elo_from_score(mean + half), model


def compute_stats(records: Iterable[Mapping[str, Any]], sprt: Optional[SprtParams] = None) -> MatchStats:
    """Statistics of finished games (JSONL records) from A's point of view."""
    wins = losses = draws = black_wins = white_wins = 0
    points_by_pair: Dict[int, List[float]] = {}
    forfeits: Dict[str, Dict[str, int]] = {"a": {}, "b": {}}
    for r in records:
        if r["winner"] == "a":
            wins += 1
            points = 1.0
        elif r["winner"] == "b":
            losses += 1
            points = 0.0
        else:
            draws += 1
            points = 0.5
        if r["result"] == "black":
            black_wins += 1
        elif r["result"] == "white":
            white_wins += 1
        if r["winner"] is not None and r.get("termination") not in ("six", "board_full"):
            loser = "b" if r["winner"] == "a" else "a"
            forfeits[loser][r["termination"]] = forfeits[loser].get(r["termination"], 0) + 1
        points_by_pair.setdefault(r["pair"], []).append(points)
    penta = [0, 0, 0, 0, 0]
    for pts in points_by_pair.values():
        if len(pts) == 2:
            penta[int(round(2 * sum(pts)))] += 1
    stats = MatchStats(wins, losses, draws, tuple(penta), black_wins, white_wins, forfeits)
    if sprt is not None:
        stats = dataclasses.replace(stats, sprt=Sprt(sprt, sprt_llr(penta, sprt.elo0, sprt.elo1)))
    return stats


def _fmt_elo(x: float) -> str:
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    if abs(x) < 0.05:
        return "0.0"
    return f"{x:+.1f}"


def format_summary(stats: MatchStats, a: str, b: str) -> str:
    """The end-of-match report, in the manner of cutechess-cli."""
    lines = [f"Score of {a} vs {b}: {stats.wins} - {stats.losses} - {stats.draws}"
             f"  [{stats.score:.3f}] {stats.games}" if stats.games else f"Score of {a} vs {b}: no games"]
    if stats.games:
        elo, lo, hi, model = stats.elo_estimate()
        if math.isfinite(lo) and math.isfinite(hi):
            pm = f" +/- {(hi - lo) / 2:.1f}"
        else:
            pm = ""
        if math.isnan(lo):
            interval = f"no 95% interval: every {'pair' if model == 'pentanomial' else 'game'} scored alike"
        else:
            interval = f"95% interval {_fmt_elo(lo)} .. {_fmt_elo(hi)}, {model}"
        lines.append(f"Elo difference: {_fmt_elo(elo)}{pm}  ({interval}), LOS: {100 * stats.los:.1f}%, "
                     f"draw ratio: {100 * stats.draw_ratio:.1f}%")
        lines.append(f"Pairs [LL, LD, WL+DD, WD, WW] for {a}: {list(stats.penta)}"
                     f" ({stats.pairs} complete pair{'s' if stats.pairs != 1 else ''})")
        lines.append(f"Black won {stats.black_wins}, white won {stats.white_wins}, "
                     f"drawn {stats.games - stats.black_wins - stats.white_wins}")
        for side, label in (("a", a), ("b", b)):
            if stats.forfeits[side]:
                detail = ", ".join(f"{k} {v}" for k, v in sorted(stats.forfeits[side].items()))
                lines.append(f"{label} lost by forfeit: {detail}")
    if stats.sprt is not None:
        p = stats.sprt.params
        verdict = {"H1": "H1 was accepted", "H0": "H0 was accepted", None: "no decision yet"}[stats.sprt.decision]
        lines.append(f"SPRT: elo0 {p.elo0:g}, elo1 {p.elo1:g}, alpha {p.alpha:g}, beta {p.beta:g}: "
                     f"LLR {stats.sprt.llr:.2f} [{p.lower:.2f}, {p.upper:.2f}] - {verdict}")
    return "\n".join(lines)


def _record_from_line(line: bytes) -> Dict[str, Any]:
    """The game record held by one line of ``games.jsonl`` (ValueError saying why not)."""
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"not a game record ({exc})") from None
    if not isinstance(record, dict):
        raise ValueError(f"not a game record (a JSON {type(record).__name__}, not an object)")
    missing = [key for key in _RECORD_KEYS if key not in record]
    if missing:
        raise ValueError(f"not a game record (no {', '.join(missing)})")
    game = record["game"]
    if type(game) is not int or game < 1:
        raise ValueError(f"not a game record (game {game!r} is not a number >= 1)")
    return record


@dataclasses.dataclass
class _Scan:
    """What ``games.jsonl`` holds: the records, the bytes that hold them, and a torn last line."""

    records: Dict[int, Dict[str, Any]]
    good: int                            #: bytes from the start that hold whole records
    torn_line: Optional[int] = None      #: the number of a last line that is not a record
    torn: bytes = b""                    #: that line's bytes


def _scan_results(path: str) -> _Scan:
    """Read ``path`` without changing it.  A last line that is not a game record
    is torn (a match stopped while writing it); a bad line before it is an error."""
    with open(path, "rb") as fh:
        data = fh.read()
    lines = data.split(b"\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    records: Dict[int, Dict[str, Any]] = {}
    offset = 0
    for index, line in enumerate(lines[:last + 1]):
        if line.strip():
            try:
                record = _record_from_line(line)
            except ValueError as exc:
                if index == last:
                    return _Scan(records, offset, index + 1, line)
                raise ValueError(f"{path}, line {index + 1}: {exc}") from None
            records[record["game"]] = record
        offset += len(line) + 1
    return _Scan(records, min(offset, len(data)))


def read_results(path: str, repair: bool = False) -> List[Dict[str, Any]]:
    """The game records of a JSONL results file, by game number.

    A torn *last* line (a match stopped while writing it) is skipped with a
    warning; with ``repair`` its bytes are moved to ``games.jsonl.torn`` (see
    :func:`set_aside_torn_line`).  A bad line elsewhere is a ValueError naming
    it, and nothing is changed.
    """
    scan = _scan_results(path)
    if scan.torn_line is not None:
        _log.warning("%s, line %d: not a whole game record (cut short by a crash?): skipped; "
                     "its game will be played again", path, scan.torn_line)
        if repair:
            set_aside_torn_line(path)
    return [scan.records[k] for k in sorted(scan.records)]


def set_aside_torn_line(path: str) -> Optional[int]:
    """Move a torn last line of ``path`` to the end of ``path + ".torn"`` (appended,
    never deleted) and cut it from ``path``, so that new records follow the whole
    ones.  Returns the torn line's number, or None when there was none."""
    scan = _scan_results(path)
    if scan.torn_line is None:
        return None
    with open(path + TORN_SUFFIX, "ab") as fh:
        fh.write(scan.torn + b"\n")
        fh.flush()
        os.fsync(fh.fileno())
    with open(path, "r+b") as fh:
        fh.truncate(scan.good)
        fh.flush()
        os.fsync(fh.fileno())
    _log.warning("%s, line %d: its bytes are kept in %s", path, scan.torn_line, path + TORN_SUFFIX)
    return scan.torn_line


def append_record(path: str, record: Mapping[str, Any]) -> None:
    """Append one game record to a JSONL file as one whole line, in one write,
    flushed and fsynced: it starts a line of its own whatever the file ends
    with, so a crash can tear at most this last line."""
    line = json.dumps(record, separators=(",", ":")).encode("utf-8") + b"\n"
    with open(path, "a+b") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell() > 0:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                line = b"\n" + line
        fh.write(line)
        fh.flush()
        os.fsync(fh.fileno())


def write_file_atomic(path: str, text: str) -> None:
    """Write ``path`` so that it holds either its old or its whole new text: a
    temporary file beside it, fsynced, then renamed over it."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    _fsync_dir(os.path.dirname(path) or ".")


def _fsync_dir(path: str) -> None:
    """Make a rename in ``path`` durable (POSIX; elsewhere a no-op)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open a directory
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


# ================================================================= progress
class _PlainProgress:
    def __init__(self, total: int, done: int, stream=None):
        self.total, self.done = total, done
        self.stream = sys.stderr if stream is None else stream

    def update(self, record: Mapping[str, Any], stats: MatchStats) -> None:
        self.done += 1
        r = record
        how = r["result"] if r["result"] == "draw" else f"{r['result']} wins"
        self.stream.write(
            f"[{self.done}/{self.total}] game {r['game']}: {r['black']} (black) - {r['white']} (white): "
            f"{how}, {r['termination']}, {len(r['moves'])} turns | A {stats.wins}-{stats.losses}-{stats.draws}"
            f" Elo {_fmt_elo(stats.elo)}\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        pass


class _TqdmProgress:
    def __init__(self, total: int, done: int, tqdm):
        self.bar = tqdm(total=total, initial=done, unit="game", desc="match", file=sys.stderr)

    def update(self, record, stats: MatchStats) -> None:
        self.bar.update(1)
        self.bar.set_postfix_str(f"A {stats.wins}-{stats.losses}-{stats.draws} Elo {_fmt_elo(stats.elo)}")

    def note(self, text: str) -> None:
        self.bar.write(text, file=sys.stderr)

    def close(self) -> None:
        self.bar.close()


class _RichProgress:
    def __init__(self, total: int, done: int, rich_progress):
        self.progress = rich_progress.Progress(
            rich_progress.TextColumn("{task.description}"), rich_progress.BarColumn(),
            rich_progress.MofNCompleteColumn(), rich_progress.TimeElapsedColumn(), transient=False)
        self.progress.start()
        self.task = self.progress.add_task("match", total=total, completed=done)

    def update(self, record, stats: MatchStats) -> None:
        self.progress.update(self.task, advance=1, description=(
            f"A {stats.wins}-{stats.losses}-{stats.draws} Elo {_fmt_elo(stats.elo)}"))

    def note(self, text: str) -> None:
        self.progress.console.print(text, markup=False, highlight=False)

    def close(self) -> None:
        self.progress.stop()


class _NoProgress:
    def update(self, record, stats) -> None:
        pass

    def note(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


PROGRESS_KINDS = ("auto", "tqdm", "rich", "plain", "none")


def make_progress(kind: str, total: int, done: int):
    """``auto`` (tqdm, else rich, else plain lines, when stderr is a terminal;
    plain lines otherwise), ``tqdm``, ``rich``, ``plain`` or ``none``."""
    if kind not in PROGRESS_KINDS:
        raise ValueError(f"progress must be one of {', '.join(PROGRESS_KINDS)}, not {kind!r}")
    if kind == "none":
        return _NoProgress()
    if kind in ("auto", "tqdm"):
        if kind == "tqdm" or sys.stderr.isatty():
            try:
                from tqdm import tqdm
                return _TqdmProgress(total, done, tqdm)
            except ImportError:
                if kind == "tqdm":
                    raise ValueError("--progress tqdm: tqdm is not installed (pip install tqdm)") from None
    if kind in ("auto", "rich"):
        if kind == "rich" or sys.stderr.isatty():
            try:
                import rich.progress
                return _RichProgress(total, done, rich.progress)
            except ImportError:
                if kind == "rich":
                    raise ValueError("--progress rich: rich is not installed (pip install rich)") from None
    return _PlainProgress(total, done)


# ================================================================= the runner
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

    def __post_init__(self):
        if self.games < 1:
            raise ValueError(f"--games must be at least 1, not {self.games}")
        for name in ("move_time", "game_time"):
            v = getattr(self, name)
            if v is not None and not (math.isfinite(v) and v > 0):
                raise ValueError(f"{name.replace('_', '-')} must be > 0 seconds, not {v}")
        if self.opening_order not in ("sequential", "random"):
            raise ValueError(f"opening order must be sequential or random, not {self.opening_order!r}")
        if self.a.label == self.b.label:  # self-play: tell the two apart in results
            self.a = self.a.with_label(f"{self.a.label} (A)")
            self.b = self.b.with_label(f"{self.b.label} (B)")


def _cores() -> int:
    """The cores this process may run on (CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _job_seed(seed: int, game: int) -> int:
    return random.Random(f"{seed}:{game}").getrandbits(63)


class Match:
    """A match: a schedule of :class:`GameJob` and the results so far.

    ``out`` is the results directory (``games.jsonl``, ``match.json``,
    ``sgf/``); with ``resume`` the games already in ``games.jsonl`` are kept
    and not played again.  Without ``out`` nothing is written.
    """

    def __init__(self, config: MatchConfig, out: Optional[str] = None, resume: bool = False):
        self.config = config
        self.out = out
        self.records: Dict[int, Dict[str, Any]] = {}
        self.interrupted = False
        self.failures = 0
        self.sprt_stopped_at: Optional[int] = None
        stored = None
        if out is not None:
            games_path = os.path.join(out, GAMES_FILE)
            config_path = os.path.join(out, CONFIG_FILE)
            has_games = os.path.exists(games_path) and os.path.getsize(games_path) > 0
            if resume:
                if os.path.exists(config_path):
                    with open(config_path, encoding="utf-8") as fh:
                        stored = json.load(fh)
                    self._check_resumable(stored)
                if os.path.exists(games_path):
                    for r in read_results(games_path):
                        if r["a"] != config.a.text or r["b"] != config.b.text:
                            raise ValueError(f"{games_path}: game {r['game']} was {r['a']} vs {r['b']}, "
                                             f"not {config.a.text} vs {config.b.text}")
                        self.records[int(r["game"])] = r
                if self.records and stored is None:
                    raise ValueError(f"cannot resume: {config_path} is missing")
            elif has_games:
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

    def _check_resumable(self, stored: Mapping[str, Any]) -> None:
        c = self.config
        mine = {"a": c.a.text, "b": c.b.text, "move_time": c.move_time, "game_time": c.game_time}
        if c.seed is not None:
            mine["seed"] = c.seed
        for key, value in mine.items():
            if stored.get(key) != value:
                raise ValueError(f"cannot resume: the stored match has {key} = {stored.get(key)!r}, "
                                 f"this command gives {value!r}")

    def _extend_openings(self, pairs: int) -> None:
        c = self.config
        if len(self.pair_openings) >= pairs:
            return
        if c.openings is None:
            fresh = random_openings(pairs, c.seed)
            self.pair_openings.extend(fresh[len(self.pair_openings):])
            return
        order = list(c.openings)
        if c.opening_order == "random":
            random.Random(f"order:{c.seed}").shuffle(order)
        while len(self.pair_openings) < pairs:
            self.pair_openings.append(order[len(self.pair_openings) % len(order)])

    # ------------------------------------------------------------ schedule
    def job(self, game: int) -> GameJob:
        """The job of game number ``game`` (1-based; games 2k-1 and 2k are a pair)."""
        c = self.config
        pair = (game + 1) // 2
        return GameJob(
            game=game, pair=pair, a=c.a, b=c.b, a_black=(game % 2 == 1), opening=self.pair_openings[pair - 1],
            seed=_job_seed(c.seed, game), move_time=c.move_time, game_time=c.game_time,
            time_margin=c.time_margin, hang_timeout=c.hang_timeout, cwd=c.cwd or os.getcwd())

    def pending(self) -> List[int]:
        return [g for g in range(1, self.config.games + 1) if g not in self.records]

    def stats(self) -> MatchStats:
        return compute_stats(self.results(), self.config.sprt)

    def results(self) -> List[Dict[str, Any]]:
        return [self.records[g] for g in sorted(self.records) if g <= self.config.games]

    # ------------------------------------------------------------ output
    def _write_config(self) -> None:
        if self.out is None:
            return
        os.makedirs(os.path.join(self.out, SGF_DIR), exist_ok=True)
        c = self.config
        data = {
            "format": 1, "a": c.a.text, "b": c.b.text, "games": c.games, "seed": c.seed,
            "move_time": c.move_time, "game_time": c.game_time, "time_margin": c.time_margin,
            "hang_timeout": c.hang_timeout, "opening_order": c.opening_order,
            "openings": "random" if c.openings is None else "file",
            "sprt": None if c.sprt is None else dataclasses.asdict(c.sprt),
            "pair_openings": self.pair_openings,
        }
        write_file_atomic(os.path.join(self.out, CONFIG_FILE), json.dumps(data, indent=1) + "\n")
        games_path = os.path.join(self.out, GAMES_FILE)
        if os.path.exists(games_path):
            set_aside_torn_line(games_path)   # before anything is appended after it

    def _save(self, record: Dict[str, Any]) -> None:
        self.records[int(record["game"])] = record
        if self.out is None:
            return
        write_file_atomic(os.path.join(self.out, SGF_DIR, f"game-{record['game']:04d}.sgf"), sgf_text(record))
        append_record(os.path.join(self.out, GAMES_FILE), record)   # last: the record is the commit

    # ------------------------------------------------------------ running
    def run(self, executor: Optional[concurrent.futures.Executor] = None, concurrency: Optional[int] = None,
            progress: Any = "auto") -> MatchStats:
        """Play the pending games and return the statistics.

        ``executor``: where the games run (a ``ProcessPoolExecutor`` of
        ``concurrency`` workers, default the number of cores, when None;
        an executor given is not shut down).  At most ``concurrency`` games
        are in flight, so an SPRT decision or Ctrl-C wastes little.
        ``progress``: a kind for :func:`make_progress` or an object with
        ``update(record, stats)``, ``note(text)`` and ``close()``.
        """
        pending = self.pending()
        workers = max(1, concurrency or _cores())
        workers = min(workers, max(1, len(pending)))
        self._write_config()
        reporter = make_progress(progress, self.config.games, len(self.results())) \
            if isinstance(progress, str) else progress
        stats = self.stats()
        if stats.sprt is not None and stats.sprt.decision is not None:
            reporter.note("SPRT already decided: nothing to play")
            pending = []
        own = executor is None and bool(pending)
        if own:
            executor = concurrent.futures.ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
        queue = list(pending)
        running: Dict[concurrent.futures.Future, int] = {}
        failures = 0
        try:
            broken = False
            while queue or running:
                if broken and own and queue and self.sprt_stopped_at is None:
                    # a worker process died (a crash in compiled code, os._exit in a bot): start afresh
                    executor.shutdown(wait=False, cancel_futures=True)
                    executor = concurrent.futures.ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
                    broken = False
                while queue and len(running) < workers and self.sprt_stopped_at is None and not broken:
                    game = queue.pop(0)
                    running[executor.submit(play_game, self.job(game))] = game
                if not running:
                    if queue and broken:
                        reporter.note(f"the executor is broken: {len(queue)} game(s) not played")
                    break
                done, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in done:
                    game = running.pop(fut)
                    try:
                        record = fut.result()
                    except concurrent.futures.BrokenExecutor as exc:
                        failures += 1
                        broken = True
                        reporter.note(f"game {game} lost its worker process ({exc}); it is not counted and "
                                      "will be replayed by --resume")
                        continue
                    except Exception as exc:  # a bug in the runner, not a player's fault
                        failures += 1
                        reporter.note(f"game {game} failed: {type(exc).__name__}: {exc} (it will be replayed by "
                                      "--resume)")
                        continue
                    self._save(record)
                    stats = self.stats()
                    reporter.update(record, stats)
                    if self.sprt_stopped_at is None and stats.sprt is not None and stats.sprt.decision:
                        self.sprt_stopped_at = stats.games
                        queue.clear()
                        if running:
                            reporter.note(f"SPRT decided ({stats.sprt.decision}) after {stats.games} games; "
                                          f"finishing {len(running)} running game(s)")
        except KeyboardInterrupt:
            self.interrupted = True
            for fut in running:
                fut.cancel()
            reporter.note(f"interrupted: {len(self.results())} games finished, {len(running)} abandoned; "
                          "continue with --resume")
            if own:
                _stop_workers(executor)
                own = False
        finally:
            if own:
                executor.shutdown(wait=True)
            reporter.close()
        self.failures = failures
        return self.stats()


def _worker_init() -> None:
    """In a worker process: Ctrl-C is left to the parent, which stops the
    workers with SIGTERM; the first SIGTERM unwinds the game being played (its
    players are closed, external engines killed) and later ones are ignored
    so that they cannot cut that cleanup short."""
    import signal

    def _stop(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise SystemExit(128 + signum)

    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _stop)


def _stop_workers(executor: concurrent.futures.Executor) -> None:
    """Stop a ProcessPoolExecutor now: running games are abandoned (their
    engines are killed as the workers unwind)."""
    processes = dict(getattr(executor, "_processes", None) or {})  # shutdown() forgets them
    executor.shutdown(wait=False, cancel_futures=True)
    for proc in list(processes.values()):
        try:
            proc.terminate()
        except Exception:  # pragma: no cover
            pass
    for proc in list(processes.values()):
        try:
            proc.join(timeout=5)
        except Exception:  # pragma: no cover
            pass
