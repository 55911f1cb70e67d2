"""The SSE answers of the lean engine's handshake-wire sessions (``http_sessions``), written
as the SDK's are (sse_starlette's ``EventSourceResponse``: the SDK's headers, ``event:
message`` frames with ``\\r\\n`` line ends, a ``: ping - <time>`` comment every 15 s), and the
one timer of the front (``Ticker``) that covers every open stream and session.

The timer replaces a timer per request: a stream whose handler has not answered within 50 ms
gets its headers (a quicker one sends them with its first event), one open 15 s gets a ping,
and a session whose last request ran here gets its idle countdown
(``sdk_adapter.settle_idle``), as the SDK would set it at the end of that request.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from typing import Any

from ..server.sdk_adapter import settle_idle
from .jsonrpc import encode_body

__all__ = ["HEADERS_AFTER_S", "PING_S", "SseStream", "Ticker"]

HEADERS_AFTER_S = 0.05
"""An SSE answer's headers go with its first event, or after about this long."""
PING_S = 15.0
"""sse_starlette's ``EventSourceResponse`` keep-alive interval, which the SDK's streams use."""

_HEAD = (
    (b"cache-control", b"no-cache, no-transform"),
    (b"connection", b"keep-alive"),
    (b"content-type", b"text/event-stream"),
)


class Ticker:
    """One timer every ``HEADERS_AFTER_S`` while a stream is open or a session's idle
    countdown is due; nothing while the front is quiet."""

    __slots__ = ("loop", "streams", "idle", "handle")

    def __init__(self, loop: Any) -> None:
        self.loop = loop
        self.streams: dict[SseStream, None] = {}
        self.idle: dict[Any, float] = {}
        """Session transports whose last request ran here -> when it ended."""
        self.handle: Any = None

    def arm(self) -> None:
        if self.handle is None:
            self.handle = self.loop.call_later(HEADERS_AFTER_S, self._tick)

    def ended(self, transport: Any, now: float) -> None:
        """The last request in flight on ``transport``'s session ended here at ``now``."""
        self.idle[transport] = now
        self.arm()

    def _tick(self) -> None:
        self.handle = None
        now = self.loop.time()
        for stream in list(self.streams):
            stream.tick(now)
        idle, self.idle = self.idle, {}
        for transport, last in idle.items():
            settle_idle(transport, last)
        if self.streams or self.idle:
            self.arm()


class SseStream:
    """One POST's SSE answer."""

    __slots__ = ("send", "head", "started", "pending", "ticker", "born", "last", "done")

    def __init__(self, send: Any, sid_header: tuple[bytes, bytes], ticker: Ticker) -> None:
        self.send = send
        self.head = [*_HEAD, sid_header, (b"x-accel-buffering", b"no")]
        self.started = False
        self.pending: asyncio.Task[None] | None = None
        """A write the ticker started (headers, a ping), awaited before the next one."""
        self.ticker = ticker
        self.born = self.last = ticker.loop.time()
        self.done = False
        ticker.streams[self] = None
        ticker.arm()

    def tick(self, now: float) -> None:
        if self.done:
            return
        if not self.started:
            if now - self.born >= HEADERS_AFTER_S:
                self.pending = self.ticker.loop.create_task(self._write(None, self.pending))
        elif now - self.last >= PING_S:
            self.last = now
            ping = f": ping - {datetime.now(timezone.utc)}\r\n\r\n".encode()
            self.pending = self.ticker.loop.create_task(self._write(ping, self.pending))

    async def _write(self, chunk: bytes | None, before: asyncio.Task[None] | None) -> None:
        if before is not None:
            await before
        if not self.started:
            self.started = True
            await self.send({"type": "http.response.start", "status": 200, "headers": self.head})
        if chunk is not None:
            await self.send({"type": "http.response.body", "body": chunk, "more_body": True})

    async def _emit(self, body: bytes, more: bool) -> None:
        pending = self.pending
        if pending is not None:
            self.pending = None
            await pending
        if not self.started:
            self.started = True
            await self.send({"type": "http.response.start", "status": 200, "headers": self.head})
        await self.send({"type": "http.response.body", "body": body, "more_body": more})

    async def event(self, data: bytes) -> None:
        await self._emit(b"event: message\r\ndata: " + data + b"\r\n\r\n", True)

    async def notify(self, method: str, params: dict[str, Any] | None) -> None:
        """A notification of the request (progress, a log entry), as the SDK frames it."""
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        await self.event(encode_body(msg))

    def close(self) -> None:
        """No more writes from the ticker."""
        self.done = True
        self.ticker.streams.pop(self, None)

    async def end(self, data: bytes | None) -> None:
        """The last event (None: the stream ends without one, as a terminated session's)."""
        self.close()
        last = b"" if data is None else b"event: message\r\ndata: " + data + b"\r\n\r\n"
        await self._emit(last, False)
