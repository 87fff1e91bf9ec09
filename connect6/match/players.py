"""Players of a match: the player-spec language and the adapters that play a move.

Players (see :func:`parse_player`):

* built-in engines: ``paper``, ``default:time=1``, ``local:depth=3,width=10``,
  ``global:depth=3,width=10,time=2`` -- a profile of
  ``connect6.options.PROFILES`` or a scan of ``connect6.options.SCANS`` (the
  paper's engine with that scanning method, as in its experiments), then
  options ``depth``, ``width``, ``time`` (seconds per move), ``radius``,
  ``scan``, ``profile``, ``weights`` and any other keyword of
  :class:`connect6.Engine` (``threats=false``, ...);
* external engines over the engine protocol: ``cmd:"./engine --flag"``;
* Python bots: ``py:package.module:function``, a callable taking a
  :class:`~connect6.Board` and returning a Move (or move text).  If it has a
  ``time_limit`` parameter it gets the move's time budget (or None).

Every player can carry its own settings (cutechess-cli's per-engine
options), as ``,key=value`` items after the player: ``name=LABEL`` (its name
in results), ``time=S`` (seconds per move: a limit the runner enforces for
``cmd:`` and ``py:`` players; a built-in engine's own search time, which it
keeps to, within the match's ``--move-time``), ``clock=S`` (its game clock),
``slots=N`` (the cores it uses: on a Dask cluster whose workers declare
``--resources slots=K`` a game takes as many slots as its hungrier player),
and for ``cmd:`` and ``py:`` players ``hang=S`` (without a time control, the
longest a move may take), ``dir=PATH`` (working directory); for ``cmd:``
players also ``startup=S`` (time to answer ``name``) and ``init=CMD;CMD``
(protocol commands sent once after start, before play).  A value holding a
comma is quoted; a command holding ``,KEY=`` is quoted::

    cmd:"~/.cache/connect6-peers/cloudict 6",hang=300,name=cloudict-d6
    cmd:./gameEngine,dir=/opt/cloudict,init=depth 4,startup=30
    default:depth=3,name=d3,clock=60

A player's own settings take precedence over the match's ``--move-time``,
``--game-time`` and ``--hang-timeout``.

A crash, timeout, illegal or malformed move is a :class:`Forfeit`: the side
that made it loses the game.
"""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
import shlex
import sys
import threading
import traceback
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Protocol, Tuple

from connect6.board import Board
from connect6.notation import IllegalMoveError, InvalidMoveError, Move
from connect6.options import PROFILES, SCANS, EngineOptions, Limits, parse_engine_spec, seconds_from_text

if TYPE_CHECKING:
    from connect6.engine import Engine
    from connect6.protocol import ProtocolEngine

__all__ = ["PlayerSpec", "parse_player", "parse_engine_options", "check_player", "Forfeit", "open_player",
           "PLAYER_KEYS", "time_control"]

#: the settings every kind of player takes (``kind -> keys``); engine players also take their engine options
PLAYER_KEYS = {
    "engine": ("name", "clock", "slots"),
    "cmd": ("name", "time", "clock", "hang", "dir", "startup", "init", "slots"),
    "py": ("name", "time", "clock", "hang", "dir", "slots"),
}
_SECONDS_KEYS = ("time", "clock", "hang", "startup")

@dataclasses.dataclass(frozen=True)
class PlayerSpec:
    """A player as given on the command line, parsed.

    ``kind`` is ``"engine"`` (built-in: ``profile``, ``engine_options``
    and ``limits``), ``"cmd"`` (``argv``) or ``"py"`` (``target``
    ``"module:function"``).  ``label`` names the player in results.
    """

    text: str
    kind: str
    label: str
    profile: str = ""
    engine_options: Optional[EngineOptions] = None
    limits: Limits = Limits()
    argv: Tuple[str, ...] = ()
    target: str = ""
    move_time: Optional[float] = None    #: cmd:/py: players' own seconds per move (enforced)
    game_time: Optional[float] = None    #: this player's game clock
    hang: Optional[float] = None         #: without a time control, the longest one move may take
    startup: Optional[float] = None      #: seconds to start and answer ``name``
    init: Tuple[str, ...] = ()           #: protocol commands sent after start, before play
    cwd: Optional[str] = None            #: working directory (relative: to the match's)
    slots: int = 1                       #: cores it uses (on a cluster whose workers declare ``slots``;
                                         #: a built-in engine's threads unless given)

    def with_label(self, label: str) -> "PlayerSpec":
        return dataclasses.replace(self, label=label)

    def workdir(self, base: Optional[str]) -> Optional[str]:
        """The directory this player runs in, given the match's working directory ``base``."""
        if self.cwd is None:
            return base
        return os.path.join(base or os.getcwd(), self.cwd)


def _strip_quotes(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def parse_player(text: str) -> PlayerSpec:
    """Parse a player given as text.

    >>> spec = parse_player("local:depth=3,width=10")
    >>> spec.profile, spec.engine_options.scan, spec.engine_options.width, spec.limits.depth
    ('paper', 'local', 10, 3)
    >>> parse_player('cmd:"./engine --fast"').argv
    ('./engine', '--fast')
    >>> parse_player("py:mybots:greedy").target
    'mybots:greedy'
    >>> p = parse_player('cmd:"./cloudict 6",hang=300,name=cloudict-d6,init=depth 6;vcf')
    >>> p.argv, p.hang, p.label, p.init
    (('./cloudict', '6'), 300.0, 'cloudict-d6', ('depth 6', 'vcf'))
    >>> p = parse_player("default:depth=2,clock=60,name=d2")
    >>> p.limits.depth, p.game_time, p.label
    (2, 60.0, 'd2')
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("a player is needed: a profile or scan (paper, local:depth=3), cmd:\"...\" or py:module:function")
    text = text.strip()
    head, _, rest = text.partition(":")
    kind = head if head in ("cmd", "py") else "engine"
    items = _split_items(text, rest, PLAYER_KEYS[kind], every=kind != "cmd")
    first = "" if kind == "engine" else items.pop(0)
    settings = _player_settings(text, kind, items)
    if kind == "cmd":
        spec = _parse_command_player(text, first)
    elif kind == "py":
        spec = _parse_python_player(text, first)
    else:
        name, options, limits = parse_engine_options(text, head, ",".join(items))
        spec = PlayerSpec(text, "engine", text, profile=name, engine_options=options, limits=limits,
                          slots=options.threads)
    return dataclasses.replace(spec, **settings)


def _split_items(text: str, rest: str, keys: Tuple[str, ...], every: bool = False) -> List[str]:
    """``rest`` cut at the commas (outside quotes) that start a ``KEY=`` item of
    ``keys``, or at ``every`` comma (an engine or Python player: no comma inside)."""
    items: List[str] = []
    start, quote, i = 0, None, 0
    while i < len(rest):
        ch = rest[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "," and (every or _starts_key(rest[i + 1:], keys)):
            items.append(rest[start:i])
            start = i + 1
        i += 1
    if quote:
        raise ValueError(f"player {text!r}: a quote ({quote}) is not closed")
    items.append(rest[start:])
    return items


def _starts_key(text: str, keys: Tuple[str, ...]) -> bool:
    key, eq, _ = text.partition("=")
    return bool(eq) and key.strip() in keys


def _player_settings(text: str, kind: str, items: List[str]) -> Dict[str, Any]:
    """Take the player settings (``name=``, ``hang=``, ...) out of ``items``; the PlayerSpec fields they set."""
    settings: Dict[str, Any] = {}
    keys = PLAYER_KEYS[kind]
    for item in list(items):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or key not in keys:
            if kind != "engine":
                raise ValueError(f"player {text!r}: unknown setting {item.strip()!r} (a {kind}: player takes "
                                 f"{', '.join(k + '=' for k in keys)})")
            continue
        items.remove(item)
        field = {"name": "label", "time": "move_time", "clock": "game_time", "dir": "cwd"}.get(key, key)
        if field in settings:
            raise ValueError(f"player {text!r}: {key} given twice")
        value = _strip_quotes(value)
        if not value:
            raise ValueError(f"player {text!r}: {key}= needs a value")
        if key in _SECONDS_KEYS:
            try:
                settings[field] = seconds_from_text(key, value)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"player {text!r}: {exc}") from None
        elif key == "init":
            settings[field] = tuple(c.strip() for c in value.split(";") if c.strip())
        elif key == "dir":
            settings[field] = os.path.expanduser(value)
        elif key == "slots":
            if not (value.isascii() and value.isdigit() and 1 <= int(value) <= 1024):
                raise ValueError(f"player {text!r}: slots must be a whole number in 1..1024, not {value!r}")
            settings[field] = int(value)
        else:
            settings[field] = value
    return settings


def _parse_command_player(text: str, rest: str) -> PlayerSpec:
    command = _strip_quotes(rest)
    try:
        argv = tuple(shlex.split(command, posix=os.name == "posix"))
    except ValueError as exc:
        raise ValueError(f"player {text!r}: cannot split the command: {exc}") from None
    if not argv:
        raise ValueError(f"player {text!r}: cmd: needs a command, e.g. cmd:\"./engine --flag\"")
    argv = (os.path.expanduser(argv[0]),) + argv[1:]
    return PlayerSpec(text, "cmd", text, argv=argv)


def _parse_python_player(text: str, rest: str) -> PlayerSpec:
    target = rest.strip()
    module, colon, func = target.partition(":")
    if not colon or not module or not func or not all(p.isidentifier() for p in module.split(".") + func.split(".")):
        raise ValueError(f"player {text!r}: expected py:package.module:function")
    return PlayerSpec(text, "py", text, target=target)


def time_control(spec: PlayerSpec, move_time: Optional[float] = None, game_time: Optional[float] = None,
                 hang: Optional[float] = None) -> str:
    """A player's time control in words, its own settings over the match's (the arguments).

    >>> time_control(parse_player("default:depth=3"))
    'depth 3'
    >>> time_control(parse_player("cmd:./e,clock=60,time=5"))
    '60 s/game, at most 5 s/move'
    >>> time_control(parse_player("cmd:./e"), hang=60)
    'no time control (hang 60 s)'
    """
    mt = spec.move_time if spec.move_time is not None else move_time
    if spec.kind == "engine" and spec.limits.time is not None:   # its search time (within the match's)
        mt = spec.limits.time if mt is None else min(mt, spec.limits.time)
    gt = spec.game_time if spec.game_time is not None else game_time
    parts = []
    if gt is not None:
        parts.append(f"{gt:g} s/game")
    if mt is not None:
        parts.append(f"{'at most ' if parts else ''}{mt:g} s/move")
    if spec.kind == "engine" and spec.limits.depth is not None:
        parts.append(f"depth {spec.limits.depth}")
    if spec.kind == "engine" and spec.limits.nodes is not None:
        parts.append(f"{spec.limits.nodes} nodes/move")
    if not parts:
        if spec.kind == "engine" and spec.engine_options is not None:
            parts.append(f"depth {spec.engine_options.depth}")
        else:
            h = spec.hang if spec.hang is not None else hang
            parts.append("no time control" + ("" if h is None else f" (hang {h:g} s)"))
    if spec.init:
        parts.append("init " + "; ".join(spec.init))
    return ", ".join(parts)


def parse_engine_options(text: str, head: str, rest: str) -> Tuple[str, EngineOptions, Limits]:
    """The profile name, options and limits of a built-in player ``head:rest``
    (``connect6.options.parse_engine_spec``); ``text`` (the whole player)
    names it in errors.

    >>> name, options, limits = parse_engine_options("paper:time=1,threats=off", "paper", "time=1,threats=off")
    >>> name, options.threats, limits.time
    ('paper', False, 1.0)
    """
    try:
        return parse_engine_spec(head + (":" + rest if rest.strip() else ""))
    except ValueError as exc:
        if head not in PROFILES and head not in SCANS:
            raise ValueError(f"unknown player {text!r}: expected a profile ({', '.join(PROFILES)}) or a scan "
                             f"({', '.join(SCANS)}) with options like :depth=3,width=10,time=1; cmd:\"...\"; "
                             "or py:module:function") from None
        raise ValueError(f"player {text!r}: {str(exc).split(': ', 1)[-1]}") from None


def _make_engine(spec: PlayerSpec) -> "Engine":
    from connect6.engine import make_engine  # the compiled search; imported where it is needed
    # the player gives each search its time (within the game's clock); depth and nodes are the engine's limits
    return make_engine(spec.engine_options, Limits(depth=spec.limits.depth, nodes=spec.limits.nodes),
                       profile=spec.profile)


def _resolve_callable(target: str, cwd: Optional[str] = None, own_dir: bool = False) -> Callable[..., Any]:
    """The bot ``target`` (``module:function``) names, found in ``cwd`` after the installed
    packages; with ``own_dir`` (the bot's ``dir=``), the module must be the one in ``cwd``."""
    module_name, _, attr = target.partition(":")
    base = os.path.abspath(cwd or os.getcwd())
    if base not in sys.path:
        # bots next to where the match is run are found, after the installed packages: a source
        # checkout in the working directory must not shadow the installed connect6 in workers
        sys.path.append(base)
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:
        raise ValueError(f"py:{target}: cannot import {module_name}: {type(exc).__name__}: {exc}") from exc
    if own_dir:
        _check_imported_from(target, obj, base)
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"py:{target}: {module_name} has no {attr}") from None
    if not callable(obj):
        raise ValueError(f"py:{target}: {attr} is not callable")
    function: Callable[..., Any] = obj
    return function


def _check_imported_from(target: str, module: Any, base: str) -> None:
    """ValueError when ``base`` (a bot's ``dir=``) holds the top package of
    ``module`` but Python imported it from elsewhere: a module of that name
    was imported before (another bot's ``dir=``) or an earlier folder on the
    path has one, and the bot that would play is not the one asked for."""
    top = module.__name__.split(".")[0]
    here = [os.path.join(base, top + ".py"), os.path.join(base, top, "__init__.py")]
    here_file = next((f for f in here if os.path.isfile(f)), None)
    loaded = getattr(sys.modules.get(top), "__file__", None)
    if here_file is None or loaded is None or os.path.realpath(loaded) == os.path.realpath(here_file):
        return
    raise ValueError(f"py:{target}: the module {top} in {base} cannot be imported: a module {top} "
                     f"from {os.path.dirname(os.path.realpath(loaded))} is already loaded (one process "
                     "holds one module of a name: give the two bots different module names)")


def check_player(spec: PlayerSpec, cwd: Optional[str] = None) -> None:
    """Fail early (ValueError) for a player that cannot work: a Python bot that
    does not import, an external command that is not there or not executable,
    a working directory that is not there.  ``cwd``: the match's directory."""
    if spec.cwd is not None and not os.path.isdir(spec.workdir(cwd) or "."):
        raise ValueError(f"{spec.text}: the directory {spec.workdir(cwd)} does not exist")
    cwd = spec.workdir(cwd)
    if spec.kind == "engine":
        try:
            _make_engine(spec)        # what only building it checks: a book that cannot be read, the table's memory
        except (ValueError, MemoryError) as exc:
            raise ValueError(f"{spec.text}: {exc}") from None
    elif spec.kind == "py":
        _resolve_callable(spec.target, cwd, own_dir=spec.cwd is not None)
    elif spec.kind == "cmd":
        exe = spec.argv[0]
        if os.sep in exe or (os.altsep and os.altsep in exe):
            path = exe if os.path.isabs(exe) else os.path.join(cwd or os.getcwd(), exe)
            if not os.path.exists(path):
                raise ValueError(f"{spec.text}: {exe} does not exist")
            if not os.access(path, os.X_OK) or os.path.isdir(path):
                raise ValueError(f"{spec.text}: {exe} is not an executable file")
        else:
            import shutil
            if shutil.which(exe) is None:
                raise ValueError(f"{spec.text}: {exe} is not on the PATH")


class Player(Protocol):
    """What the match runner plays with (open_player): a built-in engine, an
    external engine over the protocol, or a Python bot."""

    name: str

    def play(self, board: Board, budget: Optional[float], hard_limit: Optional[float]) -> Move: ...

    def close(self) -> None: ...

    def kill(self) -> None: ...

    def abandon(self) -> None:
        """From another thread: end the move in progress at once (the game is abandoned)."""


class Forfeit(Exception):
    """The side to move loses: ``termination`` is the category, str(self) the reason."""

    def __init__(self, termination: str, reason: str, move: Optional[str] = None):
        super().__init__(reason)
        self.termination = termination
        self.move = move


class _EnginePlayer:
    def __init__(self, spec: PlayerSpec):
        self.engine = _make_engine(spec)
        self.time = spec.limits.time
        self.name = self.engine.name
        self.last_eval: Optional[Dict[str, Any]] = None   # what the last search reported (a game record's evals)
        self._abandoned = False

    def play(self, board: Board, budget: Optional[float], hard_limit: Optional[float]) -> Move:
        limits = [t for t in (self.time, budget) if t is not None]
        t = min(limits) if limits else None
        self.last_eval = None
        if self._abandoned:
            raise Forfeit("crash", "the game was abandoned")
        try:
            result = self.engine.search(board, time=t)
        except Exception as exc:
            raise Forfeit("crash", f"engine error: {type(exc).__name__}: {exc}") from exc
        self.last_eval = result.to_record()
        return result.move

    def close(self) -> None:
        pass

    kill = close

    def abandon(self) -> None:
        """No further search: the one in progress ends at its own limit (time, depth or nodes),
        and the game ends before its next turn."""
        self._abandoned = True


class _ExternalPlayer:
    def __init__(self, spec: PlayerSpec, cwd: Optional[str], margin: float, startup: float,
                 started: Optional[Callable[["ProtocolEngine"], None]] = None):
        from connect6.protocol import EngineError, ProtocolEngine
        self._errors = EngineError
        self.margin = margin
        try:
            self.engine = ProtocolEngine.popen(list(spec.argv), cwd=cwd, timeout=startup, grace=margin,
                                               started=started)
        except EngineError as exc:
            raise Forfeit("crash", f"failed to start: {exc}") from exc
        self.name = self.engine.name or shlex.join(spec.argv)
        try:
            for line in spec.init:
                self.engine.send(line)
        except (EngineError, ValueError) as exc:
            self.engine.kill()
            raise Forfeit("crash", f"failed to start: sending {line!r}: {exc}") from exc

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
        """The game was abandoned: ``quit``, then kill whatever is left half a second later."""
        self.engine.quit(timeout=0.5)

    def abandon(self) -> None:
        """Kill the engine's process group now: the move it is thinking about ends as a crash."""
        self.engine.kill()


def _ctrl_c_reaches(thread: threading.Thread) -> bool:
    """Whether a KeyboardInterrupt in ``thread`` can be the user's Ctrl-C: Python raises it in
    the main thread only, and not in a pool worker, which ignores SIGINT (:func:`worker_init`)."""
    import signal
    return thread is threading.main_thread() and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN


class _PythonPlayer:
    def __init__(self, spec: PlayerSpec, cwd: Optional[str], margin: float = 0.0):
        self.margin = margin
        try:
            self.function = _resolve_callable(spec.target, cwd, own_dir=spec.cwd is not None)
        except ValueError as exc:
            raise Forfeit("crash", str(exc)) from exc
        self.name = spec.target
        self._abandoned = False
        self._wake = threading.Event()
        try:
            params = inspect.signature(self.function).parameters
            self.pass_time = "time_limit" in params or any(
                p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values())
        except (TypeError, ValueError):
            self.pass_time = False

    def _call(self, board: Board, budget: Optional[float]) -> Any:
        try:
            if self.pass_time:
                return self.function(board, time_limit=budget)
            return self.function(board)
        except (Exception, SystemExit, KeyboardInterrupt) as exc:
            if isinstance(exc, KeyboardInterrupt) and _ctrl_c_reaches(threading.current_thread()):
                raise           # the user's Ctrl-C, not the bot's doing
            tb = traceback.format_exception_only(type(exc), exc)[-1].strip()   # sys.exit() too: the bot's end
            raise Forfeit("crash", f"the bot raised {tb}") from exc

    def play(self, board: Board, budget: Optional[float], hard_limit: Optional[float]) -> Move:
        """The bot's move.  With a ``hard_limit`` the bot runs in a thread of
        its own, and one that does not return loses instead of holding the
        game for ever: without a time control (``budget`` None: the hang
        timeout) at the limit plus the margin, a stall; under a time control
        once twice the limit and a second have passed ("timeout"; a bot that
        returns before then, late, loses on "time" as before).  Python cannot
        stop that thread: it runs on in the background until the bot returns."""
        if hard_limit is None:
            reply = self._call(board.copy(), budget)
        else:
            done: List[Any] = []
            returned = self._wake = threading.Event()     # set when the bot returns, or by abandon()

            def run() -> None:
                try:
                    done.append(("reply", self._call(board.copy(), budget)))
                except BaseException as exc:  # handed to the game's thread below
                    done.append(("error", exc))
                finally:
                    returned.set()
            if self._abandoned:       # abandon() came before _wake was this call's: it cannot wake it
                raise Forfeit("crash", "the game was abandoned")
            threading.Thread(target=run, name=f"connect6-bot {self.name}", daemon=True).start()
            wait = hard_limit + self.margin + (0.0 if budget is None else max(1.0, hard_limit))
            returned.wait(wait)
            if self._abandoned and not done:
                raise Forfeit("crash", "the game was abandoned")
            if not done:
                raise Forfeit("timeout", f"the bot did not return within {wait:g} s")
            kind, reply = done[0]
            if kind == "error":
                raise reply
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

    def abandon(self) -> None:
        """Stop waiting for the bot's move (Python cannot stop the bot's thread itself)."""
        self._abandoned = True
        self._wake.set()


def open_player(spec: PlayerSpec, cwd: Optional[str], margin: float, startup: float,
                started: Optional[Callable[["ProtocolEngine"], None]] = None) -> "Player":
    """A player ready to :meth:`play`: ``margin`` is the lateness an external
    engine is allowed, ``startup`` how long it may take to start, ``started``
    is called with an external engine as soon as its process runs
    (:meth:`~connect6.protocol.ProtocolEngine.popen`).  Raises
    :class:`Forfeit` when it cannot start."""
    if spec.kind == "engine":
        try:
            return _EnginePlayer(spec)
        except Exception as exc:
            raise Forfeit("crash", f"failed to start: {exc}") from exc
    cwd = spec.workdir(cwd)
    if spec.kind == "cmd":
        return _ExternalPlayer(spec, cwd, margin, startup if spec.startup is None else spec.startup, started)
    if spec.kind == "py":
        return _PythonPlayer(spec, cwd, margin)
    raise ValueError(f"unknown player kind {spec.kind!r}")
