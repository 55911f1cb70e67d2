"""``mcpgen_runtime`` from the checkout when it is not installed (an editable install wins)."""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import mcpgen_runtime  # noqa: F401
except ImportError:  # pragma: no cover - only before `pip install -e runtime`
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "runtime"))
