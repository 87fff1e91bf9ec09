"""Engines outlive no process that started them, even one killed outright.

A process that is sent SIGKILL (a Dask worker killed by ``kill -9`` or by the
out-of-memory killer, a driver killed the same way) runs no cleanup, so the
external engines it started would go on running, and a spinning one would slow
every later game on the machine.  On POSIX the first engine a process starts
also starts a small watcher, the *reaper*: a child Python process that holds
the read end of a pipe whose only write end is in the engines' owner.  The
owner writes ``+PID`` when an engine starts and ``-PID`` when it is gone;
when the pipe reaches end of file, which the kernel guarantees however the
owner ends, the reaper kills the process group of every engine still listed
(each engine leads its own group) and exits.  Where there is a ``/proc``, the
reaper notes each engine's start time when it is listed and kills a group only
if its leader still has that start time, so a recycled process id is never
killed.  A forked child does not inherit its parent's reaper: it starts its
own when it starts an engine.

The reaper is a safety net, not the way engines are stopped: ``close()``,
``kill()`` and the finalizers of :mod:`connect6.protocol.client` do that.
If the reaper cannot be started the engine still runs (a RuntimeWarning says
that it is unguarded).
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import warnings
from typing import IO, FrozenSet, Optional, Set

__all__ = ["watch", "forget", "watched", "reaper_pid"]

# Run by the reaper process with ``python -I -S -c``: nothing but the standard library.
REAPER_SOURCE = r"""
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
PROC = os.path.isdir("/proc/self")
def start_time(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None
listed = {}
for line in sys.stdin.buffer:
    try:
        pid = int(line[1:])
    except ValueError:
        continue
    if line[:1] == b"+":
        listed[pid] = start_time(pid) if PROC else b"-"
    elif line[:1] == b"-":
        listed.pop(pid, None)
for pid, start in listed.items():
    if start is not None and (start == b"-" or start_time(pid) == start):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
"""

_lock = threading.Lock()
_proc: Optional["subprocess.Popen[bytes]"] = None
_pipe: Optional[IO[bytes]] = None
_listed: Set[int] = set()
_warned = False


def _start_reaper() -> bool:
    """Start the reaper and tell it every engine listed; False (and a warning, once) if it cannot run."""
    global _proc, _pipe, _warned
    try:
        proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", REAPER_SOURCE], stdin=subprocess.PIPE, bufsize=0,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as exc:
        if not _warned:
            _warned = True
            warnings.warn(f"engines started by this process are not guarded against its being killed: "
                          f"cannot start the reaper ({exc})", RuntimeWarning, stacklevel=4)
        return False
    assert proc.stdin is not None
    _proc, _pipe = proc, proc.stdin
    return _send("".join(f"+{pid}\n" for pid in _listed))


def _send(text: str) -> bool:
    """Write to the reaper; a dead reaper is dropped (the next engine starts a new one)."""
    global _proc, _pipe
    if _pipe is None:
        return False
    try:
        if text:    # unbuffered: one write, atomic on a pipe up to PIPE_BUF bytes
            _pipe.write(text.encode())
        return True
    except (OSError, ValueError):
        _drop()
        return False


def _drop() -> None:
    global _proc, _pipe
    pipe, proc, _pipe, _proc = _pipe, _proc, None, None
    if pipe is not None:
        try:
            pipe.close()
        except OSError:
            pass
    if proc is not None and proc.poll() is None:
        try:
            proc.kill()
        except OSError:
            pass


def watch(pid: int) -> None:
    """List the engine ``pid`` (the leader of its own process group) with the reaper."""
    if os.name != "posix":
        return
    with _lock:
        _listed.add(pid)
        if _pipe is None or (_proc is not None and _proc.poll() is not None):
            _drop()
            _start_reaper()
        else:
            _send(f"+{pid}\n")


def forget(pid: int) -> None:
    """The engine ``pid`` and its group are gone: the reaper no longer kills that group."""
    with _lock:
        if pid in _listed:
            _listed.discard(pid)
            _send(f"-{pid}\n")


def watched() -> FrozenSet[int]:
    """The engines this process has listed with its reaper."""
    with _lock:
        return frozenset(_listed)


def reaper_pid() -> Optional[int]:
    """The process id of this process's reaper, None before its first engine."""
    with _lock:
        return None if _proc is None else _proc.pid


def _after_fork_in_child() -> None:
    # the parent's reaper and engines are the parent's: close the inherited write end so the
    # parent's reaper still sees end of file when the parent dies, and start afresh
    global _lock, _proc, _pipe
    _lock = threading.Lock()
    pipe, proc, _proc, _pipe = _pipe, _proc, None, None
    _listed.clear()
    if proc is not None:
        proc.returncode = 0         # not this process's child: nothing to wait for or warn about
    if pipe is not None:
        try:
            pipe.close()
        except OSError:
            pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
