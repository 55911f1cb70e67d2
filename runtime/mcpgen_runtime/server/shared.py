"""Enablement and resource updates, written once against the state backend (``state``).

``Switches`` is one kind's set of disabled items (tools, resources or prompts): a change goes
to the backend (so every replica, and a replica started later, sees the same set), is applied
here, is announced to this replica's clients, and is published to the other replicas, which
apply it and announce it to theirs (legacy connections and 2026-07-28 listen streams alike).

``Replica`` joins one server's runtimes to the backend: on the first request it starts the
backend's listener and loads the sets; it applies what other replicas announce, and reloads
the sets after an outage in which announcements may have been lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from .outcome import LOGGER

if TYPE_CHECKING:
    from .state import State

__all__ = ["Replica", "Switches"]


class Switches:
    """The disabled ``kind`` (``tools``, ``resources``, ``prompts``) of one server."""

    __slots__ = ("kind", "known", "announce", "state", "disabled", "unserved")

    def __init__(
        self,
        kind: str,
        known: Collection[str],
        announce: Callable[[], Awaitable[None]],
        state: State,
        unserved: frozenset[str] = frozenset(),
    ) -> None:
        self.kind, self.known, self.announce, self.state = kind, known, announce, state
        self.disabled: frozenset[str] = frozenset()
        self.unserved = unserved
        """Names the package has but this process does not serve (``--toolsets``): they may
        be switched (for the replicas that serve them) and are ignored here."""

    def enabled(self, name: str) -> bool:
        """Whether ``name`` is served here and not disabled."""
        return name in self.known and name not in self.disabled

    async def set_enabled(self, names: Sequence[str], enabled: bool) -> bool:
        """Enable or disable ``names`` everywhere; announce a change once. True when the set
        changed. Raises ``ValueError`` for unknown names, and ``StateUnavailable`` (a
        ``ToolError``) when the shared state is unavailable."""
        unknown = [n for n in names if n not in self.known and n not in self.unserved]
        if unknown:
            raise ValueError(f"unknown {self.kind}: {', '.join(unknown)}")
        after = await self.state.update_set(self.kind, names, add=not enabled)
        if self.state.shared:
            await self.state.publish(
                {"kind": "disabled", "set": self.kind, "disabled": sorted(after)}
            )
        return await self.apply(after)

    async def apply(self, disabled: frozenset[str], *, announce: bool = True) -> bool:
        """Make ``disabled`` this replica's set (names it does not serve are ignored)."""
        disabled = frozenset(n for n in disabled if n in self.known)
        if disabled == self.disabled:
            return False
        self.disabled = disabled
        if announce:
            await self.announce()
        return True


class Replica:
    """One server's runtimes on a shared backend (built by ``build_server``)."""

    def __init__(
        self,
        state: State,
        switches: Sequence[Switches],
        updated: Callable[[str], Awaitable[None]] | None,
    ) -> None:
        self.state, self.switches = state, {s.kind: s for s in switches}
        self.updated = updated
        self.started = False
        self._starting: asyncio.Future[None] | None = None
        self._chain: list[Any] | None = None
        state.on_message(self.received)
        state.on_resync(self.reload)

    async def start(self) -> None:
        """Start the backend's listener and load the sets (first request; idempotent: the
        requests that arrive meanwhile wait for the same start)."""
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
        await asyncio.shield(self._starting)

    async def _start(self) -> None:
        await self.state.start()
        await self.reload(announce=False)
        self.started = True
        if self._chain is not None and self.middleware in self._chain:
            self._chain.remove(self.middleware)  # nothing left to do per request

    def install(self, chain: list[Any]) -> None:
        """Go first in the server's middleware ``chain``, until started."""
        chain.insert(0, self.middleware)
        self._chain = chain

    async def reload(self, announce: bool = True) -> None:
        for switch in self.switches.values():
            try:
                await switch.apply(await self.state.members(switch.kind), announce=announce)
            except Exception as exc:  # Redis down at start: served with what we have
                LOGGER.warning("the %s switches were not loaded: %s", switch.kind, exc)

    async def received(self, message: Any) -> None:
        kind = message.get("kind")
        if kind == "disabled":
            switch = self.switches.get(message.get("set"))
            names = message.get("disabled")
            if switch is not None and isinstance(names, list):
                await switch.apply(frozenset(str(n) for n in names))
        elif kind == "updated" and self.updated is not None:
            uri = message.get("uri")
            if isinstance(uri, str):
                await self.updated(uri)

    def middleware(self, ctx: Any, call_next: Any) -> Any:
        """Server middleware: start on the first request (then it leaves the chain)."""
        if self.started:
            return call_next(ctx)
        return self._first(ctx, call_next)

    async def _first(self, ctx: Any, call_next: Any) -> Any:
        await self.start()
        return await call_next(ctx)
