"""jsonschema-rs (the fast meta-schema check) never says "valid" when jsonschema disagrees."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcpgen.check.dialects import (
    D7,
    D2020,
    dialect_of,
    meta_errors,
    meta_validator,
    rs_meta_validator,
    rs_valid,
)

KEYWORDS = [
    "$id",
    "$schema",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$recursiveRef",
    "$vocabulary",
    "$comment",
    "$defs",
    "definitions",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "additionalItems",
    "items",
    "prefixItems",
    "maxItems",
    "minItems",
    "uniqueItems",
    "contains",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "additionalProperties",
    "properties",
    "patternProperties",
    "propertyNames",
    "const",
    "enum",
    "type",
    "format",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "unevaluatedItems",
    "unevaluatedProperties",
    "x-mcp-header",
]
TYPES = ["array", "boolean", "integer", "null", "number", "object", "string", "strin", "Object"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.0, 1.5, -1.0, 2.0, 1e300]),
    st.sampled_from(
        [
            "",
            "a",
            "(",
            "^[a-z]+$",
            "#",
            "a#b",
            "x#",
            "http://x/y#z",
            "object",
            "string",
            "Anchor_1",
            "1bad",
            "a\n",
        ]
    ),
)


def schemas() -> st.SearchStrategy[Any]:
    def extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        value = st.one_of(
            scalars,
            children,
            st.lists(st.one_of(scalars, children), max_size=3),
            st.dictionaries(
                st.sampled_from(["a", "b", "(", "x"]),
                st.one_of(children, scalars, st.lists(scalars, max_size=2)),
                max_size=2,
            ),
            st.sampled_from(TYPES),
            st.lists(st.sampled_from(TYPES), max_size=3),
        )
        return st.dictionaries(st.sampled_from(KEYWORDS), value, max_size=4)

    return st.recursive(st.one_of(st.booleans(), st.just({})), extend, max_leaves=12)


@pytest.mark.parametrize("dialect", [D2020, D7])
@settings(max_examples=400, deadline=None)
@given(schema=schemas())
def test_fast_path_agrees_with_jsonschema(dialect: str, schema: Any) -> None:
    if not isinstance(schema, dict):
        return
    errors = list(meta_validator(dialect).iter_errors(schema))
    if rs_valid(schema, dialect):
        assert errors == [], (schema, [e.message for e in errors])


def test_fast_path_takes_common_schemas() -> None:
    s = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "enum": ["x"], "pattern": "^x$"},
            "b": {"type": "array", "items": {"$ref": "#/$defs/B"}},
        },
        "required": ["a"],
        "additionalProperties": False,
        "$defs": {"B": {"type": "integer"}},
    }
    assert rs_valid(s, D2020)
    assert meta_errors(s, D2020) == []


def test_meta_errors_point_inside_the_schema() -> None:
    errs = meta_errors({"type": "object", "properties": {"a": {"minLength": -1}}}, D2020)
    assert errs and errs[0][0] == "/properties/a/minLength"


@pytest.mark.parametrize(
    ("declared", "dialect"),
    [
        (None, D2020),
        ("https://json-schema.org/draft/2020-12/schema", D2020),
        ("https://json-schema.org/draft/2020-12/schema#", D2020),
        ("http://json-schema.org/draft-07/schema#", D7),
        ("http://json-schema.org/draft-07/schema", D7),
        ("https://json-schema.org/draft/2019-09/schema", "2019-09"),
        ("http://json-schema.org/draft-04/schema#", "draft-04"),
        ("https://example.com/dialect", None),
        ("draft-07", None),
    ],
)
def test_dialect_of(declared: str | None, dialect: str | None) -> None:
    schema = {} if declared is None else {"$schema": declared}
    assert dialect_of(schema)[0] == dialect


def test_validators_are_built_once() -> None:
    assert meta_validator(D2020) is meta_validator(D2020)
    assert rs_meta_validator(D7) is rs_meta_validator(D7)


@pytest.mark.parametrize("dialect", [D2020, D7])
def test_regex_format_is_the_runtimes(dialect: str) -> None:
    """`pattern` must compile, as jsonschema-rs (the runtime's validator) compiles it."""
    assert not rs_valid({"pattern": "("}, dialect)
    assert not rs_valid({"patternProperties": {"(": {}}}, dialect)
    assert meta_errors({"pattern": "("}, dialect)
    assert rs_valid({"pattern": "^[a-z]+$"}, dialect)


# (pattern, whether jsonschema-rs compiles it in 2020-12, in draft-07): Python's `re` says the
# opposite of the first five, and `check` used to follow `re` (issue 36: "^\\p{L}+$" blocked
# generation). Draft-07 also asserts its meta-schema's `regex` format (ECMA-262 syntax only).
RUNTIME_REGEXES = [
    ("^\\p{L}+$", True, True),
    ("\\p{Lu}\\P{Ll}", True, True),
    ("\\cA", True, True),
    ("\\Z", False, False),
    ("(?<n>a)\\k<n>", False, False),
    ("\\x{41}", True, False),
    ("\\z", True, False),
    ("(?=a)\\w", True, True),
    ("[", False, False),
]


@pytest.mark.parametrize(("pattern", "in_2020", "in_draft7"), RUNTIME_REGEXES)
def test_check_accepts_exactly_the_patterns_the_runtime_compiles(
    pattern: str, in_2020: bool, in_draft7: bool
) -> None:
    from mcpgen_runtime.server.validation import SchemaCheck, SchemaCompileError

    for dialect, compiles in ((D2020, in_2020), (D7, in_draft7)):
        runtime = SchemaCheck({"pattern": pattern, "patternProperties": {pattern: {}}}, dialect)
        try:
            runtime.compile()
            runtime_ok = True
        except SchemaCompileError:
            runtime_ok = False
        assert runtime_ok is compiles, dialect
        for schema in ({"pattern": pattern}, {"patternProperties": {pattern: {}}}):
            assert rs_valid(schema, dialect) is compiles, (dialect, schema)
            errors = meta_errors(schema, dialect)
            assert (errors == []) is compiles, (dialect, schema)
            assert compiles or "is not a 'regex'" in errors[0][1]


def test_meta_schemas_are_never_retrieved() -> None:
    """Every meta-schema is bundled; a $ref elsewhere is not fetched (the retriever refuses)."""
    import jsonschema_rs

    from mcpgen_runtime.schemawalk import RemoteRefRefused, refuse_retrieval

    with pytest.raises(RemoteRefRefused):
        refuse_retrieval("https://example.com/s.json")
    with pytest.raises(jsonschema_rs.ValidationError, match="refused"):
        jsonschema_rs.validator_for(
            {"$ref": "https://example.com/s.json"}, retriever=refuse_retrieval
        )
    # a tool schema whose $ref points at the network is still only meta-validated
    assert rs_valid({"$ref": "https://example.com/s.json"}, D2020)
