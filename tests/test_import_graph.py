"""The generator and the runtime import downwards only: no import circles, hidden or not.

Every import statement counts, wherever it stands (module level, inside a function, under
``if TYPE_CHECKING:``): a circle hidden behind a function-level import is still a circle in the
design. Only the project's own modules are nodes; a package's ``__init__`` is a node of its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREES = {"mcpgen": ROOT / "mcpgen", "mcpgen_runtime": ROOT / "runtime" / "mcpgen_runtime"}


def _modules(top: str, base: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted(base.rglob("*.py")):
        rel = path.relative_to(base.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _edges(name: str, path: Path, known: set[str]) -> set[str]:
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                mod = ".".join(anchor + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            if target in known and target != name:
                found.add(target)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


@pytest.mark.parametrize("top", sorted(TREES))
def test_no_import_circles(top: str) -> None:
    modules = _modules(top, TREES[top])
    known = set(modules)
    graph = {name: _edges(name, path, known) for name, path in modules.items()}
    assert _cycles(graph) == []


def test_the_checker_sees_a_hidden_circle(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import B\n")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n"
    )
    (pkg / "c.py").write_text("def f():\n    from . import a\n")
    modules = _modules("pkg", pkg)
    graph = {name: _edges(name, path, set(modules)) for name, path in modules.items()}
    assert _cycles(graph) == [["pkg.a", "pkg.b"]]
