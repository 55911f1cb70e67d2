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


@check("http-session-table")
def _http_session_table() -> None:
    from mcp.server.streamable_http import StreamableHTTPServerTransport
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    source = inspect.getsource(StreamableHTTPSessionManager._handle_stateful_request)
    assert "request_mcp_session_id in self._server_instances" in source
    assert "self._session_owners.get(request_mcp_session_id)" in source
    discard = inspect.getsource(StreamableHTTPSessionManager._discard_session)
    assert "self._server_instances.pop(session_id" in discard
    manager = StreamableHTTPSessionManager(_server())
    transport = StreamableHTTPServerTransport("s1", idle_timeout=5)
    manager._server_instances["s1"] = transport

    async def main() -> None:
        async with transport.connect():
            assert sdk_adapter.live_session(manager, "s1") is transport
            assert sdk_adapter.live_session(manager, "s2") is None
            assert transport.idle_scope is not None
            transport.idle_scope.cancel()
            assert sdk_adapter.live_session(manager, "s1") is None
        await transport.terminate()
        assert transport.is_terminated

    anyio.run(main)
    assert sdk_adapter.live_session(manager, "s1") is None
    fresh = StreamableHTTPServerTransport("s3")
    manager._server_instances["s3"] = fresh
    manager._session_owners["s3"] = object()  # type: ignore[assignment]
    assert sdk_adapter.live_session(manager, "s3") is None


@check("header-checks")
def _header_checks() -> None:
    from mcp.server.streamable_http import check_accept_headers
    from mcp.server.transport_security import (
        TransportSecurityMiddleware,
        TransportSecuritySettings,
    )
    from starlette.requests import Request

    security = TransportSecurityMiddleware(
        TransportSecuritySettings(
            allowed_hosts=["127.0.0.1:*"], allowed_origins=["http://127.0.0.1:*"]
        )
    )
    cases = [
        {"host": "127.0.0.1:1", "content-type": "application/json", "accept": "*/*"},
        {"host": "evil", "content-type": "application/json", "accept": "text/*"},
        {"host": "127.0.0.1:1", "content-type": "text/plain", "accept": "application/json"},
        {"host": "127.0.0.1:1", "content-type": "application/json", "origin": "http://x"},
        {"content-type": "application/json; charset=utf-8", "accept": "application/*, text/x"},
    ]

    async def main() -> None:
        checks = sdk_adapter.HeaderChecks(security)
        for _ in range(2):  # the second time from what was remembered
            for headers in cases:
                raw = [(k.encode(), v.encode()) for k, v in headers.items()]
                request = Request({"type": "http", "method": "POST", "headers": raw})
                sdk = await security.validate_request(request, is_post=True)
                assert await checks.refuses(headers) is (sdk is not None)
                assert checks.accepted(headers) == check_accept_headers(request)

    anyio.run(main)
    read = {
        TransportSecurityMiddleware.validate_request: {"content-type", "host", "origin"},
        check_accept_headers: {"accept"},
    }
    for fn, names in read.items():
        source = inspect.getsource(fn)
        assert set(re.findall(r"request\.(\w+)", source)) == {"headers"}, fn.__name__
        assert set(re.findall(r"headers\.get\(\"([\w-]+)\"", source)) == names, fn.__name__


@check("http-session-idle-clock")
def _http_session_idle_clock() -> None:
    import math

    from mcp.server.streamable_http import StreamableHTTPServerTransport

    source = inspect.getsource(StreamableHTTPServerTransport.handle_request)
    assert "self._requests_in_flight += 1" in source
    assert "self.idle_scope.deadline = anyio.current_time() + self._idle_timeout" in source
    transport = StreamableHTTPServerTransport("s1", idle_timeout=5)

    async def main() -> None:
        async with transport.connect():
            scope = transport.idle_scope
            assert scope is not None
            sdk_adapter.begin_session_request(transport)
            sdk_adapter.begin_session_request(transport)
            assert scope.deadline == math.inf
            assert sdk_adapter.end_session_request(transport) is False  # one still in flight
            assert scope.deadline == math.inf
            assert sdk_adapter.end_session_request(transport) is True
            now = anyio.current_time()
            sdk_adapter.settle_idle(transport, now)
            assert scope.deadline == now + 5
            sdk_adapter.settle_idle(transport, now + 1)  # set already (by the SDK): kept
            assert scope.deadline == now + 5
            sdk_adapter.begin_session_request(transport)
            sdk_adapter.settle_idle(transport, now + 2)  # one in flight: no countdown
            assert scope.deadline == math.inf
            assert sdk_adapter.end_session_request(transport) is True
            assert transport._requests_in_flight == 0
        await transport.terminate()

    anyio.run(main)


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
    """The uses live in the sdk_adapter package alone: no other runtime module (server or
    client) reads a private attribute of an SDK object by name, or stamps or patches one."""
    base = REPO / "runtime" / "mcpgen_runtime"
    pattern = re.compile(
        r"[.\"]_connection\b|create_initialization_options\s*=|OpenTelemetryMiddleware|"
        r"\.mcpgen_runtime\b|attr\([^)]*\"mcpgen_runtime\"|_session_read_timeout"
    )
    offenders = [
        f"{path.relative_to(base)}:{n}"
        for path in sorted(base.rglob("*.py"))
        if "sdk_adapter" not in path.relative_to(base).parts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_each_use_names_where_the_package_holds_it() -> None:
    """Each use's ``where`` names functions the sdk_adapter package exports (the words before
    any parenthesis), so a reader finds the use from its name."""
    for use in SDK_USES:
        names = use.where.split("(")[0].split("/")
        for name in (n.strip() for n in names):
            assert hasattr(sdk_adapter, name), f"{use.name}: {name!r} is not in sdk_adapter"
