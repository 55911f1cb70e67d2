"""What one server's tools, resources and prompts share (``Serving``), built whole before any
of them and handed to each: the state backend, the ``requestState`` key, the OAuth scope
policy, the enable/disable switches of every kind, the client's log level, and where change
notifications go (``Notices``).

``tools``, ``resources``, ``prompts``, ``requests``, ``completions`` and the handlers' context
(``context.ToolContext``) meet here, never through one another: a handler's
``ctx.set_prompt_enabled`` is ``Serving.prompt_switches``, not the prompts runtime.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Any

from ..revisions import MODERN_REVISIONS
from .outcome import LOGGER
from .sdk_adapter import handshake_connection
from .shared import Switches

if TYPE_CHECKING:
    from mcp.server.connection import Connection
    from mcp.server.context import ServerRequestContext
    from mcp.server.subscriptions import InMemorySubscriptionBus
    from mcp.shared.subscriptions import ServerEvent

    from .auth.scopes import ScopePolicy
    from .sealed import RequestStateKey
    from .state import State

__all__ = ["Notices", "Serving"]

_Connections = weakref.WeakValueDictionary[int, "Connection"]


class Notices:
    """Where change notifications go: every open 2026-07-28 ``subscriptions/listen`` stream
    that asked for them (the SDK's subscription bus), and every handshake-era connection, on
    its own channel: those seen at ``initialize`` and ``tools/list`` for list changes, those
    subscribed to a URI for its updates (all held weakly). ``sessions``: the Streamable HTTP
    ones by session id (the lean engine reads a session's negotiated revision and the
    client's capabilities there, ``lean.http_sessions``).

    The bus is made when the SDK's ``subscriptions/listen`` handler first needs it (``bus``):
    until then no stream can be listening, so nothing is published to it and the SDK is not
    imported for it (the lean engine on stdio serves without the SDK)."""

    __slots__ = ("_bus", "connections", "subscribers", "sessions")

    def __init__(self) -> None:
        self._bus: InMemorySubscriptionBus | None = None
        self.connections: _Connections = weakref.WeakValueDictionary()
        self.subscribers: dict[str, _Connections] = {}
        self.sessions: weakref.WeakValueDictionary[str, Connection] = weakref.WeakValueDictionary()

    @property
    def bus(self) -> InMemorySubscriptionBus:
        """The SDK's subscription bus of this server's listen streams (made on first use)."""
        bus = self._bus
        if bus is None:
            from mcp.server.subscriptions import InMemorySubscriptionBus

            bus = self._bus = InMemorySubscriptionBus()
        return bus

    async def publish(self, event: Callable[[], object]) -> None:
        """Publish ``event()`` to the listen streams, if the bus exists (else none listens):
        the SDK's events, and the tasks extension's ``TaskChanged``, which its listen handler
        reads (``tasks.listen``)."""
        if self._bus is not None:
            await self._bus.publish(event())  # type: ignore[arg-type]

    def remember(self, ctx: ServerRequestContext[Any, Any]) -> None:
        """Remember the handshake-era connection ``ctx`` came on (2026-07-28 has none)."""
        if ctx.protocol_version in MODERN_REVISIONS:
            return
        conn = handshake_connection(ctx)
        if conn is not None and id(conn) not in self.connections:
            self.connections[id(conn)] = conn
            session_id = getattr(conn, "session_id", None)
            if isinstance(session_id, str):
                self.sessions[session_id] = conn

    async def _announce(
        self,
        event: Callable[[], ServerEvent],
        send: Callable[[Connection], Awaitable[None]],
        what: str,
    ) -> None:
        await self.publish(event)
        for conn in list(self.connections.values()):
            try:
                await send(conn)
            except Exception as exc:  # a closed connection: forget it
                LOGGER.debug("%s not delivered: %s", what, exc)

    async def tools_changed(self) -> None:
        """``notifications/tools/list_changed``."""
        await self._announce(
            _event("ToolsListChanged"), lambda c: c.send_tool_list_changed(), "tools/list_changed"
        )

    async def resources_changed(self) -> None:
        """``notifications/resources/list_changed``."""
        await self._announce(
            _event("ResourcesListChanged"),
            lambda c: c.send_resource_list_changed(),
            "resources/list_changed",
        )

    async def prompts_changed(self) -> None:
        """``notifications/prompts/list_changed``."""
        await self._announce(
            _event("PromptsListChanged"),
            lambda c: c.send_prompt_list_changed(),
            "prompts/list_changed",
        )

    def subscribe(self, ctx: ServerRequestContext[Any, Any], uri: str) -> None:
        """``resources/subscribe`` on a handshake connection."""
        conn = handshake_connection(ctx)
        if conn is not None:
            self.subscribers.setdefault(uri, weakref.WeakValueDictionary())[id(conn)] = conn

    def unsubscribe(self, ctx: ServerRequestContext[Any, Any], uri: str) -> None:
        conn = handshake_connection(ctx)
        subs = self.subscribers.get(uri)
        if subs is not None and conn is not None:
            subs.pop(id(conn), None)

    async def updated(self, uri: str) -> None:
        """``notifications/resources/updated`` for ``uri`` to this replica's 2026-07-28
        listeners that asked for it and to every handshake connection subscribed to it."""
        await self.publish(_event("ResourceUpdated", uri=uri))
        for conn in list((self.subscribers.get(uri) or {}).values()):
            try:
                await conn.send_resource_updated(uri)
            except Exception as exc:  # a closed connection: forget it
                LOGGER.debug("resources/updated not delivered: %s", exc)


def _event(name: str, **fields: Any) -> Callable[[], ServerEvent]:
    """The SDK's event ``name`` (``mcp.shared.subscriptions``), made only when published."""

    def make() -> ServerEvent:
        from mcp.shared import subscriptions

        event: ServerEvent = getattr(subscriptions, name)(**fields)
        return event

    return make


class Serving:
    """What the tools, resources and prompts of one server share.

    ``tools``, ``resources`` and ``prompts``: the names (URIs for resources) this process
    serves of each kind; None for a kind the server does not have (a server with only
    resource templates has resources, none of them switchable). ``unserved_tools``: tools the
    package has that this process leaves out (``--toolsets``), which may still be switched
    for the replicas that serve them."""

    __slots__ = (
        "backend",
        "state_key",
        "scopes",
        "notices",
        "tool_switches",
        "resource_switches",
        "prompt_switches",
        "client_log_level",
    )

    def __init__(
        self,
        *,
        backend: State,
        state_key: RequestStateKey,
        scopes: ScopePolicy,
        tools: Collection[str],
        resources: Collection[str] | None = None,
        prompts: Collection[str] | None = None,
        unserved_tools: frozenset[str] = frozenset(),
    ) -> None:
        self.backend = backend
        """What the replicas of this server share (``state``): memory unless ``--state``."""
        self.state_key = state_key
        self.scopes = scopes
        """The OAuth scopes each tool, resource and prompt needs."""
        self.notices = notices = Notices()
        self.tool_switches = Switches(
            "tools", frozenset(tools), notices.tools_changed, backend, unserved_tools
        )
        self.resource_switches = (
            None
            if resources is None
            else Switches("resources", frozenset(resources), notices.resources_changed, backend)
        )
        self.prompt_switches = (
            None
            if prompts is None
            else Switches("prompts", frozenset(prompts), notices.prompts_changed, backend)
        )
        self.client_log_level = "debug"
        """The level a handshake-era client set with ``logging/setLevel``."""

    def switches(self) -> list[Switches]:
        """The switches of every kind this server has."""
        kinds = (self.tool_switches, self.resource_switches, self.prompt_switches)
        return [s for s in kinds if s is not None]

    async def resource_updated(self, uri: str) -> None:
        """``notifications/resources/updated`` for ``uri``, here and on every replica sharing
        the state (nothing on a server without resources)."""
        if self.resource_switches is None:
            return
        if self.backend.shared:
            await self.backend.publish({"kind": "updated", "uri": uri})
        await self.notices.updated(uri)
