"""The package's import graph: no cycles among the modules of connect6 (top-level
imports; imports inside functions are the deliberate lazy ones), the compiled
core never imports the Python layer, and each core .pyx has its .pxd header."""
import ast
import pathlib

import connect6
import engine_core

PKG = pathlib.Path(connect6.__file__).parent
CORE = pathlib.Path(engine_core.__file__).parent
SOURCE_CORE = pathlib.Path(__file__).resolve().parents[1] / "engine_core"


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _top_level_imports(path: pathlib.Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Try):
            for sub in node.body:
                if isinstance(sub, ast.ImportFrom) and sub.module:
                    yield sub.module


def test_no_import_cycles_in_connect6():
    modules = {_module_name(p): p for p in PKG.rglob("*.py")}
    graph = {m: sorted({i for i in _top_level_imports(p) if i in modules and i != m}) for m, p in modules.items()}
    # a package's __init__ re-exporting its own submodules is not a cycle of concerns
    for m in graph:
        graph[m] = [i for i in graph[m] if not (m.startswith(i + ".") and modules[i].name == "__init__.py")]
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for n in graph[m]:
            if state.get(n) == "open":
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(n):] + [n]))
            if n not in state:
                visit(n)
        stack.pop()
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_the_core_never_imports_the_python_layer():
    sources = list(SOURCE_CORE.glob("*.pyx")) + list(SOURCE_CORE.glob("*.pxd"))
    if not sources:
        import pytest
        pytest.skip("no engine_core sources next to the tests (installed package only)")
    for path in sources:
        text = path.read_text(encoding="utf-8")
        assert "import connect6" not in text and "from connect6" not in text, path.name


def test_every_core_module_has_its_header():
    pyx = {p.stem for p in SOURCE_CORE.glob("*.pyx")}
    if not pyx:
        import pytest
        pytest.skip("no engine_core sources next to the tests")
    missing = sorted(m for m in pyx if not (SOURCE_CORE / f"{m}.pxd").exists())
    assert not missing, f"no .pxd header for {missing}"
