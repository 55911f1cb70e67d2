"""``schemainline.inline_refs``: the model-friendly schema ``--inline-schema-refs`` lists."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mcpgen_runtime.schemainline import InlineTooLarge, inline_refs

REAL = Path(__file__).resolve().parents[1] / "check" / "data" / "real_servers"


def test_no_ref_is_returned_as_is() -> None:
    s = {"type": "object", "properties": {"a": {"type": "string"}}, "$defs": {"X": {}}}
    assert inline_refs(s) is s


def test_nested_refs_are_inlined_and_defs_dropped() -> None:
    s = {
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/A"},
            "b": {"type": "array", "items": {"$ref": "#/$defs/B"}},
        },
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "string", "enum": ["x", "y"]},
        },
    }
    before = copy.deepcopy(s)
    out = inline_refs(s)
    assert s == before  # the input is not changed
    assert out == {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "string", "enum": ["x", "y"]}}},
            "b": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}},
        },
    }


def test_siblings_win_for_annotations_and_clash_becomes_all_of() -> None:
    s = {
        "type": "object",
        "properties": {
            "a": {"$ref": "#/definitions/N", "description": "the a"},
            "b": {"$ref": "#/definitions/N", "maximum": 5},
            "c": {"$ref": "#/definitions/N", "minimum": 3},
        },
        "definitions": {"N": {"type": "integer", "minimum": 0, "description": "a number"}},
    }
    out = inline_refs(s)
    assert out["properties"]["a"] == {"type": "integer", "minimum": 0, "description": "the a"}
    assert out["properties"]["b"] == {
        "type": "integer",
        "minimum": 0,
        "description": "a number",
        "maximum": 5,
    }
    assert out["properties"]["c"] == {
        "allOf": [{"type": "integer", "minimum": 0, "description": "a number"}],
        "minimum": 3,
    }
    assert "definitions" not in out


def test_recursive_refs_stay_with_the_defs_they_need() -> None:
    s = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node"}, "tag": {"$ref": "#/$defs/Tag"}},
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {
                    "tag": {"$ref": "#/$defs/Tag"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
            },
            "Tag": {"type": "string"},
            "Unused": {"type": "null"},
        },
    }
    out = inline_refs(s)
    node = out["properties"]["tree"]
    assert node["properties"]["tag"] == {"type": "string"}
    assert node["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert set(out["$defs"]) == {"Node"}  # Tag inlined everywhere, Unused dropped
    assert out["$defs"]["Node"]["properties"]["tag"] == {"type": "string"}
    # the same instances pass and fail as under the schema as written
    v0, v1 = jsonschema.Draft202012Validator(s), jsonschema.Draft202012Validator(out)
    for instance in (
        {"tree": {"tag": "a", "children": [{"tag": "b", "children": []}]}},
        {"tree": {"tag": "a", "children": [{"tag": 1}]}},
        {"tag": 3},
    ):
        assert v0.is_valid(instance) == v1.is_valid(instance), instance


def test_root_recursion_and_unresolved_refs_stay() -> None:
    s = {"type": "object", "properties": {"self": {"$ref": "#"}, "gone": {"$ref": "#/$defs/X"}}}
    out = inline_refs(s)
    assert out["properties"] == {"self": {"$ref": "#"}, "gone": {"$ref": "#/$defs/X"}}


def test_exponential_sharing_is_refused() -> None:
    defs: dict[str, Any] = {"L0": {"type": "string"}}
    for i in range(1, 30):
        defs[f"L{i}"] = {"type": "array", "prefixItems": [{"$ref": f"#/$defs/L{i - 1}"}] * 2}
    s = {"type": "object", "properties": {"x": {"$ref": "#/$defs/L29"}}, "$defs": defs}
    with pytest.raises(InlineTooLarge):
        inline_refs(s)


def test_notion_schemas_inline_and_keep_their_meaning() -> None:
    """A real server's schemas (notion-mcp-server 2.5.2: 176 $ref findings under the gemini
    profile) inline to schemas with no $ref left, and judge sample instances the same."""
    tools = json.loads((REAL / "notion-mcp-server@2.5.2.json").read_text())["tools"]
    with_refs = [t for t in tools if "$ref" in json.dumps(t["inputSchema"])]
    assert len(with_refs) >= 5
    for t in with_refs:
        out = inline_refs(t["inputSchema"])
        text = json.dumps(out)
        assert "$ref" not in text and "$defs" not in text, t["name"]
        jsonschema.Draft202012Validator.check_schema(out)
        v0 = jsonschema.Draft202012Validator(t["inputSchema"])
        v1 = jsonschema.Draft202012Validator(out)
        for instance in ({}, {"page_id": "x"}, {"parent": {"page_id": "p"}, "properties": {}}):
            assert v0.is_valid(instance) == v1.is_valid(instance), (t["name"], instance)
