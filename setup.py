"""Build the Cython core (``engine_core/*.pyx``).

Compiler directives are set here, once, for every module.  Bounds and
wraparound checks are off in a normal build; ``CONNECT6_DEBUG=1 pip install .``
turns them on (and defines the ``CONNECT6_DEBUG`` C macro, which enables the
full-recompute cross-checks of the incremental structures).

The extensions are declared with their ``.pyx`` sources and cythonized only
when they are built (``BuildExt.run``), so an sdist carries the ``.pyx`` files
and no generated C, and a wheel built from it compiles from the ``.pyx``.
Optimisation flags are chosen by compiler: ``-O3`` is understood by gcc and
clang, MSVC wants ``/O2``.  The modules compile in parallel, one job per CPU
unless ``-j N`` (``build_ext --parallel``) says otherwise: on 2 cores this halves
the build (59 s to 28 s for the 17 modules).
"""
import glob
import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("CONNECT6_DEBUG", "") not in ("", "0")
ANNOTATE = os.environ.get("CONNECT6_ANNOTATE", "") not in ("", "0")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": DEBUG,
    "embedsignature": True,
}

#: compile flags by compiler family: (normal build, CONNECT6_DEBUG build)
COMPILE_ARGS = {
    "msvc": (["/O2"], ["/Od", "/Zi"]),
    "unix": (["-O3"], ["-O1", "-g"]),  # gcc and clang (also mingw32, cygwin)
}


class BuildExt(build_ext):
    """Cythonize the ``.pyx`` sources, then compile with flags for the compiler in use."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:  # not given: one compile job per CPU
            self.parallel = os.cpu_count() or 1

    def run(self):
        from Cython.Build import cythonize  # a build requirement (pyproject.toml)

        for ext in self.extensions:
            # cythonize writes engine_core/NAME.c beside the .pyx (skipped when up to date)
            # and returns an Extension naming it; keep the original object, which
            # setuptools has already registered, and give it the C source
            [generated] = cythonize([ext], compiler_directives=DIRECTIVES, annotate=ANNOTATE, quiet=True)
            ext.sources = generated.sources
        super().run()

    def build_extensions(self):
        family = "msvc" if self.compiler.compiler_type == "msvc" else "unix"
        normal, debug = COMPILE_ARGS[family]
        for ext in self.extensions:
            ext.extra_compile_args = list(debug if DEBUG else normal)
        super().build_extensions()


extensions = [
    Extension(
        "engine_core." + os.path.splitext(os.path.basename(path))[0],
        [path],
        define_macros=[("CONNECT6_DEBUG", "1")] if DEBUG else [],
    )
    for path in sorted(glob.glob(os.path.join("engine_core", "*.pyx")))
]

setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})
