"""``typegen._surely_alias`` predicts what the pinned generator does: every shape it calls an
alias is one the generator writes as a type alias (so skipping the first run changes nothing),
and the shapes it leaves to the generator include ones that stay classes."""

from __future__ import annotations

from typing import Any

import pytest

from mcpgen import typegen

ALIAS = [
    {"type": "object", "additionalProperties": {"type": "string"}},
    {"type": "object", "description": "a map", "additionalProperties": {"type": "integer"}},
    {"type": "array", "items": {"type": "string"}},
    {"type": "string"},
    {"type": "integer", "minimum": 1, "title": "Count"},
    {"type": "number"},
    {"type": "boolean"},
]
NOT_PREDICTED = [
    {"type": "object"},
    {"type": "object", "additionalProperties": True},
    {"type": "object", "properties": {"a": {"type": "string"}}},
    {"type": "object", "properties": {}, "additionalProperties": {"type": "string"}},
    {"anyOf": [{"type": "string"}, {"type": "integer"}]},
]


def _alias_run(output: dict[str, Any]) -> bool:
    doc = [{"name": "T", "inputSchema": {"type": "object"}, "outputSchema": output}]
    return "TOutput" in typegen.tool_models_run(doc, use_type_alias=True).aliases


@pytest.mark.parametrize("schema", ALIAS, ids=lambda s: str(s)[:40])
def test_predicted_aliases_are_aliases(schema: dict[str, Any]) -> None:
    assert typegen._surely_alias(schema)
    assert _alias_run(schema)


@pytest.mark.parametrize("schema", NOT_PREDICTED, ids=lambda s: str(s)[:40])
def test_other_shapes_are_left_to_the_generator(schema: dict[str, Any]) -> None:
    assert not typegen._surely_alias(schema)


def test_the_skip_gives_the_same_source() -> None:
    tools = [
        ("Paint", {"type": "object", "properties": {"c": {"type": "string"}}}, None),
        (
            "Stats",
            {"type": "object"},
            {"type": "object", "additionalProperties": {"type": "integer"}},
        ),
    ]
    doc = [{"name": s, "inputSchema": i, **({"outputSchema": o} if o else {})} for s, i, o in tools]
    two_runs = typegen.tool_models_run(doc, use_type_alias=False)
    assert typegen.generate_tool_models(tools) == two_runs
    assert "class StatsOutput(RootModel[dict[str, int]])" in two_runs.source
    assert two_runs.models["StatsOutput"].kind == "root"
    assert two_runs.models["StatsOutput"].type == "dict[str, int]"
    assert two_runs.models["PaintInput"].kind == "class"
