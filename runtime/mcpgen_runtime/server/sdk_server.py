"""The SDK's side of a generated server: ``sdk_server`` makes the SDK's low-level ``Server``
around a runtime (``build.build_runtime``), and ``build_server`` (public) does both.

The runtime's handlers go on the SDK's hooks; the extensions' methods (skills, tasks) are
registered on it; its middleware fits results and errors to what the SDK expects (``list_fixups``
and ``sdk_errors``); what mcpgen does to the SDK ``Server`` beyond its public API goes through
``sdk_adapter``. The SDK is imported when a server is made here, not when this module is.

A server is made once per runtime and kept on it (``ServerRuntime.sdk``): at start for
``--engine sdk`` and HTTP, on first need on the lean engine's stdio (its bridge).
"""

from __future__ import annotations

from collections.abc import Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .build import build_runtime, declared_headers, tracing_configured
from .errors import RequestError
from .sdk_adapter import announce_tools_list_changed, attach_runtime, drop_sdk_tracing

if TYPE_CHECKING:
    from mcp.server.caching import CacheableMethod
    from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
    from mcp.server.lowlevel import Server

    from ..skills_facts import SkillBinding
    from .bindings import ServerInfo, ToolBinding
    from .prompts import PromptBinding
    from .resources import ResourceBinding, TemplateBinding
    from .sealed import RequestStateKey
    from .server_runtime import ServerRuntime
    from .state import State

__all__ = ["build_server", "sdk_errors", "sdk_server"]

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
    base class): ``build_runtime`` with the same arguments (see there), in the SDK's
    ``Server`` (``sdk_server``)."""
    runtime = build_runtime(
        handlers,
        bindings,
        info,
        page_size=page_size,
        list_ttl_ms=list_ttl_ms,
        request_state_key=request_state_key,
        list_changed=list_changed,
        limits=limits,
        resources=resources,
        templates=templates,
        prompts=prompts,
        skills=skills,
        state=state,
        toolsets=toolsets,
        tools=tools,
        inline_schema_refs=inline_schema_refs,
    )
    return sdk_server(runtime)


def sdk_server(runtime: ServerRuntime) -> Server[Any]:
    """The SDK ``Server`` with ``runtime``'s handlers on its hooks (made on the first call,
    then the same one)."""
    made: Server[Any] | None = runtime.sdk
    if made is not None:
        return made
    info = runtime.info
    if info is None:
        raise TypeError("the runtime was not made by build_runtime")
    server = _server(runtime, info)
    if runtime.skills:
        from .skills import SkillsRuntime, install

        install(server, SkillsRuntime(runtime.skills, runtime.discovery.cache))
    from ..tasks.settings import EXTENSION as TASKS

    if TASKS in runtime.discovery.extensions:
        from ..tasks.methods import install as install_tasks

        install_tasks(server, runtime)
    if info.list_changed:
        announce_tools_list_changed(server)
    attach_runtime(server, runtime)
    if not tracing_configured():
        # the SDK's span per message costs every call even with no tracer to record it
        drop_sdk_tracing(server)
    server.middleware.append(sdk_errors)
    server.middleware.append(runtime.tools.middleware())
    if runtime.replica is not None:
        runtime.replica.install(server.middleware)
    runtime.sdk = server
    return server


def sdk_errors(
    ctx: ServerRequestContext[Any, Any], call_next: CallNext
) -> Coroutine[Any, Any, HandlerResult]:
    """Server middleware: the runtime's ``RequestError`` (``errors``) raised while the SDK
    serves a request becomes the SDK's ``MCPError`` with the same code, message and data, which
    the SDK answers as that JSON-RPC error (anything else passes through untouched)."""
    return _mapped(call_next(ctx))


async def _mapped(answer: Any) -> HandlerResult:
    try:
        result: HandlerResult = await answer
    except RequestError as exc:
        from mcp.shared.exceptions import MCPError

        raise MCPError(code=exc.code, message=exc.message, data=exc.data) from exc
    return result


def _server(runtime: ServerRuntime, info: ServerInfo) -> Server[Any]:
    """The SDK ``Server`` with ``runtime``'s handlers on its hooks."""
    import mcp.types as types
    from mcp.server.caching import CacheHint
    from mcp.server.lowlevel import Server
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
