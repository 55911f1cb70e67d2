"""Resumable SSE streams on Redis (``--state redis://... --resumable``): one Redis stream per
SSE stream (``XADD`` with ``MAXLEN ~``, a TTL renewed on each event); an event ID names its
stream, so any replica can replay it. Apart from ``redis_backend`` because it is the SDK's
``EventStore``: imported when a server is resumable, not at every start on Redis."""

from __future__ import annotations

from typing import Any, Protocol

from mcp.server.streamable_http import EventCallback, EventMessage, EventStore
from mcp.types import JSONRPCMessage, jsonrpc_message_adapter
from redis.exceptions import RedisError

from ..resume import scoped, split_scope
from .redis_outage import Outage, text_of


class _Redis(Protocol):
    """What the store uses of ``redis_backend.RedisState`` (not imported: it imports this
    module when a server is resumable)."""

    @property
    def client(self) -> Any: ...

    @property
    def prefix(self) -> str: ...


__all__ = ["RedisEventStore"]


class RedisEventStore(EventStore):
    """SSE events in Redis streams. An event ID is ``<scope>.<stream id>~<entry id>`` (the
    session's scope, see ``resume``)."""

    def __init__(self, state: _Redis, max_events: int, ttl_s: int) -> None:
        self.state, self.max_events, self.ttl_s = state, max_events, ttl_s
        self.outage = Outage("resumable streams")

    def _key(self, stream_id: str) -> str:
        return f"{self.state.prefix}:events:{stream_id}"

    async def store_event(self, stream_id: str, message: JSONRPCMessage | None) -> str:
        data = b"" if message is None else jsonrpc_message_adapter.dump_json(message, by_alias=True)
        stream_id = scoped(stream_id)  # this session's stream (see resume)
        key = self._key(stream_id)
        try:
            async with self.state.client.pipeline(transaction=False) as pipe:
                pipe.xadd(key, {"m": data}, maxlen=self.max_events, approximate=True)
                pipe.expire(key, self.ttl_s)
                entry, _ = await pipe.execute()
        except (RedisError, OSError) as exc:
            self.outage.failed(exc)
            return f"{stream_id}~unstored"  # sent all the same; not resumable past this event
        self.outage.ok()
        return f"{stream_id}~{text_of(entry)}"

    async def replay_events_after(
        self, last_event_id: str, send_callback: EventCallback
    ) -> str | None:
        stream_id, sep, entry = last_event_id.rpartition("~")
        if not sep or not stream_id or not _entry_id(entry):
            return None  # malformed: not an ID this store issued
        try:
            found: Any = await self.state.client.xrange(self._key(stream_id), min="(" + entry)
        except (RedisError, OSError) as exc:
            self.outage.failed(exc)
            return None
        if not found and not await self.state.client.exists(self._key(stream_id)):
            return None  # expired or never existed
        for event_id, fields in found:
            raw = fields.get(b"m", b"")
            if raw:
                message = jsonrpc_message_adapter.validate_json(raw)
                await send_callback(EventMessage(message, f"{stream_id}~{text_of(event_id)}"))
        return split_scope(stream_id)


def _entry_id(text: str) -> bool:
    ms, sep, seq = text.partition("-")
    return bool(sep) and ms.isdigit() and seq.isdigit() and ms.isascii() and seq.isascii()
