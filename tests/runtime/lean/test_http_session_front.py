"""The lean front in a Streamable HTTP session of the handshake wire, in process on the
conformance example: after ``initialize`` and ``notifications/initialized`` (the SDK's), the
session's calls, lists, reads and pings are answered by the front alone, never reaching the
SDK's app. The answers themselves are compared with the SDK's in ``test_http_sessions``."""

from __future__ import annotations

from tests.runtime.lean.conftest import Factory
from tests.runtime.lean.test_http_sessions import V, rpc


def test_the_happy_path_never_reaches_the_sdk_app(lean_http_app: Factory) -> None:
    """In process: after ``initialize`` and ``notifications/initialized`` (the SDK's), calls,
    lists, reads and pings of the session are answered by the front alone."""
    import anyio
    import httpx

    made = lean_http_app("conformance", json_response=False)
    server, passed = made.server, made.passed
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    async def go() -> list[httpx.Response]:
        async with server.session_manager.run():
            async with made.client() as c:
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
