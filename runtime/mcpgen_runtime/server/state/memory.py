"""In-process state: the default. One process, nothing shared, nothing to install."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..limits import TokenBucket
from .base import Limiter, Message, State

if TYPE_CHECKING:
    from mcp.server.streamable_http import EventStore

__all__ = ["LocalLimiter", "MemoryState", "OnceCache"]


class LocalLimiter(Limiter):
    """A token bucket in this process (also the Redis backend's fallback in an outage)."""

    __slots__ = ("bucket",)

    def __init__(self, rate: float, burst: int | None) -> None:
        self.bucket = TokenBucket(rate, burst)

    async def take(self) -> float:
        return self.bucket.take()


class OnceCache:
    """Keys remembered until their expiry, in this process (``State.remember_once``; also the
    Redis backend's fallback in an outage). Expired keys are dropped from the oldest on, as
    new ones come: the memory it holds is what the last ``ttl_s`` seconds added."""

    __slots__ = ("_until",)

    def __init__(self) -> None:
        self._until: dict[str, float] = {}

    def add(self, key: str, ttl_s: float) -> bool:
        now = time.monotonic()
        until = self._until
        while until:  # insertion order: the oldest first
            first = next(iter(until))
            if until[first] > now:
                break
            del until[first]
        if until.get(key, 0.0) > now:
            return False
        until.pop(key, None)
        until[key] = now + ttl_s
        return True


class MemoryState(State):
    shared = False

    def __init__(self) -> None:
        super().__init__()
        self._sets: dict[str, set[str]] = {}
        self._kept: dict[str, tuple[str, float]] = {}
        self._once = OnceCache()

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

    async def remember(self, key: str, value: str, ttl_s: int) -> None:
        now = time.monotonic()
        if len(self._kept) > 100_000:  # drop the expired ones now and then
            self._kept = {k: v for k, v in self._kept.items() if v[1] > now}
        self._kept[key] = (value, now + ttl_s)

    async def recall(self, key: str) -> str | None:
        kept = self._kept.get(key)
        return kept[0] if kept is not None and kept[1] > time.monotonic() else None

    async def remember_once(self, key: str, ttl_s: float) -> bool:
        return self._once.add(key, ttl_s)

    def event_store(self, max_events: int = 10_000, ttl_s: int = 3600) -> EventStore:
        from ..events import MemoryEventStore

        return MemoryEventStore(max_events)
