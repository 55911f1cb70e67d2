"""``mcpgen.modelview``: what a tool's models are generated from (issue 36: the schema decides
what a model cannot express). Pure functions, plus one generator run to see the types."""

from __future__ import annotations

import copy
from typing import Any

from mcpgen.modelview import model_view, tool_model_spec
from mcpgen.typegen import generate_tool_models

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        # properties named like the keywords stay
        "format": {"type": "string", "format": "date-time"},
        "pattern": {"type": "string", "pattern": "^\\p{L}+$"},
        "patternProperties": {
            "type": "object",
            "patternProperties": {"^x": {"type": "integer"}},
            "additionalProperties": {"type": "string"},
        },
        "mixed": {
            "type": "object",
            "properties": {"a": {"type": "integer"}},
            "patternProperties": {"^x": {"type": "integer"}},
            "additionalProperties": False,
        },
        "list": {"type": "array", "items": {"$ref": "#/$defs/When"}},
        "email": {"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}]},
    },
    "$defs": {"When": {"type": "string", "format": "date", "pattern": "^[0-9-]+$"}},
    "additionalProperties": False,
}


def test_the_view_leaves_out_what_a_model_cannot_say_and_nothing_else() -> None:
    before = copy.deepcopy(SCHEMA)
    view = model_view(SCHEMA)
    assert SCHEMA == before  # the schema served and validated is untouched
    props = view["properties"]
    assert list(props) == list(SCHEMA["properties"])
    assert props["format"] == {"type": "string"}
    assert props["pattern"] == {"type": "string"}
    assert props["patternProperties"] == {"type": "object"}
    assert props["mixed"] == {"type": "object", "properties": {"a": {"type": "integer"}}}
    assert props["email"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert view["$defs"] == {"When": {"type": "string"}}
    assert view["additionalProperties"] is False  # no patternProperties beside it: kept


def test_tool_model_spec_views_both_schemas() -> None:
    stem, inp, out = tool_model_spec("T", SCHEMA, {"type": "object", "properties": {}})
    assert stem == "T" and inp == model_view(SCHEMA) and out == {"type": "object", "properties": {}}
    assert tool_model_spec("T", SCHEMA, None)[2] is None


def test_the_models_of_the_view_take_what_the_schema_takes() -> None:
    source = generate_tool_models([tool_model_spec("T", SCHEMA, None)]).source
    namespace: dict[str, Any] = {}
    exec(compile(source, "models.py", "exec"), namespace)  # noqa: S102 (generated here)
    model = namespace["TInput"]
    model.model_rebuild(_types_namespace=namespace)
    valid = {
        "format": "yesterday",
        "pattern": "123",
        "patternProperties": {"y": "str", "x1": 1},
        "mixed": {"a": 1, "x1": 2},
        "list": ["not a date"],
        "email": "not an email",
    }
    dumped = model.model_validate(valid).model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert dumped == valid
    for absent in ("datetime", "AwareDatetime", "EmailStr", "pattern=", "date_aliased"):
        assert absent not in source
