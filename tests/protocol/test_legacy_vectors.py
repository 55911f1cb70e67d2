"""Hand-written test vectors for the legacy revisions (2024-11-05 .. 2025-11-25).

The upstream repository ships example files only for 2026-07-28/draft, so these vectors are
transcribed from the tools pages of each revision (get_weather list/call, the -32602 unknown
tool error, the ``isError`` result, structured output, every content block, annotations,
icons and ``execution.taskSupport``). Each vector is checked twice:

(a) against the revision's own ``schema.json`` with a real JSON Schema validator (so the vector
    itself is right), and
(b) through the ``mcp_wire`` class of that revision: validate, then dump back
    (``by_alias=True, exclude_unset=True, mode="json"``) equal to the input.
"""

from __future__ import annotations

import copy
import importlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter

LEGACY = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODULES = {
    "2024-11-05": "v2024_11_05",
    "2025-03-26": "v2025_03_26",
    "2025-06-18": "v2025_06_18",
    "2025-11-25": "v2025_11_25",
}
ORDER = {rev: i for i, rev in enumerate(LEGACY)}

# A real 1x1 PNG and a tiny WAV header, base64 (binary data must survive verbatim).
PNG_B64 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9Q"
    "DwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
WAV_B64 = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA="

Vector = tuple[str, str, Any]  # (definition name, label, JSON value)


def since(rev: str, first: str) -> bool:
    return ORDER[rev] >= ORDER[first]


def get_weather_tool(rev: str) -> dict[str, Any]:
    tool: dict[str, Any] = {"name": "get_weather"}
    if since(rev, "2025-06-18"):
        tool["title"] = "Weather Information Provider"
    tool["description"] = "Get current weather information for a location"
    tool["inputSchema"] = {
        "type": "object",
        "properties": {"location": {"type": "string", "description": "City name or zip code"}},
        "required": ["location"],
    }
    if since(rev, "2025-11-25"):
        tool["icons"] = [
            {
                "src": "https://example.com/weather-icon.png",
                "mimeType": "image/png",
                "sizes": ["48x48"],
            }
        ]
        tool["execution"] = {"taskSupport": "optional"}
    return tool


def content_blocks(rev: str) -> list[Vector]:
    """One of each content block the revision allows in CallToolResult.content."""
    blocks: list[Vector] = [
        ("TextContent", "text", {"type": "text", "text": "Tool result text"}),
        (
            "ImageContent",
            "image",
            {
                "type": "image",
                "data": PNG_B64,
                "mimeType": "image/png",
                "annotations": {"audience": ["user"], "priority": 0.9},
            },
        ),
    ]
    if since(rev, "2025-03-26"):
        blocks.append(
            ("AudioContent", "audio", {"type": "audio", "data": WAV_B64, "mimeType": "audio/wav"})
        )
    if since(rev, "2025-06-18"):
        blocks.append(
            (
                "ResourceLink",
                "resource_link",
                {
                    "type": "resource_link",
                    "uri": "file:///project/src/main.rs",
                    "name": "main.rs",
                    "description": "Primary application entry point",
                    "mimeType": "text/x-rust",
                    "annotations": {"audience": ["assistant"], "priority": 0.9},
                },
            )
        )
    text_resource: dict[str, Any] = {
        "uri": "file:///project/src/main.rs",
        "mimeType": "text/x-rust",
        "text": 'fn main() {\n    println!("Hello world!");\n}',
    }
    annotations: dict[str, Any] = {"audience": ["user", "assistant"], "priority": 0.7}
    if since(rev, "2025-06-18"):
        # 2025-06-18 page: "title" and "annotations" inside the contents (open object: extras).
        text_resource["title"] = "Project Rust Main File"
        annotations["lastModified"] = "2025-05-03T14:30:00Z"
    blocks.append(
        (
            "EmbeddedResource",
            "resource-text",
            {"type": "resource", "resource": text_resource, "annotations": annotations},
        )
    )
    blocks.append(
        (
            "EmbeddedResource",
            "resource-blob",
            {
                "type": "resource",
                "resource": {
                    "uri": "file:///images/pixel.png",
                    "mimeType": "image/png",
                    "blob": PNG_B64,
                },
            },
        )
    )
    return blocks


def envelope_types(rev: str) -> tuple[str, str]:
    """(result envelope, error envelope) definition names."""
    if since(rev, "2025-11-25"):
        return "JSONRPCResultResponse", "JSONRPCErrorResponse"
    return "JSONRPCResponse", "JSONRPCError"


def vectors(rev: str) -> list[Vector]:
    result_env, error_env = envelope_types(rev)
    modern_requests = since(rev, "2025-11-25")  # request types carry jsonrpc + id themselves
    out: list[Vector] = []

    list_req = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/list",
        "params": {"cursor": "optional-cursor-value"},
    }
    call_req = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"location": "New York"}},
    }
    out += [
        ("JSONRPCRequest", "tools/list request", list_req),
        ("JSONRPCRequest", "tools/call request", call_req),
    ]
    if modern_requests:
        out += [
            ("ListToolsRequest", "tools/list request", list_req),
            ("CallToolRequest", "tools/call request", call_req),
        ]
    else:
        out += [
            (
                "ListToolsRequest",
                "tools/list request",
                {k: list_req[k] for k in ("method", "params")},
            ),
            (
                "CallToolRequest",
                "tools/call request",
                {k: call_req[k] for k in ("method", "params")},
            ),
        ]

    list_result = {"tools": [get_weather_tool(rev)], "nextCursor": "next-page-cursor"}
    out += [
        ("ListToolsResult", "get_weather list", list_result),
        ("Tool", "get_weather", get_weather_tool(rev)),
        (result_env, "tools/list response", {"jsonrpc": "2.0", "id": 1, "result": list_result}),
    ]

    call_result = {
        "content": [
            {
                "type": "text",
                "text": "Current weather in New York:\nTemperature: 72°F\n"
                "Conditions: Partly cloudy",
            }
        ],
        "isError": False,
    }
    out += [
        ("CallToolResult", "get_weather result", call_result),
        (result_env, "tools/call response", {"jsonrpc": "2.0", "id": 2, "result": call_result}),
    ]

    error_text = (
        "Invalid departure date: must be in the future. Current date is 08/08/2025."
        if modern_requests
        else "Failed to fetch weather data: API rate limit exceeded"
    )
    is_error = {"content": [{"type": "text", "text": error_text}], "isError": True}
    out += [
        ("CallToolResult", "isError result", is_error),
        (result_env, "isError response", {"jsonrpc": "2.0", "id": 4, "result": is_error}),
    ]

    unknown_tool = {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {"code": -32602, "message": "Unknown tool: invalid_tool_name"},
    }
    out.append((error_env, "unknown tool -32602", unknown_tool))

    changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    out.append(("JSONRPCNotification", "tools/list_changed", changed))
    out.append(
        (
            "ToolListChangedNotification",
            "tools/list_changed",
            changed if modern_requests else {"method": changed["method"]},
        )
    )
    out.append(("ServerCapabilities", "tools capability", {"tools": {"listChanged": True}}))

    blocks = content_blocks(rev)
    out += [(name, label, value) for name, label, value in blocks]
    out.append(("CallToolResult", "every content block", {"content": [v for _, _, v in blocks]}))

    if since(rev, "2025-03-26"):
        annotations = {
            "title": "Get weather",
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": True,
        }
        out.append(("ToolAnnotations", "all hints", annotations))
        out.append(("Tool", "annotated", {**get_weather_tool(rev), "annotations": annotations}))

    if since(rev, "2025-06-18"):
        out.append(
            (
                "Tool",
                "get_weather_data with outputSchema",
                {
                    "name": "get_weather_data",
                    "title": "Weather Data Retriever",
                    "description": "Get current weather data for a location",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "location": {"type": "string", "description": "City name or zip code"}
                        },
                        "required": ["location"],
                    },
                    "outputSchema": {
                        "type": "object",
                        "properties": {
                            "temperature": {
                                "type": "number",
                                "description": "Temperature in celsius",
                            },
                            "conditions": {
                                "type": "string",
                                "description": "Weather conditions description",
                            },
                            "humidity": {"type": "number", "description": "Humidity percentage"},
                        },
                        "required": ["temperature", "conditions", "humidity"],
                    },
                },
            )
        )
        structured = {
            "content": [
                {
                    "type": "text",
                    "text": '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}',
                }
            ],
            "structuredContent": {
                "temperature": 22.5,
                "conditions": "Partly cloudy",
                "humidity": 65,
            },
        }
        out.append(("CallToolResult", "structured output", structured))
        out.append(
            (
                result_env,
                "structured output response",
                {"jsonrpc": "2.0", "id": 5, "result": structured},
            )
        )

    if since(rev, "2025-11-25"):
        out += [
            ("Icon", "weather icon", get_weather_tool(rev)["icons"][0]),
            ("ToolExecution", "taskSupport optional", {"taskSupport": "optional"}),
            (
                "Tool",
                "no parameters",
                {
                    "name": "get_current_time",
                    "description": "Returns the current server time",
                    "inputSchema": {"type": "object", "additionalProperties": False},
                },
            ),
            (
                "Tool",
                "explicit draft-07 input schema",
                {
                    "name": "calculate_sum",
                    "description": "Add two numbers",
                    "inputSchema": {
                        "$schema": "http://json-schema.org/draft-07/schema#",
                        "type": "object",
                        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                        "required": ["a", "b"],
                    },
                },
            ),
        ]
    return out


def all_vectors() -> list[Any]:
    return [
        pytest.param(rev, name, value, id=f"{rev}:{name}:{label}")
        for rev in LEGACY
        for name, label, value in vectors(rev)
    ]


@cache
def _schema_doc(spec_dir: Path, rev: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((spec_dir / rev / "schema.json").read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(doc).check_schema(doc)  # once per revision (slow)
    return doc


def schema_validator(spec_dir: Path, rev: str, name: str) -> jsonschema.protocols.Validator:
    """A validator for definition ``name``: the whole document plus a root ``$ref``, checked
    with the dialect the document declares (draft-07 up to 2025-06-18, 2020-12 after)."""
    doc = _schema_doc(spec_dir, rev)
    container = "$defs" if "$defs" in doc else "definitions"
    assert name in doc[container], f"{name} is not defined in {rev}"
    cls = jsonschema.validators.validator_for(doc)
    expected = (
        jsonschema.Draft202012Validator if container == "$defs" else jsonschema.Draft7Validator
    )
    assert cls is expected
    return cls({**doc, "$ref": f"#/{container}/{name}"})


def wire_class(rev: str, name: str) -> Any:
    return getattr(importlib.import_module(f"mcp_wire.{MODULES[rev]}"), name)


def roundtrip(cls: Any, value: Any) -> tuple[Any, Any]:
    adapter = TypeAdapter(cls)
    model = adapter.validate_python(copy.deepcopy(value))
    return model, adapter.dump_python(model, by_alias=True, exclude_unset=True, mode="json")


@pytest.mark.parametrize(("rev", "name", "value"), all_vectors())
def test_vector_is_valid_per_schema_json(spec_dir: Path, rev: str, name: str, value: Any) -> None:
    errors = sorted(schema_validator(spec_dir, rev, name).iter_errors(value), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


@pytest.mark.parametrize(("rev", "name", "value"), all_vectors())
def test_vector_roundtrips_through_mcp_wire(rev: str, name: str, value: Any) -> None:
    model, dumped = roundtrip(wire_class(rev, name), value)
    assert isinstance(model, wire_class(rev, name))
    assert dumped == value


def test_every_vector_kind_is_present() -> None:
    """Guards the generator above: each revision gets what its tools page shows."""
    expected_blocks = {"2024-11-05": {"text", "image", "resource-text", "resource-blob"}}
    expected_blocks["2025-03-26"] = expected_blocks["2024-11-05"] | {"audio"}
    expected_blocks["2025-06-18"] = expected_blocks["2025-03-26"] | {"resource_link"}
    expected_blocks["2025-11-25"] = expected_blocks["2025-06-18"]
    for rev in LEGACY:
        labels = {label for _, label, _ in content_blocks(rev)}
        assert labels == expected_blocks[rev], rev
        names = {name for name, _, _ in vectors(rev)}
        assert {"ListToolsResult", "CallToolResult", "Tool", "CallToolRequest"} <= names
        assert ("ToolAnnotations" in names) == since(rev, "2025-03-26")
        assert ("Icon" in names) == since(rev, "2025-11-25")
    assert len(all_vectors()) > 100


@pytest.mark.parametrize("rev", LEGACY)
def test_content_blocks_dispatch_to_their_classes(rev: str) -> None:
    blocks = content_blocks(rev)
    result = wire_class(rev, "CallToolResult").model_validate(
        {"content": [v for _, _, v in blocks]}
    )
    got = [type(getattr(item, "root", item)).__name__ for item in result.content]
    assert got == [name for name, _, _ in blocks]
    text_res, blob_res = (getattr(item, "root", item).resource for item in result.content[-2:])
    assert type(text_res).__name__ == "TextResourceContents"
    assert type(blob_res).__name__ == "BlobResourceContents"
    assert blob_res.blob == PNG_B64


@pytest.mark.parametrize("rev", LEGACY)
def test_typed_access_to_get_weather(rev: str) -> None:
    result = wire_class(rev, "ListToolsResult").model_validate(
        {"tools": [get_weather_tool(rev)], "nextCursor": "next-page-cursor"}
    )
    (tool,) = result.tools
    assert isinstance(tool, wire_class(rev, "Tool"))
    assert tool.name == "get_weather"
    assert tool.input_schema.required == ["location"]
    assert result.next_cursor == "next-page-cursor"
    if since(rev, "2025-11-25"):
        assert tool.execution.task_support == "optional"
        assert tool.icons[0].sizes == ["48x48"]
    else:
        fields = wire_class(rev, "Tool").model_fields
        assert "icons" not in fields and "execution" not in fields
