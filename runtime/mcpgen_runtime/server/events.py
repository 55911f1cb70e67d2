"""A bounded in-memory event store for resumable SSE streams (handshake revisions, SEP-1699).

With it (``--resumable``) the SDK sends a priming event and a ``retry`` field on each POST's SSE
stream, a handler may close the stream mid-call (``ctx.close_sse_stream()``) and the client
reconnects with ``Last-Event-ID`` to get what it missed. Events are kept per session (the
scope ``resume.ResumeFront`` sets): the SDK names a stream by its request ID, which every
session reuses. One process only: with ``--workers N`` or replicas, ``--state redis://...``
keeps them in Redis instead (``state.redis_backend``). The 2026-07-28 wire has no
resumability (a broken stream loses the request).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from mcp.server.streamable_http import EventCallback, EventMessage, EventStore

from .resume import scoped, split_scope

__all__ = ["MemoryEventStore"]


class MemoryEventStore(EventStore):
    """The last ``max_events`` events of every stream, in memory."""

    def __init__(self, max_events: int = 10_000) -> None:
        if max_events < 1:
            raise ValueError("max_events must be positive")
        self.max_events = max_events
        self._events: OrderedDict[int, tuple[str, Any]] = OrderedDict()
        self._next = 0

    async def store_event(self, stream_id: str, message: Any) -> str:
        self._next += 1
        self._events[self._next] = (scoped(stream_id), message)
        while len(self._events) > self.max_events:
            self._events.popitem(last=False)
        return str(self._next)

    async def replay_events_after(
        self, last_event_id: str, send_callback: EventCallback
    ) -> str | None:
        if not last_event_id.isdigit():
            return None
        last = int(last_event_id)
        found = self._events.get(last)
        if found is None:
            return None
        stream_id = found[0]
        for event_id, (sid, message) in list(self._events.items()):
            if event_id > last and sid == stream_id and message is not None:
                await send_callback(EventMessage(message, str(event_id)))
        return split_scope(stream_id)
