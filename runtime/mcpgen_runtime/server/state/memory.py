"""In-process state: the default. One process, nothing shared, nothing to install."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..limits import TokenBucket
from .base import Limiter, Message, State

if TYPE_CHECKING:
    from mcp.server.streamable_http import EventStore

__all__ = ["LocalLimiter", "MemoryState"]


class LocalLimiter(Limiter):
    """A token bucket in this process (also the Redis backend's fallback in an outage)."""

    __slots__ = ("bucket",)

    def __init__(self, rate: float, burst: int | None) -> None:
        self.bucket = TokenBucket(rate, burst)

    async def take(self) -> float:
        return self.bucket.take()


class MemoryState(State):
    shared = False

    def __init__(self) -> None:
        super().__init__()
        self._sets: dict[str, set[str]] = {}

    def limiter(self, key: str, rate: float, burst: int | None) -> Limiter:
        return LocalLimiter(rate, burst)

    async def update_set(self, name: str, members: Sequence[str], add: bool) -> frozenset[str]:
        current = self._sets.setdefault(name, set())
        if add:
            current.update(members)
        else:
            current.difference_update(members)
        return frozenset(current)

    async def members(self, name: str) -> frozenset[str]:
        return frozenset(self._sets.get(name, ()))

    async def publish(self, message: Message) -> None:
        """No other replica to tell."""

    def event_store(self, max_events: int = 10_000, ttl_s: int = 3600) -> EventStore:
        from ..events import MemoryEventStore

        return MemoryEventStore(max_events)
