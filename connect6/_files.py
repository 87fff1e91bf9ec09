"""Files written whole or not at all (results, books, saved games)."""
from __future__ import annotations

import os
import stat
import threading

__all__ = ["write_file_atomic"]


def write_file_atomic(path: str, text: str) -> None:
    """Write ``path`` so that it holds either its old or its whole new text: a
    temporary file beside it, fsynced, then renamed over it.  The temporary
    file is this thread's own, so two threads writing one path at once each
    publish a whole text (the later rename wins).  A file replaced keeps its
    permissions."""
    folder, name = os.path.split(path)
    # beside it, named for it but short: a name near the file system's limit (255 bytes) has
    # no room for a suffix, and a longer one could not be created
    tmp = os.path.join(folder, f".{name[:100]}.tmp{os.getpid()}-{threading.get_ident()}")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        try:                                # a replaced file keeps who may read and write it
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        except FileNotFoundError:
            pass
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    _fsync_dir(os.path.dirname(path) or ".")


def _fsync_dir(path: str) -> None:
    """Make a rename in ``path`` durable (POSIX; elsewhere a no-op)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open a directory
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)
