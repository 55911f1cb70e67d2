"""The lean front's clock and context in the handshake wire's sessions (``lean.http_sse``,
``lean.context.HttpRequest``): the session's idle timeout as the SDK keeps it, SSE headers and
keep-alive pings of a slow answer, and the POST a handler sees. The answers themselves are
compared with the SDK's in ``test_http_sessions``."""

from __future__ import annotations

import re
from typing import Any

from tests.runtime.lean.conftest import Factory
from tests.runtime.lean.test_http_sessions import V, rpc


def test_a_session_used_only_through_the_front_expires_as_the_sdk_would(
    lean_http_app: Factory,
) -> None:
    """The session's idle clock: calls answered by the front keep a session alive past its
    idle timeout, and once the client stops, the session ends one timeout after its last call
    (the SDK's 404 then, and the front does not answer for it)."""
    import anyio

    made = lean_http_app("conformance", json_response=True)
    server = made.server
    server.session_manager.session_idle_timeout = 0.6
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    async def go() -> list[int]:
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
                h = {**base, "Mcp-Session-Id": r.headers["mcp-session-id"]}
                statuses = []
                for i in range(8):  # 8 x 0.25 s: well past the 0.6 s timeout
                    await anyio.sleep(0.25)
                    r = await c.post("/mcp", json=rpc(10 + i, "ping"), headers=h)
                    statuses.append(r.status_code)
                await anyio.sleep(1.2)
                r = await c.post("/mcp", json=rpc(99, "ping"), headers=h)
                statuses.append(r.status_code)
                assert "Session not found" in r.text
                return statuses

    assert anyio.run(go) == [200] * 8 + [404]


def test_a_handler_sees_its_post_as_on_the_sdk_path() -> None:
    """``ctx.sdk_context.request`` is the Starlette ``Request`` of the POST on both engines."""
    from starlette.requests import Request

    from mcpgen_runtime.lean.context import HttpRequest

    req = HttpRequest("tools/call", {}, 1, None, V, (None, None, None, 0, None))
    req.scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": [(b"x-a", b"1")]}
    assert isinstance(req.request, Request)
    assert req.request.headers["x-a"] == "1" and req.request.url.path == "/mcp"


def test_a_slow_answer_gets_its_headers_then_keep_alive_pings() -> None:
    """The front's timer: a stream whose handler has not answered gets the SDK's headers after
    50 ms, then a ``: ping - <time>`` comment every 15 s (sse_starlette's), then its event."""
    import asyncio

    from mcpgen_runtime.lean.http_sse import HEADERS_AFTER_S, PING_S, SseStream, Ticker

    async def go() -> list[Any]:
        sent: list[Any] = []

        async def send(message: Any) -> None:
            sent.append(message)

        class ManualClock:  # the loop, but its timer never fires: only the ticks below run
            def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
                self.time, self.create_task = loop.time, loop.create_task
                self.armed = 0

            def call_later(self, delay: float, callback: Any) -> asyncio.TimerHandle:
                self.armed += 1
                return asyncio.TimerHandle(0.0, callback, (), asyncio.get_running_loop())

        clock = ManualClock(asyncio.get_running_loop())
        ticker = Ticker(clock)
        stream = SseStream(send, (b"mcp-session-id", b"s1"), ticker)
        born = stream.born
        for at in (born + HEADERS_AFTER_S / 2, born + HEADERS_AFTER_S, born + 1, born + PING_S):
            stream.tick(at)
            await asyncio.sleep(0)
            await asyncio.sleep(0)
        await stream.end(b"{}")
        assert stream not in ticker.streams
        assert clock.armed == 1  # one timer for the open stream, armed when it was born
        return sent

    sent = asyncio.run(go())
    assert [m["type"] for m in sent] == ["http.response.start"] + ["http.response.body"] * 2
    assert sent[0]["headers"] == [
        (b"cache-control", b"no-cache, no-transform"),
        (b"connection", b"keep-alive"),
        (b"content-type", b"text/event-stream"),
        (b"mcp-session-id", b"s1"),
        (b"x-accel-buffering", b"no"),
    ]
    assert re.fullmatch(rb": ping - \d{4}-\d\d-\d\d [\d:.]+\+00:00\r\n\r\n", sent[1]["body"])
    assert sent[1]["more_body"] is True
    assert sent[2] == {
        "type": "http.response.body",
        "body": b"event: message\r\ndata: {}\r\n\r\n",
        "more_body": False,
    }
