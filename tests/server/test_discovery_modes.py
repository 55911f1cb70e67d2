"""Discovery modes (``server.discovery``): what ``tools/list`` shows, the meta-tools, and that a
call through ``call_tool`` takes the direct call's path: nothing widens (issue 52, item 4).

In process, through the SDK engine's ``Server`` and a raw JSON-RPC peer on both wires; the
lean engine and real clients are driven in ``test_discovery_peers.py``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken

from .helpers import RawClient, imported, shop_handlers, shop_package

MANIFEST = """\
server:
  name: shop
  toolsets:
    catalog: {description: Browse the catalog.}
    orders: {description: Place and change orders.}
    admin: {description: Dangerous operations., default: false}
  discovery:
    mode: search
    listed: {tools: [ping]}
    results: 3
tools:
  - name: list_items
    description: List the items in the catalog.
    inputSchema:
      type: object
      properties: {category: {type: string, description: Only items of this category.}}
    x-mcpgen: {toolsets: [catalog]}
  - name: place_order
    description: Place an order for an item.
    inputSchema: {type: object, properties: {item: {type: string}}, required: [item]}
    x-mcpgen: {toolsets: [orders], limits: {rateLimit: {perSecond: 0.001, burst: 1}}}
  - name: refund
    description: Refund an order and give the money back.
    inputSchema: {type: object, properties: {order: {type: string}}, required: [order]}
    x-mcpgen: {toolsets: [orders], scopes: [payments]}
  - name: wipe
    description: Delete every order and item.
    inputSchema: {type: object}
    x-mcpgen: {toolsets: [admin]}
  - name: ping
    description: Answers pong.
    inputSchema: {type: object}
  - name: greet
    description: Greets the user by the name they give when asked.
    inputSchema: {type: object}
  - name: close_catalog
    description: Switches list_items off for now.
    inputSchema: {type: object}
"""

HANDLERS = shop_handlers(
    """
    async def ping(self, args: m.PingInput, ctx: ToolContext) -> str:
        return "pong"

    async def greet(self, args: m.GreetInput, ctx: ToolContext) -> str:
        answer = await ctx.elicit(Name, "Your name?", key="name")
        return f"hello {answer.data.name if answer.data else '-'}"


    async def close_catalog(self, args: m.CloseCatalogInput, ctx: ToolContext) -> str:
        return str(await ctx.set_tool_enabled("list_items", False))

class Name(BaseModel):
    name: str
""",
    imports="from pydantic import BaseModel\n\n",
)

WIRES = ["2025-11-25", "2026-07-28"]


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shop_package(tmp_path_factory, MANIFEST, HANDLERS)


@contextmanager
def _token(*scopes: str) -> Iterator[None]:
    reset = auth_context_var.set(
        AuthenticatedUser(AccessToken(token="t", client_id="c", scopes=list(scopes)))
    )
    try:
        yield
    finally:
        auth_context_var.reset(reset)


def _session(shop: Path, version: str, script: Any, **options: Any) -> Any:
    """Run ``script(client)`` against ``create_server(Handlers(), **options)``."""

    async def go() -> Any:
        with imported(shop, "shop") as handlers:
            from shop._generated.server import create_server  # type: ignore[import-not-found]

            server = create_server(handlers.Handlers(), **options)
            async with RawClient(server, version) as client:
                return await script(client)

    return anyio.run(go)


async def _call(client: RawClient, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return await client.request("tools/call", {"name": name, "arguments": arguments})


async def _via(client: RawClient, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return await _call(client, "call_tool", {"name": name, "arguments": arguments})


def _text(answer: dict[str, Any]) -> str:
    return str(answer["result"]["content"][0]["text"])


def _found(answer: dict[str, Any]) -> list[str]:
    return [t["name"] for t in answer["result"]["structuredContent"]["tools"]]


@pytest.mark.parametrize("version", WIRES)
def test_search_mode_lists_the_always_listed_tools_and_the_meta_tools(
    shop: Path, version: str
) -> None:
    async def script(c: RawClient) -> Any:
        return [t["name"] for t in (await c.request("tools/list"))["result"]["tools"]]

    listed = _session(shop, version, script)
    assert listed == ["ping", "search_tools", "get_tool_schemas", "call_tool"]


def test_the_precomputed_list_is_the_one_the_runtime_answers(shop: Path) -> None:
    with imported(shop, "shop"):
        from shop._generated.discovery import ANSWERS  # type: ignore[import-not-found]

        listed = json.loads(ANSWERS["tools/list@2025-11-25"])
    assert [t["name"] for t in listed["tools"]] == [
        "ping",
        "search_tools",
        "get_tool_schemas",
        "call_tool",
    ]


@pytest.mark.parametrize("version", WIRES)
def test_search_then_call_through_call_tool(shop: Path, version: str) -> None:
    async def script(c: RawClient) -> Any:
        found = await _call(c, "search_tools", {"query": "give the money back"})
        schemas = await _call(c, "get_tool_schemas", {"names": ["place_order"]})
        called = await _via(c, "place_order", {"item": "tea"})
        direct = await _call(c, "ping", {})
        return found, schemas, called, direct

    found, schemas, called, direct = _session(shop, version, script)
    assert _found(found)[0] == "refund"
    assert schemas["result"]["structuredContent"]["tools"][0]["inputSchema"]["required"] == ["item"]
    assert _text(called) == "placed tea" and not called["result"].get("isError")
    assert _text(direct) == "pong"


def test_call_tool_validates_arguments_as_a_direct_call_does(shop: Path) -> None:
    async def script(c: RawClient) -> Any:
        bad = {"category": 5}
        return await _via(c, "list_items", bad), await _call(c, "list_items", bad)

    via, direct = _session(shop, "2025-11-25", script)
    assert via["result"]["isError"] is True
    assert via["result"] == direct["result"]
    assert "Invalid arguments for tool 'list_items'" in _text(via)


def test_a_tool_left_out_by_the_toolsets_is_not_found_and_not_callable(shop: Path) -> None:
    """``wipe`` is in ``admin`` (default: false): not served, so neither searchable nor
    callable through ``call_tool``; ``--toolsets all`` serves it, and then it is both."""

    async def script(c: RawClient) -> Any:
        found = await _call(c, "search_tools", {"query": "delete every order and item"})
        schemas = await _call(c, "get_tool_schemas", {"names": ["wipe"]})
        via = await _via(c, "wipe", {})
        return found, schemas, via

    found, schemas, via = _session(shop, "2025-11-25", script)
    assert "wipe" not in _found(found)
    assert schemas["result"]["structuredContent"] == {"tools": [], "unknown": ["wipe"]}
    assert via["error"]["code"] == -32602 and "Unknown tool: wipe" in via["error"]["message"]

    found, _schemas, via = _session(shop, "2025-11-25", script, toolsets=["all"])
    assert _found(found)[0] == "wipe"
    assert _text(via) == "wiped"


def test_a_tool_the_callers_scopes_do_not_allow_is_not_found_and_not_callable(
    shop: Path,
) -> None:
    async def script(c: RawClient) -> Any:
        found = await _call(c, "search_tools", {"query": "refund an order"})
        schemas = await _call(c, "get_tool_schemas", {"names": ["refund"]})
        via = await _via(c, "refund", {"order": "o1"})
        direct = await _call(c, "refund", {"order": "o1"})
        return found, schemas, via, direct

    with _token("other"):
        found, schemas, via, direct = _session(shop, "2025-11-25", script)
    assert "refund" not in _found(found)
    assert schemas["result"]["structuredContent"]["unknown"] == ["refund"]
    assert via["error"] == direct["error"]
    assert via["error"]["data"]["error"] == "insufficient_scope"

    with _token("payments"):
        found, schemas, via, _direct = _session(shop, "2025-11-25", script)
    assert _found(found)[0] == "refund"
    assert _text(via) == "refunded o1"


def test_call_tool_spends_the_same_rate_limit_as_a_direct_call(shop: Path) -> None:
    """``place_order`` allows one call (burst 1, then one per 1000 s): a call through
    ``call_tool`` spends it, and the direct call after it is refused (and the other way)."""

    async def script(c: RawClient) -> Any:
        return (
            await _via(c, "place_order", {"item": "a"}),
            await _call(c, "place_order", {"item": "b"}),
            await _via(c, "place_order", {"item": "c"}),
        )

    first, direct, again = _session(shop, "2025-11-25", script)
    assert _text(first) == "placed a"
    assert direct["result"]["isError"] and "rate" in _text(direct).lower()
    assert again["result"]["isError"] and "is rate limited" in _text(again)


def test_call_tool_asks_the_user_in_rounds_as_a_direct_call_does(shop: Path) -> None:
    """2026-07-28: the tool's question comes back as the meta call's InputRequiredResult; the
    retry of the same call_tool call with the answer and requestState runs the tool again,
    with the state bound to the inner tool and arguments."""
    answer = {"name": {"action": "accept", "content": {"name": "Ada"}}}

    meta = {"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}
    inner = {"name": "greet", "arguments": {}}

    async def script(c: RawClient) -> Any:
        ask = {"name": "call_tool", "arguments": inner, "_meta": meta}
        first = await c.request("tools/call", ask)
        assert "result" in first, first
        retry = {"requestState": first["result"]["requestState"], "inputResponses": answer}
        done = await c.request("tools/call", {**ask, **retry})
        moved = await c.request("tools/call", {**inner, "_meta": meta, **retry})
        return first, done, moved

    first, done, moved = _session(shop, "2026-07-28", script)
    assert first["result"]["resultType"] == "input_required", first
    assert "name" in first["result"]["inputRequests"]
    assert _text(done) == "hello Ada"
    assert _text(moved) == "hello Ada"  # the same state answers the direct call: one path


def test_a_tool_disabled_at_run_time_is_not_found_and_not_callable(shop: Path) -> None:
    query = {"query": "list the items in the catalog"}

    async def script(c: RawClient) -> Any:
        before = await _call(c, "search_tools", query)
        await _call(c, "close_catalog", {})
        after = await _call(c, "search_tools", query)
        return before, after, await _via(c, "list_items", {})

    before, after, via = _session(shop, "2025-11-25", script)
    assert _found(before)[0] == "list_items"
    assert "list_items" not in _found(after)
    assert via["error"]["code"] == -32602


@pytest.mark.parametrize(
    ("arguments", "expect"),
    [
        ({"query": ""}, []),
        ({"query": "   \t"}, []),
        ({"query": "(((*+?[\\"}, []),
        ({"query": "注文を返金する"}, []),
        ({"query": "استرداد الطلب"}, []),
        ({"query": "x" * 1_000_000}, "at most 1000"),
        ({"query": 5}, "`query` must be a string"),
        ({"query": "refund", "limit": 0}, "`limit` must be an integer"),
        ({"query": "refund", "limit": True}, "`limit` must be an integer"),
    ],
    ids=["empty", "blank", "regex", "cjk", "arabic", "1MB", "number", "limit0", "limitbool"],
)
def test_bad_queries_answer_one_clear_error_or_nothing_and_the_server_keeps_serving(
    shop: Path, arguments: dict[str, Any], expect: Any
) -> None:
    async def script(c: RawClient) -> Any:
        return await _call(c, "search_tools", arguments), await _call(c, "ping", {})

    answer, after = _session(shop, "2025-11-25", script)
    if isinstance(expect, str):
        assert answer["result"]["isError"] is True
        assert expect in _text(answer)
    else:
        assert answer["result"]["structuredContent"] == {"tools": expect}
    assert _text(after) == "pong"


def test_bad_meta_arguments_are_tool_errors(shop: Path) -> None:
    async def script(c: RawClient) -> Any:
        return (
            await _call(c, "get_tool_schemas", {"names": []}),
            await _call(c, "get_tool_schemas", {"names": ["a"] * 21}),
            await _call(c, "call_tool", {"name": 3}),
            await _call(c, "call_tool", {"name": "call_tool", "arguments": {}}),
        )

    for answer in _session(shop, "2025-11-25", script):
        assert answer["result"]["isError"] is True, answer
