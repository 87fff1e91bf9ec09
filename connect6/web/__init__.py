"""The web board behind ``connect6 gui``: play the engine, analyse a record, watch a match.

The server needs the optional ``web`` extra (Starlette and uvicorn):
``pip install "connect6[web]"``.  The game logic of a browser tab
(:mod:`connect6.web.session`), the engine adapter (:mod:`connect6.web.thinker`)
and the match-directory reader (:mod:`connect6.web.watch`) need only the
standard library and connect6 itself.  The page is plain HTML, CSS and
JavaScript shipped in ``connect6/web/static/`` (no build step, no CDN).
"""
from __future__ import annotations

import importlib

__all__ = ["require_web", "INSTALL_HINT"]

INSTALL_HINT = 'pip install "connect6[web]"'


def require_web() -> None:
    """Raise ModuleNotFoundError (an ImportError) naming the missing package
    and the install command when Starlette or uvicorn is missing."""
    for name in ("starlette", "uvicorn"):
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise ModuleNotFoundError(f"the web board needs {name} (missing: {exc}); install it with: "
                                      f"{INSTALL_HINT}", name=name) from None
