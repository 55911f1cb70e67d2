"""Every SDK internal the server runtime relies on (``sdk_adapter.SDK_USES``) holds for the
installed ``mcp``: one check per use, against the real SDK, each failing with the use's name
and what it relies on, so an SDK upgrade that removes one fails here first."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp import Client
from mcp.server.lowlevel import Server

from mcpgen_runtime.server import sdk_adapter
from mcpgen_runtime.server.sdk_adapter import SDK_USES, TESTED_WITH

REPO = Path(__file__).resolve().parents[2]

CHECKS: dict[str, Callable[[], None]] = {}


def check(name: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(fn: Callable[[], None]) -> Callable[[], None]:
        CHECKS[name] = fn
        return fn

    return register


_TOOL = {"name": "t", "inputSchema": {"type": "object"}}


def _server(**hooks: Any) -> Server[Any]:
    async def list_tools(ctx: Any, params: Any) -> dict[str, Any]:
        return {"tools": [_TOOL]}

    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        return types.CallToolResult(content=[])

    return Server(
        "adapter-check",
        on_list_tools=hooks.get("on_list_tools", list_tools),
        on_call_tool=hooks.get("on_call_tool", call_tool),
    )


def _run(server: Server[Any], body: Callable[[Client], Any]) -> None:
    async def main() -> None:
        async with Client(server, mode="legacy") as client:  # type: ignore[arg-type]
            await body(client)

    anyio.run(main)


@check("session-connection")
def _session_connection() -> None:
    from mcp.server.connection import Connection

    seen: dict[str, Any] = {}

    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        seen["conn"] = sdk_adapter.handshake_connection(ctx)
        return types.CallToolResult(content=[])

    async def body(client: Client) -> None:
        await client.call_tool("t", {})

    _run(_server(on_call_tool=call_tool), body)
    assert isinstance(seen["conn"], Connection)
    for send in ("tool_list_changed", "prompt_list_changed", "resource_list_changed"):
        assert callable(getattr(seen["conn"], f"send_{send}", None)), send
    assert callable(getattr(seen["conn"], "send_resource_updated", None))


@check("initialization-options")
def _initialization_options() -> None:
    params = list(inspect.signature(Server.create_initialization_options).parameters)
    assert params[:2] == ["self", "notification_options"], params
    server = _server()
    assert not server.create_initialization_options().capabilities.tools.list_changed  # type: ignore[union-attr]
    sdk_adapter.announce_tools_list_changed(server)
    assert server.create_initialization_options().capabilities.tools.list_changed  # type: ignore[union-attr]


@check("otel-middleware")
def _otel_middleware() -> None:
    server = _server()
    names = [type(m).__name__ for m in server.middleware]
    assert sdk_adapter.OTEL_MIDDLEWARE in names, names
    sdk_adapter.drop_sdk_tracing(server)
    assert sdk_adapter.OTEL_MIDDLEWARE not in [type(m).__name__ for m in server.middleware]


@check("middleware-chain")
def _middleware_chain() -> None:
    seen: list[str] = []

    def plain(ctx: Any, call_next: Any) -> Any:  # no coroutine of its own
        seen.append(ctx.method)
        return call_next(ctx)

    server = _server()
    server.middleware.append(plain)

    async def body(client: Client) -> None:
        result = await client.call_tool("t", {})
        assert not result.is_error

    _run(server, body)
    assert "tools/call" in seen


@check("runtime-attribute")
def _runtime_attribute() -> None:
    server = _server()
    assert not hasattr(server, sdk_adapter.RUNTIME_ATTRIBUTE)
    marker = object()
    sdk_adapter.attach_runtime(server, marker)
    assert sdk_adapter.attached_runtime(server) is marker


@check("exact-schemas")
def _exact_schemas() -> None:
    served = {"t": {**_TOOL, "inputSchema": {"type": "object", "description": "as written"}}}
    initialized: list[Any] = []
    server = _server()
    server.middleware.append(sdk_adapter.list_fixups(served, initialized.append))

    async def body(client: Client) -> None:
        listed = await client.list_tools()
        assert listed.tools[0].input_schema == served["t"]["inputSchema"]

    _run(server, body)
    assert len(initialized) == 1


@check("listen-honored-filter")
def _listen_honored_filter() -> None:
    from mcp_types import SubscriptionFilter

    asked = SubscriptionFilter.model_validate(
        {"toolsListChanged": True, "promptsListChanged": False, "resourceSubscriptions": []}
    )
    honored = sdk_adapter.honored_filter(asked)
    assert isinstance(honored, SubscriptionFilter)
    assert honored.model_dump(by_alias=True, exclude_none=True) == {"toolsListChanged": True}


@check("uri-template-file")
def _uri_template_file() -> None:
    import mcp.shared.uri_template as sdk

    alone = sdk_adapter._uri_template_file()
    assert alone is not None and alone is not sdk
    for text in ("a://t/{id}", "a://{x}/{+rest}", "a://s{?q,page}"):
        mine, theirs = alone.UriTemplate.parse(text), sdk.UriTemplate.parse(text)
        assert mine.variable_names == theirs.variable_names
        for uri in ("a://t/1", "a://t/a%20b", "a://x/y/z", "a://s?q=1&page=2"):
            assert mine.match(uri) == theirs.match(uri)
    assert sdk_adapter.uri_templates() is sdk  # the SDK's own once it is loaded


@check("client-read-timeout")
def _client_read_timeout() -> None:
    from mcp.client.session import ClientSession

    source = inspect.getsource(ClientSession)
    assert "self._session_read_timeout_seconds =" in source


@pytest.mark.parametrize("use", SDK_USES, ids=[u.name for u in SDK_USES])
def test_each_sdk_use_holds(use: sdk_adapter.SdkUse) -> None:
    assert use.name in CHECKS, f"no check for SDK use {use.name!r}"
    try:
        CHECKS[use.name]()
    except Exception as exc:
        pytest.fail(
            f"SDK use {use.name!r} ({use.where}) no longer holds for the installed mcp: it "
            f"relies on {use.relies_on} (tested with mcp {TESTED_WITH}): "
            f"{type(exc).__name__}: {exc}"
        )


def test_every_check_names_a_use() -> None:
    assert set(CHECKS) == {u.name for u in SDK_USES}


def test_tested_with_is_the_pinned_sdk() -> None:
    """An SDK upgrade moves the pin in constraints/test.txt: the adapter's uses must be
    looked at again (and TESTED_WITH moved) in the same change."""
    pins = (REPO / "constraints" / "test.txt").read_text(encoding="utf-8")
    pinned = re.search(r"^mcp==(\S+)$", pins, re.M)
    assert pinned is not None
    assert pinned.group(1) == TESTED_WITH


def test_no_other_server_module_reaches_into_the_sdk() -> None:
    """The uses live in sdk_adapter alone: no other runtime module (server or client) reads a
    private attribute of an SDK object by name, or stamps or patches one."""
    base = REPO / "runtime" / "mcpgen_runtime"
    pattern = re.compile(
        r"[.\"]_connection\b|create_initialization_options\s*=|OpenTelemetryMiddleware|"
        r"\.mcpgen_runtime\b|attr\([^)]*\"mcpgen_runtime\"|_session_read_timeout"
    )
    offenders = [
        f"{path.relative_to(base)}:{n}"
        for path in sorted(base.rglob("*.py"))
        if path.name != "sdk_adapter.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []
