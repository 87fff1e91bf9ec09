"""What one web board may use: searches at a time, open tabs, time per move, idle engines.

:class:`Limits` holds the numbers (``connect6 gui --max-searches ...``);
:class:`SearchSlots` is the first-come-first-served queue that keeps at most
``max_searches`` engine searches running across all tabs.  A waiting tab is
told its place whenever it changes.

>>> import asyncio
>>> async def demo():
...     slots, told = SearchSlots(1), []
...     await slots.acquire()                       # the first search runs at once
...     async def tell(ahead):
...         told.append(ahead)
...     waiting = asyncio.ensure_future(slots.acquire(tell))
...     await asyncio.sleep(0)
...     slots.release()                             # the first ends: the second runs
...     await waiting
...     return told, slots.running, slots.waiting
>>> asyncio.run(demo())
([0], 1, 0)
"""
from __future__ import annotations

import asyncio
import collections
import dataclasses
import os
from typing import Awaitable, Callable, Deque, Dict, Optional

from connect6.options import MAX_TIME

__all__ = ["Limits", "SearchSlots", "DEFAULT_MAX_SESSIONS", "DEFAULT_MAX_TIME", "DEFAULT_IDLE"]

#: open tabs (WebSockets) one board serves at a time
DEFAULT_MAX_SESSIONS = 64
#: the longest time per engine move a page may ask for (seconds)
DEFAULT_MAX_TIME = 60.0
#: a tab that sent nothing for this long releases its engines (seconds)
DEFAULT_IDLE = 600.0


def _cores() -> int:
    return max(1, os.cpu_count() or 1)


@dataclasses.dataclass(frozen=True)
class Limits:
    """The resource limits of one board; ``check()`` names a bad value."""

    max_searches: int = dataclasses.field(default_factory=_cores)
    max_sessions: int = DEFAULT_MAX_SESSIONS
    max_time: float = DEFAULT_MAX_TIME
    idle: float = DEFAULT_IDLE

    def __post_init__(self) -> None:
        for name in ("max_searches", "max_sessions"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be a whole number >= 1, not {value!r}")
        for name in ("max_time", "idle"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
                raise ValueError(f"--{name.replace('_', '-')} must be seconds > 0, not {value!r}")
        if self.max_time > MAX_TIME:        # more than the engine takes: every long move would fail
            raise ValueError(f"--max-time must be at most {MAX_TIME:g} seconds (a year, the most an engine "
                             f"searches a move), not {self.max_time!r}")


Tell = Callable[[int], Awaitable[None]]


class _Waiter:
    __slots__ = ("granted", "moved")

    def __init__(self) -> None:
        self.granted = False
        self.moved = asyncio.Event()


class SearchSlots:
    """At most ``size`` searches at a time; the rest wait in arrival order.

    Used from one event loop: :meth:`acquire` waits for a slot,
    :meth:`release` gives it back (call it from the loop; a search thread
    uses ``loop.call_soon_threadsafe``)."""

    def __init__(self, size: int):
        if size < 1:
            raise ValueError(f"the number of searches at a time must be >= 1, not {size}")
        self.size = size
        self.running = 0
        self._queue: Deque[_Waiter] = collections.deque()
        self.queued_total = 0    # acquisitions that had to wait
        self.started_total = 0   # acquisitions that got a slot

    @property
    def waiting(self) -> int:
        return len(self._queue)

    def try_acquire(self) -> bool:
        """Take a free slot at once if there is one (and nobody waits); True when taken."""
        if self.running < self.size and not self._queue:
            self.running += 1
            self.started_total += 1
            return True
        return False

    async def acquire(self, tell: Optional[Tell] = None) -> None:
        """Wait for a free slot; ``tell(ahead)`` (awaited) each time the number of searches
        waiting ahead of this one changes.  Cancelled, it leaves the queue (or frees the slot
        it was just given)."""
        if self.try_acquire():
            return
        waiter = _Waiter()
        self._queue.append(waiter)
        self.queued_total += 1
        told: Optional[int] = None
        try:
            while not waiter.granted:
                ahead = self._queue.index(waiter)
                if tell is not None and ahead != told:
                    told = ahead
                    await tell(ahead)
                    continue   # the queue may have moved while we were telling
                waiter.moved.clear()
                await waiter.moved.wait()
        except BaseException:
            if waiter.granted:
                self.release()
            else:
                self._queue.remove(waiter)
                self._wake()
            raise
        self.started_total += 1

    def release(self) -> None:
        """A search ended: its slot goes to the first waiting one."""
        if self._queue:
            first = self._queue.popleft()
            first.granted = True
            first.moved.set()
            self._wake()
        elif self.running > 0:
            self.running -= 1

    def _wake(self) -> None:
        for waiter in self._queue:
            waiter.moved.set()

    def stats(self) -> Dict[str, int]:
        return {"running": self.running, "waiting": self.waiting, "limit": self.size,
                "started_total": self.started_total, "queued_total": self.queued_total}
