"""Where the data files live: ``templates/`` and ``schema/``.

In a source checkout (and an editable install) they sit at the repository root, beside
``mcpgen/``. In a built wheel they are packaged as ``mcpgen/_data/{templates,schema}``.
"""

from __future__ import annotations

import functools
from pathlib import Path

_PKG_DIR = Path(__file__).resolve().parent


@functools.cache
def data_dir(name: str) -> Path:
    """Return the directory holding the ``name`` data files (``templates`` or ``schema``)."""
    for candidate in (_PKG_DIR / "_data" / name, _PKG_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"mcpgen data directory {name!r} is missing from the installation")


def schema_dir() -> Path:
    return data_dir("schema")


def templates_dir() -> Path:
    return data_dir("templates")
