"""Fixtures of the JSON-Schema-Test-Suite tests: the pinned mirror, and a process with no
network (every socket refused)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.schema_suite.suite import SUITE_COMMIT, NetworkUsed, suite_dir


@pytest.fixture(scope="session")
def suite_root() -> Path:
    root = suite_dir()
    if root is None:
        pytest.skip("no JSON-Schema-Test-Suite mirror (../shared/json-schema-test-suite)")
    assert SUITE_COMMIT in (root / "SOURCE").read_text(), "not the pinned suite commit"
    return root


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every way to open a socket or look a name up fails (and is recorded)."""
    attempts: list[str] = []

    def refuse(name: str):  # type: ignore[no-untyped-def]
        def _refused(*args, **kwargs):  # type: ignore[no-untyped-def]
            attempts.append(f"{name}{args[:2]!r}")
            raise NetworkUsed(f"network used: socket.{name}{args[:2]!r}")

        return _refused

    for name in ("socket", "create_connection", "getaddrinfo", "gethostbyname", "gethostbyname_ex"):
        monkeypatch.setattr(socket, name, refuse(name))
    yield attempts
