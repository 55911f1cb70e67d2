"""The user's project: the nearest ``pyproject.toml`` above a directory (its ``[tool.mcpgen]``
tables are read by ``codegen.check.config``; registration snippets find the project root)."""

from __future__ import annotations

from pathlib import Path


def find_pyproject(start: Path) -> Path | None:
    for d in (start, *start.parents):
        cand = d / "pyproject.toml"
        if cand.is_file():
            return cand
    return None
