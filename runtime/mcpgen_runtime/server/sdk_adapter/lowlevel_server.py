"""The uses that touch the SDK's low-level ``Server``: ``initialization-options`` (tools
``listChanged`` announced by default), ``otel-middleware`` (the SDK's tracing taken out of the
chain), ``runtime-attribute`` (mcpgen's runtime kept on the instance), ``exact-schemas`` and
``middleware-chain`` (the middleware that gives ``tools/list`` back its schemas as written)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
    from mcp.server.lowlevel import Server

__all__ = [
    "OTEL_MIDDLEWARE",
    "RUNTIME_ATTRIBUTE",
    "announce_tools_list_changed",
    "attach_runtime",
    "attached_runtime",
    "drop_sdk_tracing",
    "list_fixups",
]


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
