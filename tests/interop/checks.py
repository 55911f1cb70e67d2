"""Assertions shared by every peer test: what any client must see from the generated server."""

from __future__ import annotations

import json
from typing import Any

import jsonschema


def ordered(value: Any) -> str:
    """JSON text with key order kept: equal strings = equal values *and* equal member order."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def assert_tools_served_as_written(
    served: list[dict[str, Any]], manifest: list[dict[str, Any]], *, member_order: bool = True
) -> None:
    """Same tools, same order; inputSchema/outputSchema identical to the manifest's (with
    ``member_order``, object member order included: pass False only for a client that rebuilds
    the objects, like mcp's pydantic Tool model); the other manifest fields (title, description,
    annotations, ...) carried unchanged."""
    assert [t["name"] for t in served] == [t["name"] for t in manifest]
    for got, want in zip(served, manifest):
        name = want["name"]
        for key in ("inputSchema", "outputSchema"):
            assert got.get(key) == want.get(key), f"{name}.{key} differs from the manifest"
            if member_order:
                assert ordered(got.get(key)) == ordered(want.get(key)), f"{name}.{key}: member order differs from the manifest"
        for key, value in want.items():
            assert got.get(key) == value, f"{name}.{key}: served {got.get(key)!r}, manifest {value!r}"


def text_blocks(result: dict[str, Any]) -> list[str]:
    return [c["text"] for c in result.get("content", []) if c.get("type") == "text"]


def assert_structured_ok(result: dict[str, Any], tool: dict[str, Any], expected: Any = None) -> None:
    """A successful structured result: not isError; structuredContent valid against the tool's
    outputSchema (and equal to ``expected`` when given); a text block mirrors it as JSON."""
    assert not result.get("isError", False), f"unexpected isError result: {result}"
    assert "structuredContent" in result, f"no structuredContent: {result}"
    sc = result["structuredContent"]
    jsonschema.validate(sc, tool["outputSchema"])
    if expected is not None:
        assert sc == expected
    mirrors = []
    for text in text_blocks(result):
        try:
            mirrors.append(json.loads(text))
        except ValueError:
            pass
    assert sc in mirrors, f"no text block carries the structured result as JSON: {result.get('content')}"


def assert_tool_error(result: dict[str, Any], message: str | None) -> None:
    """A tool execution error: isError true and a text block with the message."""
    assert result.get("isError") is True, f"expected isError: true, got {result}"
    texts = text_blocks(result)
    assert texts and all(t.strip() for t in texts), f"isError result without message text: {result}"
    if message:
        assert any(message in t for t in texts), f"{message!r} not in error texts {texts}"
