"""Players of a match: the player-spec language and the adapters that play a move.

Players (see :func:`parse_player`):

* built-in engines: ``paper``, ``default:time=1``, ``local:depth=3,width=10``,
  ``global:depth=3,width=10,time=2`` -- a profile of
  ``connect6.engine.PROFILES`` or a scan of ``connect6.engine.SCANS`` (the
  paper's engine with that scanning method, as in its experiments), then
  options ``depth``, ``width``, ``time`` (seconds per move), ``radius``,
  ``scan``, ``profile``, ``weights`` and any other keyword of
  :class:`connect6.Engine` (``threats=false``, ...);
* external engines over the engine protocol: ``cmd:"./engine --flag"``;
* Python bots: ``py:package.module:function``, a callable taking a
  :class:`~connect6.Board` and returning a Move (or move text).  If it has a
  ``time_limit`` parameter it gets the move's time budget (or None).

A crash, timeout, illegal or malformed move is a :class:`Forfeit`: the side
that made it loses the game.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import os
import shlex
import sys
import traceback
from typing import Any, Callable, Dict, Optional, Tuple

from connect6.board import Board
from connect6.notation import IllegalMoveError, InvalidMoveError, Move

__all__ = ["PlayerSpec", "parse_player", "parse_engine_options", "check_player", "Forfeit", "open_player"]

_INT_OPTIONS = ("depth", "width", "radius")
_TEXT_OPTIONS = ("scan", "profile")


def _engine_module():
    from connect6 import engine  # the compiled search; imported where it is needed
    return engine


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
    head, _, rest = text.partition(":")
    if head == "cmd":
        return _parse_command_player(text, rest)
    if head == "py":
        return _parse_python_player(text, rest)
    spec = PlayerSpec(text, "engine", text, options=tuple(parse_engine_options(text, head, rest).items()))
    try:
        _make_engine(spec)  # validates the values (depth range, scan and profile names, engine options)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"player {text!r}: {exc}") from None
    return spec


def _parse_command_player(text: str, rest: str) -> PlayerSpec:
    command = _strip_quotes(rest)
    try:
        argv = tuple(shlex.split(command, posix=os.name == "posix"))
    except ValueError as exc:
        raise ValueError(f"player {text!r}: cannot split the command: {exc}") from None
    if not argv:
        raise ValueError(f"player {text!r}: cmd: needs a command, e.g. cmd:\"./engine --flag\"")
    return PlayerSpec(text, "cmd", text, argv=argv)


def _parse_python_player(text: str, rest: str) -> PlayerSpec:
    target = rest.strip()
    module, colon, func = target.partition(":")
    if not colon or not module or not func or not all(p.isidentifier() for p in module.split(".") + func.split(".")):
        raise ValueError(f"player {text!r}: expected py:package.module:function")
    return PlayerSpec(text, "py", text, target=target)


def parse_engine_options(text: str, head: str, rest: str) -> Dict[str, Any]:
    """The Engine arguments (and ``time``) of a built-in player ``head:rest``,
    e.g. ``local`` and ``depth=3,width=10``; ``text`` (the whole player) names
    it in errors.  The values are checked by building the Engine, not here.

    >>> parse_engine_options("paper:time=1,threats=off", "paper", "time=1,threats=off")
    {'profile': 'paper', 'time': 1.0, 'threats': False}
    """
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
    for item in rest.split(",") if rest.strip() else ():
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not key or not value:
            raise ValueError(f"player {text!r}: options are key=value separated by commas, not {item!r}")
        if key in options and not (key == "scan" and head in engine.SCANS) and key != "profile":
            raise ValueError(f"player {text!r}: option {key} given twice")
        if not key.isidentifier():
            raise ValueError(f"player {text!r}: {key!r} is not an option name")
        options[key] = _option_value(text, key, value)
    return options


def _option_value(text: str, key: str, value: str) -> Any:
    if key in _INT_OPTIONS:
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"player {text!r}: {key} must be a whole number, not {value!r}") from None
    if key == "time":
        try:
            seconds = float(value)
        except ValueError:
            seconds = float("nan")
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"player {text!r}: time must be seconds > 0, not {value!r}")
        return seconds
    if key in _TEXT_OPTIONS:
        return value
    return _literal(value)   # an engine option (threats=0, ...): Engine checks it


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


class Forfeit(Exception):
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
            raise Forfeit("crash", f"engine error: {type(exc).__name__}: {exc}") from exc

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
            raise Forfeit("crash", f"failed to start: {exc}") from exc
        self.name = self.engine.name

    def play(self, board: Board, budget: Optional[float], hard_limit: Optional[float]) -> Move:
        from connect6.protocol import EngineProtocolError, EngineTimeout
        limit = None if hard_limit is None else max(hard_limit - self.margin, 1e-3)
        try:
            return self.engine.play(board, time_limit=limit, grace=self.margin)
        except EngineTimeout as exc:
            raise Forfeit("timeout", str(exc)) from exc
        except EngineProtocolError as exc:
            kind = exc.kind if exc.kind in ("illegal", "malformed") else "protocol"
            raise Forfeit(kind, str(exc), move=exc.reply) from exc
        except self._errors as exc:
            raise Forfeit("crash", str(exc)) from exc

    def close(self) -> None:
        self.engine.close()

    def kill(self) -> None:
        self.engine.kill()


class _PythonPlayer:
    def __init__(self, spec: PlayerSpec, cwd: Optional[str]):
        try:
            self.function = _resolve_callable(spec.target, cwd)
        except ValueError as exc:
            raise Forfeit("crash", str(exc)) from exc
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
            raise Forfeit("crash", f"the bot raised {tb}") from exc
        if isinstance(reply, Move):
            return reply
        if isinstance(reply, str):
            try:
                return Move.parse(reply)
            except (InvalidMoveError, IllegalMoveError) as exc:
                raise Forfeit("malformed", f"malformed move {reply!r}: {exc}", move=reply) from None
        raise Forfeit("malformed", f"the bot returned {reply!r} ({type(reply).__name__}), not a Move",
                       move=repr(reply)[:80])

    def close(self) -> None:
        pass

    kill = close


def open_player(spec: PlayerSpec, cwd: Optional[str], margin: float, startup: float):
    """A player ready to :meth:`play`: ``margin`` is the lateness an external
    engine is allowed, ``startup`` how long it may take to start.  Raises
    :class:`Forfeit` when it cannot start."""
    if spec.kind == "engine":
        try:
            return _EnginePlayer(spec)
        except Exception as exc:
            raise Forfeit("crash", f"failed to start: {exc}") from exc
    if spec.kind == "cmd":
        return _ExternalPlayer(spec, cwd, margin, startup)
    if spec.kind == "py":
        return _PythonPlayer(spec, cwd)
    raise ValueError(f"unknown player kind {spec.kind!r}")
