"""Every ``>>>`` example in the installed package runs here, one test per module.

The modules are found by walking the imported ``connect6`` and ``engine_core``
packages (so CI checks the installed copy, not the checkout).  A module whose
optional extra is missing is skipped, naming the extra's missing import.
"""
import doctest
import importlib
import pkgutil
import types

import pytest

import connect6
import engine_core

PACKAGES = (connect6, engine_core)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _module_names():
    names = []
    for package in PACKAGES:
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            names.append(info.name)
    return sorted(set(names))


def _import_or_skip(name):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        top = (exc.name or "").split(".")[0]
        if top in {p.__name__ for p in PACKAGES}:
            raise  # our own module missing is a real failure
        pytest.skip(f"{name} needs {exc.name} (an optional extra)")


def run_doctests(module) -> doctest.TestResults:
    """Run the examples of one module; raise AssertionError with the report if any fails."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report = []
    for test in finder.find(module, module.__name__):
        runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    if result.failed:
        raise AssertionError("".join(report))
    return result


MODULES = _module_names()


def test_the_walk_finds_the_modules_with_examples():
    for name in ("connect6.notation", "connect6.board", "connect6.records", "engine_core.position"):
        assert name in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    run_doctests(_import_or_skip(name))


def test_a_wrong_example_fails():
    module = types.ModuleType("fake_module")
    exec('def f():\n    """\n    >>> 1 + 1\n    3\n    """\n', module.__dict__)
    module.f.__module__ = "fake_module"
    with pytest.raises(AssertionError, match="Expected:\\s+3\\s+Got:\\s+2"):
        run_doctests(module)
