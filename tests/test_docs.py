"""The documentation site (``docs/``, ``mkdocs.yml``): every ``>>>`` example on
every page runs here, one test per page, and the site builds without a warning.

A page that needs an optional extra says so in its first line,
``<!-- doctest-requires: pettingzoo gymnasium -->``, and its test is skipped
(naming the missing module) when one of them cannot be imported.  Building the
site needs the ``docs`` extra (MkDocs, mkdocstrings); without it that test is
skipped.

The README and the index of results (``bench/results/README.md``) are checked
too: the README stays short and keeps its two set-up commands after their
markers (CI runs the test command from there), their relative links resolve,
and the index links every file of ``bench/results/``.
"""
import doctest
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
REQUIRES = re.compile(r"<!--\s*doctest-requires:([^>]*?)-->")
README = ROOT / "README.md"
RESULTS = ROOT / "bench" / "results"
LINK = re.compile(r"\]\(([^)\s]+)\)")
#: the pages of the three uses, each with runnable examples
USE_PAGES = ("index.md", "bots.md", "environments.md", "matches.md", "benchmarks.md")


def required_modules(text: str):
    """The modules a page's examples need, from its ``doctest-requires`` comment."""
    return [name for match in REQUIRES.finditer(text) for name in match.group(1).split()]


def run_page(path: Path) -> doctest.TestResults:
    """Run the examples of one Markdown page in one namespace, top to bottom;
    raise AssertionError with doctest's report if any fails."""
    text = path.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {"__name__": path.stem}, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report = []
    runner.run(test, out=report.append, clear_globs=True)
    result = runner.summarize(verbose=False)
    if result.failed:
        raise AssertionError("".join(report))
    return result


def test_the_pages_are_there():
    names = {p.name for p in PAGES}
    assert set(USE_PAGES) | {"reference.md"} <= names


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_page_examples(path):
    for module in required_modules(path.read_text(encoding="utf-8")):
        pytest.importorskip(module, reason=f"{path.name} needs {module} (an optional extra)")
    result = run_page(path)
    if path.name in USE_PAGES:
        assert result.attempted >= 5, f"{path.name} has only {result.attempted} examples"


def test_a_wrong_example_fails(tmp_path):
    page = tmp_path / "wrong.md"
    page.write_text("# A page\n\n```pycon\n>>> 1 + 1\n3\n\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=r"Expected:\s+3\s+Got:\s+2"):
        run_page(page)


def test_examples_of_a_page_share_one_namespace(tmp_path):
    page = tmp_path / "two.md"
    page.write_text("```pycon\n>>> x = 41\n\n```\n\ntext\n\n```pycon\n>>> x + 1\n42\n\n```\n", encoding="utf-8")
    assert run_page(page).attempted == 2


def test_the_requires_comment_is_read():
    assert required_modules("<!-- doctest-requires: pettingzoo gymnasium -->\n# Title\n") == \
        ["pettingzoo", "gymnasium"]
    assert required_modules("# No extra needed\n") == []


def _load_extension():
    pytest.importorskip("griffe", reason="the docs extra is not installed")
    spec = importlib.util.spec_from_file_location("_griffe_rst", DOCS / "_griffe_rst.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docstrings_become_markdown():
    ext = _load_extension()
    text = "Use :class:`~connect6.options.Limits` or :meth:`push`::\n\n>>> 1 + 1\n2\n\nAfter."
    assert ext.rst_to_markdown(text) == \
        "Use `Limits` or `push`:\n\n```pycon\n>>> 1 + 1\n2\n```\n\nAfter."


def test_the_site_builds(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install \".[docs]\"")
    pytest.importorskip("mkdocstrings", reason="the docs extra is not installed: pip install \".[docs]\"")
    pytest.importorskip("material", reason="the docs extra is not installed: pip install \".[docs]\"")
    site = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for page in USE_PAGES:
        assert (site / (page[:-3] if page != "index.md" else "") / "index.html").exists()
    reference = (site / "reference" / "index.html").read_text(encoding="utf-8")
    assert 'id="connect6.board.Board"' in reference and 'id="connect6.engine.Engine.search"' in reference
    # the docstrings' examples are code blocks, not nested quotes
    assert "&gt;&gt;&gt;" in reference and "<blockquote>" not in reference


def local_links(path: Path):
    """The relative link targets of a Markdown file, without their ``#anchor``
    (web addresses and links within the page left out)."""
    targets = (m.group(1) for m in LINK.finditer(path.read_text(encoding="utf-8")))
    return [t.split("#")[0] for t in targets if not t.startswith(("http://", "https://", "mailto:", "#"))]


def broken_links(path: Path):
    return [t for t in local_links(path) if not (path.parent / t).exists()]


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "there.md").write_text("x", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[a](there.md#x) [b](gone.md) [c](https://example.org/) [d](#top)", encoding="utf-8")
    assert local_links(page) == ["there.md", "gone.md"]
    assert broken_links(page) == ["gone.md"]


def test_the_readme_is_short_and_keeps_its_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 220, "the README is for a newcomer: details go to docs/"
    for marker, words in (("main-command", ("pip install .", "connect6 match")),
                          ("test-command", ("pip install", "pytest"))):
        assert f"<!-- {marker} -->" in text, marker
        block = text.split(f"<!-- {marker} -->", 1)[1].lstrip("\n")
        assert block.startswith("```sh\n"), f"no sh block after the {marker} marker"
        command = block[len("```sh\n"):].split("```", 1)[0]
        assert all(word in command for word in words), command


@pytest.mark.parametrize("path", [README, RESULTS / "README.md"], ids=["README.md", "results-index"])
def test_links_resolve(path):
    assert broken_links(path) == []


def test_the_results_index_lists_every_file():
    linked = {target for target in local_links(RESULTS / "README.md") if "/" not in target}
    files = {p.name for p in RESULTS.iterdir() if p.is_file() and p.name != "README.md"}
    assert sorted(files - linked) == [], "bench/results/README.md should index every result file"
