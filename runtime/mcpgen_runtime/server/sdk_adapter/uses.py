"""The SDK uses themselves: ``SDK_USES`` names each reliance on the SDK beyond its public API,
what it relies on, why mcpgen needs it and which function of this package holds it;
``TESTED_WITH`` is the ``mcp`` release they were written against."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["SDK_USES", "TESTED_WITH", "SdkUse"]

TESTED_WITH = "2.3.0"
"""The ``mcp`` release every use below was written against and tested with."""


class SdkUse(NamedTuple):
    """One reliance on the SDK beyond its public API."""

    name: str
    relies_on: str
    """What must stay true of the SDK (``module:object`` and the attribute or behaviour)."""
    why: str
    where: str
    """The function of this package that holds the use (or the module outside it)."""


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
