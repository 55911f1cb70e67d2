"""Code mode (``server.discovery.mode: code``): ``execute`` runs the model's Python through the
sandbox (``mcpgen_runtime.codemode.run_code``), and each tool call it makes goes through the
direct call's path: a tool left out by the toolsets or refused by the caller's scopes is not
callable from code, invalid arguments are the tool's own error (issue 52, items 3 and 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import RawClient, write_package
from .test_discovery_modes import HANDLERS, MANIFEST, _call, _session, _text, _token

pytest.importorskip("pydantic_monty")


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("codemode")
    manifest = out / "shop.yaml"
    manifest.write_text(
        MANIFEST.replace("mode: search", "mode: code").replace(
            "results: 3", "results: 3\n    code: {timeout: 5, max_calls: 3}"
        )
    )
    write_package(manifest, out, "shop", handlers=HANDLERS)
    return out


def _run(shop: Path, code: str, version: str = "2025-11-25", **options: Any) -> dict[str, Any]:
    async def script(c: RawClient) -> Any:
        return await _call(c, "execute", {"code": code})

    answer: dict[str, Any] = _session(shop, version, script, **options)
    return answer


def test_code_mode_lists_search_schemas_and_execute(shop: Path) -> None:
    async def script(c: RawClient) -> Any:
        return [t["name"] for t in (await c.request("tools/list"))["result"]["tools"]]

    assert _session(shop, "2026-07-28", script) == [
        "ping",
        "search_tools",
        "get_tool_schemas",
        "execute",
    ]


@pytest.mark.parametrize("version", ["2025-11-25", "2026-07-28"])
def test_execute_chains_tool_calls_and_returns_only_the_answer(shop: Path, version: str) -> None:
    code = 'a = await place_order(item="tea")\nb = await ping()\n[a, b]'
    answer = _run(shop, code, version)
    assert not answer["result"].get("isError"), answer
    assert "placed tea" in _text(answer) and "pong" in _text(answer)


def test_search_names_each_tools_function(shop: Path) -> None:
    async def script(c: RawClient) -> Any:
        return await _call(c, "search_tools", {"query": "place an order"})

    found = _session(shop, "2025-11-25", script)["result"]["structuredContent"]["tools"]
    assert found[0] == {
        "name": "place_order",
        "description": "Place an order for an item.",
        "function": "place_order",
    }


def test_a_tool_left_out_by_the_toolsets_is_not_callable_from_code(shop: Path) -> None:
    answer = _run(shop, "await wipe()")
    assert answer["result"]["isError"] is True
    assert "Unknown tool: wipe" in _text(answer)
    assert "wiped" in _text(_run(shop, "await wipe()", toolsets=["all"]))


def test_a_tool_the_callers_scopes_do_not_allow_is_not_callable_from_code(shop: Path) -> None:
    with _token("other"):
        answer = _run(shop, 'await refund(order="o1")')
    assert answer["result"]["isError"] is True
    assert "needs the scope(s) payments" in _text(answer)
    with _token("payments"):
        assert "refunded o1" in _text(_run(shop, 'await refund(order="o1")'))


def test_invalid_arguments_from_code_are_the_tools_own_error(shop: Path) -> None:
    answer = _run(shop, "await list_items(category=5)")
    assert answer["result"]["isError"] is True
    assert "Invalid arguments for tool 'list_items'" in _text(answer)


def test_the_manifests_call_limit_holds(shop: Path) -> None:
    answer = _run(shop, "for i in range(10):\n    await ping()\n")
    assert answer["result"]["isError"] is True
    assert "more than 3 tool calls" in _text(answer)
