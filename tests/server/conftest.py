"""``pytest tests/server --update-golden`` (or ``MCPGEN_UPDATE_GOLDEN=1``) rewrites the golden
files instead of comparing them; ``python -m tests.server.regen_golden`` does the same."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", default=False, help="rewrite tests/server/golden"
    )
