"""Assertions shared by every peer test: what any client must see from the generated server."""

from __future__ import annotations

import json
from typing import Any

import jsonschema


def ordered(value: Any) -> str:
    """JSON text with key order kept: equal strings = equal values *and* equal member order."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def assert_tools_served_as_written(
    served: list[dict[str, Any]], manifest: list[dict[str, Any]]
) -> None:
    """Same tools in the same order; every field the manifest gives (inputSchema, outputSchema,
    title, description, annotations, ...) served as the same JSON value.

    Object member order is not compared: mcp 2.3.0 re-serialises ``inputSchema`` through its
    pydantic Tool model on the legacy wire (``properties`` before ``type``), which changes no value.
    """
    assert [t["name"] for t in served] == [t["name"] for t in manifest], (
        "tools served in a different order or set"
    )
    for got, want in zip(served, manifest, strict=False):
        # mcpgen's own options (x-mcpgen: toolsets, scopes, limits) are never served
        assert "x-mcpgen" not in got, f"tool {want['name']}: x-mcpgen was served"
        for key, value in want.items():
            if key == "x-mcpgen":
                continue
            assert key in got, f"tool {want['name']}: {key!r} not served"
            assert got[key] == value, (
                f"tool {want['name']}.{key}: served {ordered(got[key])}, manifest {ordered(value)}"
            )


def text_blocks(result: dict[str, Any]) -> list[str]:
    return [c["text"] for c in result.get("content", []) if c.get("type") == "text"]


def assert_structured_ok(
    result: dict[str, Any], tool: dict[str, Any], expected: Any = None
) -> None:
    """A successful structured result: not isError; structuredContent valid against the tool's
    outputSchema (and holding the members of ``expected`` when given); a text block mirrors it as
    JSON."""
    assert not result.get("isError", False), f"unexpected isError result: {result}"
    assert "structuredContent" in result, f"no structuredContent: {result}"
    sc = result["structuredContent"]
    jsonschema.validate(sc, tool["outputSchema"])
    if expected is not None:
        assert {k: sc.get(k) for k in expected} == expected, (
            f"structuredContent {sc} lacks {expected}"
        )
    mirrors = []
    for text in text_blocks(result):
        try:
            mirrors.append(json.loads(text))
        except ValueError:
            pass
    assert sc in mirrors, (
        f"no text block carries the structured result as JSON: {result.get('content')}"
    )


def assert_tool_error(result: dict[str, Any], message: str | None) -> None:
    """A tool execution error: isError true and a text block with the message."""
    assert result.get("isError") is True, f"expected isError: true, got {result}"
    texts = text_blocks(result)
    assert texts and all(t.strip() for t in texts), f"isError result without message text: {result}"
    if message:
        assert any(message in t for t in texts), f"{message!r} not in error texts {texts}"
