"""A request id is taken while its request runs and free again once it is over, however it
ended: answered, cancelled while running, or cancelled before its task ever ran (the request
and its ``notifications/cancelled`` in one read). The lean engine takes a request out of its
table as the request's own coroutine ends (no done callback per request); a task cancelled
before it ran has no coroutine to do that, so the cancellation forgets it. Both engines, the
SDK's as the control, on the ``lazy`` package of ``test_lazy_sdk``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.stdio_session import Session, initialize, text
from tests.runtime.lean.test_lazy_sdk import package  # noqa: F401 - the fixture

__all__ = ["package"]

IN_USE = "Invalid Request: this id is already in use"


def _call(rid: Any, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments or {}}
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}


def _cancel(rid: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": rid}}


def _settle(s: Session, first: int) -> None:
    """Two ping round trips: whatever the cancellation scheduled on the server has run."""
    for rid in (first, first + 1):
        assert s.call(rid, "ping")["result"] == {}


def test_an_id_in_flight_is_refused_and_free_again_once_answered_or_cancelled(
    package: Path,  # noqa: F811
) -> None:
    s = Session(package, "lazy_server")
    try:
        initialize(s)
        # answered: the id is free at once, the next request may reuse it
        for _ in range(3):
            answer = s.call(1, "tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}})
            assert text(answer) == "5", answer
        # running: a second request under its id is refused with id null
        s.send(_call(9, "slow"))
        s.send(_call(9, "add", {"a": 1, "b": 1}))
        refused = s.answer(None)
        assert refused["error"]["message"] == IN_USE, refused
        # cancelled while running: not answered, and the id is free again
        s.send(_cancel(9))
        _settle(s, 100)
        again = s.call(9, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 1}})
        assert text(again) == "2", again
        assert all(m.get("id") != 9 for m in s.early), s.early
    finally:
        s.close()


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_a_request_cancelled_before_it_ran_frees_its_id(package: Path, engine: str) -> None:  # noqa: F811
    s = Session(package, "lazy_server", engine=engine)
    try:
        initialize(s)
        assert s.proc.stdin is not None
        # the request and its cancellation in one write: on Python 3.11 the request's task
        # is cancelled before its first step (on 3.12+ it started eagerly and waits)
        both = json.dumps(_call(7, "slow")) + "\n" + json.dumps(_cancel(7)) + "\n"
        s.proc.stdin.write(both.encode())
        s.proc.stdin.flush()
        _settle(s, 200)
        answer = s.call(7, "tools/call", {"name": "add", "arguments": {"a": 4, "b": 4}})
        assert text(answer) == "8", answer
        assert all(m.get("id") != 7 for m in s.early), s.early
    finally:
        s.close()
