"""The names each ``_generated`` module defines are facts the generator records
(``.mcpgen.json``'s ``facts.modules``, read by ``user_file_warnings``): they must be what the
generated modules bind. Checked here by reading the modules with ``ast``, in the tests only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.server.helpers import REPO, WEATHER, render_package


def _defined(source: str) -> set[str]:
    """Module-level public classes, functions and assignments, and ``__all__``'s entries."""
    names: set[str] = set()
    for stmt in ast.parse(source).body:
        if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(stmt.name)
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            names.add(stmt.target.id)
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name) and target.id == "__all__":
                    names.update(ast.literal_eval(stmt.value))
                elif isinstance(target, ast.Name):
                    names.add(target.id)
    # private machinery (``_LAZY``, ``__getattr__``) is not a name user code imports
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize(
    "manifest",
    [WEATHER, REPO / "tests" / "server" / "data" / "constrained.yaml"],
    ids=lambda p: p.stem,
)
def test_recorded_module_names_are_what_the_modules_define(manifest: Path) -> None:
    rendered = render_package(manifest, "pkg")
    modules = rendered.facts["modules"]
    for sub, names in modules.items():
        rel = "__init__.py" if not sub else f"{sub}.py"
        text = rendered.owned[rel]
        assert isinstance(text, str)
        assert set(names) == _defined(text), rel
    assert sorted(modules) == sorted(
        rel.removesuffix(".py").replace("__init__", "")
        for rel in rendered.owned
        if rel.endswith(".py")
    )
