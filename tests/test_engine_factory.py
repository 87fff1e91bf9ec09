"""connect6.make_engine: the one function front ends build engines with."""
import ast
import pathlib

import pytest

import connect6
from connect6.engine import make_engine
from connect6.options import PROFILES, Limits, profile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_from_a_spec_text():
    e = make_engine("paper:width=8,depth=2,time=0.5")
    assert e.profile == "paper" and e.width == 8 and e.options.scan == "local"
    assert e.limits == Limits(depth=2, time=0.5) and e.depth == 2
    assert e.name.split()[1] == "paper:width=8,depth=2,time=0.5"
    assert make_engine("local:depth=3").options.scan == "local"


def test_from_options_and_limits():
    opts = profile("plain", width=7)
    e = make_engine(opts, Limits(depth=3))
    assert e.options is opts and e.profile == "plain" and e.limits.depth == 3
    assert make_engine(PROFILES["paper"]).name.split()[1] == "paper"          # named after its profile
    assert make_engine(opts, profile="paper").profile == "paper"


def test_settings_none_means_the_profiles():
    e = make_engine(None, profile="paper", depth=None, width=None, scan=None, tt_bits=None)
    assert e.options == PROFILES["paper"] and e.limits == Limits()
    e = make_engine(None, depth=4, time=2.0, width=9)
    assert e.limits == Limits(depth=4, time=2.0) and e.width == 9 and e.profile == "default"


def test_limits_given_later_win():
    e = make_engine("default:depth=2,time=1", Limits(time=3.0), depth=5)
    assert e.limits == Limits(depth=5, time=3.0)


def test_depth_is_a_limit_only():
    """Engine(depth=) and make_engine(depth=) set the limit; the options keep the profile's depth."""
    for e in (connect6.Engine(depth=2), make_engine(depth=2)):
        assert e.limits.depth == 2 and e.depth == 2 and e.options == PROFILES["default"]
        assert e.search(connect6.Board("j10")).depth == 2


@pytest.mark.parametrize("spec, error", [("nope", ValueError), ("default:width=0", ValueError), (42, TypeError),
                                         ("default:bogus=1", ValueError)])
def test_bad_specs_are_named(spec, error):
    with pytest.raises(error):
        make_engine(spec)
    with pytest.raises(ValueError, match="profile"):
        make_engine("paper", profile="plain")


def _engine_constructions(path: pathlib.Path):
    """(innermost enclosing function, line) of each ``Engine(...)`` / ``connect6.Engine(...)`` call in a file."""
    out = []

    def visit(node, where):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            where = node.name
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name == "Engine":
                out.append((where, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(ast.parse(path.read_text(encoding="utf-8")), "<module>")
    return out


def test_engines_are_built_in_one_function():
    """Every front end (connect6/, the bench scripts, the tools) builds its
    engines through make_engine: the one Engine(...) call is inside it."""
    found = set()
    for folder in ("connect6", "bench", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            if (ROOT / "bench" / "out") in path.parents:
                continue                # other revisions checked out by the bench scripts (--base)
            for fn, line in _engine_constructions(path):
                found.add((str(path.relative_to(ROOT)), fn))
    assert found == {("connect6/engine.py", "make_engine")}, sorted(found)
