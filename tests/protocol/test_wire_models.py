"""Behaviour of the generated ``mcp_wire`` models beyond the happy-path vectors: what they
reject (values the spec forbids), what they keep (open objects, aliases, verbatim strings) and
how the 2026 result union dispatches."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter, ValidationError

from mcpgen_runtime.revisions import MODERN_REVISIONS

MODULES = {
    "2024-11-05": "v2024_11_05",
    "2025-03-26": "v2025_03_26",
    "2025-06-18": "v2025_06_18",
    "2025-11-25": "v2025_11_25",
    "2026-07-28": "v2026_07_28",
    "draft": "draft",
}
ALL = tuple(MODULES)
MODERN = tuple(sorted(MODERN_REVISIONS))
STRICT_JSONRPC = ("2025-11-25", *MODERN)  # request types repeat `jsonrpc: const "2.0"`
WITH_META = ("2025-06-18", "2025-11-25", *MODERN)  # Tool._meta exists
WITH_ICONS = ("2025-11-25", *MODERN)

PNG_B64 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9Q"
    "DwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


def wire(rev: str) -> Any:
    return importlib.import_module(f"mcp_wire.{MODULES[rev]}")


def dump(model: Any) -> Any:
    return TypeAdapter(type(model)).dump_python(
        model, by_alias=True, exclude_unset=True, mode="json"
    )


def result(rev: str, **fields: Any) -> dict[str, Any]:
    """A CallToolResult body; 2026 requires resultType."""
    body = dict(fields)
    if rev in MODERN:
        body.setdefault("resultType", "complete")
    return body


def errors(exc: pytest.ExceptionInfo[ValidationError]) -> list[tuple[str, tuple[Any, ...]]]:
    return [(e["type"], tuple(e["loc"])) for e in exc.value.errors()]


def schema_validator(spec_dir: Path, rev: str, name: str) -> Any:
    doc = json.loads((spec_dir / rev / "schema.json").read_text(encoding="utf-8"))
    container = "$defs" if "$defs" in doc else "definitions"
    cls = jsonschema.validators.validator_for(doc)
    return cls({**doc, "$ref": f"#/{container}/{name}"})


# --------------------------------------------------------------------------- rejections


@pytest.mark.parametrize("rev", ALL)
def test_wrong_content_type_tag_is_one_union_tag_invalid_error(rev: str) -> None:
    bad = result(rev, content=[{"type": "text", "text": "ok"}, {"type": "video", "text": "x"}])
    with pytest.raises(ValidationError) as exc:
        wire(rev).CallToolResult.model_validate(bad)
    assert errors(exc) == [("union_tag_invalid", ("content", 1))]
    assert "'video'" in exc.value.errors()[0]["msg"]


@pytest.mark.parametrize("rev", ALL)
def test_content_tag_of_a_later_revision_is_rejected(rev: str) -> None:
    """`resource_link` exists from 2025-06-18, `audio` from 2025-03-26: earlier models refuse
    them."""
    link = {"type": "resource_link", "uri": "file:///x", "name": "x"}

    def validate() -> Any:
        return wire(rev).CallToolResult.model_validate(result(rev, content=[link]))

    if rev in ("2024-11-05", "2025-03-26"):
        with pytest.raises(ValidationError) as exc:
            validate()
        assert errors(exc) == [("union_tag_invalid", ("content", 0))]
    else:
        assert type(validate().content[0].root).__name__ == "ResourceLink"


@pytest.mark.parametrize("rev", ALL)
@pytest.mark.parametrize(
    ("value", "missing"),
    [({"inputSchema": {"type": "object"}}, "name"), ({"name": "get_weather"}, "inputSchema")],
    ids=["no-name", "no-inputSchema"],
)
def test_tool_without_required_field_is_rejected(
    spec_dir: Path, rev: str, value: dict[str, Any], missing: str
) -> None:
    with pytest.raises(ValidationError) as exc:
        wire(rev).Tool.model_validate(value)
    assert errors(exc) == [("missing", (missing,))]
    # schema.json agrees (and this proves the vector validators can fail)
    assert not schema_validator(spec_dir, rev, "Tool").is_valid(value)


@pytest.mark.parametrize("rev", ALL)
def test_call_tool_result_without_content_is_rejected(spec_dir: Path, rev: str) -> None:
    value = result(rev, isError=True)
    with pytest.raises(ValidationError) as exc:
        wire(rev).CallToolResult.model_validate(value)
    assert errors(exc) == [("missing", ("content",))]
    assert not schema_validator(spec_dir, rev, "CallToolResult").is_valid(value)


@pytest.mark.parametrize("rev", STRICT_JSONRPC)
def test_wrong_jsonrpc_const_is_rejected(spec_dir: Path, rev: str) -> None:
    params: dict[str, Any] = {"name": "get_weather"}
    if rev in MODERN:
        params["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": rev,
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    good = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    assert wire(rev).CallToolRequest.model_validate(good).jsonrpc == "2.0"
    bad = {**good, "jsonrpc": "1.0"}
    with pytest.raises(ValidationError) as exc:
        wire(rev).CallToolRequest.model_validate(bad)
    assert errors(exc) == [("literal_error", ("jsonrpc",))]
    assert not schema_validator(spec_dir, rev, "CallToolRequest").is_valid(bad)


@pytest.mark.parametrize("rev", ALL)
def test_wrong_method_const_is_rejected(rev: str) -> None:
    body: dict[str, Any] = {"method": "tools/list"}
    if rev in STRICT_JSONRPC:
        body.update(jsonrpc="2.0", id=1)
    with pytest.raises(ValidationError) as exc:
        wire(rev).CallToolRequest.model_validate({**body, "params": {"name": "x"}})
    assert ("literal_error", ("method",)) in errors(exc)


# --------------------------------------------------------------------------- 2026 result union


def call_tool_response(rev: str, result_body: dict[str, Any]) -> Any:
    return wire(rev).CallToolResultResponse.model_validate(
        {"jsonrpc": "2.0", "id": 7, "result": result_body}
    )


@pytest.mark.parametrize("rev", MODERN)
def test_complete_result_is_a_call_tool_result_not_input_required(rev: str) -> None:
    # Every complete CallToolResult also satisfies InputRequiredResult's schema; dispatch must use
    # the value of resultType.
    body = {
        "resultType": "complete",
        "content": [{"type": "text", "text": "72°F"}],
        "structuredContent": {"t": 72},
        "isError": False,
    }
    response = call_tool_response(rev, body)
    assert type(response.result) is wire(rev).CallToolResult
    assert response.result.content[0].root.text == "72°F"
    assert dump(response)["result"] == body
    with pytest.raises(ValidationError) as exc:
        wire(rev).InputRequiredResult.model_validate(body)
    assert errors(exc) == [("literal_error", ("resultType",))]


@pytest.mark.parametrize("rev", MODERN)
def test_input_required_result_is_an_input_required_result(rev: str) -> None:
    body = {
        "resultType": "input_required",
        "inputRequests": {
            "github_login": {
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": "Please provide your GitHub username",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {"name": {"type": "string"}},
                        "required": ["name"],
                    },
                },
            }
        },
        "requestState": "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0...",
    }
    response = call_tool_response(rev, body)
    assert type(response.result) is wire(rev).InputRequiredResult
    assert response.result.request_state == body["requestState"]
    assert dump(response)["result"] == body


@pytest.mark.parametrize("rev", MODERN)
def test_unknown_result_type_is_rejected(rev: str) -> None:
    with pytest.raises(ValidationError) as exc:
        call_tool_response(rev, {"resultType": "partial", "content": []})
    assert errors(exc) == [("union_tag_invalid", ("result",))]


# --------------------------------------------------------------------------- what is kept


@pytest.mark.parametrize("rev", ALL)
def test_unknown_fields_are_kept_and_dumped_back(rev: str) -> None:
    tool = {
        "name": "find",
        "inputSchema": {
            "type": "object",
            "oneOf": [{"required": ["id"]}, {"required": ["name"]}],
            "properties": {"id": {"type": "string", "x-mcp-header": "Id"}},
        },
        "x-vendor": {"nested": [1, 2.5, None, "s"]},
    }
    value: dict[str, Any] = {"tools": [tool], "futureField": True}
    if rev in MODERN:
        value.update(resultType="complete", ttlMs=0, cacheScope="private")
    model = wire(rev).ListToolsResult.model_validate(value)
    assert model.model_extra == {"futureField": True}
    assert model.tools[0].model_extra == {"x-vendor": {"nested": [1, 2.5, None, "s"]}}
    assert dump(model) == value


@pytest.mark.parametrize("rev", ALL)
def test_snake_case_and_camel_case_both_build(rev: str) -> None:
    tool_cls = wire(rev).Tool
    by_name = tool_cls(name="t", input_schema={"type": "object"})
    by_alias = tool_cls(name="t", inputSchema={"type": "object"})
    assert by_name == by_alias
    assert by_name.model_dump(exclude_unset=True) == {
        "name": "t",
        "inputSchema": {"type": "object"},
    }
    assert (
        by_name.model_dump_json(exclude_unset=True)
        == '{"inputSchema":{"type":"object"},"name":"t"}'
    )
    res = wire(rev).CallToolResult(**result(rev, content=[]), is_error=True)
    assert dump(res)["isError"] is True


@pytest.mark.parametrize("rev", WITH_META)
def test_meta_round_trips_under_its_wire_name(rev: str) -> None:
    value = {"name": "t", "inputSchema": {"type": "object"}, "_meta": {"vendor/key": 1}}
    tool = wire(rev).Tool.model_validate(value)
    assert dict(tool.meta if isinstance(tool.meta, dict) else tool.meta.model_dump()) == {
        "vendor/key": 1
    }
    assert tool.model_extra == {}
    assert dump(tool) == value
    built = wire(rev).Tool(name="t", input_schema={"type": "object"}, meta={"vendor/key": 1})
    assert dump(built) == value


@pytest.mark.parametrize(
    ("rev", "name", "value"),
    [
        (
            "2025-06-18",
            "Tool",
            {"name": "t", "inputSchema": {"type": "object"}, "meta": {"not": "_meta"}},
        ),
        (
            "2026-07-28",
            "Tool",
            {"name": "t", "inputSchema": {"type": "object"}, "meta": {"not": "_meta"}},
        ),
        ("2025-11-25", "CallToolResult", {"content": [], "is_error": "not isError"}),
    ],
    ids=["2025-06-18-meta", "2026-07-28-meta", "2025-11-25-is_error"],
)
def test_wire_key_named_like_a_python_attribute_stays_an_unknown_field(
    rev: str, name: str, value: dict[str, Any]
) -> None:
    # from_wire accepts wire names only; plain model_validate also accepts Python names (building)
    model = getattr(wire(rev), name).from_wire(value)
    assert dump(model) == value


@pytest.mark.parametrize("rev", WITH_ICONS)
def test_dollar_schema_round_trips(rev: str) -> None:
    value = {
        "name": "t",
        "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
        "outputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
        },
    }
    tool = wire(rev).Tool.model_validate(value)
    assert tool.input_schema.schema_ == "http://json-schema.org/draft-07/schema#"
    assert tool.input_schema.model_extra == {}
    assert dump(tool) == value


@pytest.mark.parametrize("rev", MODERN)
def test_dotted_2026_meta_keys_round_trip(rev: str) -> None:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
        "io.modelcontextprotocol/logLevel": "debug",
        "progressToken": "oivaizmir",
        "com.example/trace": "abc",
    }
    params = wire(rev).CallToolRequestParams.model_validate({"name": "get_weather", "_meta": meta})
    assert params.meta.io_modelcontextprotocol_protocol_version == "2026-07-28"
    assert params.meta.io_modelcontextprotocol_client_info.name == "c"
    assert params.meta.model_extra == {"com.example/trace": "abc"}
    assert dump(params) == {"name": "get_weather", "_meta": meta}
    m = wire(rev)
    built = m.RequestMetaObject(
        io_modelcontextprotocol_protocol_version="2026-07-28",
        io_modelcontextprotocol_client_capabilities=m.ClientCapabilities(),
    )
    assert dump(built) == {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    with pytest.raises(ValidationError) as exc:
        m.RequestMetaObject.model_validate(
            {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
        )
    assert errors(exc) == [("missing", ("io.modelcontextprotocol/clientCapabilities",))]


URIS = [
    "https://example.com",
    "file:///a b",
    "HTTPS://Example.COM:443/x/../y?q=1#f",
    "resource://example",
    "relative/path",
]


@pytest.mark.parametrize("rev", ALL)
@pytest.mark.parametrize("uri", URIS)
def test_uris_and_base64_are_kept_verbatim(rev: str, uri: str) -> None:
    m = wire(rev)
    image = m.ImageContent.model_validate(
        {"type": "image", "data": PNG_B64, "mimeType": "image/png"}
    )
    assert image.data == PNG_B64 and isinstance(image.data, str)
    blob = m.BlobResourceContents.model_validate({"uri": uri, "blob": PNG_B64})
    text = m.TextResourceContents.model_validate({"uri": uri, "text": "x"})
    assert (blob.uri, blob.blob, text.uri) == (uri, PNG_B64, uri)
    embedded = m.EmbeddedResource.model_validate(
        {"type": "resource", "resource": {"uri": uri, "blob": PNG_B64}}
    )
    assert dump(embedded) == {"type": "resource", "resource": {"uri": uri, "blob": PNG_B64}}
    if hasattr(m, "ResourceLink"):
        link = {"type": "resource_link", "uri": uri, "name": "n"}
        assert dump(m.ResourceLink.model_validate(link)) == link
    if rev in WITH_ICONS:
        icon = {"src": uri}
        assert dump(m.Icon.model_validate(icon)) == icon
        impl = {"name": "s", "version": "1", "websiteUrl": uri}
        assert dump(m.Implementation.model_validate(impl)) == impl


@pytest.mark.parametrize("rev", MODERN)
def test_json_value_accepts_floats_and_null(spec_dir: Path, rev: str) -> None:
    value = {"experimental": {"x": {"ratio": 0.5, "n": None, "list": [1.25, None, {"k": False}]}}}
    caps = wire(rev).ClientCapabilities.model_validate(value)
    assert dump(caps) == value
    ratio = caps.experimental["x"].root["ratio"]
    assert getattr(ratio, "root", ratio) == 0.5 and isinstance(getattr(ratio, "root", ratio), float)
    # schema.json itself is lossy here (JSONValue = string|integer|boolean); the models follow
    # schema.ts.
    assert not schema_validator(spec_dir, rev, "ClientCapabilities").is_valid(value)


@pytest.mark.parametrize("rev", MODERN)
def test_structured_content_accepts_any_json_value_in_2026(rev: str) -> None:
    for structured in ([{"id": 1}, {"id": 2}], "text", 3.5, None):
        body = result(rev, content=[], structuredContent=structured)
        assert dump(wire(rev).CallToolResult.model_validate(body)) == body


@pytest.mark.parametrize("rev", ["2025-06-18", "2025-11-25"])
def test_structured_content_must_be_an_object_before_2026(rev: str) -> None:
    with pytest.raises(ValidationError) as exc:
        wire(rev).CallToolResult.model_validate({"content": [], "structuredContent": [1, 2]})
    assert {t for t, _ in errors(exc)} == {"dict_type"}
