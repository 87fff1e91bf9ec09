"""The ASGI application of ``connect6 gui`` (Starlette) and its runner (uvicorn).

Routes: ``/`` the page, ``/static/...`` its files, ``/ws`` one WebSocket per
browser tab (a :class:`~connect6.web.session.Session` each), ``/api/info``
(profiles, whether a match is watched, the limits and the load) and
``/api/watch`` (the watched match directory, polled by the page).

Every request passes the :class:`~connect6.web.guard.AccessGuard` first
(Host, Origin, token), and the tabs share the board's
:class:`~connect6.web.limits.Limits` (searches at a time, open tabs, time
per move, idle engines).

>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app(), base_url="http://127.0.0.1:8066")
>>> client.get("/api/info").json()["watch"]
False
>>> client.get("/api/info", headers={"Host": "evil.example.com"}).status_code
400
"""
from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from typing import Any, Callable, Dict, Iterable, Optional, Set

from connect6.web import require_web

require_web()

from starlette.applications import Starlette  # noqa: E402
from starlette.middleware import Middleware  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import FileResponse, JSONResponse, Response  # noqa: E402
from starlette.routing import Mount, Route, WebSocketRoute  # noqa: E402
from starlette.staticfiles import StaticFiles  # noqa: E402
from starlette.websockets import WebSocket, WebSocketDisconnect  # noqa: E402

from connect6.engine import Engine  # noqa: E402
from connect6.options import PROFILES  # noqa: E402
from connect6.web.guard import WILDCARD_HOSTS, AccessGuard, AccessPolicy, is_local_host, new_token  # noqa: E402
from connect6.web.limits import Limits, SearchSlots  # noqa: E402
from connect6.web.session import Session, default_analysis_engine, default_engine  # noqa: E402
from connect6.web.watch import MatchWatcher  # noqa: E402

__all__ = ["create_app", "serve", "STATIC_DIR", "LOCAL_HOSTS", "BoardState", "TRY_AGAIN_LATER"]

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
#: hosts that keep the board on this machine; any other --host prints a warning and needs a token
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
#: WebSocket close code when the board has no room for another tab (RFC 6455 registry: try again later)
TRY_AGAIN_LATER = 1013


class BoardState:
    """What the tabs of one board share: its limits, its search slots, its open sessions."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.slots = SearchSlots(limits.max_searches)
        self.sessions: Set[Session] = set()
        self.sessions_total = 0
        self.sessions_refused = 0

    def load(self) -> Dict[str, Any]:
        return {"sessions": len(self.sessions), "sessions_total": self.sessions_total,
                "sessions_refused": self.sessions_refused, "searches": self.slots.stats()}


def create_app(*, watch_dir: Optional[str] = None,
               engine_factory: Callable[[str], Engine] = default_engine,
               analysis_factory: Callable[[], Engine] = default_analysis_engine,
               access: Optional[AccessPolicy] = None, limits: Optional[Limits] = None) -> Starlette:
    """The web board as an ASGI app.  ``engine_factory(profile)`` makes each
    tab's opponent; ``analysis_factory()`` the engine of the analyse view;
    ``watch_dir`` a match results directory for the watch view; ``access``
    who may use it (default: this machine only, no token); ``limits`` what
    it may use (default :class:`~connect6.web.limits.Limits`).  The app's
    ``state.board`` is its :class:`BoardState`."""
    watcher = MatchWatcher(watch_dir) if watch_dir is not None else None
    board = BoardState(limits or Limits())
    access = access or AccessPolicy.for_host("127.0.0.1")

    async def index(request: Request) -> Response:
        return FileResponse(os.path.join(STATIC_DIR, "index.html"), headers={"Cache-Control": "no-cache"})

    async def info(request: Request) -> Response:
        from connect6 import __version__
        lim = board.limits
        return _JSONResponse({"version": __version__, "profiles": list(PROFILES), "watch": watcher is not None,
                             "limits": {"max_searches": lim.max_searches, "max_sessions": lim.max_sessions,
                                        "max_time": lim.max_time, "idle": lim.idle},
                             "load": board.load()})

    async def watch(request: Request) -> Response:
        if watcher is None:
            return _JSONResponse({"error": "no match is watched: start with connect6 gui --watch DIR"},
                                status_code=404)
        return _JSONResponse(watcher.snapshot())

    async def tab(websocket: WebSocket) -> None:
        await websocket.accept()
        if len(board.sessions) >= board.limits.max_sessions:
            board.sessions_refused += 1
            await websocket.close(code=TRY_AGAIN_LATER, reason=f"the board is full ({board.limits.max_sessions} "
                                  "tabs open): close another tab, then reload this page")
            return
        await _serve_tab(websocket, board, engine_factory, analysis_factory)

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/info", info),
        Route("/api/watch", watch),
        WebSocketRoute("/ws", tab),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ], middleware=[Middleware(AccessGuard, policy=access)])
    app.state.board = board
    return app


def json_text(data: Any) -> str:
    """JSON for the page, in ASCII: a lone surrogate (the bytes of a file name that are
    not UTF-8, in an engine's label or a header read from a record) becomes an escape
    the page reads back, not an encoding error that loses the whole message."""
    return json.dumps(data, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


class _JSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return json_text(content).encode("ascii")


async def _serve_tab(websocket: WebSocket, board: BoardState, engine_factory: Callable[[str], Engine],
                     analysis_factory: Callable[[], Engine]) -> None:
    """One tab's life: its session, its messages, its idle watch; everything freed when it closes."""
    async def send(message: Dict[str, Any]) -> None:
        await websocket.send_text(json_text(message))

    session = Session(send, engine_factory, analysis_factory, slots=board.slots, max_time=board.limits.max_time)
    board.sessions.add(session)
    board.sessions_total += 1
    idle = asyncio.create_task(session.watch_idle(board.limits.idle))
    try:
        await session.send(session.state())
        while not session.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            await session.handle_text(message.get("text"))
    except WebSocketDisconnect:
        pass
    finally:
        idle.cancel()
        session.close()   # a closed tab stops its search and drops its engines
        board.sessions.discard(session)


def release_freed_tables_to_the_os() -> bool:
    """Have glibc serve large allocations (an engine's ~24 MB table) with mmap always, so that a
    freed table goes back to the system at once.

    By default glibc raises its mmap threshold to the size of the last freed mmapped block, so
    after the first table is freed the next ones come from the heap, whose free space is kept:
    a soak of 4 tabs a round kept ~100 MiB more from round 2 on although every engine had been
    freed.  Setting the threshold explicitly turns that adjustment off.  True when set (Linux
    with glibc); elsewhere nothing is done."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        libc = ctypes.CDLL(None)
        m_mmap_threshold = -3   # <malloc.h>
        return bool(libc.mallopt(m_mmap_threshold, 1 << 20))
    except (OSError, AttributeError):   # not glibc (musl has no mallopt)
        return False


def _shown(host: str, wildcard: bool = True) -> str:
    """The host part of the printed URL (for a ``wildcard`` address, this machine's name)."""
    if wildcard and host.strip("[]") in WILDCARD_HOSTS:
        host = socket.gethostname()
    return f"[{host.strip('[]')}]" if ":" in host else host


def _listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host`` (a name, an address, ``[v6]``) and
    ``port``; OSError naming the address when it cannot be (a port in use,
    an address not of this machine, a name that does not resolve)."""
    name = host.strip("[]")
    sock = socket.socket(socket.AF_INET6 if ":" in name else socket.AF_INET, socket.SOCK_STREAM)
    try:
        if os.name == "posix":      # restart at once after a stop (on Windows it would share the port)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((name, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {_shown(host, wildcard=False)}:{port}: {exc.strerror or exc}") from None
    return sock


def serve(host: str = "127.0.0.1", port: int = 8066, watch_dir: Optional[str] = None,
          open_browser: bool = False, *, allow_hosts: Iterable[str] = (), allow_origins: Iterable[str] = (),
          token: bool = True, limits: Optional[Limits] = None) -> None:
    """Serve the board with uvicorn until Ctrl-C.  A non-local ``host`` gets a
    random token in the printed URL unless ``token`` is False.  The port is
    bound before the URL is printed: OSError naming the address when it
    cannot be, and ValueError for a bad host or origin."""
    import uvicorn
    local = is_local_host(host)
    secret = new_token() if token and not local else None
    access = AccessPolicy.for_host(host, allow_hosts, allow_origins, secret)
    app = create_app(watch_dir=watch_dir, access=access, limits=limits)
    sock = _listen(host, port)
    try:
        if not local:
            print(f"connect6 gui: warning: listening on {host}: anyone who can reach this address can open "
                  "the board" + (" if they have the URL with its token" if secret else "")
                  + " and make this computer search", file=sys.stderr)
            if secret is None:
                print("connect6 gui: warning: --no-token: no token is asked; anyone who can reach this address "
                      "can use the board", file=sys.stderr)
        release_freed_tables_to_the_os()
        url = f"http://{_shown(host)}:{port}/" + (f"?token={secret}" if secret else "")
        print(f"connect6 gui: serving {url} " + (f"(watching {watch_dir}) " if watch_dir else "")
              + "- Ctrl-C stops", file=sys.stderr, flush=True)
        if open_browser:
            import threading
            import webbrowser
            threading.Timer(0.8, webbrowser.open, args=(url,)).start()
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=4 * 1024 * 1024)
        try:
            uvicorn.Server(config).run(sockets=[sock])
        except KeyboardInterrupt:       # uvicorn stops cleanly, then raises the Ctrl-C again
            pass
    finally:
        sock.close()
