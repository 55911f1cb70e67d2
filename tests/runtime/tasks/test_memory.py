"""The tasks extension on one server with memory state, over raw JSON-RPC: the lean engine on
stdio and on the 2026-07-28 HTTP front, and the SDK engine on HTTP (``--engine sdk``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.interop.wire import HttpPeer, StdioPeer
from tests.runtime.tasks.common import EXT, Client, http_server, stdio, write


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("tasked"))


@pytest.fixture(scope="module", params=["stdio", "http", "http-sdk"])
def client(request: pytest.FixtureRequest, package: Path) -> Iterator[Client]:
    if request.param == "stdio":
        peer = stdio(package)
        try:
            yield Client(peer)
        finally:
            peer.close()
        return
    server = http_server(package, *(["--engine", "sdk"] if request.param == "http-sdk" else []))
    server.start()
    peer = HttpPeer(server.url, modern=True)
    try:
        yield Client(peer)
    finally:
        peer.close()
        server.stop()


def text(result: dict[str, object]) -> str:
    content = result["content"]
    assert isinstance(content, list)
    return str(content[0]["text"])


def test_a_task_runs_to_completion_and_shows_its_progress(client: Client) -> None:
    created = client.call("work", {"seconds": 1.0})["result"]
    assert created["resultType"] == "task" and created["status"] == "working", created
    assert created["pollIntervalMs"] == 50 and created["ttlMs"] >= 2000
    task_id = created["taskId"]
    seen = client.get(task_id)["result"]  # durable before the answer: found at once
    assert seen["taskId"] == task_id and seen["resultType"] == "complete"
    messages = set()
    deadline = time.monotonic() + 20
    while seen["status"] == "working" and time.monotonic() < deadline:
        messages.add(seen.get("statusMessage"))
        time.sleep(0.05)
        seen = client.get(task_id)["result"]
    assert seen["status"] == "completed", seen
    assert text(seen["result"]).startswith("worked 1 s"), seen
    assert any(m and m.startswith("step ") for m in messages), messages  # ctx.progress


def test_the_extension_decides_per_request(client: Client) -> None:
    plain = client.call("work", {"seconds": 0}, tasks=False)["result"]
    assert "taskId" not in plain and text(plain).startswith("worked 0 s")
    assert "taskId" not in client.call("echo", {"text": "hi"})["result"]  # forbidden: never
    refused = client.call("export", {"seconds": 0}, tasks=False)
    assert refused["error"]["code"] == -32021, refused
    assert refused["error"]["data"] == {"requiredCapabilities": {"extensions": {EXT: {}}}}
    gated = client.rpc("tasks/get", {"taskId": "x"}, tasks=False)
    assert gated["error"]["code"] == -32021, gated


def test_a_question_parks_the_task_until_tasks_update_answers_it(client: Client) -> None:
    task_id = client.call("ask", {})["result"]["taskId"]
    parked = client.until(task_id, "input_required")
    request = parked["inputRequests"]["n"]
    assert request["method"] == "elicitation/create", parked
    wrong = client.rpc(
        "tasks/update",
        {"taskId": task_id, "inputResponses": {"n": {"action": "accept", "content": {"n": "x"}}}},
    )
    assert wrong["error"]["code"] == -32602 and "does not answer" in wrong["error"]["message"]
    ack = client.rpc(
        "tasks/update",
        {
            "taskId": task_id,
            "inputResponses": {
                "n": {"action": "accept", "content": {"n": 7}},
                "unknown": {"ignored": True},
            },
        },
    )
    assert ack["result"]["resultType"] == "complete" and "status" not in ack["result"], ack
    done = client.until(task_id, "completed", "failed")
    assert text(done["result"]) == "n=7", done


def test_cancel_stops_the_handler_and_is_idempotent(client: Client) -> None:
    task_id = client.call("export", {"seconds": 30})["result"]["taskId"]
    ack = client.rpc("tasks/cancel", {"taskId": task_id})
    assert ack["result"]["resultType"] == "complete" and "taskId" not in ack["result"]
    assert client.until(task_id, "cancelled", "completed")["status"] == "cancelled"
    again = client.rpc("tasks/cancel", {"taskId": task_id})  # a finished task: the same ack
    assert "result" in again, again


def test_unknown_ids_and_a_burst_past_the_cap(client: Client) -> None:
    for method in ("tasks/get", "tasks/cancel"):
        res = client.rpc(method, {"taskId": "no-such-task"})
        assert res["error"]["code"] == -32602, res
    res = client.rpc("tasks/update", {"taskId": "no-such-task", "inputResponses": {}})
    assert res["error"]["code"] == -32602, res
    ids = []
    refused = None
    for _ in range(6):  # maxLivePerCaller: 3 (other tests' tasks are finished or cancelled)
        res = client.call("export", {"seconds": 30})
        if "error" in res:
            refused = res
            break
        ids.append(res["result"]["taskId"])
    assert refused is not None and refused["error"]["code"] == -32602, refused
    assert "maxLivePerCaller 3" in refused["error"]["message"]
    assert len(ids) == 3
    for task_id in ids:
        client.rpc("tasks/cancel", {"taskId": task_id})
    created = client.call("export", {"seconds": 0})  # room again
    assert created["result"]["resultType"] == "task", created


def test_a_finished_task_expires_after_keep_seconds(client: Client) -> None:
    task_id = client.call("work", {"seconds": 0})["result"]["taskId"]
    done = client.until(task_id, "completed")
    assert 2000 <= done["ttlMs"] <= 4000, done
    time.sleep(2.5)
    gone = client.get(task_id)
    assert gone["error"]["code"] == -32602, gone


def test_status_notifications_on_subscriptions_listen(package: Path) -> None:
    peer = stdio(package)
    try:
        client = Client(peer)
        task_id = client.call("work", {"seconds": 0.5})["result"]["taskId"]
        listen_id = "listen-1"
        peer.send(
            {
                "jsonrpc": "2.0",
                "id": listen_id,
                "method": "subscriptions/listen",
                "params": {"notifications": {"taskIds": [task_id, "not-mine"]}, "_meta": _meta()},
            }
        )
        client.until(task_id, "completed")
        time.sleep(0.2)
        client.rpc("tools/call", {"name": "echo", "arguments": {"text": "flush"}})
        notes = [m for m in peer.received if isinstance(m, dict) and "id" not in m]
        ack = next(m for m in notes if m["method"] == "notifications/subscriptions/acknowledged")
        assert ack["params"]["notifications"]["taskIds"] == [task_id], ack
        tasks = [m["params"] for m in notes if m["method"] == "notifications/tasks"]
        assert tasks and tasks[-1]["taskId"] == task_id and tasks[-1]["status"] == "completed"
        assert tasks[-1]["result"]["content"][0]["text"].startswith("worked"), tasks[-1]
        assert tasks[-1]["_meta"]["io.modelcontextprotocol/subscriptionId"] == listen_id
        refused = peer.request(
            "subscriptions/listen",
            {"notifications": {"taskIds": [task_id]}, "_meta": _meta(tasks=False)},
        )
        assert refused["error"]["code"] == -32021, refused
    finally:
        peer.close()


def _meta(tasks: bool = True) -> dict[str, object]:
    from tests.runtime.tasks.common import meta

    return meta(tasks)


def test_the_handshake_wire_has_no_tasks(package: Path) -> None:
    """2025-11-25: a client that declares the extension anyway gets plain calls; a task-only
    tool and the extension's methods answer -32601."""
    peer: StdioPeer = stdio(package)
    try:
        init = peer.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {"extensions": {EXT: {}}},
                "clientInfo": {"name": "t", "version": "1"},
            },
        )
        assert "result" in init, init
        peer.notify("notifications/initialized")
        plain = peer.request("tools/call", {"name": "work", "arguments": {"seconds": 0}})
        assert "taskId" not in plain["result"] and not plain["result"].get("isError"), plain
        only = peer.request("tools/call", {"name": "export", "arguments": {"seconds": 0}})
        assert only["error"]["code"] == -32601 and "only as a task" in only["error"]["message"]
        get = peer.request("tasks/get", {"taskId": "x"})
        assert get["error"]["code"] == -32601 and "2026-07-28" in get["error"]["message"], get
    finally:
        peer.close()
