"""Engines outlive no process that started them, even one killed outright.

A process that is sent SIGKILL (a Dask worker killed by ``kill -9`` or by the
out-of-memory killer, a driver killed the same way) runs no cleanup, so the
external engines it started would go on running, and a spinning one would slow
every later game on the machine.  On POSIX the first engine a process starts
also starts a small watcher, the *reaper*: a child Python process that holds
the read end of a pipe whose only write end is in the engines' owner.  The
owner writes ``+PID START`` when an engine starts and ``-PID`` when it is
gone; when the pipe reaches end of file, which the kernel guarantees however
the owner ends, the reaper kills the process group of every engine still
listed (each engine leads its own session and group) and exits.

A group is killed only if it can still be the engine's: ``START`` is the
leader's start time from ``/proc``, read by the owner while the engine is its
unwaited child (so its pid cannot have been recycled yet), and the reaper
skips a pid that now belongs to a process started at another time.  A leader
already gone leaves its group's id unused until the group ends, so that group
is killed.  Without ``/proc`` (macOS, the BSDs) a group is killed when its
pid still leads a session or no process has it.  The owner sweeps a group
whose leader it has waited for by the same rule (:func:`may_kill_group`).  A
forked child does not inherit its parent's reaper (the fork hooks close its
pipe in the child): it starts its own.

The reaper is a safety net, not the way engines are stopped: ``close()``,
``kill()`` and the finalizers of :mod:`connect6.protocol.client` do that.
If the reaper cannot be started (no usable ``sys.executable``, a frozen
application) the engine still runs, and a RuntimeWarning says, once, that it
is unguarded.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import warnings
from typing import IO, Any, Callable, Dict, FrozenSet, List, Optional

__all__ = ["watch", "forget", "may_kill_group", "watched", "reaper_pid"]

# The start time of a process as /proc gives it (None: no such process or no /proc), and whether a
# listed engine's process group may be killed: the same code in the owner and in the reaper.
_SHARED = r'''
import os


def start_time(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError, UnicodeDecodeError):
        return None


def may_kill(pid, start):
    # start: the leader's start time when it was listed, or "-" without /proc
    if start != "-":
        now = start_time(pid)
        return now is None or now == start      # another start time: the pid was recycled
    try:
        return os.getsid(pid) == pid            # our engines lead their sessions
    except ProcessLookupError:
        return True                             # no leader: its group may still hold what it left
    except OSError:
        return False                            # a process that cannot be asked is not ours to kill
'''

# Run by the reaper process with ``python -I -S -c``: nothing but the standard library.
REAPER_SOURCE = _SHARED + r'''
import signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
listed = {}
for line in sys.stdin.buffer:
    words = line.split()
    try:
        pid = int(words[0][1:])
    except (IndexError, ValueError):
        continue
    if words[0][:1] == b"+" and len(words) == 2:
        listed[pid] = words[1].decode(errors="replace")
    elif words[0][:1] == b"-":
        listed.pop(pid, None)
for pid, start in listed.items():
    if may_kill(pid, start):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
'''

_namespace: Dict[str, Any] = {}
exec(_SHARED, _namespace)
_start_time: Callable[[int], Optional[str]] = _namespace["start_time"]
_may_kill: Callable[[int, str], bool] = _namespace["may_kill"]
_HAVE_PROC = os.path.exists("/proc/self/stat")

_lock = threading.RLock()     # re-entrant: forget() may run from a finalizer while watch() holds it
_proc: Optional["subprocess.Popen[bytes]"] = None
_pipe: Optional[IO[bytes]] = None
_listed: Dict[int, str] = {}
_warned = False


def _unguarded(reason: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(f"engines started by this process are not guarded against its being killed: {reason}",
                      RuntimeWarning, stacklevel=4)


def _start_reaper() -> None:
    """Start the reaper and tell it every engine listed (a warning, once, if it cannot run)."""
    global _proc, _pipe
    if getattr(sys, "frozen", False) or not sys.executable:
        _unguarded("no Python interpreter to run the reaper with")
        return
    try:
        proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", REAPER_SOURCE], stdin=subprocess.PIPE, bufsize=0,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    except (OSError, ValueError, TypeError) as exc:
        _unguarded(f"cannot start the reaper ({exc})")
        return
    _proc, _pipe = proc, proc.stdin
    _send("".join(f"+{pid} {start}\n" for pid, start in _listed.copy().items()))


def _send(text: str) -> None:
    """Write ``text`` to the reaper; a dead reaper is dropped (the next engine starts a new one)."""
    data = text.encode()
    while data and _pipe is not None:
        try:
            written = _pipe.write(data)       # unbuffered: whole lines up to PIPE_BUF bytes at a time
        except (OSError, ValueError):
            written = None
        if not written:
            _drop()
            return
        data = data[written:]


def _drop() -> None:
    """Forget the reaper: killed first if it runs, so that closing its pipe cannot set it off."""
    global _proc, _pipe
    pipe, proc, _pipe, _proc = _pipe, _proc, None, None
    if proc is not None:
        try:
            proc.kill()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
    if pipe is not None:
        try:
            pipe.close()
        except OSError:
            pass


def watch(pid: int) -> None:
    """List the engine ``pid`` (a child of this process, not yet waited for, leading its own
    session) with the reaper, starting the reaper first if need be."""
    if os.name != "posix":
        return
    with _lock:
        _listed[pid] = (_start_time(pid) or "-") if _HAVE_PROC else "-"
        if _proc is not None and _proc.poll() is not None:
            _drop()
        if _pipe is None:
            _start_reaper()
        else:
            _send(f"+{pid} {_listed[pid]}\n")


def forget(pid: int) -> None:
    """The engine ``pid`` and its group are gone: the reaper no longer kills that group."""
    with _lock:
        if _listed.pop(pid, None) is not None:
            _send(f"-{pid}\n")


def may_kill_group(pid: int) -> bool:
    """Whether the process group ``pid`` can still be that of the engine listed under that
    pid, once its leader may have been waited for (and its pid recycled): as the reaper
    decides.  False for a pid not listed, which cannot be told apart."""
    with _lock:
        start = _listed.get(pid)
    return start is not None and _may_kill(pid, start)


def watched() -> FrozenSet[int]:
    """The engines this process has listed with its reaper."""
    with _lock:
        return frozenset(_listed)


def reaper_pid() -> Optional[int]:
    """The process id of this process's reaper, None before its first engine."""
    with _lock:
        return None if _proc is None else _proc.pid


def _pipe_fd() -> Optional[int]:
    """The write end of the reaper's pipe (None without a reaper), for tests."""
    with _lock:
        return None if _pipe is None else _pipe.fileno()


# A fork while another thread starts the reaper would copy a pipe the child's hook cannot see:
# the lock is held across every fork.
_held: List[bool] = []


def _before_fork() -> None:
    _held.append(_lock.acquire(timeout=5))


def _after_fork_in_parent() -> None:
    if _held.pop():
        _lock.release()


def _after_fork_in_child() -> None:
    # the parent's reaper and engines are the parent's: close the inherited write end so the
    # parent's reaper still sees end of file when the parent dies, and start afresh
    global _lock, _proc, _pipe
    _lock = threading.RLock()
    _held.clear()
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
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                        after_in_child=_after_fork_in_child)
