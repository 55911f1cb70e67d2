"""``mcpgen_runtime`` from the checkout when it is not installed (an editable install wins);
the generated conformance example (examples/conformance) as a fixture: (handlers, generated)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

try:
    import mcpgen_runtime  # noqa: F401
except ImportError:  # pragma: no cover - only before `pip install -e runtime`
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "runtime"))

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "conformance"


@pytest.fixture(scope="module")
def example() -> Iterator[tuple[ModuleType, Any]]:
    sys.path.insert(0, str(EXAMPLE))
    try:
        import conformance_server._generated.server as generated
        import conformance_server.handlers as handlers

        yield handlers, generated
    finally:
        sys.path.remove(str(EXAMPLE))
