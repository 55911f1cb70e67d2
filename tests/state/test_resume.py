"""Resumable streams: per session, and resumable on another replica after ``kill -9``.

A handshake-wire session on replica A calls a tool that reports five steps of progress and
answers; the client reads two steps and drops the stream; A is killed; the client's GET with
``Last-Event-ID`` reaches replica B, which answers from Redis: steps 3 to 5 and the answer,
each once, in order."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.interop.procs import HttpServer
from tests.state.conftest import RedisServer
from tests.state.test_replicas import handshake_session, package, replica  # noqa: F401

HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


def events(lines: Iterator[str], stop_after: int | None = None) -> list[tuple[str, Any]]:
    """(id, message) of each SSE event with data, up to the answer; or only the first
    ``stop_after`` progress events."""
    out: list[tuple[str, Any]] = []
    event_id, progress = "", 0
    for line in lines:
        if line.startswith("id:"):
            event_id = line[3:].strip()
        elif line.startswith("data:") and line[5:].strip():
            msg = json.loads(line[5:])
            out.append((event_id, msg))
            progress += msg.get("method") == "notifications/progress"
            if stop_after is not None and progress >= stop_after:
                break
            if "result" in msg or "error" in msg:
                break  # the answer ends a request's stream (the SDK's replay stays open)
    return out


def call_count(client: httpx.Client, url: str, session: str, rid: int, stop_after: int) -> Any:
    body = {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {"name": "count", "arguments": {"n": 5}, "_meta": {"progressToken": "p"}},
    }
    headers = {**HEADERS, "Mcp-Session-Id": session}
    with client.stream("POST", url, json=body, headers=headers) as resp:
        assert resp.headers["content-type"].startswith("text/event-stream")
        return events(resp.iter_lines(), stop_after)


def resume(client: httpx.Client, url: str, session: str, last: str) -> tuple[int, Any]:
    headers = {**HEADERS, "Accept": "text/event-stream", "Mcp-Session-Id": session}
    with client.stream("GET", url, headers={**headers, "Last-Event-ID": last}) as resp:
        if resp.status_code != 200:
            return resp.status_code, []
        return 200, events(resp.iter_lines())


@pytest.fixture
def pair(package: Path, redis_server: RedisServer) -> Iterator[list[HttpServer]]:  # noqa: F811
    servers = [replica(package, "--state", redis_server.url, "--resumable") for _ in range(2)]
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.stop()


def test_a_stream_resumes_on_another_replica_after_kill_9(pair: list[HttpServer]) -> None:
    a, b = pair
    with httpx.Client(timeout=30) as client:
        session = handshake_session(client, a.url)
        seen = call_count(client, a.url, session, 5, stop_after=2)
        assert [m["params"]["progress"] for _, m in seen] == [1, 2]
        time.sleep(1.0)  # the handler finishes; every event is in Redis
        assert a.proc is not None
        os.killpg(a.proc.pid, signal.SIGKILL)
        a.proc.wait(timeout=10)
        status, rest = resume(client, b.url, session, seen[-1][0])
    assert status == 200
    progress = [m["params"]["progress"] for _, m in rest if m.get("method")]
    assert progress == [3, 4, 5]
    answers = [m for _, m in rest if "result" in m]
    assert len(answers) == 1 and answers[0]["id"] == 5
    assert answers[0]["result"]["content"][0]["text"].startswith("counted 5")
    ids = [i for i, _ in seen + rest]
    assert len(ids) == len(set(ids)), ids


def isolated(url: str, other_url: str) -> None:
    with httpx.Client(timeout=30) as client:
        one = handshake_session(client, url)
        two = handshake_session(client, url)
        first = call_count(client, url, one, 9, stop_after=1)
        call_count(client, url, two, 9, stop_after=5)  # same request id, the other session
        time.sleep(0.5)
        status, rest = resume(client, url, one, first[-1][0])
        assert status == 200
        assert [m["params"]["progress"] for _, m in rest if m.get("method")] == [2, 3, 4, 5]
        answers = [m for _, m in rest if "result" in m]
        assert len(answers) == 1 and answers[0]["id"] == 9


def test_sessions_that_reuse_a_request_id_keep_their_streams_apart_on_redis(
    pair: list[HttpServer],
) -> None:
    """The SDK names a stream by its request ID; two sessions both use ID 9. A resumption
    in one carries its own events only (the other's steps 1 to 5 never appear)."""
    isolated(pair[0].url, pair[1].url)


def test_sessions_that_reuse_a_request_id_keep_their_streams_apart_in_memory(
    package: Path,  # noqa: F811
) -> None:
    srv = replica(package, "--resumable")
    srv.start()
    try:
        isolated(srv.url, srv.url)
    finally:
        srv.stop()
