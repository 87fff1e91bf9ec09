"""What one web board may use (connect6.web.limits): the search queue across tabs, the
number of open tabs, the time per move, idle tabs giving their engines back, and a closed
tab's engine being freed.  Every wait here is on a message or an event, never on time."""
import asyncio
import gc
import threading
import weakref

import pytest

pytest.importorskip("starlette", reason="the web board needs the web extra: pip install 'connect6[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from connect6 import Engine, Move, SearchResult  # noqa: E402
from connect6.web.limits import Limits, SearchSlots  # noqa: E402
from _web_helpers import Tab  # noqa: E402
from connect6.web.server import TRY_AGAIN_LATER, create_app  # noqa: E402

LOCAL, WS = "http://127.0.0.1:8066", "ws://127.0.0.1:8066/ws"


class _Handle:
    """An analysis handle that reports depths 1..3, then thinks until stopped (600 s: only a
    broken test gets there)."""

    def __init__(self, board):
        self.board, self.stopped = board, threading.Event()

    def __iter__(self):
        for depth in range(1, 4):
            if self.stopped.is_set():
                return
            yield self._result(depth)
        self.stopped.wait(600)

    def _result(self, depth):
        cells = [c for c in range(361) if self.board.stone_at(c) is None][:self.board.stones_to_place]
        m = Move(cells)
        return SearchResult(move=m, score=depth, pv=(m,), depth=depth, nodes=depth, leaves=depth, time_s=0.0)

    def stop(self):
        self.stopped.set()

    def wait(self):
        return self._result(1)


class EndlessEngine:
    depth = 1

    def __init__(self):
        self.handles = []

    def analysis(self, board, time=None, depth=None):
        self.handles.append(_Handle(board))
        return self.handles[-1]

    def new_game(self):
        pass


def endless_app(**limits):
    engines = []

    def factory(profile):
        engines.append(EndlessEngine())
        return engines[-1]
    app = create_app(engine_factory=factory, analysis_factory=lambda: Engine(depth=1), limits=Limits(**limits))
    return app, engines


# ---------------------------------------------------------------- the search queue
def test_searches_beyond_the_limit_wait_in_order_and_are_told_their_place():
    app, engines = endless_app(max_searches=1)
    with TestClient(app, base_url=LOCAL) as c, c.websocket_connect(WS) as wa, c.websocket_connect(WS) as wb, \
            c.websocket_connect(WS) as wc:
        a, b, cc = Tab(wa), Tab(wb), Tab(wc)
        a.send(type="new", color="white")
        assert a.receive("state")["thinking"] and a.receive("info")["depth"] >= 1
        b.send(type="new", color="white")
        s, q = b.receive_both("state", "queue")
        assert q["ahead"] == 0 and q["message"] == "waiting for the engine: you are next"
        assert s["thinking"] and s["waiting"] == 0 and not s["can_stop"]
        cc.send(type="new", color="white")
        s, q = cc.receive_both("state", "queue")
        assert q["ahead"] == 1 and q["message"] == "waiting for the engine: 1 ahead of you" and s["waiting"] == 1
        b.send(type="move_now")
        assert "has not started yet (waiting for the engine: you are next)" in b.receive("error")["message"]
        load = c.get("/api/info").json()["load"]["searches"]
        assert load["running"] == 1 and load["waiting"] == 2 and load["queued_total"] == 2
        a.send(type="move_now")                           # A's search ends: B's starts, C moves up
        a.state = a.receive("state")
        assert a.settled()["moves"] == ["a1"]
        s = b.receive("state")
        assert s["thinking"] and s["waiting"] is None and s["can_stop"]
        assert b.receive("info")["depth"] >= 1
        assert cc.receive("queue")["ahead"] == 0
        wb.close()                                        # B goes: C's turn
        assert cc.receive("info")["depth"] >= 1
        assert [q["ahead"] for q in cc.saw("queue")] == [1, 0]


def test_a_tab_leaving_the_queue_frees_its_place():
    app, engines = endless_app(max_searches=1)
    with TestClient(app, base_url=LOCAL) as c, c.websocket_connect(WS) as wa:
        a = Tab(wa)
        a.send(type="new", color="white")
        a.receive("info")
        with c.websocket_connect(WS) as wb:
            b = Tab(wb)
            b.send(type="new", color="white")
            b.receive("queue")
            b.send(type="undo")                           # nothing of hers to undo, the search stays queued
            b.receive("error")
            b.send(type="new", color="black")             # a new game as black: the queued search goes
            assert b.receive("state")["thinking"] is False
            assert c.get("/api/info").json()["load"]["searches"]["waiting"] == 0
        assert c.get("/api/info").json()["load"]["searches"] == {
            "running": 1, "waiting": 0, "limit": 1, "started_total": 1, "queued_total": 1}


def test_the_slots_are_first_come_first_served_and_survive_cancellation():
    async def main():
        slots, order = SearchSlots(2), []
        assert slots.try_acquire() and slots.try_acquire() and not slots.try_acquire()

        async def wait(name):
            await slots.acquire()
            order.append(name)
        tasks = [asyncio.ensure_future(wait(n)) for n in "xyz"]
        await asyncio.sleep(0)
        assert slots.waiting == 3
        tasks[1].cancel()                                 # y leaves the queue
        await asyncio.gather(tasks[1], return_exceptions=True)
        assert slots.waiting == 2
        slots.release()
        await tasks[0]
        slots.release()
        await tasks[2]
        assert order == ["x", "z"] and slots.running == 2 and slots.waiting == 0
        slots.release()
        slots.release()
        assert slots.running == 0
        # a waiter cancelled just after it was given the slot gives it back
        assert slots.try_acquire() and slots.try_acquire()
        late = asyncio.ensure_future(slots.acquire())
        await asyncio.sleep(0)
        slots.release()                                   # granted to `late`...
        late.cancel()                                     # ...which is cancelled before it runs
        await asyncio.gather(late, return_exceptions=True)
        assert slots.running == 1 and slots.waiting == 0
    asyncio.run(main())


# ---------------------------------------------------------------- tabs and time
def test_a_tab_beyond_the_limit_is_refused_with_a_reason():
    app, _ = endless_app(max_sessions=2)
    with TestClient(app, base_url=LOCAL) as c:
        with c.websocket_connect(WS) as w1:
            Tab(w1)
            with c.websocket_connect(WS) as w2:
                Tab(w2)
                with pytest.raises(WebSocketDisconnect) as info:
                    with c.websocket_connect(WS) as w3:
                        w3.receive_json()
                assert info.value.code == TRY_AGAIN_LATER
                assert info.value.reason.startswith("the board is full (2 tabs open)")
            with c.websocket_connect(WS) as w3:        # one closed: there is room again
                assert Tab(w3).state["moves"] == []
        assert c.get("/api/info").json()["load"]["sessions_refused"] == 1


def test_the_time_per_move_is_bounded_by_the_board():
    app, _ = endless_app(max_time=5)
    with TestClient(app, base_url=LOCAL) as c, c.websocket_connect(WS) as ws:
        tab = Tab(ws)
        tab.send(type="new", time=6)
        assert "at most 5 s a move" in tab.receive("error")["message"]
        tab.send(type="new", color="black", time=5)
        assert tab.receive("state")["time"] == 5
    app, _ = endless_app(max_time=0.5)
    with TestClient(app, base_url=LOCAL) as c, c.websocket_connect(WS) as ws:
        assert Tab(ws).state["time"] == 0.5               # the default 1 s a move, within the limit


# ---------------------------------------------------------------- engines freed
def test_an_idle_tab_releases_its_engine_and_gets_a_new_one():
    made = []

    def factory(profile):
        made.append(Engine(depth=1, profile=profile))
        return made[-1]
    app = create_app(engine_factory=factory, analysis_factory=lambda: Engine(depth=1), limits=Limits(idle=0.01))
    with TestClient(app, base_url=LOCAL) as c, c.websocket_connect(WS) as ws:
        tab = Tab(ws)
        tab.send(type="click", cell="j10")
        tab.state = tab.receive("state")
        assert len(tab.settled()["moves"]) == 2 and len(made) == 1
        if not tab.saw("released"):
            tab.receive("released")
        assert "released" in tab.saw("released")[0]["message"]
        free = [c for c in ("a1", "b2", "c3") if c not in "".join(tab.state["moves"])][:2]
        tab.send(type="click", cell=free[0])
        tab.send(type="click", cell=free[1])
        while len(tab.state["moves"]) < 4:
            tab.state = tab.receive("state")
        assert len(made) == 2                             # built again for its next move


def _join_searches():
    """Wait for every search thread of the board to end (an event, not a timer)."""
    for t in threading.enumerate():
        if t.name == "connect6-web-search":
            t.join()


def test_a_closed_tabs_engines_are_freed():
    """The engine (its ~24 MB table) of a closed tab is garbage: nothing of the session's
    life (its searches, their threads and handles, its tasks) keeps it alive."""
    refs = []

    def factory(profile):
        engine = Engine(depth=1, profile=profile)
        refs.append(weakref.ref(engine))
        return engine

    def analysis():
        engine = Engine(depth=1)
        refs.append(weakref.ref(engine))
        return engine
    app = create_app(engine_factory=factory, analysis_factory=analysis)
    with TestClient(app, base_url=LOCAL) as c:
        for _ in range(3):
            with c.websocket_connect(WS) as ws:
                tab = Tab(ws)
                tab.send(type="click", cell="j10")        # the engine replies: a search of the tab's engine
                tab.state = tab.receive("state")
                assert len(tab.settled()["moves"]) == 2
                tab.send(type="analyse", text="j10,k11,i11")
                tab.receive("record")
                while len(tab.saw("eval")) < 3:
                    tab.receive("eval")
        _join_searches()
        gc.collect()
        assert len(refs) == 6
        alive = [r for r in refs if r() is not None]
        assert alive == [], f"{len(alive)} engines of closed tabs are still alive: {gc.get_referrers(alive[0]())}"
        assert app.state.board.sessions == set()


def test_freed_tables_go_back_to_the_system_on_glibc():
    import platform
    import sys

    from connect6.web.server import release_freed_tables_to_the_os
    expected = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert release_freed_tables_to_the_os() is expected


def test_max_time_is_at_most_what_an_engine_searches():
    """--max-time 1e9 was accepted, and every move a page asked above a year failed."""
    with pytest.raises(ValueError, match="--max-time must be at most"):
        Limits(max_time=1e9)
    assert Limits(max_time=365 * 24 * 3600).max_time == 365 * 24 * 3600
