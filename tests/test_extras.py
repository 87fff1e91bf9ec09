"""The optional extras match the imports: every optional import, when its
package is missing, says which extra to install (one test per extra), and
that extra, in the installed package's metadata, does bring the package."""
import importlib
import importlib.metadata
import re
import sys

import pytest

from connect6.cli import main

#: extra -> {module imported: distribution that provides it}
EXTRAS = {
    "web": {"starlette": "starlette", "uvicorn": "uvicorn"},
    "rl": {"pettingzoo": "pettingzoo", "gymnasium": "gymnasium"},
    "cluster": {"distributed": "dask"},          # dask[distributed]
    "progress": {"tqdm": "tqdm", "rich": "rich"},
}


def _hint(extra):
    return re.escape(f'pip install "connect6[{extra}]"')


def _missing(monkeypatch, *modules):
    """Make ``import name`` fail for each module, as if it were not installed."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def _extra_requirements():
    found = {}
    for req in importlib.metadata.requires("connect6") or []:
        marker = re.search(r"""extra\s*==\s*['"]([\w-]+)['"]""", req)
        if marker:
            name = re.match(r"[A-Za-z0-9_.-]+", req).group(0).lower()
            found.setdefault(marker.group(1), set()).add(name)
    return found


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_the_extra_brings_the_packages_it_is_named_for(extra):
    assert set(EXTRAS[extra].values()) <= _extra_requirements().get(extra, set())


@pytest.mark.parametrize("module", ["starlette", "uvicorn"])
def test_web_missing_names_the_web_extra(monkeypatch, capsys, module):
    from connect6.web import require_web
    _missing(monkeypatch, module)
    with pytest.raises(ModuleNotFoundError, match=_hint("web")):
        require_web()
    # the command: connect6 gui (the server module imported afresh)
    monkeypatch.delitem(sys.modules, "connect6.web.server", raising=False)
    assert main(["gui"]) == 2
    assert re.search(_hint("web"), capsys.readouterr().err)


@pytest.mark.parametrize("module,env", [("pettingzoo", "connect6.env.pettingzoo"),
                                        ("gymnasium", "connect6.env.gymnasium")])
def test_rl_missing_names_the_rl_extra(monkeypatch, module, env):
    _missing(monkeypatch, module, module + ".spaces", module + ".utils")
    monkeypatch.delitem(sys.modules, env, raising=False)   # import the environment module afresh
    with pytest.raises(ModuleNotFoundError, match=_hint("rl")):
        importlib.import_module(env)


def test_cluster_missing_names_the_cluster_extra(monkeypatch):
    from connect6.match.cluster import open_cluster
    _missing(monkeypatch, "distributed")
    with pytest.raises(ValueError, match=_hint("cluster")):
        open_cluster("local:2")


@pytest.mark.parametrize("kind,modules", [("tqdm", ["tqdm"]), ("rich", ["rich", "rich.progress"])])
def test_progress_missing_names_the_progress_extra(monkeypatch, kind, modules):
    from connect6.match.progress import make_progress
    _missing(monkeypatch, *modules)
    with pytest.raises(ValueError, match=_hint("progress")):
        make_progress(kind, 2, 0)
    if kind == "rich":   # --progress live falls back to plain lines without rich, quietly
        assert type(make_progress("live", 2, 0)).__name__ == "_LivePlainProgress"
