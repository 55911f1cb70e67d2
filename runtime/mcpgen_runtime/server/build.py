"""``build_server``: an SDK low-level ``Server`` for a generated package's bindings.

The generated ``server.py`` passes its binding table (one ``ToolBinding`` per tool) and its
``ServerInfo``; the limits merge here (defaults, manifest, tool, start-up options, see
``limits``) and the runtime (``tools``) is registered on the SDK's hooks.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import mcp.types as types
from mcp.server.caching import CacheHint
from mcp.server.lowlevel import Server

from .auth.scopes import ScopePolicy
from .bindings import CompiledTool, ServerInfo, ToolBinding, bind_handler
from .limits import DEFAULT_LIMITS
from .sealed import RequestStateKey
from .tools import ToolsRuntime

if TYPE_CHECKING:  # imported when a manifest has resources or prompts (see _surface)
    from .prompts import PromptBinding
    from .resources import ResourceBinding, TemplateBinding
    from .state import State

__all__ = ["INLINE_ENV", "build_server"]

INLINE_ENV = "MCPGEN_INLINE_SCHEMA_REFS"
_TRUE = ("1", "true", "yes", "on")

H = TypeVar("H")


def build_server(
    handlers: H,
    bindings: Sequence[ToolBinding],
    info: ServerInfo,
    *,
    page_size: int | None = None,
    list_ttl_ms: int | None = None,
    request_state_key: RequestStateKey | bytes | None = None,
    list_changed: bool | None = None,
    limits: Mapping[str, Any] | None = None,
    resources: Sequence[ResourceBinding] = (),
    templates: Sequence[TemplateBinding] = (),
    prompts: Sequence[PromptBinding] = (),
    state: State | str | None = None,
    toolsets: Sequence[str] | None = None,
    tools: Sequence[str] | None = None,
    inline_schema_refs: bool | None = None,
) -> Server[Any]:
    """An SDK ``Server`` serving ``bindings`` with ``handlers`` (an instance of the generated
    base class); each schema is compiled once, on the tool's first call.

    ``resources``, ``templates`` and ``prompts``: the manifest's other sections (their
    methods are served only when there is something to serve; completions when a prompt or a
    template exists). ``request_state_key``, ``limits`` and ``state`` are the start-up options
    (``options.StartupOptions``) ``run_cli`` passes through the generated ``create_server``;
    ``state``: a backend, its URL (``redis://...``), or None for ``$MCPGEN_STATE_URL`` or
    memory. ``toolsets``/``tools``: serve only these (``toolsets.select``; None: their
    environment variables, else the manifest's defaults); an unknown name raises
    ``toolsets.SelectionError``. ``inline_schema_refs``: list each inputSchema with its
    non-recursive ``$ref``s inlined and ``$defs`` dropped (``schemainline``; None:
    ``$MCPGEN_INLINE_SCHEMA_REFS``); calls are still checked against the schema as written."""
    from .state import State as _State
    from .state import open_state

    backend = (
        state if isinstance(state, _State) else open_state(state, namespace=f"mcpgen:{info.name}")
    )
    if page_size is not None and page_size < 1:
        raise ValueError("page_size must be a positive integer or None")
    if list_changed is None:
        list_changed = info.list_changed
    server_limits = DEFAULT_LIMITS.merged(
        json.loads(info.limits) if isinstance(info.limits, str) else info.limits
    )
    compiled = []
    forwarder = None
    kept, unserved, declared = _selected(bindings, info, toolsets, tools)
    for b, definition in kept:
        ext = definition.get("x-mcpgen")
        ext = ext if isinstance(ext, dict) else {}
        invoke = bind_handler(handlers, b)
        if isinstance(ext.get("http"), dict) and info.http is not None:
            from .forward import Forwarder, inherited

            if inherited(handlers, b.method):  # handlers.py did not write it: forward
                if forwarder is None:
                    api = json.loads(info.http) if isinstance(info.http, str) else info.http
                    forwarder = Forwarder(api)
                invoke = forwarder.invoke_for(definition)
        tool_limits = server_limits.merged(ext.get("limits")).merged(limits)
        rate = tool_limits.rate_per_s
        compiled.append(
            CompiledTool(
                definition,
                b,
                invoke,
                tool_limits,
                tuple(ext.get("scopes") or ()),
                backend.limiter(f"tool:{definition['name']}", rate, tool_limits.burst)
                if rate
                else None,
            )
        )
    if inline_schema_refs or (
        inline_schema_refs is None and os.environ.get(INLINE_ENV, "").lower() in _TRUE
    ):
        _serve_inlined(compiled)
    key = (
        request_state_key
        if isinstance(request_state_key, RequestStateKey)
        else RequestStateKey(request_state_key)
    )
    runtime: ToolsRuntime[H] = ToolsRuntime(
        tools=compiled, page_size=page_size, state_key=key, backend=backend
    )
    surface = _surface(runtime, handlers, resources, templates, prompts, page_size)
    runtime.scopes = _scope_policy(runtime)
    runtime.auth_manifest = json.loads(info.auth) if isinstance(info.auth, str) else info.auth
    runtime.selection = (len(bindings), declared)
    runtime.switches.unserved = unserved
    cache = CacheHint(
        ttl_ms=info.cache_ttl_ms if list_ttl_ms is None else list_ttl_ms,
        # lists that show each caller what its scopes allow are that caller's alone
        scope="private" if runtime.scopes.any else info.cache_scope,  # type: ignore[arg-type]
    )
    server: Server[Any] = Server(
        info.name,
        version=info.version,
        title=info.title,
        description=info.description,
        instructions=info.instructions,
        website_url=info.website_url,
        cache_hints={m: cache for m in ("tools/list", *surface.pop("cacheable", ()))},
        get_tool_input_schema=_declared_headers(runtime).get,
        on_list_tools=runtime.list_tools,  # type: ignore[arg-type]
        on_call_tool=runtime.call_tool,  # type: ignore[arg-type]
        **surface,
    )
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, runtime.set_level)
    from mcp.server.lowlevel.server import NotificationOptions
    from mcp.server.subscriptions import ListenHandler

    server.add_request_handler(
        "subscriptions/listen", types.SubscriptionsListenRequestParams, ListenHandler(runtime.bus)
    )
    if list_changed:
        plain = server.create_initialization_options

        def _with_list_changed(
            notification_options: NotificationOptions | None = None, *a: Any, **kw: Any
        ) -> Any:
            return plain(notification_options or NotificationOptions(tools_changed=True), *a, **kw)

        server.create_initialization_options = _with_list_changed  # type: ignore[method-assign]
    server.mcpgen_runtime = runtime  # type: ignore[attr-defined]
    if not tracing_configured():
        # the SDK's span per message costs every call even with no tracer to record it; the
        # SDK documents dropping its middleware as the way to opt out
        server.middleware[:] = [
            m for m in server.middleware if type(m).__name__ != "OpenTelemetryMiddleware"
        ]
    server.middleware.append(runtime.restore_exact_schemas)
    if backend.shared:
        from .shared import Replica

        res = runtime.resources
        switches = [runtime.switches, *(x.switches for x in (res, runtime.prompts) if x)]
        replica = Replica(backend, switches, res.updated_here if res is not None else None)
        replica.install(server.middleware)
    return server


def _selected(
    bindings: Sequence[ToolBinding],
    info: ServerInfo,
    toolsets: Sequence[str] | None,
    tools: Sequence[str] | None,
) -> tuple[list[tuple[ToolBinding, dict[str, Any]]], frozenset[str], dict[str, Any]]:
    """(the bindings this process serves with their parsed definitions, the names of those it
    leaves out, the manifest's toolsets)."""
    from .toolsets import declared_toolsets, from_environment, select

    parsed = [(b, json.loads(b.definition_json)) for b in bindings]
    declared = declared_toolsets(info.toolsets)
    keep = select([d for _, d in parsed], declared, *from_environment(toolsets, tools), what="--")
    kept = [pair for pair, k in zip(parsed, keep, strict=True) if k]
    left_out = frozenset(d["name"] for (_, d), k in zip(parsed, keep, strict=True) if not k)
    return kept, left_out, declared


def _declared_headers(runtime: ToolsRuntime[Any]) -> dict[str, Any]:
    """The input schemas the SDK checks ``Mcp-Param-*`` headers against (2026-07-28 HTTP): only
    those with an ``x-mcp-header`` in some subschema. For any other schema the SDK's check walks
    it twice and finds nothing to compare, on every ``tools/call``; answering None skips the
    walk with the same outcome."""
    from ..schemawalk import walk

    return {
        t.name: t.definition["inputSchema"]
        for t in runtime.tools
        if any("x-mcp-header" in node.schema for node in walk(t.definition.get("inputSchema")))
    }


TRACING_ENV = "MCPGEN_OTEL"
"""``1``: keep the SDK's OpenTelemetry span per message even when no tracer provider is set
when the server is built (one set up later, after ``create_server``)."""


def tracing_configured() -> bool:
    """Whether OpenTelemetry spans would be recorded: a tracer provider is set (an SDK, or
    auto-instrumentation), ``$MCPGEN_OTEL=1``, or ``$OTEL_TRACES_EXPORTER`` names one."""
    import os

    if os.environ.get(TRACING_ENV) == "1":
        return True
    if os.environ.get("OTEL_TRACES_EXPORTER", "none") != "none":
        return True
    from opentelemetry import trace

    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


def _scope_policy(runtime: ToolsRuntime[Any]) -> ScopePolicy:
    resources: dict[str, Sequence[str]] = {}
    templates: list[Any] = []
    if runtime.resources is not None:
        resources, templates = runtime.resources.scope_table()
    prompts = runtime.prompts.prompts if runtime.prompts is not None else ()
    return ScopePolicy(
        tools={t.name: t.scopes for t in runtime.tools},
        prompts={p.definition["name"]: p.binding.scopes for p in prompts},
        resources=resources,
        templates=templates,
    )


def _surface(
    runtime: ToolsRuntime[Any],
    handlers: object,
    resources: Sequence[ResourceBinding],
    templates: Sequence[TemplateBinding],
    prompts: Sequence[PromptBinding],
    page_size: int | None,
) -> dict[str, Any]:
    """The SDK hooks of the resources, prompts and completions a manifest declares (plus the
    ``cacheable`` methods among them)."""
    hooks: dict[str, Any] = {}
    cacheable: list[str] = []
    resources_rt = prompts_rt = None
    if resources or templates:
        from .resources import ResourcesRuntime

        resources_rt = ResourcesRuntime(resources, templates, handlers, page_size, runtime)
        runtime.resources = resources_rt
        hooks.update(
            on_list_resources=resources_rt.list_resources,
            on_list_resource_templates=resources_rt.list_templates,
            on_read_resource=resources_rt.read_resource,
            on_subscribe_resource=resources_rt.subscribe,
            on_unsubscribe_resource=resources_rt.unsubscribe,
        )
        # resources/read too: on 2026-07-28 ttlMs and cacheScope are required there, and the
        # SDK's result sieve silently drops `contents` from a result without them
        cacheable += ["resources/list", "resources/templates/list", "resources/read"]
    if prompts:
        from .prompts import PromptsRuntime

        prompts_rt = PromptsRuntime(prompts, handlers, page_size, runtime)
        runtime.prompts = prompts_rt
        hooks.update(on_list_prompts=prompts_rt.list_prompts, on_get_prompt=prompts_rt.get_prompt)
        cacheable.append("prompts/list")
    if prompts or templates:
        from .completions import Completions
        from .prompts import PromptsRuntime
        from .resources import ResourcesRuntime

        completions = Completions(
            prompts_rt or PromptsRuntime((), handlers, page_size, runtime),
            resources_rt or ResourcesRuntime((), (), handlers, page_size, runtime),
            handlers,
        )
        hooks["on_completion"] = completions.complete
    hooks["cacheable"] = cacheable
    return hooks


def _serve_inlined(compiled: Sequence[CompiledTool]) -> None:
    """``--inline-schema-refs``: each tool lists its model-friendly inputSchema."""
    from ..schemainline import InlineTooLarge, inline_refs

    for t in compiled:
        schema = t.definition.get("inputSchema")
        try:
            served = inline_refs(schema)
        except InlineTooLarge as exc:
            logging.getLogger("mcpgen_runtime").warning(
                "tool %r is listed with its $refs: %s", t.name, exc
            )
            continue
        if served is not schema:
            t.served = {**t.definition, "inputSchema": served}
