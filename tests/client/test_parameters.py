"""``mcpgen.parameters.read_models`` builds each method's parameters from a run's facts and the
inputSchema alone (no generator run, no formatter here)."""

from __future__ import annotations

import pytest

from mcpgen.errors import McpgenError
from mcpgen.parameters import read_models
from mcpgen.typegen import FieldFacts, ModelFacts, ModelsRun
from mcpgen.typehints import read_type_hint

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name"},
        "units": {"enum": ["c", "f"], "default": "c"},
        "tags": {"type": "array", "default": ["a"]},
        "loc": {"$ref": "#/$defs/Loc"},
        "self": {"type": "string"},
        "class": {"type": "boolean", "default": False},
        "when": {"type": "string", "format": "date"},
    },
    "required": ["city"],
}
RUN = ModelsRun(
    "",
    {
        "TInputLoc": ModelFacts("TInputLoc", "class", ()),
        "TInputTag": ModelFacts("TInputTag", "alias", (), "str"),
        "TInput": ModelFacts(
            "TInput",
            "class",
            (
                FieldFacts("city", "city", "str", True),
                FieldFacts("units", "units", "Literal['c', 'f'] | None", False),
                FieldFacts("tags", "tags", "list[TInputTag]", False),
                FieldFacts("loc", "loc", "TInputLoc | None", False),
                FieldFacts("self", "self", "str | None", False),
                FieldFacts("class_", "class", "bool | None", False),
                FieldFacts("when", "when", "date_aliased | None", False),
            ),
        ),
        "UInput": ModelFacts("UInput", "root", (), "str | int"),
    },
)


def test_parameters_come_from_the_facts_and_the_schema() -> None:
    info = read_models(RUN, ["TInput", "UInput"], {"TInput": SCHEMA})
    params = {p.name: p for p in info.methods["TInput"].params}
    assert params["city"].required and params["city"].description == "City name"
    assert (params["units"].annotation, params["units"].default) == (
        "Literal['c', 'f'] | None",
        "'c'",
    )
    # a mutable default: None, and the model's default applies
    assert (params["tags"].annotation, params["tags"].default) == (
        "list[_m.TInputTag] | None",
        "None",
    )
    assert params["loc"].annotation == "_m.TInputLoc | None"
    assert (params["self_"].field, params["self_"].prop) == ("self", "self")
    assert (params["class_"].prop, params["class_"].default) == ("class", "False")
    assert info.methods["UInput"].root and not info.methods["UInput"].params
    assert info.imports == (
        "from datetime import date as date_aliased",
        "from typing import Literal",
    )


def test_a_missing_or_alias_input_is_refused() -> None:
    with pytest.raises(McpgenError, match="TInputTag"):
        read_models(RUN, ["TInputTag"], {})
    with pytest.raises(McpgenError, match="Nope"):
        read_models(RUN, ["Nope"], {})


def test_type_hints_are_read_as_tokens() -> None:
    hint = read_type_hint("Literal['A | None', 'A'] | dict[str, A | None]", {"A"}, "_m.")
    assert hint.text == "Literal['A | None', 'A'] | dict[str, _m.A | None]"
    assert not hint.allows_none and hint.names == {"Literal", "dict", "str", "A", "None"}
    assert read_type_hint("Any", (), "").allows_none
    with pytest.raises(McpgenError):
        read_type_hint("list[", (), "")
