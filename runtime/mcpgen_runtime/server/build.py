"""``build_server``: an SDK low-level ``Server`` for a generated package's bindings.

The generated ``server.py`` passes its binding table (one ``ToolBinding`` per tool) and its
``ServerInfo``; the limits merge here (defaults, manifest, tool, start-up options, see
``limits``) and the runtime (``tools``) is registered on the SDK's hooks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import mcp.types as types
from mcp.server.caching import CacheHint
from mcp.server.lowlevel import Server

from .asking import RequestStateKey
from .bindings import CompiledTool, ServerInfo, ToolBinding, bind_handler
from .limits import DEFAULT_LIMITS
from .tools import ToolsRuntime

__all__ = ["build_server"]

H = TypeVar("H")


def build_server(
    handlers: H,
    bindings: Sequence[ToolBinding],
    info: ServerInfo,
    *,
    page_size: int | None = None,
    list_ttl_ms: int = 0,
    request_state_key: RequestStateKey | bytes | None = None,
    list_changed: bool | None = None,
    limits: Mapping[str, Any] | None = None,
) -> Server[Any]:
    """An SDK ``Server`` serving ``bindings`` with ``handlers`` (an instance of the generated
    base class); each schema is compiled once, on the tool's first call.

    ``request_state_key`` and ``limits`` are the start-up options (``options.StartupOptions``)
    ``run_cli`` passes through the generated ``create_server``."""
    if page_size is not None and page_size < 1:
        raise ValueError("page_size must be a positive integer or None")
    if list_changed is None:
        list_changed = info.list_changed
    server_limits = DEFAULT_LIMITS.merged(
        json.loads(info.limits) if isinstance(info.limits, str) else info.limits
    )
    compiled = []
    for b in bindings:
        definition = json.loads(b.definition_json)
        ext = definition.get("x-mcpgen")
        tool_limits = server_limits.merged(ext.get("limits") if isinstance(ext, dict) else None)
        compiled.append(
            CompiledTool(definition, b, bind_handler(handlers, b), tool_limits.merged(limits))
        )
    key = (
        request_state_key
        if isinstance(request_state_key, RequestStateKey)
        else RequestStateKey(request_state_key)
    )
    runtime: ToolsRuntime[H] = ToolsRuntime(tools=compiled, page_size=page_size, state_key=key)
    server: Server[Any] = Server(
        info.name,
        version=info.version,
        title=info.title,
        description=info.description,
        instructions=info.instructions,
        website_url=info.website_url,
        cache_hints={"tools/list": CacheHint(ttl_ms=list_ttl_ms, scope="private")},
        get_tool_input_schema=lambda tool: (
            runtime.by_name[tool].definition["inputSchema"] if tool in runtime.by_name else None
        ),
        on_list_tools=runtime.list_tools,  # type: ignore[arg-type]
        on_call_tool=runtime.call_tool,  # type: ignore[arg-type]
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
    server.middleware.append(runtime.restore_exact_schemas)
    return server
