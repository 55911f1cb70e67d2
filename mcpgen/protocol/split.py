"""One revision's formatted models -> the package ``mcp_wire/<module>/`` (pure: no I/O).

A revision has ~180 models; creating a pydantic class costs even with ``defer_build``, so a
handler that imports ``TextContent`` should not create the other ~165. The models form a
directed acyclic graph (a model refers to the models of its fields and bases), so they split
into modules that each import only what they refer to:

* ``content``: the content blocks a tool result is built from (``CONTENT_ROOTS``, those the
  revision has) and every model they refer to;
* ``protocol``: everything else, importing what it refers to from ``content``.

``__init__.py`` names every model for type checkers (``if TYPE_CHECKING`` imports) and loads a
module on the first use of one of its names (module ``__getattr__``), so
``from mcp_wire.v2026_07_28 import TextContent`` creates the content models only, and
``from mcp_wire.v2026_07_28 import *`` all of them. Each class lives in one module, so a model
is the same class whichever way it is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

CONTENT_ROOTS = (
    "Annotations",
    "AudioContent",
    "BlobResourceContents",
    "CallToolResult",
    "ContentBlock",
    "EmbeddedResource",
    "Icon",
    "ImageContent",
    "ResourceLink",
    "Role",
    "TextContent",
    "TextResourceContents",
)
"""The names ``mcpgen_runtime`` exports for handlers (``mcpgen_runtime.content``), plus the
union of the blocks. tests/protocol checks that importing them leaves ``protocol`` unloaded."""

GROUPS = ("content", "protocol")


def split_revision(body: str, header: str, revision: str) -> dict[str, str]:
    """``{file name: text}`` of the package of one revision; ``body``: the formatted module
    (imports, then classes only), ``header``: its ``# DO NOT EDIT`` comment lines."""
    from mcpgen.format import format_python

    tree = ast.parse(body)
    lines = body.splitlines(keepends=True)
    imports: list[ast.ImportFrom] = []
    classes: dict[str, str] = {}
    refs: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            imports.append(node)
        elif isinstance(node, ast.ClassDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            classes[node.name] = "".join(lines[first - 1 : node.end_lineno])
            refs[node.name] = _names(node)
        else:
            raise ValueError(f"{revision}: unexpected top-level statement at line {node.lineno}")
    deps = {name: (used & classes.keys()) - {name} for name, used in refs.items()}
    content = _closure((r for r in CONTENT_ROOTS if r in classes), deps)
    groups = {
        "content": [n for n in classes if n in content],
        "protocol": [n for n in classes if n not in content],
    }
    files = {
        f"{group}.py": format_python(
            header + _module(names, classes, refs, deps, imports, groups["content"], group)
        )
        for group, names in groups.items()
    }
    files["__init__.py"] = format_python(header + _package(revision, groups))
    return files


def _names(node: ast.AST) -> set[str]:
    """Every name a class refers to (string annotations included)."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.add(sub.value)
    return out


def _closure(roots: Iterable[str], deps: dict[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack.extend(deps[name])
    return seen


def _module(
    names: list[str],
    classes: dict[str, str],
    refs: dict[str, set[str]],
    deps: dict[str, set[str]],
    imports: list[ast.ImportFrom],
    content: list[str],
    group: str,
) -> str:
    """One group's module: the imports its classes use, then the classes in the original
    (dependency) order."""
    used = set().union(*(refs[n] for n in names)) if names else set()
    out = [f'"""MCP wire models: {_DOC[group]}."""\n\n']
    for imp in imports:
        kept = [a.name for a in imp.names if imp.module == "__future__" or a.name in used]
        if kept:
            out.append(f"from {imp.module} import {', '.join(kept)}\n")
    if group != "content":
        needed = [n for n in content if any(n in deps[m] for m in names)]
        if needed:
            out.append(f"from .content import {', '.join(needed)}\n")
    out.append(f"\n__all__ = {names!r}\n")
    for name in names:
        out.append("\n\n" + classes[name])
    return "".join(out)


_DOC = {
    "content": "the content blocks of tool results and what they refer to",
    "protocol": "all the others, with what they refer to from ``content``",
}


def _package(revision: str, groups: dict[str, list[str]]) -> str:
    checking = "".join(
        f"    from .{group} import {', '.join(f'{n} as {n}' for n in names)}\n"
        for group, names in groups.items()
        if names
    )
    everything = sorted(n for names in groups.values() for n in names)
    groups_src = ", ".join(f"{g!r}: {tuple(names)!r}" for g, names in groups.items())
    return f'''"""Typed pydantic v2 wire models of MCP revision {revision}.

The models are in two modules, each loaded on the first use of one of its names:

* ``content``: {_DOC["content"]};
* ``protocol``: {_DOC["protocol"]}.

Importing a content type therefore creates a dozen models, not all of the revision's.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
{checking}
__all__ = {everything!r}

_GROUPS: dict[str, tuple[str, ...]] = {{{groups_src}}}
_WHERE = {{name: group for group, names in _GROUPS.items() for name in names}}

if not TYPE_CHECKING:

    def __getattr__(name):
        group = _WHERE.get(name)
        if group is None:
            raise AttributeError(f"module {{__name__!r}} has no attribute {{name!r}}")
        import importlib

        module = importlib.import_module(f"{{__name__}}.{{group}}")
        globals().update({{n: getattr(module, n) for n in _GROUPS[group]}})
        return globals()[name]

    def __dir__():
        return sorted(set(globals()) | set(__all__))
'''
