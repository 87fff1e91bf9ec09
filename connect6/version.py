"""The package's version and the search it ships: a leaf module (it imports
nothing of the package), so every other module may read it.

The bench signature is the total node count of ``connect6 bench`` at its
default settings; it changes only when search behaviour changes, so it names
the search a build plays with (the Stockfish bench-number idea).

>>> __version__
'0.1.0'
>>> read_signature() > 0
True
>>> version_text() == f"connect6 {__version__} (bench {shipped_signature()})"
True
"""
from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Union

__version__ = "0.1.0"

#: The package resource holding the signature (``connect6/data/bench_signature.txt``).
SIGNATURE_RESOURCE = ("connect6", "data/bench_signature.txt")


def read_signature(path: Union[str, Path, None] = None) -> int:
    """The expected total node count: the first non-comment line of the signature file.

    Without ``path``, the copy shipped in the package is read.
    """
    if path is None:
        package, name = SIGNATURE_RESOURCE
        where = f"package data {package}/{name}"
        text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    else:
        where = str(path)
        text = Path(path).read_text(encoding="utf-8")
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            try:
                return int(line)
            except ValueError:
                raise ValueError(f"{where}: {line!r} is not a node count") from None
    raise ValueError(f"{where}: no signature line")


@functools.lru_cache(maxsize=None)
def shipped_signature() -> int:
    """The signature shipped with this build (read once)."""
    return read_signature()


def version_text(prog: str = "connect6") -> str:
    """What ``connect6 --version`` prints: the package version and the bench
    signature of the search it ships, e.g. ``connect6 0.1.0 (bench 365131)``.

    An unreadable signature file (a broken install) is named in the text
    rather than raised, so ``--version`` still answers.
    """
    try:
        bench = str(shipped_signature())
    except (OSError, ValueError) as exc:
        bench = f"signature unreadable: {exc}"
    return f"{prog} {__version__} (bench {bench})"
