"""A griffe extension for the API reference: the package's docstrings are
written in reStructuredText habits (``>>>`` examples, ``:class:`X``` roles,
``::`` before literal blocks); this rewrites them as Markdown before
mkdocstrings renders them, so examples show as code and roles as code spans.
Only the rendered text changes; the docstrings in the code are untouched.
"""
from __future__ import annotations

import re
from typing import Any, List

import griffe

ROLE = re.compile(r":(?:class|meth|func|attr|mod|data|exc|obj):`~?([^`]+)`")


def _role(match: "re.Match[str]") -> str:
    target = match.group(1)
    whole = match.group(0)
    shown = target.rsplit(".", 1)[-1] if ":`~" in whole else target
    return f"`{shown}`"


def fence_examples(text: str) -> str:
    """Wrap each run of ``>>>`` lines and their output in a ``pycon`` fence."""
    out: List[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def rst_to_markdown(text: str) -> str:
    text = ROLE.sub(_role, text)
    text = re.sub(r"(?m)(\S)::$", r"\1:", text)      # "text::" before a literal block
    text = re.sub(r"(?m)^::$", "", text)
    return fence_examples(text)


class RstDocstrings(griffe.Extension):
    """Rewrite every docstring griffe loads (see the module docstring)."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rst_to_markdown(obj.docstring.value)
