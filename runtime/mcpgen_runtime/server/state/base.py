"""The interface every state backend implements (memory, Redis).

Four things are shared between the replicas of one server, each written once against this
interface:

* **rate limits**: ``limiter(key, rate, burst).take()``;
* **sets** of disabled tools, resources and prompts: ``update_set`` / ``members``;
* **announcements** (an enablement change, a resource update) to every other replica:
  ``publish`` / ``on_message``; a backend that lost messages (a Redis outage) calls the
  ``on_resync`` callbacks once it is back, so the runtime reloads the sets;
* **resumable streams**: ``event_store()``, an SDK ``EventStore``;
* **one-time keys** (a DPoP proof's ``jti``): ``remember_once`` says whether any replica has
  seen a key before, so a proof replayed on another replica is refused too.
"""

from __future__ import annotations

import abc
import math
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the SDK's HTTP transport: imported by the backends that serve it
    from mcp.server.streamable_http import EventStore

    from ...tasks.store import TaskStore

from ..outcome import ToolError

__all__ = ["Limiter", "Message", "State", "StateError", "StateUnavailable"]

Message = Mapping[str, Any]
"""An announcement: a JSON object (``{"kind": "tools", ...}``)."""


class StateError(Exception):
    """A state backend that cannot be used (bad URL, unreachable at start, missing extra):
    one line, said at start-up."""


class StateUnavailable(ToolError):
    """The backend cannot be reached while serving: a change that must be shared (enabling a
    tool, ...) is refused as a tool error that says to try again; the details go to the log."""

    def __init__(self) -> None:
        super().__init__(
            "The server's shared state is unavailable right now (a replica lost its "
            "connection to it); nothing was changed. Try again shortly."
        )


class Limiter(abc.ABC):
    """One rate limit: ``rate`` calls per second with bursts of ``burst``."""

    @abc.abstractmethod
    async def take(self) -> float:
        """0.0 when the call is admitted; otherwise the seconds until one would be."""


class State(abc.ABC):
    """A state backend. ``shared``: whether other processes see the same state."""

    shared: bool = False

    def __init__(self) -> None:
        self.replica = os.urandom(6).hex()
        """This process's id in announcements (a replica ignores its own)."""
        self._listeners: list[Callable[[Message], Awaitable[None]]] = []
        self._resyncs: list[Callable[[], Awaitable[None]]] = []

    def on_message(self, callback: Callable[[Message], Awaitable[None]]) -> None:
        """Call ``callback`` with each announcement another replica publishes."""
        self._listeners.append(callback)

    def on_resync(self, callback: Callable[[], Awaitable[None]]) -> None:
        """Call ``callback`` when announcements may have been missed (after an outage)."""
        self._resyncs.append(callback)

    async def _deliver(self, message: Message) -> None:
        for listener in self._listeners:
            await listener(message)

    async def _resync(self) -> None:
        for callback in self._resyncs:
            await callback()

    async def check(self) -> None:
        """Raise ``StateError`` (one line) when the backend cannot be reached; run once at
        start-up, on a loop of its own. Nothing to check by default."""
        return None

    async def start(self) -> None:
        """Connect and start listening (idempotent; called on the serving loop)."""
        return None

    async def close(self) -> None:
        """Stop listening and disconnect."""
        return None

    @abc.abstractmethod
    def limiter(self, key: str, rate: float, burst: int | None) -> Limiter:
        """The rate limit named ``key`` (the same key on every replica is one limit)."""

    @abc.abstractmethod
    async def update_set(self, name: str, members: Sequence[str], add: bool) -> frozenset[str]:
        """Add ``members`` to (or remove them from) the set ``name``; the whole set after."""

    @abc.abstractmethod
    async def members(self, name: str) -> frozenset[str]:
        """The set ``name`` as it is now."""

    @abc.abstractmethod
    async def publish(self, message: Message) -> None:
        """Announce ``message`` to every other replica."""

    @abc.abstractmethod
    async def remember(self, key: str, value: str, ttl_s: int) -> None:
        """Keep ``value`` under ``key`` for ``ttl_s`` seconds (e.g. who opened a session)."""

    @abc.abstractmethod
    async def recall(self, key: str) -> str | None:
        """What ``remember`` kept under ``key`` (None: nothing, or expired)."""

    async def remember_once(self, key: str, ttl_s: float) -> bool:
        """Remember ``key`` for ``ttl_s`` seconds: True when it was not remembered yet (its
        first use), False while it is (a replay). The backends do it in one atomic step (Redis:
        ``SET NX PX``); this default, for other backends, is ``recall`` then ``remember``."""
        if await self.recall(f"once:{key}") is not None:
            return False
        await self.remember(f"once:{key}", "1", max(1, math.ceil(ttl_s)))
        return True

    def task_store(self) -> TaskStore:
        """Where this server's tasks live (``mcpgen_runtime.tasks``): in this process by
        default; the shared backends keep them where every replica sees them."""
        from ...tasks.store import MemoryTaskStore

        return MemoryTaskStore()

    @abc.abstractmethod
    def event_store(self, max_events: int = 10_000, ttl_s: int = 3600) -> EventStore:
        """The store of resumable SSE streams (the last ``max_events`` of each stream, kept
        ``ttl_s`` seconds after the stream's last event where the backend expires keys)."""
