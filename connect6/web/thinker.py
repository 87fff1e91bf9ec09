"""The one place where the web board calls the engine.

A :class:`Search` runs one engine search in its own thread (the compiled
search releases the GIL, so the event loop keeps serving) and hands what it
learns to the event loop through an :class:`asyncio.Queue`:

* ``("info", Info)`` (:class:`connect6.result.Info`) after each finished iteration (depth, score, principal
  variation, nodes/s), when the engine can stream them;
* then exactly one ``("done", SearchResult)`` or ``("error", exception)``.

``stop()`` is thread-safe and may be called at any time, also before the
thread has started its search or after it has finished.

Engine API used: :meth:`connect6.Engine.analysis` (a handle to iterate for
one :class:`connect6.engine.Info` per finished iteration, ``stop()``,
``wait()`` for the SearchResult).  An engine object without ``analysis``
(a stand-in, or an older connect6) is searched with ``engine.search(board,
time=, depth=)``, which cannot be stopped, shows only its final result and
makes "move now" unavailable.

Without a time the search goes to the engine's own depth (``engine.depth``):
``analysis`` with neither a depth nor a time would run until stopped.

One engine's searches run one after the other: starting an analysis clears
the engine's stop flag, so a new search waits (in its thread) until the
engine's previous search, already told to stop, has ended.

A search that has ended holds no reference to its engine (the module's
table of latest searches forgets it and its analysis handle is dropped), so
the engine of a closed tab is freed with the tab.  ``on_end`` (a callable)
is called on the event loop once the search's thread is done with the
engine: the web board frees the search's slot with it.
"""
from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Any, AsyncIterator, Callable, Optional, Tuple

from connect6.board import Board
from connect6.engine import Engine

__all__ = ["Search", "can_stop"]


#: the latest Search of each engine (a new one waits for the one before)
_latest: "weakref.WeakKeyDictionary[Any, Search]" = weakref.WeakKeyDictionary()
_latest_lock = threading.Lock()


def can_stop(engine: Engine) -> bool:
    """Whether a search of ``engine`` can be stopped early ("move now")."""
    return callable(getattr(engine, "analysis", None))


class Search:
    """One engine search of a private copy of ``board``, started at once in a thread.

    With ``new_game`` the engine first forgets earlier games (its tables)."""

    def __init__(self, engine: Engine, board: Board, *, time: Optional[float] = None,
                 depth: Optional[int] = None, new_game: bool = False,
                 on_end: Optional[Callable[[], None]] = None):
        self._loop = asyncio.get_running_loop()
        self.queue: "asyncio.Queue[Tuple[str, Any]]" = asyncio.Queue()
        self._lock = threading.Lock()
        self._stopped = False
        self._handle: Any = None
        self.stoppable = can_stop(engine)
        self._on_end = on_end
        with _latest_lock:
            self._previous = _latest.get(engine)
            _latest[engine] = self
        self._new_game = new_game   # engine.new_game() first, in the thread (it waits for the engine's lock)
        self._thread = threading.Thread(target=self._run, args=(engine, board.copy(), time, depth),
                                        name="connect6-web-search", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ask the search to end now (its best move so far is still reported)."""
        with self._lock:
            self._stopped = True
            handle = self._handle
        if handle is not None:
            handle.stop()

    @property
    def stopped(self) -> bool:
        return self._stopped

    def _post(self, item: Tuple[str, Any]) -> None:
        try:
            self._loop.call_soon_threadsafe(self.queue.put_nowait, item)
        except RuntimeError:  # the event loop is closed: nobody is listening any more
            pass

    def _run(self, engine: Engine, board: Board, time: Optional[float], depth: Optional[int]) -> None:
        try:
            self._search(engine, board, time, depth)
        finally:
            # forget the engine: an ended search kept in _latest (a strong value of a weak key)
            # with its handle (which holds the engine) kept every closed tab's engine alive
            with _latest_lock:
                if _latest.get(engine) is self:
                    del _latest[engine]
            with self._lock:
                self._handle = None
            if self._on_end is not None:
                on_end, self._on_end = self._on_end, None
                try:
                    self._loop.call_soon_threadsafe(on_end)
                except RuntimeError:  # the event loop is closed
                    pass

    def _search(self, engine: Engine, board: Board, time: Optional[float], depth: Optional[int]) -> None:
        previous, self._previous = self._previous, None
        if previous is not None:
            previous.join()
        try:
            if self._new_game:
                engine.new_game()
            if time is None and depth is None:
                depth = engine.depth
            if self.stoppable:
                handle = engine.analysis(board, time=time, depth=depth)
                with self._lock:
                    self._handle = handle
                    stop_now = self._stopped
                if stop_now:
                    handle.stop()
                for record in handle:
                    self._post(("info", record))
                result = handle.wait()
            else:
                result = engine.search(board, time=time, depth=depth)
        except Exception as exc:  # reported to the page; the server carries on
            self._post(("error", exc))
            return
        self._post(("done", result))

    async def events(self) -> AsyncIterator[Tuple[str, Any]]:
        """The search's events, ending with its ``done`` or ``error`` event."""
        while True:
            kind, value = await self.queue.get()
            yield kind, value
            if kind in ("done", "error"):
                return

    def join(self, timeout: Optional[float] = None) -> bool:
        """Wait for the thread (tests, shutdown); True when it has ended."""
        self._thread.join(timeout)
        return not self._thread.is_alive()
