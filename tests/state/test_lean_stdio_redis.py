"""A stdio server on Redis state (``MCPGEN_STATE_URL``) still starts without the SDK: the
Redis backend imports the SDK's ``EventStore`` only for ``--resumable`` (``redis_events``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.runtime.lean.stdio_session import Session, initialize, text
from tests.runtime.lean.test_lazy_sdk import package  # noqa: F401 - the fixture
from tests.state.conftest import RedisServer

__all__ = ["package"]


def test_a_lean_stdio_session_on_redis_never_imports_the_sdk(
    package: Path,  # noqa: F811
    redis_server: RedisServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MCPGEN_STATE_URL", redis_server.url)
    s = Session(package, "lazy_server")
    try:
        initialize(s)
        assert text(s.call(1, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})) == "3"
        # the server is on Redis: its replica listens on the server's announcements channel
        assert not redis_server.command("PUBSUB", "CHANNELS").startswith(b"*0\r\n")
        probe = s.call(2, "tools/call", {"name": "modules", "arguments": {}})
        assert text(probe) == "", text(probe)
    finally:
        s.close()
