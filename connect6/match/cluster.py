"""Games on a Dask cluster: ``--cluster local:N`` or ``--cluster tcp://HOST:8786``.

The runner schedules games on any ``concurrent.futures.Executor``; a Dask
client's :meth:`~distributed.Client.get_executor` is one, so a match or a
tournament on a cluster is the same code path as on a process pool.  Each
game is a picklable, seeded :class:`~connect6.match.game.GameJob`; workers
only play games and send their records back, and the driver alone writes
``games.jsonl`` and the SGF files.  When a worker dies mid-game the
scheduler runs that game again on another worker (its seed makes it the same
job), so a game is never lost or counted twice; a game whose workers keep
dying fails and is played again by ``--resume``.

``dask[distributed]`` is an optional extra: ``pip install "connect6[cluster]"``.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import re
import sys
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, TypeVar

if TYPE_CHECKING:
    import distributed
    from distributed.cfexecutor import ClientExecutor
    from typing_extensions import ParamSpec

    _P = ParamSpec("_P")
_R = TypeVar("_R")

__all__ = ["Cluster", "GameExecutor", "open_cluster", "INSTALL_HINT"]

INSTALL_HINT = 'pip install "connect6[cluster]" (or pip install "dask[distributed]")'
#: seconds GameExecutor.busy() waits for the scheduler's answer (no answer: busy)
BUSY_TIMEOUT_S = 5.0


def _require_distributed() -> None:
    """Raise ValueError naming the extra to install when Dask's distributed is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ValueError(f"--cluster needs Dask's distributed scheduler, which is not installed: "
                         f"{INSTALL_HINT}") from None


def released_task_probe() -> Optional[Callable[[], bool]]:
    """In a task running on a Dask worker: a function that says whether the
    scheduler has let go of this thread's task, as it does when the task's
    client (the match's driver) dies, even by kill -9, or cancels it.  The
    game then stops and kills its engines instead of playing on for no one.
    None outside a worker's task (and when Dask is not imported at all)."""
    if "distributed" not in sys.modules:      # never import Dask into a process that does not use it
        return None
    try:
        from distributed import get_worker
        worker = get_worker()
        key = worker.get_current_task()
    except (ImportError, ValueError, KeyError):  # not a worker, or not in one of its tasks
        return None

    def released() -> bool:
        task = worker.state.tasks.get(key)
        return task is None or task.state == "cancelled"
    return released


class GameExecutor(concurrent.futures.Executor):
    """The executor games are submitted to: a Dask client's ``get_executor()``
    that asks the scheduler for a game's ``slots`` (``GameJob.slots``) of
    the workers' ``slots`` resource when the workers declare one (``dask
    worker --resources slots=K``), so that an engine using two cores takes two
    of a machine's slots.  Without the resource every game takes one thread."""

    RESOURCE = "slots"

    def __init__(self, client: distributed.Client) -> None:
        self.client = client
        self.plain: ClientExecutor = client.get_executor(pure=False)
        self._by_slots: Dict[int, ClientExecutor] = {}

    @property
    def slots(self) -> int:
        """The games the workers can play at once: their ``slots`` resource, else their threads."""
        declared = self.worker_slots()
        if declared:
            return max(1, int(sum(declared)))
        threads: Dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    def worker_slots(self) -> List[float]:
        """The ``slots`` resource of each worker (empty when none declares it)."""
        info: Dict[str, Any] = self.client.scheduler_info()          # the scheduler's JSON-like report
        workers = info.get("workers", {}).values()
        return [w.get("resources", {}).get(self.RESOURCE, 0) for w in workers
                if w.get("resources", {}).get(self.RESOURCE)]

    def submit(self, fn: Callable[_P, _R], /, *args: _P.args,
               **kwargs: _P.kwargs) -> concurrent.futures.Future[_R]:
        job = args[0] if args else None
        need = getattr(job, "slots", 1)
        capacity = self.worker_slots()
        if not capacity:
            future: concurrent.futures.Future[_R] = self.plain.submit(fn, *args, **kwargs)
            return future
        if need > max(capacity):
            raise ValueError(f"a game needs {need} slots but no worker has more than {max(capacity):g} "
                             f"(dask worker --resources {self.RESOURCE}=K)")
        if need not in self._by_slots:
            self._by_slots[need] = self.client.get_executor(pure=False, resources={self.RESOURCE: need})
        future = self._by_slots[need].submit(fn, *args, **kwargs)
        return future

    def busy(self) -> bool:
        """Whether any worker is running a task now (when asked after a Ctrl-C:
        the games the driver still waits to unwind; queued ones never start).
        True when the scheduler cannot be asked."""
        scheduler = self.client.scheduler
        if scheduler is None:           # a closed client
            return True
        try:
            processing: Dict[str, Any] = self.client.sync(scheduler.processing, workers=None,
                                                          callback_timeout=BUSY_TIMEOUT_S)
        except Exception:
            return True
        return any(processing.values())

    def status_queue(self) -> distributed.Queue:
        """A Dask queue the games put their progress in (for a live display)."""
        from distributed import Queue
        return Queue(client=self.client)

    def stop_event(self) -> distributed.Event:
        """A Dask event the driver sets to stop the games running on the workers."""
        from distributed import Event
        return Event(client=self.client)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        for executor in [self.plain, *self._by_slots.values()]:
            executor.shutdown(wait=wait)


class Cluster:
    """A Dask client (and the local cluster it owns, if any) with the executor
    games are submitted to.  ``slots``: the games the workers can play at once
    (their ``slots`` resource, else their threads).  Use as a context
    manager, or call :meth:`close`."""

    def __init__(self, client: distributed.Client, local: Optional[distributed.LocalCluster] = None) -> None:
        self.client = client
        self.local = local
        self.executor = GameExecutor(client)

    @property
    def slots(self) -> int:
        return self.executor.slots

    @property
    def workers(self) -> int:
        """The workers connected to the scheduler now."""
        threads: Dict[str, int] = self.client.nthreads()
        return len(threads)

    @property
    def address(self) -> str:
        scheduler = self.client.scheduler
        address = None if scheduler is None else scheduler.address
        if address is None:
            raise ValueError("the Dask client has no scheduler (it is closed)")
        return str(address)

    def close(self) -> None:
        try:
            self.executor.shutdown(wait=False)
        finally:
            self.client.close()
            if self.local is not None:
                self.local.close()

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _this_package_first() -> None:
    """Local workers are spawned with this process's ``sys.path``: put the
    folder the running connect6 was imported from first, so that they import
    the same (compiled) package and not, say, a source checkout that another
    entry of the path points to (a worker that cannot import it never runs a game)."""
    import connect6
    home = os.path.dirname(os.path.dirname(os.path.abspath(connect6.__file__)))
    if not sys.path or sys.path[0] != home:
        sys.path.insert(0, home)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """While a local cluster starts its workers: SIGINT ignored, which they
    inherit, so that Ctrl-C in the terminal (sent to every process of the
    foreground group) does not kill them half-started with tracebacks.  A
    Ctrl-C in that moment (a few seconds) is lost: press it again.  Workers
    started later (a dead one replaced) ignore it through
    :class:`~connect6.match._dask_plugin.CtrlCToTheDriver`."""
    import signal
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to set
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


#: the most worker processes ``--cluster local:N`` starts on this machine
MAX_LOCAL_WORKERS = 256


def open_cluster(address: str, timeout: float = 10.0, quiet: bool = True) -> Cluster:
    """Connect to a cluster: ``local:N`` starts a ``LocalCluster`` of N worker
    processes (one game each at a time); ``tcp://HOST:PORT`` (or ``HOST:PORT``)
    connects to a running scheduler within ``timeout`` seconds.  Raises
    ValueError naming the problem (Dask missing, bad address, unreachable
    scheduler).

    >>> open_cluster("local:0")
    Traceback (most recent call last):
    ...
    ValueError: --cluster local:N needs N >= 1 worker processes, at most 256, not 'local:0'
    """
    if not isinstance(address, str) or not address.strip():
        raise ValueError("--cluster needs local:N or tcp://HOST:PORT")
    address = address.strip()
    local = re.fullmatch(r"local:(\d{1,9})", address)
    if address.startswith("local:") and (local is None or not 1 <= int(local.group(1)) <= MAX_LOCAL_WORKERS):
        raise ValueError(f"--cluster local:N needs N >= 1 worker processes, at most {MAX_LOCAL_WORKERS}, "
                         f"not {address[:40]!r}")
    _require_distributed()
    import distributed
    if local is not None:
        _this_package_first()
        with _sigint_ignored():
            cluster = distributed.LocalCluster(
                n_workers=int(local.group(1)), threads_per_worker=1, processes=True, dashboard_address=":0",
                silence_logs=logging.ERROR if quiet else logging.WARNING)
        try:
            client = distributed.Client(cluster)
            from connect6.match._dask_plugin import CtrlCToTheDriver
            client.register_plugin(CtrlCToTheDriver(), name="connect6-ctrl-c-to-the-driver")
            return Cluster(client, cluster)
        except BaseException:
            cluster.close()
            raise
    if not re.fullmatch(r"(tcp|tls)://[^\s/]+:\d+|[^\s/:]+:\d+", address):
        raise ValueError(f"--cluster {address!r}: expected local:N or a scheduler address like tcp://HOST:8786")
    if "://" not in address:
        address = "tcp://" + address
    try:
        client = distributed.Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"--cluster: cannot reach the Dask scheduler at {address} within {timeout:g} s "
                         f"({type(exc).__name__}: {exc})") from None
    return Cluster(client)


def cluster_slots(cluster: Optional[Cluster], concurrency: Optional[int]) -> Optional[int]:
    """Games in flight on ``cluster``: ``concurrency`` if given, else the workers' threads."""
    if cluster is None or concurrency is not None:
        return concurrency
    return cluster.slots
