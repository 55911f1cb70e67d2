"""The tasks extension on Redis (``--state``): replicas of one server share their tasks. A task
started on one replica is read, answered and cancelled through another; a replica killed
mid-task leaves its tasks to the others (an idempotent tool runs again, any other fails with a
clear error); Redis going away fails task calls with a clear error while plain calls go on."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.interop.procs import HttpServer, free_port
from tests.interop.wire import HttpPeer
from tests.runtime.tasks.common import Client, http_server, write
from tests.state.conftest import RedisServer, redis_server, redis_server_binary

__all__ = ["redis_server"]

LEASE_S = "1.5"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("tasked"))


def replica(package: Path, url: str) -> HttpServer:
    return http_server(package, "--state", url, MCPGEN_TASKS_LEASE_S=LEASE_S)


@pytest.fixture(scope="module")
def pair(package: Path, redis_server: RedisServer) -> Iterator[list[HttpServer]]:
    servers = [replica(package, redis_server.url) for _ in range(2)]
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.stop()


def client(server: HttpServer) -> Client:
    return Client(HttpPeer(server.url, modern=True))


def pid_of(result: dict[str, object]) -> str:
    content = result["content"]
    assert isinstance(content, list)
    return str(content[0]["text"]).rsplit("pid=", 1)[1]


def test_a_task_started_on_one_replica_is_read_answered_and_cancelled_on_another(
    pair: list[HttpServer],
) -> None:
    a, b = client(pair[0]), client(pair[1])
    task_id = a.call("work", {"seconds": 0.5})["result"]["taskId"]
    assert b.get(task_id)["result"]["taskId"] == task_id  # durable before the answer
    done = b.until(task_id, "completed")
    assert pid_of(done["result"]) == str(pair[0].proc.pid), done  # ran on A, read on B

    asked = a.call("ask", {})["result"]["taskId"]
    parked = b.until(asked, "input_required")
    assert "n" in parked["inputRequests"]
    ack = b.rpc(
        "tasks/update",
        {"taskId": asked, "inputResponses": {"n": {"action": "accept", "content": {"n": 5}}}},
    )
    assert "result" in ack, ack
    assert a.until(asked, "completed")["result"]["content"][0]["text"] == "n=5"

    long = a.call("export", {"seconds": 30})["result"]["taskId"]
    assert b.get(long)["result"]["status"] == "working"
    assert "result" in b.rpc("tasks/cancel", {"taskId": long})
    assert a.until(long, "cancelled", "completed")["status"] == "cancelled"


def test_a_killed_replicas_tasks_fail_or_run_again(
    package: Path, redis_server: RedisServer, pair: list[HttpServer]
) -> None:
    doomed = replica(package, redis_server.url)
    doomed.start()
    try:
        c = client(doomed)
        lost = c.call("export", {"seconds": 30})["result"]["taskId"]  # not idempotent
        again = c.call("work", {"seconds": 2})["result"]["taskId"]  # idempotentHint: true
        time.sleep(0.3)
    finally:
        doomed.stop()  # SIGKILL to its process group: the handlers die mid-run
    survivor = client(pair[0])
    assert survivor.get(lost)["result"]["status"] == "working"  # the lease has not run out
    time.sleep(float(LEASE_S) + 0.5)
    failed = survivor.get(lost)["result"]
    assert failed["status"] == "failed", failed
    assert (
        failed["error"]["code"] == -32603 and "not marked idempotent" in failed["error"]["message"]
    )
    rerun = survivor.until(again, "completed", "failed", timeout=30)
    assert rerun["status"] == "completed", rerun
    log = pair[0].output()
    assert log.count(f"task {lost}: replica") == 1 and log.count(f"task {again}: replica") == 1
    assert pid_of(rerun["result"]) == str(pair[0].proc.pid), rerun  # run again on the reader


def test_redis_going_away_fails_task_calls_clearly_and_plain_calls_go_on(
    package: Path,
) -> None:
    with tempfile.TemporaryDirectory(prefix="mcpgen-redis-") as tmp:
        redis = RedisServer(free_port(), redis_server_binary(), Path(tmp))
        redis.start()
        server = replica(package, redis.url)
        server.start()
        try:
            c = client(server)
            running = c.call("work", {"seconds": 1})["result"]["taskId"]
            redis.stop()
            refused = c.call("work", {"seconds": 0})
            assert refused["error"]["code"] == -32603, refused
            assert "Task state unavailable" in refused["error"]["message"]
            got = c.get(running)
            assert got["error"]["code"] == -32603, got
            plain = c.call("echo", {"text": "still here"}, tasks=False)["result"]
            assert plain["content"][0]["text"].startswith("still here"), plain
            assert c.call("work", {"seconds": 0}, tasks=False)["result"]["content"]
            log = server.output()
            assert "Traceback" not in log, log
            assert log.count("task state unavailable") == 2, log  # each refusal logged once
        finally:
            server.stop()
            redis.stop()


def test_a_listener_on_one_replica_hears_a_task_running_on_another(
    pair: list[HttpServer],
) -> None:
    import json
    import threading

    import httpx

    from tests.runtime.tasks.common import meta

    a = client(pair[0])
    task_id = a.call("work", {"seconds": 1.5})["result"]["taskId"]
    heard: list[dict[str, object]] = []
    body = {
        "jsonrpc": "2.0",
        "id": "listen",
        "method": "subscriptions/listen",
        "params": {"notifications": {"taskIds": [task_id]}, "_meta": meta()},
    }
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "subscriptions/listen",
    }

    def listen() -> None:
        try:
            read()
        except httpx.HTTPError:  # the stream cut when the test is over
            pass

    def read() -> None:
        with httpx.Client(timeout=20) as http:
            with http.stream("POST", pair[1].url, content=json.dumps(body), headers=headers) as r:
                for line in r.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    msg = json.loads(line[5:])
                    heard.append(msg)
                    if msg.get("method") == "notifications/tasks" and msg["params"]["status"] in (
                        "completed",
                        "failed",
                    ):
                        return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    thread.join(timeout=20)
    methods = [m.get("method") for m in heard]
    assert methods[0] == "notifications/subscriptions/acknowledged", heard
    assert heard[0]["params"]["notifications"]["taskIds"] == [task_id], heard
    last = heard[-1]["params"]
    assert heard[-1]["method"] == "notifications/tasks" and last["status"] == "completed", heard
    assert pid_of(last["result"]) == str(pair[0].proc.pid), last  # ran on A, heard on B
