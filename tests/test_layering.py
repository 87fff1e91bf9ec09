"""The package's import graph: no cycles among the modules of connect6 (every
import counts, those inside functions and ``try`` blocks included), the compiled
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


def _imports(path: pathlib.Path):
    """Every module an import statement of the file names, wherever it stands
    (module level, inside functions, classes, ``try`` or ``if`` blocks);
    relative imports resolved against the file's package."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            yield base
            yield from (f"{base}.{a.name}" for a in node.names)


def test_no_import_cycles_in_connect6():
    modules = {_module_name(p): p for p in PKG.rglob("*.py")}
    graph = {m: sorted({i for i in _imports(p) if i in modules and i != m}) for m, p in modules.items()}
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


def test_imports_inside_functions_are_seen(tmp_path):
    """The graph reads imports at any depth: a function-level import is an edge."""
    mod = PKG / "engine.py"
    names = set(_imports(mod))
    assert "connect6.board" in names                      # module level
    assert "connect6.book" in names                       # inside a function (the lazy book import)
