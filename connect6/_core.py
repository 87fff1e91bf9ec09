"""Import the compiled core, or say how to build it.

There is deliberately no pure-Python fallback: the package is the compiled
engine.  (``connect6._reference`` is a plain-Python oracle for tests only.)
"""
try:
    from engine_core import bitboard, geometry, position, search, threats, tss
except ImportError as exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "connect6: the compiled core (the engine_core Cython extensions) is not built "
        f"or cannot be loaded ({exc}).  Install the package with `pip install .` "
        "(needs a C compiler; Cython and setuptools are fetched as build requirements), "
        "or in a source checkout run `python setup.py build_ext --inplace`."
    ) from exc

__all__ = ["bitboard", "geometry", "position", "search", "threats", "tss"]
