"""Resumable streams that are per session, and resumable on any replica (``--resumable``).

The SDK's ``EventStore`` is told a stream ID only: the JSON-RPC request ID (or the GET
stream's fixed name), which every session reuses (each client counts from 0 or 1). A store
keyed by it alone would replay one session's events to another. ``ResumeFront`` (an ASGI
layer inside the auth front) gives each session a random scope and sets it in ``STREAM_SCOPE``
while the session's requests run; the session's transport tasks start inside its opening
request and inherit it. The stores key events by (scope, stream) and put the scope in every
event ID, so an ID names its stream unguessably.

With shared state (``--state redis://...``) the events live in Redis: when the replica that
held a session dies, the client's ``GET`` with ``Last-Event-ID`` reaches another replica, which
does not know the session; ``ResumeFront`` answers it from the store (the events after that ID,
each once, in order; then the stream ends, as the session did). Under auth, only the caller
that opened the session may replay it.
"""

from __future__ import annotations

import contextvars
import os
from collections import OrderedDict
from typing import Any

from mcp.server.streamable_http import EventMessage, EventStore

__all__ = ["STREAM_SCOPE", "ResumeFront", "scoped", "split_scope"]

STREAM_SCOPE: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "mcpgen_stream_scope", default=None
)
MAX_SESSIONS = 100_000
OWNER_TTL_S = 24 * 3600


def scoped(stream_id: str) -> str:
    """``stream_id`` within this session's scope (unchanged outside a session)."""
    scope = STREAM_SCOPE.get()
    return f"{scope}.{stream_id}" if scope else stream_id


def split_scope(key: str) -> str:
    """The SDK's stream ID of a scoped key."""
    head, dot, rest = key.partition(".")
    return rest if dot and len(head) == 32 and head.isalnum() else key


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class ResumeFront:
    def __init__(
        self, app: Any, store: EventStore, state: Any, path: str, *, replay: bool = True
    ) -> None:
        self.app, self.store, self.state, self.path = app, store, state, path
        self.replay = replay
        """Whether to answer resumptions of sessions held by another replica."""
        self.sessions: OrderedDict[str, str] = OrderedDict()
        """Session ID -> scope, for the sessions this replica opened (bounded)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope.get("path", "").rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        session = _header(scope, b"mcp-session-id")
        if session is None:
            await self._opening(scope, receive, send)
            return
        known = self.sessions.get(session)
        if known is not None:
            token = STREAM_SCOPE.set(known)
            try:
                await self.app(scope, receive, send)
            finally:
                STREAM_SCOPE.reset(token)
            if scope.get("method") == "DELETE":
                self.sessions.pop(session, None)
            return
        last = _header(scope, b"last-event-id")
        if scope.get("method") == "GET" and last and await self._replay(scope, send, last):
            return
        await self.app(scope, receive, send)

    async def _opening(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """A request without a session: give it a scope; keep it if a session is opened."""
        fresh = os.urandom(16).hex()
        token = STREAM_SCOPE.set(fresh)

        async def sending(message: dict[str, Any]) -> None:
            if message.get("type") == "http.response.start":
                for key, value in message.get("headers") or ():
                    if bytes(key).lower() == b"mcp-session-id":
                        await self._opened(bytes(value).decode("latin-1"), fresh)
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            STREAM_SCOPE.reset(token)

    async def _opened(self, session: str, fresh: str) -> None:
        self.sessions[session] = fresh
        while len(self.sessions) > MAX_SESSIONS:
            self.sessions.popitem(last=False)
        if self.state.shared:
            await self.state.remember(f"owner:{fresh}", _principal(), OWNER_TTL_S)

    async def _replay(self, scope: dict[str, Any], send: Any, last: str) -> bool:
        """Answer a resumption of a session this replica does not hold, from the shared
        store; False to let the SDK answer (404) when there is nothing to resume."""
        if not (self.replay and self.state.shared):
            return False
        key = last.rpartition("~")[0]
        stream_scope = key.partition(".")[0]
        if len(stream_scope) != 32 or not stream_scope.isalnum():
            return False
        owner = await self.state.recall(f"owner:{stream_scope}")
        if owner is None or owner != _principal():
            return False  # unknown, expired, or another caller's: the SDK's 404
        frames: list[bytes] = []

        async def collect(event: EventMessage) -> None:
            data = event.message.model_dump_json(by_alias=True, exclude_unset=True)
            frames.append(f"id: {event.event_id}\nevent: message\ndata: {data}\n\n".encode())

        if await self.store.replay_events_after(last, collect) is None:
            return False
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream"),
                    (b"cache-control", b"no-cache, no-transform"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b"".join(frames), "more_body": False})
        return True


def _principal() -> str:
    from .auth.scopes import principal

    return principal()
