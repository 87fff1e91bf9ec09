"""connect6.web.thinker: the engine adapter of the web board (no web extra needed)."""
import asyncio
import threading


from connect6 import Board, Engine, Move
from connect6.web.thinker import Search, can_stop


def _collect(search):
    async def run():
        return [event async for event in search.events()]
    return run()


def test_a_real_engine_streams_each_iteration_then_the_result():
    async def main():
        engine = Engine(profile="plain", depth=3)
        assert can_stop(engine)
        events = await _collect(Search(engine, Board("j10")))
        kinds = [k for k, _ in events]
        assert kinds == ["info", "info", "info", "done"]
        assert [v.depth for _, v in events[:3]] == [1, 2, 3]       # the engine's own depth
        result = events[-1][1]
        fixed = Engine(profile="plain", depth=3).search(Board("j10"))   # the same search, not iterated
        assert (result.move, result.score, result.pv, result.depth) == (fixed.move, fixed.score, fixed.pv, 3)
        assert result.to_json()["pv"][0] == str(result.move)
    asyncio.run(main())


def test_the_searched_board_is_a_private_copy():
    async def main():
        board = Board("j10")
        search = Search(Engine(depth=1), board)
        board.push("a1a2")                                          # the page moves on meanwhile
        events = await _collect(search)
        assert Board("j10").is_legal(events[-1][1].move)
    asyncio.run(main())


class _SearchOnly:
    """An engine object without the streaming API: search() only, cannot be stopped."""

    depth = 2

    def __init__(self, fail=False):
        self.fail, self.calls, self.fresh = fail, [], 0

    def search(self, board, time=None, depth=None):
        self.calls.append((time, depth))
        if self.fail:
            raise RuntimeError("engine exploded")
        return Engine(depth=1).search(board)

    def new_game(self):
        self.fresh += 1


def test_an_engine_without_analysis_is_searched_once():
    async def main():
        engine = _SearchOnly()
        search = Search(engine, Board(), new_game=True)
        assert not search.stoppable and not can_stop(engine)
        search.stop()                                   # harmless: the search just finishes
        events = await _collect(search)
        assert [k for k, _ in events] == ["done"] and events[0][1].move == Move.parse("j10")
        assert engine.calls == [(None, 2)] and engine.fresh == 1
        await _collect(Search(engine, Board(), time=0.5))
        assert engine.calls[-1] == (0.5, None) and engine.fresh == 1
    asyncio.run(main())


def test_an_engine_error_is_an_event_not_a_crash():
    async def main():
        events = await _collect(Search(_SearchOnly(fail=True), Board()))
        assert [k for k, _ in events] == ["error"] and "exploded" in str(events[0][1])
        events = await _collect(Search(Engine(depth=1), Board("j10 k10l10 a1a2 m10n10 a3a4 o10p10")))
        assert events[0][0] == "error" and "game is over" in str(events[0][1])
    asyncio.run(main())


class _Gate:
    """A stoppable handle that only ends when stopped."""

    def __init__(self, log, name):
        self.log, self.name, self.ended = log, name, threading.Event()
        log.append(("start", name))

    def __iter__(self):
        self.ended.wait(600)   # until stopped (600 s: only a broken test gets there)
        self.log.append(("end", self.name))
        return iter(())

    def stop(self):
        self.ended.set()

    def wait(self):
        return Engine(depth=1).search(Board())


class _GateEngine:
    depth = 1

    def __init__(self):
        self.log, self.handles = [], []

    def analysis(self, board, time=None, depth=None):
        self.handles.append(_Gate(self.log, len(self.handles)))
        return self.handles[-1]


def test_a_new_search_of_an_engine_waits_for_the_stopped_one():
    async def main():
        engine = _GateEngine()
        first = Search(engine, Board())
        while not engine.handles:
            await asyncio.sleep(0.01)
        second = Search(engine, Board())
        await asyncio.sleep(0.1)
        assert engine.log == [("start", 0)]             # the second waits for the first
        first.stop()
        await _collect(first)
        second.stop()                                   # stopped before its handle exists: stops at once
        assert [k for k, _ in await _collect(second)] == ["done"]
        assert engine.log == [("start", 0), ("end", 0), ("start", 1), ("end", 1)]
    asyncio.run(main())


def test_info_messages_are_the_results_json():
    """The page's info line is the engine's own JSON form (connect6.result): no second Info type."""
    async def main():
        events = await _collect(Search(Engine(profile="plain", depth=2), Board("j10")))
        for _, value in events:
            data = value.to_json()
            assert data["depth"] == value.depth and data["score_text"] == value.score_text
            assert data["pv"][0] == str(value.pv[0]) and data["nps"] >= 0
    asyncio.run(main())


def test_an_ended_search_holds_no_reference_to_its_engine():
    """The leak behind a growing server: an ended Search stayed in the module's table of latest
    searches (a strong value under the engine's weak key) with its analysis handle, which holds the
    engine, so no engine of a closed tab was ever freed."""
    import gc
    import weakref

    async def main():
        engine = Engine(profile="plain", depth=2)
        ref, ended = weakref.ref(engine), asyncio.Event()
        search = Search(engine, Board("j10"), on_end=ended.set)
        assert [k for k, _ in await _collect(search)][-1] == "done"
        await ended.wait()                              # on_end: the thread is done with the engine
        assert search.join(None)
        del engine
        gc.collect()
        assert ref() is None, gc.get_referrers(ref())
        search.stop()                                   # still harmless on an ended search
    asyncio.run(main())
