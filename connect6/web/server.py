"""The ASGI application of ``connect6 gui`` (Starlette) and its runner (uvicorn).

Routes: ``/`` the page, ``/static/...`` its files, ``/ws`` one WebSocket per
browser tab (a :class:`~connect6.web.session.Session` each), ``/api/info``
(profiles, whether a match is watched) and ``/api/watch`` (the watched
match directory, polled by the page).

>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.get("/api/info").json()["watch"]
False
"""
from __future__ import annotations

import os
import sys
from typing import Callable, Optional

from connect6.web import require_web

require_web()

from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import FileResponse, JSONResponse  # noqa: E402
from starlette.routing import Mount, Route, WebSocketRoute  # noqa: E402
from starlette.staticfiles import StaticFiles  # noqa: E402
from starlette.websockets import WebSocket, WebSocketDisconnect  # noqa: E402

from connect6.engine import Engine  # noqa: E402
from connect6.options import PROFILES  # noqa: E402
from connect6.web.session import Session, default_analysis_engine, default_engine  # noqa: E402
from connect6.web.watch import MatchWatcher  # noqa: E402

__all__ = ["create_app", "serve", "STATIC_DIR", "LOCAL_HOSTS"]

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
#: hosts that keep the board on this machine; any other --host prints a warning
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def create_app(*, watch_dir: Optional[str] = None,
               engine_factory: Callable[[str], Engine] = default_engine,
               analysis_factory: Callable[[], Engine] = default_analysis_engine) -> Starlette:
    """The web board as an ASGI app.  ``engine_factory(profile)`` makes each
    tab's opponent; ``analysis_factory()`` the engine of the analyse view;
    ``watch_dir`` a match results directory for the watch view."""
    watcher = MatchWatcher(watch_dir) if watch_dir is not None else None

    async def index(request: Request):
        return FileResponse(os.path.join(STATIC_DIR, "index.html"), headers={"Cache-Control": "no-cache"})

    async def info(request: Request):
        from connect6 import __version__
        return JSONResponse({"version": __version__, "profiles": list(PROFILES), "watch": watcher is not None})

    async def watch(request: Request):
        if watcher is None:
            return JSONResponse({"error": "no match is watched: start with connect6 gui --watch DIR"},
                                status_code=404)
        return JSONResponse(watcher.snapshot())

    async def tab(websocket: WebSocket):
        await websocket.accept()
        session = Session(websocket.send_json, engine_factory, analysis_factory)
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
            session.close()   # a closed tab stops its search

    return Starlette(routes=[
        Route("/", index),
        Route("/api/info", info),
        Route("/api/watch", watch),
        WebSocketRoute("/ws", tab),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ])


def serve(host: str = "127.0.0.1", port: int = 8066, watch_dir: Optional[str] = None,
          open_browser: bool = False) -> None:
    """Serve the board with uvicorn until Ctrl-C."""
    import uvicorn
    if host not in LOCAL_HOSTS:
        print(f"connect6 gui: warning: listening on {host}: anyone who can reach this address can use the "
              "board and make this computer search; there is no login", file=sys.stderr)
    app = create_app(watch_dir=watch_dir)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"connect6 gui: serving {url}" + (f" (watching {watch_dir})" if watch_dir else "")
          + "; Ctrl-C stops", file=sys.stderr)
    if open_browser:
        import threading
        import webbrowser
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=4 * 1024 * 1024)
