"""``build_server``: an SDK low-level ``Server`` for a generated package's bindings.

The generated ``server.py`` passes its binding table (one ``ToolBinding`` per tool) and its
``ServerInfo``; the limits merge here (defaults, manifest, tool, start-up options, see
``limits``), the runtime is assembled whole (``server_runtime.assemble``) and registered on
the SDK's hooks; what mcpgen does to the SDK ``Server`` beyond its public API goes through
``sdk_adapter``.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import mcp.types as types
from mcp.server.caching import CacheableMethod, CacheHint
from mcp.server.lowlevel import Server

from .bindings import CompiledTool, ServerInfo, ToolBinding, bind_handler
from .flags import INLINE_ENV
from .limits import DEFAULT_LIMITS, Limits
from .sdk_adapter import announce_tools_list_changed, attach_runtime, drop_sdk_tracing
from .server_runtime import ServerRuntime, assemble

if TYPE_CHECKING:
    from ..skills_facts import SkillBinding
    from .prompts import PromptBinding
    from .resources import ResourceBinding, TemplateBinding
    from .sealed import RequestStateKey
    from .state import State

__all__ = ["INLINE_ENV", "build_server", "declared_headers"]

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
    skills: Sequence[SkillBinding] = (),
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
    ``$MCPGEN_INLINE_SCHEMA_REFS``); calls are still checked against the schema as written.
    ``skills``: ``skills.SkillBinding`` each (the skills extension: their files join
    ``resources``, their methods are registered on the server)."""
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
    kept, unserved, declared = _selected(bindings, info, toolsets, tools)
    compiled = _compiled(handlers, kept, info, server_limits, limits, backend)
    if inline_schema_refs or (
        inline_schema_refs is None and os.environ.get(INLINE_ENV, "").lower() in _TRUE
    ):
        _serve_inlined(compiled)
    extensions: dict[str, Any] = {}
    from ..tasks.settings import EXTENSION as TASKS
    from ..tasks.settings import task_support

    tasked = any(task_support(t.definition) != "forbidden" for t in compiled)
    if tasked:
        extensions[TASKS] = {}
    if skills:
        from .skills import EXTENSION, SETTINGS, resource_bindings

        resources = (*resources, *resource_bindings(skills))
        extensions[EXTENSION] = SETTINGS
    runtime = assemble(
        handlers,
        compiled,
        resources=resources,
        templates=templates,
        prompts=prompts,
        page_size=page_size,
        backend=backend,
        state_key=request_state_key,
        unserved_tools=unserved,
        auth_manifest=json.loads(info.auth) if isinstance(info.auth, str) else info.auth,
        package_tools=len(bindings),
        toolsets=declared,
        info=replace(info, list_changed=list_changed),
        list_ttl_ms=list_ttl_ms,
        extensions=extensions,
    )
    server = _sdk_server(runtime, info)
    if skills:
        from .skills import SkillsRuntime, install

        install(server, SkillsRuntime(skills, runtime.discovery.cache))
    if tasked:
        from ..tasks.methods import install as install_tasks

        install_tasks(server, runtime, info.tasks)
    if list_changed:
        announce_tools_list_changed(server)
    attach_runtime(server, runtime)
    if not tracing_configured():
        # the SDK's span per message costs every call even with no tracer to record it
        drop_sdk_tracing(server)
    server.middleware.append(runtime.tools.middleware())
    if runtime.replica is not None:
        runtime.replica.install(server.middleware)
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


def _compiled(
    handlers: object,
    kept: Sequence[tuple[ToolBinding, dict[str, Any]]],
    info: ServerInfo,
    server_limits: Limits,
    limits: Mapping[str, Any] | None,
    backend: State,
) -> list[CompiledTool]:
    """The tools this process serves, each with its handler (or forwarder) and limits."""
    compiled = []
    forwarder = None
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
    return compiled


def _sdk_server(runtime: ServerRuntime, info: ServerInfo) -> Server[Any]:
    """The SDK ``Server`` with ``runtime``'s handlers on its hooks."""
    from mcp.server.subscriptions import ListenHandler

    hooks, cacheable = _hooks(runtime)
    hint = runtime.discovery.cache  # one place for both engines (lean.discovery)
    cache = CacheHint(ttl_ms=hint["ttlMs"], scope=hint["cacheScope"])
    tools = runtime.tools
    server: Server[Any] = Server(
        info.name,
        version=info.version,
        title=info.title,
        description=info.description,
        instructions=info.instructions,
        website_url=info.website_url,
        cache_hints={m: cache for m in ("tools/list", *cacheable)},
        get_tool_input_schema=declared_headers(tools.tools).get,
        on_list_tools=tools.list_tools,  # type: ignore[arg-type]
        on_call_tool=tools.call_tool,  # type: ignore[arg-type]
        **hooks,
    )
    server.extensions.update({k: dict(v) for k, v in runtime.discovery.extensions.items()})
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, tools.set_level)
    server.add_request_handler(
        "subscriptions/listen",
        types.SubscriptionsListenRequestParams,
        ListenHandler(runtime.serving.notices.bus),
    )
    return server


def declared_headers(tools: Sequence[CompiledTool]) -> dict[str, Any]:
    """The input schemas the SDK checks ``Mcp-Param-*`` headers against (2026-07-28 HTTP): only
    those with an ``x-mcp-header`` in some subschema. For any other schema the SDK's check walks
    it twice and finds nothing to compare, on every ``tools/call``; answering None skips the
    walk with the same outcome."""
    from ..schemawalk import walk

    return {
        t.name: t.definition["inputSchema"]
        for t in tools
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


def _hooks(runtime: ServerRuntime) -> tuple[dict[str, Any], list[CacheableMethod]]:
    """The SDK hooks of the resources, prompts and completions a manifest declares, and the
    cacheable methods among them."""
    hooks: dict[str, Any] = {}
    cacheable: list[CacheableMethod] = []
    res = runtime.resources
    if res is not None:
        hooks.update(
            on_list_resources=res.list_resources,
            on_list_resource_templates=res.list_templates,
            on_read_resource=res.read_resource,
            on_subscribe_resource=res.subscribe,
            on_unsubscribe_resource=res.unsubscribe,
        )
        # resources/read too: on 2026-07-28 ttlMs and cacheScope are required there, and the
        # SDK's result sieve silently drops `contents` from a result without them
        cacheable += ["resources/list", "resources/templates/list", "resources/read"]
    if runtime.prompts is not None:
        hooks.update(
            on_list_prompts=runtime.prompts.list_prompts, on_get_prompt=runtime.prompts.get_prompt
        )
        cacheable.append("prompts/list")
    if runtime.completions is not None:
        hooks["on_completion"] = runtime.completions.complete
    return hooks, cacheable


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
