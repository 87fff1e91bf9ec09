"""Build the Cython core (``engine_core/*.pyx``).

Compiler directives are set here, once, for every module.  Bounds and
wraparound checks are off in a normal build; ``CONNECT6_DEBUG=1 pip install .``
turns them on (and defines the ``CONNECT6_DEBUG`` C macro, which enables the
full-recompute cross-checks of the incremental structures).
"""
import glob
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CONNECT6_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": DEBUG,
    "embedsignature": True,
}

if DEBUG:
    compile_args = ["-O1", "-g"]
    macros = [("CONNECT6_DEBUG", "1")]
else:
    compile_args = ["-O3"]
    macros = []

extensions = [
    Extension(
        "engine_core." + os.path.splitext(os.path.basename(path))[0],
        [path],
        extra_compile_args=compile_args,
        define_macros=macros,
    )
    for path in sorted(glob.glob(os.path.join("engine_core", "*.pyx")))
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        annotate=os.environ.get("CONNECT6_ANNOTATE", "") not in ("", "0"),
    ),
)
