"""One browser tab: its game against the engine and its analysed record.

A :class:`Session` takes the tab's JSON messages (:meth:`Session.handle_text`)
and answers through an async ``send(dict)`` callable.  Every message is
checked completely before anything changes: a bad one is answered with
``{"type": "error", "message": ...}`` and leaves the session as it was.

Messages from the page (``type`` and its fields):

* ``state``: send the state again.
* ``new``: ``color`` ("black"/"white", the person's colour), ``profile``
  (an engine profile), ``time`` (seconds per engine move, or null for the
  profile's fixed depth), ``position`` (optional stone list to start from);
  fields left out keep their value.
* ``click``: ``cell`` ("j10"): place a stone.  The first stone of a
  two-stone turn stays *pending* until the second; clicking it again (or
  ``takeback``) takes it back.  One stone that makes six ends the game.
* ``takeback``: remove the pending stone.
* ``undo``: take back the person's last whole turn (and the engine's reply).
* ``move_now``: stop the engine's search; it plays its best move so far.
* ``analyse``: ``text`` (a stone list or a Little Golem SGF): answered by a
  ``record`` message, then one ``eval`` message per position.

``refuted`` (in ``state`` for the engine's last move, in ``eval`` for the
best move of a position) is :attr:`connect6.SearchResult.refuted`: the
reply check found a forced win of the opponent after the move.

Messages to the page: ``state``, ``info`` (the engine's live thinking),
``record``, ``eval``, ``error``, ``queue`` (the engine's move waits for a
free search slot: ``ahead`` searches wait before it, and ``message`` says
so) and ``released`` (the idle tab gave its engines back; they are built
again on the next use).

With ``slots`` (a :class:`~connect6.web.limits.SearchSlots` shared by all
tabs) every search first waits for a slot; the slot is freed when the
search's thread has ended.  :meth:`Session.close` stops the searches and
drops the engines, so a closed tab's engine and tables are freed.
"""
from __future__ import annotations

import asyncio
import json
import math
from typing import Any, Awaitable, Callable, Dict, List, Mapping, Optional, Tuple, Union

from connect6.board import Board
from connect6.engine import Engine, make_engine
from connect6.options import PROFILES
from connect6.notation import Color, IllegalMoveError, InvalidMoveError, Move, cell_name, parse_cell
from connect6.records import RecordError, format_stone_list, read_game_text, replay, write_sgf
from connect6.result import WIN_SCORE, Info, PovScore, Score, SearchResult
from connect6.web.limits import SearchSlots
from connect6.web.thinker import Search

__all__ = ["Session", "MessageError", "MAX_MESSAGE", "MAX_TIME", "ANALYSIS_DEPTH"]

#: the longest message accepted (characters): a long SGF fits easily
MAX_MESSAGE = 1_000_000
#: the longest time per engine move the page may ask for (seconds), unless a Session is given another
MAX_TIME = 600.0
#: fixed depth of the per-position evaluation in the analyse view (quick)
ANALYSIS_DEPTH = 2

Send = Callable[[Dict[str, Any]], Awaitable[None]]
EngineFactory = Callable[[str], Engine]


class MessageError(ValueError):
    """A message the session cannot act on; its text is shown on the page."""


def default_engine(profile: str) -> Engine:
    return make_engine(profile)


def default_analysis_engine() -> Engine:
    return make_engine("default", depth=ANALYSIS_DEPTH)


# ---------------------------------------------------------------- field checks
def _field(msg: Mapping[str, Any], name: str, kind: type, what: str) -> Any:
    if name not in msg:
        raise MessageError(f"{msg.get('type')}: the field {name!r} is missing ({what})")
    value = msg[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise MessageError(f"{msg.get('type')}: {name} must be {what}, not {json.dumps(value)[:40]}")
    return value


def _cell(msg: Mapping[str, Any]) -> int:
    text = _field(msg, "cell", str, "a cell like 'j10'")
    try:
        return parse_cell(text)
    except (InvalidMoveError, IllegalMoveError) as exc:
        raise MessageError(f"{msg.get('type')}: {exc}") from None


def _time(value: Any, most: float = MAX_TIME) -> Optional[float]:
    if value is None:
        return None
    # isfinite of an int past float's range raises; an int needs only the bounds
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or (isinstance(value, float) and not math.isfinite(value)) or not 0 < value <= most:
        raise MessageError(f"new: time must be seconds in (0, {most:g}] or null (this board allows at most "
                           f"{most:g} s a move), not {json.dumps(value)[:40]}")
    return float(value)


def _read_record(text: str) -> Tuple[Dict[str, str], List[Move], Board]:
    """(headers, moves, board) of a stone list or an SGF text; MessageError when broken."""
    try:
        headers, moves = read_game_text(text)
        board = replay(moves)
    except RecordError as exc:
        raise MessageError(f"bad record: {exc}") from None
    return headers, moves, board


def outcome_json(board: Board) -> Optional[Dict[str, Any]]:
    o = board.outcome()
    if o is None:
        return None
    return {"result": o.result(), "termination": o.termination.value,
            "line": [cell_name(c) for c in (o.line or ())]}


class Session:
    """The state of one browser tab (see the module docstring for its messages)."""

    def __init__(self, send: Send, engine_factory: EngineFactory = default_engine,
                 analysis_factory: Callable[[], Engine] = default_analysis_engine, *,
                 slots: Optional[SearchSlots] = None, max_time: float = MAX_TIME):
        self._send = send
        self._slots = slots
        self.max_time = max_time
        self.waiting: Optional[int] = None   # searches ahead of this tab's while it waits for a slot
        self.last_active = 0.0               # event-loop time of the last message or search end
        self._engine_factory = engine_factory
        self._analysis_factory = analysis_factory
        self.board = Board()
        self.human = Color.BLACK
        self.profile = "default"
        self.time: Optional[float] = min(1.0, max_time)   # the page's default, within the board's limit
        self.pending: Optional[int] = None
        self.engine: Optional[Engine] = None
        self.search: Optional[Search] = None
        self.last_info: Optional[Union[Info, SearchResult]] = None   # its to_json() is the page's info
        self.refuted = False   # the reply check refuted the engine's last move (SearchResult.refuted)
        self._search_task: Optional["asyncio.Task[None]"] = None
        self._analysis_task: Optional["asyncio.Task[None]"] = None
        self._analysis_engine: Optional[Engine] = None
        self._record_id = 0
        self._fresh = True
        self.closed = False
        self._handlers = {
            "state": self._on_state, "new": self._on_new, "click": self._on_click,
            "takeback": self._on_takeback, "undo": self._on_undo, "move_now": self._on_move_now,
            "analyse": self._on_analyse,
        }

    # ------------------------------------------------------------ plumbing
    async def send(self, message: Dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            await self._send(message)
        except Exception:  # the tab went away while we were answering
            self.closed = True

    async def error(self, text: str) -> None:
        await self.send({"type": "error", "message": text})

    async def handle_text(self, text: Any) -> None:
        """Act on one raw message from the page."""
        if not isinstance(text, str):
            await self.error("messages are JSON text, not binary")
            return
        if len(text) > MAX_MESSAGE:
            await self.error(f"message too long ({len(text)} characters, at most {MAX_MESSAGE})")
            return
        self.touch()
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError) as exc:
            await self.error(f"not a JSON message: {str(exc)[:80]}")
            return
        await self.handle(msg)

    async def handle(self, msg: Any) -> None:
        """Act on one decoded message."""
        try:
            if not isinstance(msg, dict):
                raise MessageError('a message is a JSON object like {"type": "click", "cell": "j10"}')
            kind = msg.get("type")
            handler = self._handlers.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise MessageError(f"unknown message type {json.dumps(kind)[:40]}: expected one of "
                                   f"{', '.join(self._handlers)}")
            await handler(msg)
        except MessageError as exc:
            await self.error(str(exc))

    def close(self) -> None:
        """The tab is gone: stop its searches and drop its engines (freed once their searches end)."""
        self.closed = True
        self._cancel_search()
        if self._analysis_task is not None:
            self._analysis_task.cancel()
            self._analysis_task = None
        self.engine = self._analysis_engine = None

    # ------------------------------------------------------------ idle
    def touch(self) -> None:
        try:
            self.last_active = asyncio.get_running_loop().time()
        except RuntimeError:   # not on an event loop (a test calling handle_text synchronously)
            pass

    @property
    def busy(self) -> bool:
        """Whether a search or an analysis is under way (or waiting for a slot)."""
        return self._search_task is not None or (self._analysis_task is not None and not self._analysis_task.done())

    @property
    def holds_engines(self) -> bool:
        return self.engine is not None or self._analysis_engine is not None

    async def release_engines(self) -> None:
        """Give the engines back (an idle tab); the next search builds them again."""
        if self.busy or not self.holds_engines:
            return
        self.engine = self._analysis_engine = None
        self._fresh = True
        await self.send({"type": "released", "message": "the engine was released while this tab was idle; "
                                                         "it is built again for its next move"})

    async def watch_idle(self, seconds: float) -> None:
        """Release the engines once nothing happened for ``seconds`` (run as a task; cancel it to end)."""
        loop = asyncio.get_running_loop()
        if not self.last_active:
            self.touch()
        while not self.closed:
            left = self.last_active + seconds - loop.time()
            if left > 0:
                await asyncio.sleep(left)
                continue
            await self.release_engines()
            self.touch()

    # ------------------------------------------------------------ state
    def state(self) -> Dict[str, Any]:
        b = self.board
        moves = [str(m) for m in b.move_stack]
        return {
            "type": "state", "moves": moves, "turn": str(b.turn), "to_place": b.stones_to_place,
            "human": str(self.human), "profile": self.profile, "time": self.time,
            "profiles": list(PROFILES),
            "pending": None if self.pending is None else cell_name(self.pending),
            "last": [cell_name(c) for c in b.move_stack[-1].stones] if moves else [],
            "outcome": outcome_json(b), "thinking": self._search_task is not None, "waiting": self.waiting,
            "can_stop": self.search is not None and self.search.stoppable,
            "info": None if self.last_info is None else self.last_info.to_json(),
            "refuted": self.refuted and self.last_info is not None,
            "sgf": write_sgf(b.move_stack, {"GM": "connect6", "PB": self._name(Color.BLACK),
                                            "PW": self._name(Color.WHITE)}),
            "stone_list": format_stone_list(b.move_stack),
        }

    def _name(self, color: Color) -> str:
        return "you" if color == self.human else f"connect6 {self.profile}"

    async def _on_state(self, msg: Mapping[str, Any]) -> None:
        await self.send(self.state())

    # ------------------------------------------------------------ play
    async def _on_new(self, msg: Mapping[str, Any]) -> None:
        color = msg.get("color", str(self.human))
        if color not in ("black", "white"):
            raise MessageError(f"new: color must be \"black\" or \"white\", not {json.dumps(color)[:40]}")
        profile = msg.get("profile", self.profile)
        if not isinstance(profile, str) or profile not in PROFILES:
            raise MessageError(f"new: unknown profile {json.dumps(profile)[:40]}: expected one of "
                               f"{', '.join(PROFILES)}")
        seconds = _time(msg["time"], self.max_time) if "time" in msg else self.time
        board = Board()
        if msg.get("position") is not None:
            text = _field(msg, "position", str, "a stone list like 'j10,k11,i11'")
            if text.strip().startswith("("):
                raise MessageError("new: position is a stone list, not an SGF record")
            board = _read_record(text)[2]
        self._cancel_search()
        if profile != self.profile:
            self.engine = None   # built for the engine's first move
        self._fresh = True   # the engine's next search forgets the last game (done in the search's thread)
        self.board, self.pending, self.last_info = board, None, None
        self.human = Color.BLACK if color == "black" else Color.WHITE
        self.profile, self.time = profile, seconds
        self._maybe_think()
        await self.send(self.state())

    def _check_humans_turn(self, what: str) -> None:
        if self.board.is_game_over():
            raise MessageError(f"{what}: the game is over; start a new game or undo")
        if self._search_task is not None or self.board.turn != self.human:
            raise MessageError(f"{what}: wait, the engine is thinking")

    async def _on_click(self, msg: Mapping[str, Any]) -> None:
        cell = _cell(msg)
        self._check_humans_turn(f"click {cell_name(cell)}")
        if cell == self.pending:
            self.pending = None
            await self.send(self.state())
            return
        if self.board.stone_at(cell) is not None:
            raise MessageError(f"{cell_name(cell)} is occupied")
        if self.pending is not None:
            self._push(Move((self.pending, cell)))
        elif self.board.stones_to_place == 1 or self.board.is_legal(Move((cell,))):
            self._push(Move((cell,)))   # the first stone, the last cell, or a stone that makes six
        else:
            self.pending = cell
        self._maybe_think()
        await self.send(self.state())

    def _push(self, move: Move) -> None:
        try:
            self.board.push(move)
        except (InvalidMoveError, IllegalMoveError) as exc:  # pragma: no cover - checked before
            raise MessageError(str(exc)) from None
        self.pending = None

    async def _on_takeback(self, msg: Mapping[str, Any]) -> None:
        if self.pending is None:
            raise MessageError("takeback: there is no pending stone to take back")
        self.pending = None
        await self.send(self.state())

    async def _on_undo(self, msg: Mapping[str, Any]) -> None:
        b = self.board
        if self.pending is not None:
            self.pending = None
            await self.send(self.state())
            return
        if not any(i % 2 == int(self.human) for i in range(len(b.move_stack))):
            raise MessageError("undo: you have not moved yet")
        self._cancel_search()
        b.pop()
        while b.turn != self.human:
            b.pop()
        self.last_info = None
        await self.send(self.state())

    async def _on_move_now(self, msg: Mapping[str, Any]) -> None:
        if self.search is None and self.waiting is not None:
            raise MessageError(f"move now: the engine has not started yet ({self._queue_text(self.waiting)})")
        if self.search is None:
            raise MessageError("move now: the engine is not thinking")
        if not self.search.stoppable:
            raise MessageError("move now: this engine's search cannot be stopped early")
        self.search.stop()

    # ------------------------------------------------------------ the engine's turn
    def _maybe_think(self) -> None:
        b = self.board
        if self.closed or self._search_task is not None or b.is_game_over() or b.turn == self.human:
            return
        if self._slots is None or self._slots.try_acquire():
            search = self._start_search(None if self._slots is None else self._slots.release)
            self._search_task = asyncio.create_task(self._follow(search))
        else:
            self.waiting = self._slots.waiting   # its place, told again by the queue as it moves
            self._search_task = asyncio.create_task(self._wait_and_think())

    def _start_search(self, release: Optional[Callable[[], None]]) -> Search:
        """Start the engine's search (the slot, if any, is already ours; ``release`` frees it)."""
        try:
            if self.engine is None:
                self.engine = self._engine_factory(self.profile)
        except Exception as exc:  # e.g. out of memory: the page says so, the server carries on
            if release is not None:
                release()
            raise MessageError(f"the engine could not be made: {exc}") from None
        self.search = Search(self.engine, self.board, time=self.time, new_game=self._fresh, on_end=release)
        self._fresh = False
        return self.search

    @staticmethod
    def _queue_text(ahead: int) -> str:
        if ahead == 0:
            return "waiting for the engine: you are next"
        return f"waiting for the engine: {ahead} ahead of you"

    async def _tell_place(self, ahead: int) -> None:
        self.waiting = ahead
        await self.send({"type": "queue", "ahead": ahead, "message": self._queue_text(ahead)})

    async def _wait_and_think(self) -> None:
        """The engine's move when every search slot is taken: wait in the queue, then search."""
        assert self._slots is not None
        await self._slots.acquire(self._tell_place)
        self.waiting = None
        try:
            search = self._start_search(self._slots.release)
        except MessageError as exc:
            self._search_task = None
            await self.error(str(exc))
            await self.send(self.state())
            return
        await self.send(self.state())   # no longer waiting
        await self._follow(search)

    async def _follow(self, search: Search) -> None:
        async for kind, value in search.events():
            if search is not self.search:
                return
            if kind == "info":
                self.last_info = value
                await self.send({"type": "info", **value.to_json()})
            elif kind == "error":
                self.search, self._search_task = None, None
                self.touch()
                await self.error(f"the engine failed: {value}")
                await self.send(self.state())
            else:
                self.search, self._search_task = None, None
                self.touch()
                self.last_info = value
                self.refuted = bool(getattr(value, "refuted", False))
                try:
                    self._push(value.move)
                except MessageError as exc:  # pragma: no cover - the engine plays legal moves
                    await self.error(f"the engine played an illegal move: {exc}")
                self._maybe_think()
                await self.send(self.state())

    def _cancel_search(self) -> None:
        if self.search is not None:
            self.search.stop()
            self.search = None
        if self._search_task is not None:
            self._search_task.cancel()
            self._search_task = None
        self.waiting = None

    # ------------------------------------------------------------ analyse
    async def _on_analyse(self, msg: Mapping[str, Any]) -> None:
        text = _field(msg, "text", str, "a stone list or an SGF record")
        headers, moves, board = _read_record(text)
        if self._analysis_task is not None:
            self._analysis_task.cancel()
        self._record_id += 1
        await self.send({
            "type": "record", "id": self._record_id, "moves": [str(m) for m in moves], "headers": headers,
            "outcome": outcome_json(board), "stone_list": format_stone_list(moves),
            "sgf": write_sgf(moves, {k: v for k, v in headers.items() if k not in ("FF",)}),
        })
        self._analysis_task = asyncio.create_task(self._evaluate(self._record_id, moves))

    async def _evaluate(self, record_id: int, moves: List[Move]) -> None:
        """One ``eval`` message per position of the record, from the start."""
        if self._analysis_engine is None:
            self._analysis_engine = self._analysis_factory()
        engine = self._analysis_engine
        board = Board()
        for index in range(len(moves) + 1):
            if index:
                board.push(moves[index - 1])
            out = board.outcome()
            if out is not None:
                won = 0 if out.winner is None else (WIN_SCORE if out.winner == board.turn else -WIN_SCORE)
                pov, best, refuted = PovScore(Score(won), board.turn), None, False
            else:
                pov, best, refuted = PovScore(Score(0), board.turn), None, False
                release = None
                if self._slots is not None:
                    await self._slots.acquire()
                    release = self._slots.release
                search = Search(engine, board, on_end=release)
                try:
                    async for kind, value in search.events():
                        if kind == "error":
                            await self.error(f"evaluation of position {index} failed: {value}")
                            return
                        if kind == "done":
                            pov, best = PovScore(Score(value.score), board.turn), str(value.move)
                            refuted = bool(getattr(value, "refuted", False))
                finally:
                    search.stop()
            await self.send({"type": "eval", "id": record_id, "index": index, "score": pov.black().value,
                             "text": str(pov), "best": best, "refuted": refuted})
