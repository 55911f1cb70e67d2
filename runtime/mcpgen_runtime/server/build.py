"""``build_runtime``: the runtime of a generated package, assembled without the SDK.

The generated ``server.py`` passes its binding table (one ``ToolBinding`` per tool) and its
``ServerInfo``; the limits merge here (defaults, manifest, tool, start-up options, see
``limits``) and the runtime is assembled whole (``server_runtime.assemble``). The lean engine
serves it as it is; the SDK's ``Server`` around it (``sdk_server``, which also holds the public
``build_server``) is made when something needs the SDK: ``--engine sdk``, HTTP, or the first
method the lean engine bridges to the SDK. Nothing here imports ``mcp``.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .bindings import CompiledTool, ServerInfo, ToolBinding, bind_handler
from .flags import INLINE_ENV
from .limits import DEFAULT_LIMITS, Limits
from .server_runtime import ServerRuntime, assemble

if TYPE_CHECKING:
    from ..skills_facts import SkillBinding
    from .prompts import PromptBinding
    from .resources import ResourceBinding, TemplateBinding
    from .sealed import RequestStateKey
    from .state import State

__all__ = ["INLINE_ENV", "build_runtime", "declared_headers", "tracing_configured"]

_TRUE = ("1", "true", "yes", "on")

H = TypeVar("H")


def build_runtime(
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
) -> ServerRuntime:
    """The runtime serving ``bindings`` with ``handlers`` (an instance of the generated base
    class), without the SDK; each schema is compiled once, on the tool's first call. The
    arguments are ``build_server``'s (``sdk_server.build_server``: this runtime in the SDK's
    ``Server``).

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
    ``resources``; their methods are registered on the SDK's server). A tool whose
    ``execution`` allows tasks joins the tasks extension here (``tasks.runner.join``; its
    ``tasks/*`` methods are registered on the SDK's server)."""
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

    if any(task_support(t.definition) != "forbidden" for t in compiled):
        extensions[TASKS] = {}
    if skills:
        from ..skills_facts import EXTENSION, SETTINGS

        resources = (*resources, *_skill_files(skills))
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
        info=info.replace(list_changed=list_changed),
        list_ttl_ms=list_ttl_ms,
        extensions=extensions,
        skills=tuple(skills),
    )
    if TASKS in extensions:
        from ..tasks.runner import join

        join(runtime, info.tasks)
    return runtime


def _skill_files(skills: Sequence[SkillBinding]) -> list[ResourceBinding]:
    """A package-file ``ResourceBinding`` per skill file (``skills_facts`` defines them)."""
    from ..skills_facts import skill_resource_definitions
    from .resources import ResourceBinding

    out = []
    for skill in skills:
        for definition, (path, _m, blob, _d, _s) in zip(
            skill_resource_definitions(skill), skill.files, strict=True
        ):
            out.append(
                ResourceBinding(
                    definition_json=json.dumps(definition, ensure_ascii=False),
                    file=os.path.join(skill.folder, *path.split("/")),
                    binary=blob,
                )
            )
    return out


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
