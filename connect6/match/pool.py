"""Our own process pool for a match's games: how its workers start, how they
stop on Ctrl-C or SIGTERM (unwinding the game so that its external engines
are killed), and how they and the status manager end when the driver is
killed (they watch their parent)."""
from __future__ import annotations

import concurrent.futures
import contextlib
import os
import threading
import time
from types import FrameType
from typing import Any, List, NoReturn, Optional

__all__ = ["PARENT_POLL_S", "UNWIND_S", "mp_context", "new_pool", "worker_init", "manager_init", "stop_workers"]

#: seconds between a worker's checks that its parent lives, and the time it
#: then gives the game being played to unwind (its engines killed) before it exits
PARENT_POLL_S = 1.0
UNWIND_S = 10.0


def mp_context() -> Any:
    """How to start our worker processes: the platform's default (fork on Linux).

    Not the forkserver or spawn: their children import this package again by
    ``sys.path``, and a match run beside a source checkout (the working
    directory is put on ``sys.path`` for ``py:`` bots) would import the
    uncompiled sources there instead of the installed package and hang the
    pool.  A forked child keeps the modules already loaded."""
    import multiprocessing
    return multiprocessing.get_context()


def new_pool(workers: int) -> concurrent.futures.Executor:
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, initializer=worker_init,
                                                  mp_context=mp_context())


def worker_init() -> None:
    """In a worker process: Ctrl-C is left to the parent, which stops the
    workers with SIGTERM; the first SIGTERM unwinds the game being played (its
    players are closed, external engines killed) and later ones are ignored
    so that they cannot cut that cleanup short.  A worker whose parent dies
    (killed, so it never stops its workers) stops too (:func:`watch_parent`).
    A SIGTERM while this sets up ends the worker quietly once it is done:
    no game has started, and an exception here would be logged by the pool
    with its traceback."""
    import signal

    def _stop(signum: int, frame: Optional[FrameType]) -> NoReturn:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise SystemExit(128 + signum)

    asked: List[int] = []
    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, lambda signum, frame: asked.append(signum))
    threading.Thread(target=watch_parent, args=(os.getppid(),), name="connect6-parent-watch",
                     daemon=True).start()
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _stop)
    if asked:
        os._exit(128 + asked[0])


def watch_parent(parent: int) -> None:
    """Exit this worker once ``parent`` is gone (it is re-parented): nobody
    would ever send it another game or stop it, and the pool's queue, whose
    write end it holds itself, never reports the end.  The game being played
    is unwound first as on SIGTERM (its external engines killed)."""
    import signal
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    if os.name == "posix":
        os.kill(os.getpid(), signal.SIGTERM)        # a real signal interrupts a blocked wait; ignored if one came
    time.sleep(UNWIND_S)
    os._exit(1)


def manager_init() -> None:
    """In the process of the manager that carries the games' statuses: exit
    once the driver is gone (killed, so it never shuts the manager down), as
    a worker does (:func:`watch_parent`)."""
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True,
                     name="connect6-manager-watch").start()


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


def stop_workers(executor: concurrent.futures.Executor) -> None:
    """Stop a ProcessPoolExecutor now: running games are abandoned (their
    engines are killed as the workers unwind).  SIGTERM is sent again every
    quarter second for up to ``UNWIND_S`` while a worker lives: one that
    arrives while the worker is being forked is lost, and a worker that got
    one ignores the next.  A worker is not killed: one whose engine is in the
    middle of a search in compiled code unwinds when the search returns (at
    most the move's time), and killing it would leave its external engines
    running."""
    alive = list((getattr(executor, "_processes", None) or {}).values())  # shutdown() forgets them
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + UNWIND_S
    while alive:
        for proc in alive:
            with contextlib.suppress(Exception):
                proc.terminate()
        step = min(deadline, time.monotonic() + 0.25)
        for proc in alive:
            with contextlib.suppress(Exception):
                proc.join(timeout=max(0.0, step - time.monotonic()))
        alive = [proc for proc in alive if proc.is_alive()]
        if time.monotonic() >= deadline:
            break
