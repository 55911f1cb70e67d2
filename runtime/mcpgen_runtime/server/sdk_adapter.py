"""Every place the server runtime leans on the official MCP Python SDK beyond its public API.

Tested with ``mcp`` 2.3.0 (``TESTED_WITH``). ``SDK_USES`` names each use, what it relies on and
why mcpgen needs it; tests/runtime/test_sdk_adapter.py checks every one against the installed
SDK and fails, naming the use, when an upgrade removes or changes what it relies on. Nothing
else in ``mcpgen_runtime.server`` reads a private SDK attribute, patches an SDK object,
recognises an SDK class by its name or rewrites what the SDK produced.

One use sits outside this module: ``client/base.py`` sets the client session's
``_session_read_timeout_seconds`` (listed here so the same test guards it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Coroutine, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from mcp.server.connection import Connection
    from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
    from mcp.server.lowlevel import Server

__all__ = [
    "RUNTIME_ATTRIBUTE",
    "SDK_USES",
    "TESTED_WITH",
    "HeaderChecks",
    "SdkUse",
    "announce_tools_list_changed",
    "attach_runtime",
    "attached_runtime",
    "begin_session_request",
    "drop_sdk_tracing",
    "end_session_request",
    "handshake_connection",
    "honored_filter",
    "list_fixups",
    "live_session",
    "settle_idle",
    "uri_templates",
]

TESTED_WITH = "2.3.0"
"""The ``mcp`` release every use below was written against and tested with."""


class SdkUse(NamedTuple):
    """One reliance on the SDK beyond its public API."""

    name: str
    relies_on: str
    """What must stay true of the SDK (``module:object`` and the attribute or behaviour)."""
    why: str
    where: str
    """The function of this module that holds the use (or the module outside it)."""


SDK_USES: tuple[SdkUse, ...] = (
    SdkUse(
        "session-connection",
        "mcp.server.session:ServerSession keeps its Connection as ``_connection``",
        "handshake connections get list_changed and resources/updated on their own channel, "
        "outside any request; the session exposes no public way to that Connection",
        "handshake_connection",
    ),
    SdkUse(
        "initialization-options",
        "mcp.server.lowlevel:Server.create_initialization_options(notification_options, ...)",
        "tools listChanged is announced by default: replaced on the instance, so every caller "
        "(run_cli's stdio, the SDK's own Streamable HTTP manager, tests) gets it",
        "announce_tools_list_changed",
    ),
    SdkUse(
        "otel-middleware",
        "mcp.server.lowlevel:Server().middleware holds the SDK's OpenTelemetryMiddleware "
        "(class name, from the private mcp.server._otel)",
        "its span per message costs every call even with no tracer to record it; the SDK "
        "documents dropping it from the list as the way to opt out",
        "drop_sdk_tracing",
    ),
    SdkUse(
        "middleware-chain",
        "mcp.server.lowlevel:Server.middleware (provisional in 2.x) awaits what a middleware "
        "returns, so a plain function may hand back call_next(ctx) with no coroutine of its own",
        "mcpgen's middleware adds no coroutine to the requests it does not touch "
        "(bench/bench_server.py --instructions)",
        "list_fixups (and shared.Replica.middleware)",
    ),
    SdkUse(
        "runtime-attribute",
        "mcp.server.lowlevel:Server instances take a new attribute ``mcpgen_runtime``",
        "run_cli and auth.protect find a generated server's runtime from the Server that "
        "create_server returns",
        "attach_runtime / attached_runtime",
    ),
    SdkUse(
        "exact-schemas",
        "the SDK re-dumps a tools/list result through its models (key order inside schemas "
        "may change); a middleware sees the dumped result before it is sent",
        "tools/list shows each schema exactly as the manifest wrote it",
        "list_fixups",
    ),
    SdkUse(
        "listen-honored-filter",
        "mcp.server.subscriptions:_honored_subset(SubscriptionFilter) -> SubscriptionFilter, "
        "the filter the SDK's ListenHandler acknowledges",
        "the tasks extension's listen handler (tasks/listen.py) acknowledges the same filter "
        "as the SDK's for everything but taskIds, so a stream answers alike with or without "
        "task tools",
        "honored_filter",
    ),
    SdkUse(
        "http-session-table",
        "mcp.server.streamable_http_manager:StreamableHTTPSessionManager keeps its live "
        "sessions' transports in ``_server_instances`` (session id -> transport, popped the "
        "moment a session ends) and the credential that opened each in ``_session_owners``; "
        "a transport's ``is_terminated`` and ``idle_scope`` (cancelled once idle) are public",
        "the lean engine answers a handshake-wire POST itself only for a session the SDK "
        "still serves (not deleted, not idle-timed-out, not of a previous process), exactly "
        "where the SDK's own lookup would find it",
        "live_session",
    ),
    SdkUse(
        "header-checks",
        "mcp.server.transport_security:TransportSecurityMiddleware.validate_request reads "
        "nothing of the Starlette ``Request`` it is given but the Content-Type, Host and "
        "Origin headers (``request.headers.get``), "
        "mcp.server.streamable_http:check_accept_headers nothing but its Accept header",
        "the lean HTTP front runs the SDK's own checks on the headers it read once (a dict), "
        "without building a Starlette ``Request`` per POST, and remembers the values that "
        "passed",
        "HeaderChecks",
    ),
    SdkUse(
        "http-session-idle-clock",
        "mcp.server.streamable_http:StreamableHTTPServerTransport.handle_request counts the "
        "requests in flight (``_requests_in_flight``) and, when the last one ends, sets "
        "``idle_scope.deadline`` to now + ``_idle_timeout``",
        "a session the lean engine serves stays alive as long as it would on the SDK's path "
        "(the idle countdown is held while a lean request runs and restarted from its end)",
        "begin_session_request / end_session_request / settle_idle",
    ),
    SdkUse(
        "uri-template-file",
        "mcp/shared/uri_template.py (UriTemplate, InvalidUriTemplate) imports only the standard "
        "library, so it loads from its file without running the ``mcp`` package's __init__",
        "resource templates are matched by the SDK's own RFC 6570 code without importing the "
        "SDK (half a second): a server on the lean engine never imports it (and ``mcpgen "
        "check`` stays fast); the normal import is used when the SDK is loaded or the file is not "
        "as expected",
        "uri_templates (also mcpgen/uritemplates.py)",
    ),
    SdkUse(
        "client-read-timeout",
        "mcp.client.session:ClientSession keeps its read timeout as "
        "``_session_read_timeout_seconds``",
        "the typed client's per-call timeout after connecting",
        "set_client_read_timeout (called by mcpgen_runtime/client/base.py)",
    ),
)


# -- session-connection ------------------------------------------------------------------------


def handshake_connection(ctx: ServerRequestContext[Any, Any]) -> Connection | None:
    """The SDK ``Connection`` behind ``ctx.session`` (use ``session-connection``); on the
    lean engine, its own connection (``lean.context.LeanConnection``, same methods)."""
    session = ctx.session
    lean: Connection | None = getattr(session, "lean_connection", None)
    if lean is not None:
        return lean
    conn: Connection | None = getattr(session, "_connection", None)
    return conn


def honored_filter(requested: Any) -> Any:
    """The part of a ``subscriptions/listen`` filter the SDK's listen handler acknowledges
    (use ``listen-honored-filter``)."""
    from mcp.server.subscriptions import _honored_subset

    return _honored_subset(requested)


# -- initialization-options ------------------------------------------------------------------


def announce_tools_list_changed(server: Server[Any]) -> None:
    """Make ``tools.listChanged`` part of ``server``'s default initialization options (use
    ``initialization-options``); options a caller passes still win."""
    from mcp.server.lowlevel.server import NotificationOptions

    plain = server.create_initialization_options

    def with_list_changed(
        notification_options: NotificationOptions | None = None, *a: Any, **kw: Any
    ) -> Any:
        return plain(notification_options or NotificationOptions(tools_changed=True), *a, **kw)

    server.create_initialization_options = with_list_changed  # type: ignore[method-assign]


# -- otel-middleware -------------------------------------------------------------------------

OTEL_MIDDLEWARE = "OpenTelemetryMiddleware"


def drop_sdk_tracing(server: Server[Any]) -> None:
    """Take the SDK's OpenTelemetry middleware out of ``server``'s chain (use
    ``otel-middleware``)."""
    server.middleware[:] = [m for m in server.middleware if type(m).__name__ != OTEL_MIDDLEWARE]


# -- header-checks ----------------------------------------------------------------------------


class _HeadersOnly:
    """A request as the SDK's header checks read it (use ``header-checks``)."""

    __slots__ = ("headers",)

    def __init__(self, headers: Mapping[str, str]) -> None:
        self.headers = headers


class HeaderChecks:
    """The SDK's header checks of a POST (use ``header-checks``): ``security``, its
    ``TransportSecurityMiddleware`` (Content-Type, Host, Origin), and ``check_accept_headers``.
    The verdicts are pure functions of those few header values, so the values that passed are
    remembered (at most ``KEEP`` sets of each): a client's next POST costs a dict lookup."""

    __slots__ = ("security", "_passed", "_accept")
    KEEP = 256

    def __init__(self, security: Any) -> None:
        self.security = security
        self._passed: set[tuple[str | None, str | None, str | None]] = set()
        self._accept: dict[str, tuple[bool, bool]] = {}

    async def refuses(self, headers: Mapping[str, str]) -> bool:
        """Whether ``security`` refuses a POST with ``headers`` (lowercase names, first
        values); its refusal is the SDK app's to send."""
        key = (headers.get("content-type"), headers.get("host"), headers.get("origin"))
        if key in self._passed:
            return False
        refused = await self.security.validate_request(_HeadersOnly(headers), is_post=True)
        if refused is not None:
            return True
        if len(self._passed) < self.KEEP:
            self._passed.add(key)
        return False

    def accepted(self, headers: Mapping[str, str]) -> tuple[bool, bool]:
        """(JSON, SSE): what the ``Accept`` header allows, by ``check_accept_headers``."""
        value = headers.get("accept", "")
        known = self._accept.get(value)
        if known is None:
            from mcp.server.streamable_http import check_accept_headers

            known = check_accept_headers(_HeadersOnly({"accept": value}))  # type: ignore[arg-type]
            if len(self._accept) < self.KEEP:
                self._accept[value] = known
        return known


# -- http-session-table and http-session-idle-clock -------------------------------------------


def live_session(manager: Any, session_id: str) -> Any | None:
    """The transport of the session ``session_id`` if ``manager`` (the SDK's
    ``StreamableHTTPSessionManager``) would hand it a request now, else None: not deleted,
    not idle-timed-out, opened without a credential (use ``http-session-table``)."""
    transport = manager._server_instances.get(session_id)
    if transport is None or transport.is_terminated or session_id in manager._session_owners:
        return None
    idle = transport.idle_scope
    if idle is not None and idle.cancel_called:
        return None
    return transport


def begin_session_request(transport: Any) -> None:
    """One more request in flight on ``transport``'s session, as the SDK's
    ``handle_request`` counts it: the idle countdown is off while one runs (use
    ``http-session-idle-clock``)."""
    idle = transport.idle_scope
    if idle is None or transport._idle_timeout is None:
        return
    transport._requests_in_flight += 1
    if idle.deadline != math.inf:  # anyio reschedules its timer on every set: only if needed
        idle.deadline = math.inf


def end_session_request(transport: Any) -> bool:
    """The request ``begin_session_request`` counted has ended: whether it was the last one
    in flight (then ``settle_idle`` starts the countdown from its end, as the SDK does at once;
    the lean front does it for all its sessions on one timer)."""
    if transport.idle_scope is None or transport._idle_timeout is None:
        return False
    transport._requests_in_flight -= 1
    return not transport._requests_in_flight


def settle_idle(transport: Any, ended: float) -> None:
    """Start the idle countdown of ``transport``'s session from ``ended`` (the event loop's
    clock when its last request ended here), unless a request runs again or the SDK already
    started it (a later request of its own ended since)."""
    idle = transport.idle_scope
    timeout = transport._idle_timeout
    if idle is None or timeout is None or transport._requests_in_flight:
        return
    if idle.deadline == math.inf and not idle.cancel_called:
        idle.deadline = ended + timeout


# -- client-read-timeout ---------------------------------------------------------------------


def set_client_read_timeout(session: object, seconds: float | None) -> bool:
    """Make ``seconds`` the connected client ``session``'s default read timeout (use
    ``client-read-timeout``); False when this SDK keeps it elsewhere (nothing changed)."""
    if not hasattr(session, "_session_read_timeout_seconds"):
        return False
    setattr(session, "_session_read_timeout_seconds", seconds)  # noqa: B010 - the use named above
    return True


# -- uri-template-file -----------------------------------------------------------------------

_URI_TEMPLATE = "mcp.shared.uri_template"
_URI_TEMPLATE_PRIVATE = "_mcpgen_sdk_uri_template"


def _uri_template_file() -> ModuleType | None:
    """``mcp/shared/uri_template.py`` loaded as it is, under a private name (None: not there,
    or it does not load alone)."""
    import importlib.util
    import sys
    from pathlib import Path

    spec = importlib.util.find_spec("mcp")  # locates the package; does not import it
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "shared" / "uri_template.py"
    if not path.is_file():
        return None
    file_spec = importlib.util.spec_from_file_location(_URI_TEMPLATE_PRIVATE, path)
    if file_spec is None or file_spec.loader is None:
        return None
    module = importlib.util.module_from_spec(file_spec)
    sys.modules[_URI_TEMPLATE_PRIVATE] = module  # dataclasses look it up while the body runs
    try:
        file_spec.loader.exec_module(module)
    except Exception:  # noqa: BLE001 - a changed SDK: the normal import instead
        del sys.modules[_URI_TEMPLATE_PRIVATE]
        return None
    return module


def uri_templates() -> ModuleType:
    """The SDK's RFC 6570 module (``UriTemplate``, ``InvalidUriTemplate``; use
    ``uri-template-file``): the loaded SDK's own when ``mcp`` is imported, else its file."""
    import sys

    loaded = sys.modules.get(_URI_TEMPLATE) or sys.modules.get(_URI_TEMPLATE_PRIVATE)
    if loaded is not None:
        return loaded
    module = _uri_template_file()
    if module is not None:
        return module
    import mcp.shared.uri_template as sdk

    return sdk


# -- runtime-attribute -----------------------------------------------------------------------

RUNTIME_ATTRIBUTE = "mcpgen_runtime"


def attach_runtime(server: Server[Any], runtime: object) -> None:
    """Keep mcpgen's runtime on the SDK ``server`` (use ``runtime-attribute``)."""
    setattr(server, RUNTIME_ATTRIBUTE, runtime)


def attached_runtime(server: object) -> object | None:
    """The runtime ``attach_runtime`` kept on ``server``, if any."""
    return getattr(server, RUNTIME_ATTRIBUTE, None)


# -- exact-schemas (and middleware-chain) ----------------------------------------------------


def list_fixups(
    served: Mapping[str, Mapping[str, Any]],
    on_initialize: Callable[[ServerRequestContext[Any, Any]], None],
) -> ServerMiddleware[Any]:
    """Server middleware (uses ``exact-schemas`` and ``middleware-chain``): a ``tools/list``
    result gets back each listed tool's ``inputSchema`` and ``outputSchema`` exactly as
    ``served`` (name -> definition as listed) holds them; ``initialize`` is reported to
    ``on_initialize``; other methods pass straight through."""

    async def exact_schemas(
        ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        result = await call_next(ctx)
        if isinstance(result, dict):
            for tool in result.get("tools") or []:
                name = tool.get("name") if isinstance(tool, dict) else None
                known = served.get(name) if isinstance(name, str) else None
                if known is None:
                    continue
                for key in ("inputSchema", "outputSchema"):
                    if key in tool and key in known:
                        tool[key] = known[key]
        return result

    def middleware(
        ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> Coroutine[Any, Any, HandlerResult]:
        method = ctx.method
        if method == "tools/list":
            return exact_schemas(ctx, call_next)
        if method == "initialize":
            on_initialize(ctx)
        # call_next's awaitable, handed back: no coroutine of this middleware's own
        return call_next(ctx)  # type: ignore[return-value]

    return middleware
