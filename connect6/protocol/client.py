"""Driving external engines over the Connect6 engine protocol (Cloudict / ConnectMore).

The protocol is line based (its commands: ``connect6 engine``'s ``help``, in
:mod:`connect6.protocol.server`): the driver writes commands to the engine's
stdin and reads answers from its stdout.  How stones, turns and replies are
written is :mod:`connect6.protocol.wire`, shared with the engine server.

:class:`ProtocolEngine` talks to an engine the way the ConnectMore GUI does:
before every move it sends ``new xxx``, the whole game as ``black``/``white``
placements and ``next``, then waits for the one line ``move XX`` or
``move XXXX``.  Everything else the engine prints (banners, progress, help
text, even lines that start with "move") is kept as its output and shown in
error messages.

>>> from connect6 import Board
>>> with ProtocolEngine.popen("connect6 engine --depth 2") as engine:   # doctest: +SKIP
...     move = engine.play(Board("j10"), time_limit=5)
"""
from __future__ import annotations

import collections
import math
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from typing import IO, Any, Callable, Deque, List, Mapping, Optional, Sequence, Union

from connect6.board import Board
from connect6.notation import IllegalMoveError, InvalidMoveError, Move
from connect6.options import check_seconds
from connect6.protocol import _reaper
from connect6.protocol.wire import (
    MOVE_REPLY_FORM, MOVE_REPLY_RE, looks_like_move_reply, parse_move_reply, parse_name_reply, parse_protocol_move,
    placement,
)

__all__ = [
    "EngineError", "EngineTimeout", "EngineTerminated", "EngineProtocolError", "ProtocolEngine",
    "MOVE_REPLY_RE", "parse_protocol_move",
]

_OUTPUT_TAIL = 12  # lines of engine output quoted in an error message


# ---------------------------------------------------------------- errors
class EngineError(RuntimeError):
    """Something went wrong with an external engine.

    ``output`` holds the lines the engine printed on stdout while the failing
    command ran (its answers that were not the expected one), ``stderr`` the
    last lines of its stderr, ``command`` the engine's command line.
    """

    def __init__(self, message: str, *, output: Sequence[str] = (), stderr: Sequence[str] = (),
                 command: Optional[Sequence[str]] = None):
        self.reason = message
        self.output = list(output)
        self.stderr = list(stderr)
        self.command = None if command is None else list(command)
        super().__init__(self._compose())

    def _compose(self) -> str:
        text = self.reason
        if self.output:
            shown = self.output[-_OUTPUT_TAIL:]
            more = f" (last {len(shown)} of {len(self.output)})" if len(shown) < len(self.output) else ""
            text += f"\n  engine output{more}:\n" + "\n".join(f"    {line}" for line in shown)
        if self.stderr:
            shown = self.stderr[-_OUTPUT_TAIL:]
            text += "\n  engine stderr (last lines):\n" + "\n".join(f"    {line}" for line in shown)
        return text


class EngineTimeout(EngineError):
    """The engine did not answer in time.  The engine process has been killed."""


class EngineTerminated(EngineError):
    """The engine process could not be started, exited, or closed its stdout.

    ``returncode`` is its exit status when known (negative: killed by that signal).
    """

    def __init__(self, message: str, *, returncode: Optional[int] = None, **kwargs: Any):
        self.returncode = returncode
        super().__init__(message, **kwargs)


class EngineProtocolError(EngineError):
    """The engine answered, but not correctly.

    ``kind`` is ``"illegal"`` (a well-formed move the rules forbid here),
    ``"malformed"`` (a reply that looks like a move but is not in the exact
    form ``move XX`` / ``move XXXX``), ``"error"`` (the engine answered
    ``error ...``) or ``"unexpected"``; ``reply`` is the offending line.
    """

    def __init__(self, message: str, *, kind: str = "unexpected", reply: Optional[str] = None, **kwargs: Any):
        self.kind = kind
        self.reply = reply
        super().__init__(message, **kwargs)


# ---------------------------------------------------------------- processes
def _kill_group(proc: "subprocess.Popen[str]") -> None:
    """SIGKILL to the process group ``proc`` leads, unless its leader has been waited
    for and the group id may belong to another process now (a recycled pid)."""
    if os.name != "posix" or (proc.returncode is not None and not _reaper.may_kill_group(proc.pid)):
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_process_group(proc: "subprocess.Popen[str]") -> None:
    """Kill ``proc`` and everything in its process group (it leads its own group)."""
    _kill_group(proc)
    try:
        proc.kill()
    except OSError:
        pass


def _finalize(proc: "subprocess.Popen[str]") -> None:
    """Last-resort cleanup when a ProtocolEngine is garbage collected or Python exits."""
    if proc.poll() is None:
        _kill_process_group(proc)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
    else:
        _kill_group(proc)           # the leader is gone; clean up anything it left in its group
    _reaper.forget(proc.pid)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


def _read_lines(stream: IO[str], sink: "queue.Queue[Optional[str]]") -> None:
    try:
        for raw in iter(stream.readline, ""):
            sink.put(raw.rstrip("\r\n"))
    except (OSError, ValueError):
        pass
    finally:
        sink.put(None)  # end of output


def _read_stderr(stream: IO[str], tail: Deque[str]) -> None:
    try:
        for raw in iter(stream.readline, ""):
            tail.append(raw.rstrip("\r\n"))
    except (OSError, ValueError):
        pass


#: the longest wait a time limit, grace or timeout may ask for (None: as long as it takes);
#: under every platform's threading.TIMEOUT_MAX
MAX_WAIT_S = 1e6


def _wait_seconds(name: str, value: Any, *, allow_zero: bool = False) -> float:
    """``value`` as seconds to wait: finite, > 0 (>= 0 with ``allow_zero``), at most MAX_WAIT_S."""
    if isinstance(value, float) and math.isinf(value):      # check_seconds would point at Engine.analysis
        raise ValueError(f"{name} must be at most {MAX_WAIT_S:g} seconds, not {value!r}")
    return check_seconds(name, value, allow_zero=allow_zero, upper=MAX_WAIT_S)


class ProtocolEngine:
    """An external engine process spoken to over the Connect6 engine protocol.

    Create one with :meth:`popen` and use it as a context manager; the process
    (and everything it started) is killed when the block ends, on
    :meth:`close`, after a timeout, and on POSIX even when the process that
    started it is killed outright (:mod:`connect6.protocol._reaper`).

    ``name`` is what the engine answered to ``name``.
    """

    def __init__(self, process: "subprocess.Popen[str]", command: Sequence[str], *, grace: float = 0.5,
                 time_command: Optional[str] = None, double_first_stone: bool = True):
        self.process = process
        self.command = list(command)
        self.grace = _wait_seconds("grace", grace, allow_zero=True)
        self.time_command = time_command
        self.double_first_stone = double_first_stone
        self.name: Optional[str] = None
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._stderr: Deque[str] = collections.deque(maxlen=200)
        self._eof = False
        self._closed = False
        self._finalizer = weakref.finalize(self, _finalize, process)
        self._threads = [
            threading.Thread(target=_read_lines, args=(process.stdout, self._lines), daemon=True,
                             name=f"connect6-engine-{process.pid}-stdout"),
            threading.Thread(target=_read_stderr, args=(process.stderr, self._stderr), daemon=True,
                             name=f"connect6-engine-{process.pid}-stderr"),
        ]
        for t in self._threads:
            t.start()

    # ------------------------------------------------------------ start and stop
    @classmethod
    def popen(cls, command: Union[str, Sequence[str]], cwd: Optional[str] = None, *,
              timeout: float = 10.0, grace: float = 0.5, env: Optional[Mapping[str, str]] = None,
              time_command: Optional[str] = None, double_first_stone: bool = True,
              started: Optional[Callable[["ProtocolEngine"], None]] = None) -> "ProtocolEngine":
        """Start ``command`` (a string split like a shell would, or an argv list)
        and ask its name.

        ``timeout``: seconds to wait for the ``name`` answer.  ``grace``:
        seconds added to every :meth:`play` time limit before the engine is
        declared lost on time.  ``time_command``: when given (for example
        ``"time {seconds:g}"`` for ``connect6 engine``), it is formatted with
        the move's time limit and sent before each ``next``; the plain
        protocol has no time command, so by default nothing is sent.
        ``double_first_stone``: send Black's first stone as ``black JJJJ``
        the way the ConnectMore GUI does (True) or as ``black JJ``.
        ``started``: called with the engine once its process runs, before its
        name is asked, so that another thread can :meth:`kill` an engine that
        is slow to start (popen then raises :class:`EngineTerminated`).

        Raises :class:`EngineTerminated` when the process cannot be started or
        exits, :class:`EngineTimeout` when it does not answer ``name``.
        """
        if isinstance(command, str):
            argv = shlex.split(command, posix=os.name == "posix")
        else:
            argv = [str(a) for a in command]
        if not argv:
            raise ValueError("an engine command is needed")
        timeout = _wait_seconds("timeout", timeout)
        _wait_seconds("grace", grace, allow_zero=True)      # before a process is started
        # its own process group, killed as a whole
        new_session = os.name == "posix"
        flags = 0 if new_session else int(getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))
        try:
            proc = subprocess.Popen(
                argv, cwd=cwd, env=None if env is None else dict(env), stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
                errors="replace", bufsize=1, start_new_session=new_session, creationflags=flags)
        except OSError as exc:
            raise EngineTerminated(f"could not start engine {shlex.join(argv)}: {exc}", command=argv) from exc
        engine = cls(proc, argv, grace=grace, time_command=time_command, double_first_stone=double_first_stone)
        try:
            if new_session:
                _reaper.watch(proc.pid)     # killed even if this process is killed outright
            if started is not None:
                started(engine)
            engine.name = engine._ask_name(timeout)
        except BaseException:
            engine.close()
            raise
        return engine

    def __enter__(self) -> "ProtocolEngine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"pid={self.process.pid}"
        return f"<ProtocolEngine {self.name!r} {state} {shlex.join(self.command)!r}>"

    @property
    def closed(self) -> bool:
        return self._closed

    def quit(self, timeout: float = 1.0) -> None:
        """Send ``quit``, give the engine ``timeout`` seconds to exit, then kill it."""
        if self._closed:
            return
        try:
            self._send("quit")
        except EngineTerminated:
            pass
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        self._shutdown()

    def close(self) -> None:
        """Stop the engine (``quit``, then kill whatever is left).  Safe to call twice."""
        self.quit()

    def kill(self) -> None:
        """Kill the engine's process group at once."""
        if not self._closed:
            self._shutdown()

    def _shutdown(self) -> None:
        self._closed = True
        _kill_process_group(self.process)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        self._finalizer()  # closes the pipes and sweeps the process group
        for t in self._threads:
            t.join(timeout=1)

    # ------------------------------------------------------------ low level
    def send(self, line: str) -> None:
        """Write one command line to the engine (no answer is read)."""
        if "\n" in line or "\r" in line:
            raise ValueError("one command per line: no newline inside a command")
        self._check_open()
        self._send(line)

    def _send(self, line: str) -> None:
        stdin = self.process.stdin
        try:
            if stdin is None:
                raise ValueError("no input pipe")
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise self._terminated(f"the engine closed its input (writing {line!r}: {exc})", []) from exc

    def _check_open(self) -> None:
        if self._closed:
            raise EngineTerminated("the engine has been closed", command=self.command)
        if self._eof:
            raise self._terminated("the engine had already exited", [])

    def _stderr_tail(self) -> List[str]:
        return list(self._stderr)

    def _terminated(self, message: str, output: List[str]) -> EngineTerminated:
        """The error for an engine that stopped: its exit status when it has
        one, ``output`` and whatever else it printed that was not read yet (a
        write can fail before the reader has seen the last lines), and the
        tail of its stderr."""
        try:
            rc = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            rc = None
        for t in self._threads if rc is not None else self._threads[1:]:
            t.join(timeout=0.5)  # let the readers catch up with what it wrote
        if rc is not None:
            message += f" (exit status {rc})"
            output = output + self._drain()
        err = EngineTerminated(message, returncode=rc, output=output, stderr=self._stderr_tail(),
                               command=self.command)
        self._shutdown()
        return err

    def _next_line(self, deadline: Optional[float]) -> Optional[str]:
        """The next stdout line; None at end of output; raises queue.Empty at the deadline."""
        if deadline is None:
            line = self._lines.get()
        else:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        if line is None:
            self._eof = True
        return line

    def _drain(self) -> List[str]:
        lines: List[str] = []
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return lines
            if line is None:
                self._eof = True
                return lines
            lines.append(line)

    def _ask_name(self, timeout: float) -> str:
        self._send("name")
        deadline = time.monotonic() + timeout
        output: List[str] = []
        while True:
            try:
                line = self._next_line(deadline)
            except queue.Empty:
                self._shutdown()
                raise EngineTimeout(f"no answer to 'name' within {timeout:g} s", output=output,
                                    stderr=self._stderr_tail(), command=self.command) from None
            if line is None:
                raise self._terminated("the engine exited before answering 'name'", output)
            name = parse_name_reply(line)
            if name is not None:
                return name
            output.append(line)

    # ------------------------------------------------------------ playing
    def _placement(self, index: int, move: Move) -> str:
        return placement("black" if index % 2 == 0 else "white", move, self.double_first_stone)

    def play(self, board: Board, time_limit: Optional[float] = None, *, grace: Optional[float] = None) -> Move:
        """The engine's move for the side to move on ``board``.

        The engine is sent ``new xxx``, every move of ``board.move_stack`` as
        a ``black``/``white`` placement, then ``next``.  It must answer within
        ``time_limit`` seconds plus ``grace`` (default: the engine's
        ``grace``) with exactly ``move XX`` or ``move XXXX``, a legal move
        on ``board``.  ``time_limit=None`` waits as long as it takes.

        Raises :class:`EngineTimeout` (the engine is killed),
        :class:`EngineTerminated` or :class:`EngineProtocolError` (illegal
        move, a malformed move reply, or an ``error`` answer).  After an
        illegal move the engine can be used again; after a timeout, a
        malformed reply or an ``error`` answer it has been killed.
        """
        if not isinstance(board, Board):
            raise TypeError(f"play needs a connect6.Board, not {type(board).__name__}")
        outcome = board.outcome()
        if outcome is not None:
            raise ValueError(f"the game is over ({outcome.result()}): there is no move to play")
        if time_limit is not None:
            time_limit = _wait_seconds("time_limit", time_limit)
        extra = self.grace if grace is None else _wait_seconds("grace", grace, allow_zero=True)
        if board.unfinished_turn:
            raise ValueError("the turn is half made (push_stone): finish it before asking for a move")
        if sum(len(m) for m in board.move_stack) != int(board.to_numpy().sum()):
            # only the moves are sent: a board set up stone by stone (from_numpy, add_stone) would
            # be another position to the engine
            raise ValueError("the board has stones outside its move history (from_numpy or add_stone): "
                             "the protocol sends the game as its moves")
        self._check_open()
        stale = self._drain()  # anything printed since the last command (late banners, notes)
        if self._eof:
            raise self._terminated("the engine exited", stale)
        commands = ["new xxx"] + [self._placement(i, m) for i, m in enumerate(board.move_stack)]
        if self.time_command and time_limit is not None:
            commands.append(self.time_command.format(seconds=time_limit))
        commands.append("next")
        start = time.monotonic()
        try:
            for line in commands:
                self._send(line)
            return self._await_move(board, start, time_limit, extra, stale)
        except EngineError:
            raise                   # each case has left the engine usable (an illegal move) or killed it
        except BaseException:
            # Ctrl-C (or another error) while the engine thinks: its answer to `next` may
            # still come and be read as the move of the next position asked; kill it
            self._shutdown()
            raise

    def _await_move(self, board: Board, start: float, time_limit: Optional[float], extra: float,
                    stale: List[str]) -> Move:
        """Read the engine's answer to ``next`` (sent at ``start``) until a move reply comes."""
        deadline = None if time_limit is None else start + time_limit + extra
        output: List[str] = []
        lookalikes: List[str] = []
        while True:
            try:
                line = self._next_line(deadline)
            except queue.Empty:
                waited = time.monotonic() - start
                self._shutdown()
                common = dict(output=stale + output, stderr=self._stderr_tail(), command=self.command)
                if lookalikes:
                    raise EngineProtocolError(
                        f"malformed move reply {lookalikes[0]!r} (expected {MOVE_REPLY_FORM}) "
                        f"and no valid move within {waited:.2f} s",
                        kind="malformed", reply=lookalikes[0], **common) from None
                raise EngineTimeout(f"no move within {waited:.2f} s (limit {time_limit:g} s + {extra:g} s grace)",
                                    **common) from None
            if line is None:
                if lookalikes:
                    err = self._terminated("the engine exited", stale + output)
                    raise EngineProtocolError(
                        f"malformed move reply {lookalikes[0]!r} (expected {MOVE_REPLY_FORM}), "
                        "then the engine exited", kind="malformed", reply=lookalikes[0],
                        output=err.output, stderr=err.stderr, command=self.command)
                raise self._terminated("the engine exited instead of answering 'next'", stale + output)
            letters = parse_move_reply(line)
            if letters is not None:
                return self._checked_move(board, letters, line, stale + output)
            if line.startswith("error"):
                # it rejected part of the game: its state is unknown and an answer to `next`
                # may still come, so it cannot be trusted with another position
                self._shutdown()
                raise EngineProtocolError(f"the engine answered {line!r}", kind="error", reply=line,
                                          output=stale + output, stderr=self._stderr_tail(), command=self.command)
            if looks_like_move_reply(line):
                lookalikes.append(line)
            output.append(line)

    def _checked_move(self, board: Board, letters: str, line: str, output: List[str]) -> Move:
        def illegal(message: str) -> EngineProtocolError:
            return EngineProtocolError(message, kind="illegal", reply=line, output=output,
                                       stderr=self._stderr_tail(), command=self.command)
        try:
            move = parse_protocol_move(letters, board.stones_to_place)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise illegal(f"illegal move {line!r}: {exc}") from None
        try:
            board.copy().push(move)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise illegal(f"illegal move {line!r} ({move}): {exc}") from None
        return move
