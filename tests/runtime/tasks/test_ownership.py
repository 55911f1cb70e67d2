"""A task belongs to its caller: with HTTP authentication another caller (another token, or
under OAuth another subject or client) gets the same not-found as for an unknown id, never the
task, its result, or a way to answer or cancel it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.interop.wire import HttpPeer
from tests.runtime.tasks.common import Client, http_server, write


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("tasked"))


def test_another_caller_gets_not_found(package: Path) -> None:
    server = http_server(package, MCPGEN_AUTH_TOKENS="alice-token,bob-token")
    server.start()
    try:
        alice = Client(HttpPeer(server.url, modern=True), token="alice-token")
        bob = Client(HttpPeer(server.url, modern=True), token="bob-token")
        task_id = alice.call("ask", {})["result"]["taskId"]
        assert alice.until(task_id, "input_required")["inputRequests"]
        unknown = bob.get("no-such-task")["error"]
        for method, extra in (
            ("tasks/get", {}),
            ("tasks/update", {"inputResponses": {"n": {"action": "accept", "content": {"n": 1}}}}),
            ("tasks/cancel", {}),
        ):
            res = bob.rpc(method, {"taskId": task_id, **extra})
            assert res["error"]["code"] == unknown["code"] == -32602, res
            assert "Task not found" in res["error"]["message"]
        still = alice.get(task_id)["result"]
        assert still["status"] == "input_required" and "n" in still["inputRequests"], still
        assert "result" in alice.rpc("tasks/cancel", {"taskId": task_id})
    finally:
        server.stop()
