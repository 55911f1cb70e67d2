"""The user's project: the nearest ``pyproject.toml`` above a directory (its ``[tool.mcpgen]``
tables are read by ``mcpgen.check.config``; registration snippets find the project root)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def find_pyproject(start: Path) -> Path | None:
    for d in (start, *start.parents):
        cand = d / "pyproject.toml"
        if cand.is_file():
            return cand
    return None


def read_pyproject(path: Path) -> dict[str, Any]:
    """``path`` parsed; raises ``OSError`` when it cannot be read and ``ValueError`` when it is
    not UTF-8 TOML (``tomllib.TOMLDecodeError`` and ``UnicodeDecodeError`` are both)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib.loads(path.read_text(encoding="utf-8"))
