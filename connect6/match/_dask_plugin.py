"""The Dask worker plugin of ``--cluster local:N`` (imported only with the ``cluster`` extra)."""
from __future__ import annotations

import signal
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin


class CtrlCToTheDriver(WorkerPlugin):
    """Makes the workers of a local cluster ignore SIGINT, as the workers of
    our own process pool do.  Ctrl-C in a terminal reaches every process of
    the foreground group; the driver then stops the games through their stop
    event (their engines are killed) and closes the cluster.  Without it each
    worker would die at once, with tracebacks, before its game could kill its
    engines.  Workers started by hand (``dask worker``) are not touched: the
    plugin is registered on a local cluster only."""

    def setup(self, worker: Any) -> None:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # pragma: no cover - not the worker process's main thread
            pass
