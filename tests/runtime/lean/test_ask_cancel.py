"""A handler cancelled while it waits for the client's answer to its own question (an
elicitation on the handshake wire): the server tells the client to stop working on that
question (``notifications/cancelled`` with the question's id, the spec's courtesy cancel), the
cancelled call is not answered, a late answer to the question is dropped, and the connection
goes on. Both engines, the SDK's as the control."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.stdio_session import Session, initialize
from tests.runtime.lean.test_lazy_sdk import package  # noqa: F401 - the fixture

__all__ = ["package"]


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_a_cancelled_call_cancels_its_own_question(package: Path, engine: str) -> None:  # noqa: F811
    s = Session(package, "lazy_server", engine=engine)
    try:
        initialize(s, {"elicitation": {}})
        s.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ask_name"}})
        ask = s.next()
        assert ask["method"] == "elicitation/create", ask
        s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
        note: dict[str, Any] = s.next()
        assert note == {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": ask["id"], "reason": "caller cancelled"},
        }
        # the client answers anyway, late: dropped
        s.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "decline"}})
        assert s.call(2, "ping")["result"] == {}
        assert all(m.get("id") != 1 for m in s.early), "the cancelled call was answered"
    finally:
        s.close()
