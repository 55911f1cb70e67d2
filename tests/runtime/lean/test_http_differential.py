"""The lean engine's 2026-07-28 HTTP front against the SDK's app, answer for answer: the same
POSTs to the weather example started with ``MCPGEN_ENGINE=lean`` and ``=sdk`` get the same
status, content type and JSON body (JSON responses and the SDK's default SSE mode, where a
quick answer is JSON too). What the front does not take goes to the SDK's app with the body
replayed: header mismatches, a bad Host, a missing envelope, an oversized body."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.conftest import Factory
from tests.runtime.lean.driver import MODERN_META

WEATHER = Path(__file__).resolve().parents[3] / "examples" / "weather"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(
    rid: Any,
    method: str,
    params: dict[str, Any] | None = None,
    *,
    headers: Any = None,
    meta: bool = True,
    raw: bytes | None = None,
) -> tuple[bytes, dict[str, str]]:
    p = dict(params or {})
    if meta:
        p["_meta"] = MODERN_META
    body = (
        raw
        if raw is not None
        else json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": p}).encode()
    )
    h = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
    }
    name = (params or {}).get("name", (params or {}).get("uri"))
    if isinstance(name, str):
        h["Mcp-Name"] = name
    h.update(headers or {})
    return body, h


POSTS = [
    _post(1, "tools/list"),
    _post(2, "tools/call", {"name": "get_weather", "arguments": {"city": "Paris"}}),
    _post(3, "tools/call", {"name": "nope", "arguments": {}}),
    _post(
        4,
        "tools/call",
        {"name": "get_weather", "arguments": {"city": "Paris"}},
        headers={"Mcp-Name": "other"},
    ),
    _post(5, "server/discover"),
    _post(6, "tools/list", meta=False),
    _post(7, "tools/call", {"name": "get_weather", "arguments": {"city": ""}}),
    _post(8, "resources/read", {"uri": "weather://stations"}),
    _post(9, "tools/list", headers={"Host": "evil.example"}),
    _post(10, "prompts/get", {"name": "plan-outing", "arguments": {"city": "P", "activity": "w"}}),
    _post(
        11,
        "completion/complete",
        {
            "ref": {"type": "ref/prompt", "name": "plan-outing"},
            "argument": {"name": "city", "value": "P"},
        },
    ),
    _post(12, "tools/list", headers={"MCP-Protocol-Version": "2099-01-01"}),
    _post(13, "tools/list", raw=b"{not json"),
    _post(14, "tools/list", raw=b'[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]'),
    _post(15, "tools/call", {"name": "report_outage", "arguments": {}}),
    _post(16, "tools/list", {"cursor": 3}),
    _post(
        17,
        "tools/call",
        {"name": "get_weather", "arguments": {"city": "x" * 100}},
        headers={"Accept": "application/json"},
    ),
    _post(18, "nope/method"),
    _post(
        19,
        "tools/call",
        {
            "name": "get_weather",
            "arguments": {"city": "Paris"},
            "_meta": {**MODERN_META, "progressToken": "p"},
        },
    ),
]


def _answers(engine: str, extra: list[str]) -> list[tuple[int, str | None, Any]]:
    port = _port()
    env = dict(os.environ, PYTHONPATH=str(WEATHER), MCPGEN_ENGINE=engine)
    proc = subprocess.Popen(
        [sys.executable, "-m", "weather_server", "--http", "--port", str(port), *extra],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.connect()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        out = []
        for body, headers in POSTS:
            conn.request("POST", "/mcp", body, headers)
            r = conn.getresponse()
            data = r.read()
            ctype = r.getheader("content-type")
            parsed: Any = data.decode("utf-8", "replace")
            if ctype == "application/json" and data:
                parsed = json.loads(data)
            out.append((r.status, ctype, parsed))
            if r.getheader("connection") == "close":
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        return out
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("extra", [[], ["--json-response"]], ids=["sse-mode", "json-response"])
def test_lean_front_answers_as_the_sdk_does(extra: list[str]) -> None:
    lean, sdk = _answers("lean", extra), _answers("sdk", extra)
    assert len(lean) == len(sdk) == len(POSTS)
    for post, a, b in zip(POSTS, lean, sdk, strict=True):
        assert a == b, (post[0][:120], a, b)
    statuses = {a[0] for a in lean}
    assert {200, 400, 421} <= statuses  # results, JSON-RPC errors and the SDK's own refusals


def test_the_front_serves_the_happy_path_itself(lean_http_app: Factory) -> None:
    """In process: the front answers a plain 2026-07-28 call and list without the SDK's app,
    and hands a request with a progress token (an SSE stream) to it."""
    import anyio
    import httpx

    made = lean_http_app("weather", json_response=True, counted="path")
    passed = made.passed

    async def go() -> list[httpx.Response]:
        async with made.client() as c:
            out = []
            for body, headers in (POSTS[0], POSTS[1], POSTS[2], POSTS[6]):
                out.append(await c.post("/mcp", content=body, headers=headers))
            return out

    answers = anyio.run(go)
    assert [r.status_code for r in answers] == [200, 200, 400, 200]
    assert answers[1].json()["result"]["structuredContent"]["city"] == "Paris"
    assert passed == []
