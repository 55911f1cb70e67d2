"""The lean front in a Streamable HTTP session of the handshake wire, in process on the
conformance example: after ``initialize`` and ``notifications/initialized`` (the SDK's), the
session's calls, lists, reads and pings are answered by the front alone, never reaching the
SDK's app. The answers themselves are compared with the SDK's in ``test_http_sessions``."""

from __future__ import annotations

import sys
from typing import Any

from tests.runtime.lean.test_http_sessions import EXAMPLE, V, rpc


def test_the_happy_path_never_reaches_the_sdk_app() -> None:
    """In process: after ``initialize`` and ``notifications/initialized`` (the SDK's), calls,
    lists, reads and pings of the session are answered by the front alone."""
    import anyio
    import httpx

    sys.path.insert(0, str(EXAMPLE))
    try:
        from conformance_server._generated import create_server
        from conformance_server.handlers import Handlers

        from mcpgen_runtime.lean.http import LeanHttpFront
        from mcpgen_runtime.server.http_app import http_app

        server = create_server(Handlers())
        spec = {
            "host": "127.0.0.1",
            "port": 8000,
            "path": "/mcp",
            "stateless": False,
            "json_response": False,
            "tokens": [],
            "oauth": {},
            "engine": "lean",
        }
        app = http_app(server, spec)
    finally:
        sys.path.remove(str(EXAMPLE))
    front = app
    while not isinstance(front, LeanHttpFront):
        front = front.app
    passed: list[str] = []
    inner = front.app

    async def counting(scope: Any, receive: Any, send: Any) -> None:
        passed.append(scope["method"])
        await inner(scope, receive, send)

    front.app = counting
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    async def go() -> list[httpx.Response]:
        async with server.session_manager.run():
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://127.0.0.1:8000"
            ) as c:
                init = rpc(
                    1,
                    "initialize",
                    protocolVersion=V,
                    capabilities={},
                    clientInfo={"name": "t", "version": "1"},
                )
                r = await c.post("/mcp", json=init, headers=base)
                h = {
                    **base,
                    "Mcp-Session-Id": r.headers["mcp-session-id"],
                    "MCP-Protocol-Version": V,
                }
                await c.post(
                    "/mcp",
                    json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                    headers=h,
                )
                before = len(passed)
                out = [
                    await c.post("/mcp", json=m, headers=h)
                    for m in (
                        rpc(2, "tools/list"),
                        rpc(3, "tools/call", name="test_simple_text", arguments={}),
                        rpc(4, "tools/call", name="nope", arguments={}),
                        rpc(5, "resources/read", uri="test://static-text"),
                        rpc(6, "ping"),
                    )
                ]
                assert passed[before:] == []
                return out

    answers = anyio.run(go)
    assert passed == ["POST", "POST"]  # initialize, notifications/initialized
    assert [r.status_code for r in answers] == [200] * 5
    assert all(r.headers["content-type"] == "text/event-stream" for r in answers)
    assert "This is a simple text response for testing." in answers[1].text
    assert "Unknown tool: nope" in answers[2].text
