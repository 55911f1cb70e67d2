"""The generated servers' fast schema check, differentially against jsonschema.

``compile_fast_check`` (in a generated package's ``_generated/schema_compiler.py``) must never
say "valid" where jsonschema finds an error (soundness), and, for the keywords it mirrors, it
should say exactly what jsonschema says (completeness). Hypothesis builds random schemas of
both dialects from the mirrored keyword set (plus some keywords of the other dialect, which
must be ignored) and random JSON instances biased towards the schemas' names and values; the
oracle is ``Draft7Validator`` / ``Draft202012Validator`` without a format checker, exactly as
``validation.SchemaCheck`` builds it. The code under test is the generated code, not the
templates.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.helpers import REPO, WEATHER, imported, write_package

BENCH = REPO / "bench" / "add_manifest.yaml"
D7_URI = "http://json-schema.org/draft-07/schema#"
D2020_URI = "https://json-schema.org/draft/2020-12/schema"
# MCPGEN_FASTCHECK_EXAMPLES=20000 for a long local hunt (random seeds, add -s for the
# counts); CI runs the default, derandomized.
HUNT = os.environ.get("MCPGEN_FASTCHECK_EXAMPLES")
SETTINGS = settings(
    max_examples=int(HUNT or 1000),
    database=None,
    derandomize=not HUNT,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
RAISED = "jsonschema raised"


class Generated:
    """The generated modules under test (imported from the generated packages)."""

    def __init__(self) -> None:
        self.compiler = importlib.import_module("fastcheck_pkg._generated.schema_compiler")
        self.validation = importlib.import_module("fastcheck_pkg._generated.validation")
        self.servers = {
            pkg: importlib.import_module(f"{pkg}._generated.server")
            for pkg in ("fastcheck_pkg", "fastcheck_weather")
        }


@pytest.fixture(scope="module")
def gen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Generated]:
    out = tmp_path_factory.mktemp("fastcheck")
    write_package(BENCH, out, "fastcheck_pkg")
    write_package(WEATHER, out, "fastcheck_weather")
    with imported(out, "fastcheck_pkg"), imported(out, "fastcheck_weather"):
        generated = Generated()
        assert Path(str(generated.compiler.__file__)).is_relative_to(out)  # not the templates
        yield generated


def oracle(schema: Any, dialect: str) -> Any:
    draft7 = dialect == "draft-07" or (isinstance(schema, dict) and schema.get("$schema") == D7_URI)
    cls = jsonschema.Draft7Validator if draft7 else jsonschema.Draft202012Validator
    return cls(schema)  # no format checker, as validation.SchemaCheck


def verdict(validator: Any, instance: Any) -> bool | str:
    try:
        return bool(validator.is_valid(instance))
    except Exception as exc:  # e.g. OverflowError: multipleOf 0.1 of 10**400
        return f"{RAISED}: {type(exc).__name__}"


# ---------------------------------------------------------------- random schemas

NAMES = ("a", "b", "c", "ä", "aa", "a1")
PATTERNS = ("^a", "a$", "^[a-c]+$", "ä", "^.{2,}$", "\\d", "^(a|b)*$")
TRICKY: tuple[Any, ...] = (
    0, 1, -1, 2, 1.0, 0.0, 2.0, -0.0, 2.5, 0.1, 0.3, True, False, None, "", "a", "1", "ä",
    [], {}, [1], [1.0], [True], [0], [False], [[0]], [[False]], {"a": 1}, {"a": 1.0},
    {"a": True}, [1, True], [0, False], [1, 1.0], {"a": [1]}, {"a": [True]},
)  # fmt: skip
BIG = (2**53 + 1, 2**64, 10**30, -(10**20), 10**400)
FLOATS = (0.5, 1e-9, 1e300, -1.5, 3.3, 0.30000000000000004)
MULTIPLES = (1, 2, 3, 7, 0.1, 0.01, 0.5, 2.5, 1e-9, 1.0)
BOUNDS = (0, 1, -1, 2, 3, 0.5, 2.0, -1.5, 10**30, 1e300)
TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")
# Keywords whose subschemas apply to a part of the instance: a "$ref" cycle through one of
# them ends with the instance; the generated schemas have no other cycles (a cycle that never
# descends makes jsonschema recurse until RecursionError, or a pyo3 PanicException).
DESCENDING = {
    "properties", "additionalProperties", "patternProperties", "propertyNames", "items",
    "prefixItems", "additionalItems", "contains",
}  # fmt: skip
SUBSCHEMA_KEYWORDS = {
    "properties", "additionalProperties", "patternProperties", "propertyNames", "items",
    "prefixItems", "additionalItems", "contains", "allOf", "anyOf", "oneOf", "not", "if",
    "dependentSchemas", "dependencies",
}  # fmt: skip
COMMON = (
    "type", "properties", "required", "additionalProperties", "patternProperties",
    "propertyNames", "minProperties", "maxProperties", "items", "minItems", "maxItems",
    "uniqueItems", "contains", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "allOf", "anyOf",
    "oneOf", "not", "if", "$ref", "format", "description",
)  # fmt: skip
# Each dialect's own keywords, then some of the other dialect's (which it must ignore).
ONLY = {
    "draft-07": ("additionalItems", "dependencies", "prefixItems", "dependentRequired"),
    "2020-12": (
        "prefixItems", "minContains", "maxContains", "dependentRequired",
        "dependentSchemas", "dependencies", "additionalItems",
    ),
}  # fmt: skip

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(BIG),
    st.sampled_from(FLOATS),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.text(alphabet="abcä1 ", max_size=4),
    st.sampled_from(TRICKY),
)


def json_values(leaves: Any) -> Any:
    return st.recursive(
        leaves,
        lambda kids: st.one_of(
            st.lists(kids, max_size=4),
            st.dictionaries(st.sampled_from(NAMES), kids, max_size=4),
        ),
        max_leaves=8,
    )


class Pick:
    """A placeholder leaf: the schema's ``index``-th enum/const value, maybe twisted."""

    def __init__(self, index: int, twist: int) -> None:
        self.index, self.twist = index, twist


def twisted(value: Any, twist: int) -> Any:
    """1 -> 1.0 (twist 1) or 1 -> True / 0 -> False (twist 2), recursively."""
    if isinstance(value, list):
        return [twisted(v, twist) for v in value]
    if isinstance(value, dict):
        return {k: twisted(v, twist) for k, v in value.items()}
    if type(value) is int and twist == 1:
        return float(value) if abs(value) < 2**53 else value
    if type(value) is int and twist == 2 and value in (0, 1):
        return bool(value)
    return value


def placed(value: Any, values: list[Any]) -> Any:
    if isinstance(value, Pick):
        return twisted(values[value.index % len(values)], value.twist) if values else None
    if isinstance(value, list):
        return [placed(v, values) for v in value]
    if isinstance(value, dict):
        return {k: placed(v, values) for k, v in value.items()}
    return value


# Strategies are built once per argument tuple: building them is most of Hypothesis' cost.
JSON = json_values(json_scalars)
PICK = st.builds(Pick, st.integers(0, 7), st.sampled_from((0, 0, 1, 2)))
INSTANCES = st.lists(json_values(st.one_of(json_scalars, PICK)), min_size=3, max_size=10)
NAME_LISTS = st.lists(st.sampled_from(NAMES), max_size=3, unique=True)
SIMPLE: dict[str, Any] = {
    "type": st.one_of(
        st.sampled_from(TYPES), st.lists(st.sampled_from(TYPES), max_size=3, unique=True)
    ),
    "required": NAME_LISTS,
    "minProperties": st.integers(0, 3),
    "maxProperties": st.integers(0, 3),
    "minItems": st.integers(0, 3),
    "maxItems": st.integers(0, 3),
    "minContains": st.integers(0, 3),
    "maxContains": st.integers(0, 3),
    "minLength": st.integers(0, 4),
    "maxLength": st.integers(0, 4),
    "uniqueItems": st.booleans(),
    "enum": st.lists(st.one_of(st.sampled_from(TRICKY), JSON), min_size=1, max_size=4),
    "const": st.one_of(st.sampled_from(TRICKY), JSON),
    "minimum": st.one_of(st.sampled_from(BOUNDS), st.integers(-3, 3)),
    "multipleOf": st.sampled_from(MULTIPLES),
    "pattern": st.sampled_from(PATTERNS),
    "dependentRequired": st.dictionaries(st.sampled_from(NAMES), NAME_LISTS, max_size=2),
    "format": st.sampled_from(("date", "email", "uri", "regex")),
    "description": st.just("a description"),
}
for _bound in ("maximum", "exclusiveMinimum", "exclusiveMaximum"):
    SIMPLE[_bound] = SIMPLE["minimum"]


@functools.lru_cache(maxsize=None)
def subschema(
    d7: bool, depth: int, refs: tuple[str, ...], free: tuple[str, ...], min_keys: int = 0
) -> Any:
    """Schemas of one dialect. ``refs``: every local reference; ``free``: those usable here
    without descending into the instance first."""
    pool = COMMON + ONLY["draft-07" if d7 else "2020-12"]
    if depth <= 0:
        pool = tuple(k for k in pool if k not in SUBSCHEMA_KEYWORDS)
    if not free:
        pool = tuple(k for k in pool if k != "$ref")
    key_lists = st.lists(st.sampled_from(pool), min_size=min_keys, max_size=4, unique=True)

    @st.composite
    def draw_schema(draw: Any) -> Any:
        roll = draw(st.integers(0, 59)) if not min_keys else 59
        if roll < 3:
            return roll == 0
        if roll < 6 and free:
            return {"$ref": draw(st.sampled_from(free))}
        if roll == 6:  # a subschema of the other dialect: must get no fast path
            inner = draw(subschema(not d7, depth, (), ()))
            if isinstance(inner, dict):
                return {"$schema": D2020_URI if d7 else D7_URI, **inner}
        schema: dict[str, Any] = {}
        for key in draw(key_lists):
            schema.update(draw(keyword(key, d7, depth - 1, refs, free)))
        return schema

    return draw_schema()


@functools.lru_cache(maxsize=None)
def keyword(key: str, d7: bool, depth: int, refs: tuple[str, ...], free: tuple[str, ...]) -> Any:
    """``{key: value}`` for one keyword."""
    if key in SIMPLE:
        return SIMPLE[key].map(lambda v: {key: v})
    sub = subschema(d7, depth, refs, refs if key in DESCENDING else free)
    subs = st.lists(sub, min_size=1, max_size=3)
    value: Any
    if key == "properties":
        value = st.dictionaries(st.sampled_from(NAMES), sub, max_size=3)
    elif key in ("additionalProperties", "additionalItems"):
        value = st.one_of(st.booleans(), sub)
    elif key == "patternProperties":
        value = st.dictionaries(st.sampled_from(PATTERNS), sub, max_size=2)
    elif key in ("propertyNames", "not", "contains"):
        value = sub
    elif key == "items":
        value = st.one_of(sub, subs) if d7 else sub
    elif key in ("prefixItems", "allOf", "anyOf", "oneOf"):
        value = subs
    elif key == "if":
        return st.fixed_dictionaries({"if": sub}, optional={"then": sub, "else": sub})
    elif key == "dependentSchemas":
        value = st.dictionaries(st.sampled_from(NAMES), sub, max_size=2)
    elif key == "dependencies":
        value = st.dictionaries(st.sampled_from(NAMES), st.one_of(NAME_LISTS, sub), max_size=2)
    elif key == "$ref":
        value = st.sampled_from(free)
    else:
        raise AssertionError(key)
    return value.map(lambda v: {key: v})


@st.composite
def documents(draw: Any, family: str) -> tuple[dict[str, Any], str]:
    """A root schema (with 0-2 local definitions that may refer to each other and to the
    root: recursion) and the dialect argument ``SchemaCheck`` gets for it."""
    d7 = family == "draft-07"
    defs_key = "definitions" if d7 else draw(st.sampled_from(("$defs", "$defs", "definitions")))
    count = draw(st.integers(0, 2))
    defs = tuple(f"#/{defs_key}/D{i}" for i in range(count))
    refs = defs + ("#",)
    root = draw(subschema(d7, 3, refs, defs, min_keys=1))
    if count:
        # D<i> may refer to D<j>, j < i, without descending: no cycle that does not descend.
        root[defs_key] = {f"D{i}": draw(subschema(d7, 2, refs, defs[:i])) for i in range(count)}
    if d7:
        dialect = draw(st.sampled_from(("draft-07", "2020-12")))
        if dialect == "2020-12" or draw(st.booleans()):
            root = {"$schema": D7_URI, **root}
    else:
        dialect = "2020-12"
        if draw(st.booleans()):
            root = {"$schema": D2020_URI, **root}
    return root, dialect


def schema_values(schema: Any) -> list[Any]:
    """The enum/const values in ``schema``: what instances should hit (or nearly)."""
    values: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "enum" and isinstance(value, list):
                    values.extend(value)
                elif key == "const":
                    values.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(schema)
    return values


@st.composite
def cases(draw: Any, family: str) -> tuple[dict[str, Any], str, list[Any]]:
    schema, dialect = draw(documents(family))
    values = schema_values(schema)
    return schema, dialect, [placed(i, values) for i in draw(INSTANCES)]


# ---------------------------------------------------------------- the properties


def disagreement(schema: Any, dialect: str, instance: Any, fast: Any, full: Any) -> str:
    kind = "SOUNDNESS BUG (fast True, jsonschema not valid)" if fast is True else "completeness"
    return (
        f"{kind}: fast={fast!r} jsonschema={full!r}\n  dialect={dialect}\n"
        f"  schema={json.dumps(schema)}\n  instance={instance!r}"
    )


@pytest.mark.parametrize("family", ["draft-07", "2020-12"])
def test_fast_check_agrees_with_jsonschema(gen: Generated, family: str) -> None:
    stats: Counter[str] = Counter()

    @SETTINGS
    @given(case=cases(family))
    def check(case: tuple[dict[str, Any], str, list[Any]]) -> None:
        schema, dialect, instances = case
        fast = gen.compiler.compile_fast_check(schema, dialect)
        validator = oracle(schema, dialect)
        schema_check = gen.validation.SchemaCheck(schema, dialect)
        stats["schemas"] += 1
        stats["fast path" if fast is not None else "no fast path (None)"] += 1
        # Each drawn instance also with its ints as floats and its 0/1 as booleans: cheap
        # near-misses (drawing is most of the cost; checking is not).
        variants = [twisted(i, twist) for i in instances for twist in (0, 1, 2)]
        for instance in variants:
            full = verdict(validator, instance)
            stats["instances"] += 1
            if isinstance(full, str):
                stats["jsonschema raised"] += 1
            if fast is not None:
                got = fast(instance)  # never raises: it is guarded
                stats["fast True" if got else "fast False"] += 1
                if isinstance(full, str):
                    # No verdict to compare with (e.g. anyOf [{"multipleOf": 0.1}, true] of
                    # 10**400: jsonschema evaluates the first branch fully and overflows).
                    stats[f"{full}, fast {got}"] += 1
                    continue
                assert got is full, disagreement(schema, dialect, instance, got, full)
            if not isinstance(full, str):
                problems = schema_check.problems(instance)
                assert (problems == []) is full, (
                    f"SchemaCheck.problems={problems!r} but jsonschema valid={full}\n"
                    f"  dialect={dialect} schema={json.dumps(schema)} instance={instance!r}"
                )

    check()
    print(f"\n[{family}] {dict(sorted(stats.items()))}", file=sys.stderr)
    # Meaningful only if most schemas are mirrored and both answers occur.
    assert stats["fast path"] >= stats["schemas"] * 0.6, stats
    assert stats["fast True"] >= stats["instances"] * 0.1, stats
    assert stats["fast False"] >= stats["instances"] * 0.1, stats


# ---------------------------------------------------------------- fixed cases

# (schema, dialect, instances): hand-picked corners; a fast path that agrees exactly.
TRICKY_SCHEMAS: list[tuple[str, Any, str, list[Any]]] = [
    (
        "json pointer escapes in $ref",
        {
            "$ref": "#/$defs/x",
            "properties": {"a/b": {"type": "string"}, "~c": {"type": "integer"}},
            "$defs": {
                "x": {
                    "properties": {
                        "p": {"$ref": "#/properties/a~1b"},
                        "q": {"$ref": "#/properties/~0c"},
                    }
                }
            },
        },
        "2020-12",
        [
            {"p": "s"},
            {"p": 1},
            {"q": 1},
            {"q": 1.0},
            {"q": 1.5},
            {"q": "s"},
            {"a/b": 1},
            {"~c": 2.0},
        ],
    ),
    (
        "$ref into an array",
        {
            "anyOf": [{"type": "string"}, {"type": "object"}],
            "properties": {"a": {"$ref": "#/anyOf/0"}},
        },
        "2020-12",
        [{"a": "x"}, {"a": None}, "s", 1],
    ),
    (
        "draft-07 $ref overrides its siblings",
        {
            "definitions": {"s": {"type": "string"}},
            "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}},
        },
        "draft-07",
        [{"a": "abc"}, {"a": 1}, {"a": ""}],
    ),
    (
        "2020-12 $ref applies with its siblings",
        {
            "$defs": {"s": {"type": "string"}},
            "properties": {"a": {"$ref": "#/$defs/s", "maxLength": 1}},
        },
        "2020-12",
        [{"a": "abc"}, {"a": 1}, {"a": ""}],
    ),
    (
        "recursive tree",
        {
            "type": "object",
            "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#"}},
            },
            "required": ["value"],
        },
        "2020-12",
        [
            {"value": 1, "children": [{"value": 2, "children": [{"value": 3.0}]}]},
            {"value": 1, "children": [{"value": 2, "children": [{"value": True}]}]},
            {"value": 1, "children": [{"children": []}]},
        ],
    ),
    (
        "uniqueItems: 1 vs 1.0 vs True, 0 vs False, nested",
        {"uniqueItems": True},
        "2020-12",
        [
            [1, True], [0, False], [1, 1.0], [[1], [True]], [{"a": 1}, {"a": 1.0}],
            [[0], [False], [0]], [{"a": [1]}, {"a": [True]}], ["1", 1], [None, False, 0, ""],
            [{"a": 1, "b": 2}, {"b": 2, "a": 1}], [[1, "a"], [1, "a"]], [2**64, 2.0**64],
        ],
    ),  # fmt: skip
    (
        "enum and const: equality evades bool/int",
        {"enum": [1, [0], {"a": False}], "not": {"const": [0]}},
        "draft-07",
        [1, 1.0, True, [0], [0.0], [False], {"a": 0}, {"a": False}, {"a": False, "b": 1}],
    ),
    (
        "multipleOf 0.1",
        {"multipleOf": 0.1},
        "2020-12",
        [0.3, 0.30000000000000004, 0.7, 1e308, 10**30, 7, 2**64, True, "x"],
    ),
    ("multipleOf 0.01", {"multipleOf": 0.01}, "2020-12", [0.07, 1.1, 19.99, 1e-3, 10**20]),
    ("multipleOf 3", {"multipleOf": 3}, "2020-12", [9, 9.0, 10, 1e300, 2**64 * 3, 3.3]),
    (
        "lengths count code points",
        {"minLength": 2, "maxLength": 3},
        "2020-12",
        ["ä", "äö", "\U0001f600\U0001f600", "äöüß", "e\u0301", 12],
    ),
    ("integer accepts 2.0", {"type": "integer"}, "2020-12", [2.0, 2.5, True, 10**30, 1e300, -0.0]),
    (
        "minContains/maxContains",
        {"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3},
        "2020-12",
        [[1], [1, 2], [1, 2, 3, 4], [1.0, 2.0, "x"], [], "x", [True, False]],
    ),
    ("minContains 0", {"contains": False, "minContains": 0}, "2020-12", [[], [1]]),
    (
        "minContains in draft-07 is ignored",
        {"contains": False, "minContains": 0},
        "draft-07",
        [[], [1]],
    ),
    (
        "draft-07 array items",
        {"items": [{"type": "string"}, False]},
        "draft-07",
        [[], ["a"], ["a", 1], [1], "x"],
    ),
    (
        "prefixItems + items false",
        {"prefixItems": [{"type": "string"}], "items": False},
        "2020-12",
        [[], ["a"], ["a", 1], [1]],
    ),
    (
        "if/then/else",
        {"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"maxProperties": 0}},
        "2020-12",
        [{}, {"a": 1}, {"a": 1, "b": 2}, {"c": 1}, 1],
    ),
    (
        "draft-07 dependencies",
        {"dependencies": {"a": ["b"], "b": {"required": ["c"]}, "c": False}},
        "draft-07",
        [{}, {"a": 1}, {"a": 1, "b": 1}, {"b": 1, "d": 1}, {"c": 1}, [1]],
    ),
    (
        "dependentRequired/dependentSchemas",
        {"dependentRequired": {"a": ["b"]}, "dependentSchemas": {"b": {"required": ["c"]}}},
        "2020-12",
        [{}, {"a": 1}, {"a": 1, "b": 1}, {"a": 1, "b": 1, "c": 1}, {"b": 1}],
    ),
    (
        "additionalProperties beside patternProperties",
        {
            "properties": {"a": {}},
            "patternProperties": {"^b": {"type": "integer"}, "c$": {}},
            "additionalProperties": {"type": "string"},
        },
        "2020-12",
        [{"a": 1}, {"b": 1}, {"b": "x"}, {"xc": 1}, {"d": 1}, {"d": "x"}, {"bc": 1.5}],
    ),
    (
        "oneOf counts",
        {"oneOf": [{"type": "integer"}, {"type": "number"}, {"multipleOf": 2}]},
        "2020-12",
        [1.5, 1, 2, "x", 2.0],
    ),
    (
        "boolean subschemas",
        {"properties": {"a": False, "b": True}, "not": False},
        "draft-07",
        [{}, {"a": 1}],
    ),
    ("root true", True, "2020-12", [1, None]),
    ("root false", False, "draft-07", [1, None]),
]


@pytest.mark.parametrize(
    "schema,dialect,instances", [c[1:] for c in TRICKY_SCHEMAS], ids=[c[0] for c in TRICKY_SCHEMAS]
)
def test_tricky_schemas_agree(
    gen: Generated, schema: Any, dialect: str, instances: list[Any]
) -> None:
    fast = gen.compiler.compile_fast_check(schema, dialect)
    assert fast is not None
    validator = oracle(schema, dialect)
    check = gen.validation.SchemaCheck(schema, dialect)
    for instance in instances:
        full = validator.is_valid(instance)
        assert fast(instance) is full, disagreement(schema, dialect, instance, fast(instance), full)
        assert (check.problems(instance) == []) is full, instance


# (schema, dialect, instances): no fast path, and SchemaCheck still agrees with jsonschema.
NO_FAST_PATH: list[tuple[str, dict[str, Any], str, list[Any]]] = [
    ("remote $ref", {"$ref": "https://example.com/s.json"}, "2020-12", []),
    ("remote $ref, draft-07", {"$ref": "http://example.com/s.json#/x"}, "draft-07", []),
    ("anchor $ref", {"$ref": "#item", "$defs": {"i": {"$anchor": "item"}}}, "2020-12", [1, "x"]),
    ("unknown anchor $ref", {"$ref": "#nowhere"}, "2020-12", []),
    (
        "draft-07 plain-name $id anchor",
        {"$ref": "#item", "definitions": {"i": {"$id": "#item", "type": "string"}}},
        "draft-07",
        [1, "x"],
    ),
    (
        "nested $id",
        {"properties": {"a": {"$id": "https://example.com/a", "type": "string"}}},
        "2020-12",
        [{"a": 1}, {"a": "x"}],
    ),
    ("unevaluatedProperties", {"unevaluatedProperties": False}, "2020-12", [{}, {"a": 1}]),
    ("unevaluatedItems", {"prefixItems": [True], "unevaluatedItems": False}, "2020-12", [[1]]),
    ("$dynamicRef", {"$dynamicRef": "#meta", "$dynamicAnchor": "meta"}, "2020-12", []),
    ("invalid regex in pattern", {"pattern": "("}, "2020-12", []),
    ("invalid regex in patternProperties", {"patternProperties": {"[": True}}, "draft-07", []),
    ("escaped pointer in $ref", {"$ref": "#/$defs/a%20b", "$defs": {"a b": {}}}, "2020-12", [1]),
    ("empty anyOf", {"anyOf": []}, "2020-12", [1]),
    (
        "additionalItems after array items",
        {"items": [{"type": "string"}], "additionalItems": False},
        "draft-07",
        [["a"], ["a", 1]],
    ),
    # jsonschema switches validator class on a subschema's "$schema" (evolve -> validator_for)
    (
        "nested draft-07 $schema in a 2020-12 schema",
        {"properties": {"a": {"$schema": D7_URI, "dependencies": {"x": ["y"]}}}},
        "2020-12",
        [{"a": {"x": 1}}, {"a": {"x": 1, "y": 2}}],
    ),
    (
        "nested 2020-12 $schema in a draft-07 schema",
        {"$schema": D7_URI, "items": {"$schema": D2020_URI, "prefixItems": [{"type": "string"}]}},
        "draft-07",
        [[[1]], [["a"]]],
    ),
    # ... and so does a "$ref" back to a root whose "$schema" names another class
    (
        "root 2020-12 $schema read as draft-07, recursing through '#'",
        {"$schema": D2020_URI, "prefixItems": [{"type": "string"}], "items": {"$ref": "#"}},
        "draft-07",
        [[[1]], [["a"]]],
    ),
    (
        "root draft-04 $schema, recursing through '#'",
        {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "properties": {"a": {"$ref": "#"}},
            "dependentRequired": {"x": ["y"]},
        },
        "2020-12",
        [{"a": {"x": 1}}],
    ),
]


@pytest.mark.parametrize(
    "schema,dialect,instances", [c[1:] for c in NO_FAST_PATH], ids=[c[0] for c in NO_FAST_PATH]
)
def test_no_fast_path(gen: Generated, schema: Any, dialect: str, instances: list[Any]) -> None:
    assert gen.compiler.compile_fast_check(schema, dialect) is None
    validator = oracle(schema, dialect)
    for instance in instances:
        full = validator.is_valid(instance)
        assert (gen.validation.SchemaCheck(schema, dialect).problems(instance) == []) is full


def test_nested_schema_soundness_regression(gen: Generated) -> None:
    """The first bug this file found: a fast "valid" jsonschema rejects."""
    schema = {"properties": {"a": {"$schema": D7_URI, "dependencies": {"x": ["y"]}}}}
    assert not oracle(schema, "2020-12").is_valid({"a": {"x": 1}})
    assert gen.validation.SchemaCheck(schema, "2020-12").problems({"a": {"x": 1}}) != []


def test_keyword_sets_match_jsonschema(gen: Generated) -> None:
    """A jsonschema upgrade that adds (or drops) a keyword must fail here first."""
    assert sorted(gen.compiler._KEYWORDS_DRAFT7) == sorted(jsonschema.Draft7Validator.VALIDATORS)
    assert sorted(gen.compiler._KEYWORDS_2020_12) == sorted(
        jsonschema.Draft202012Validator.VALIDATORS
    )


def test_example_and_bench_schemas_get_a_fast_path(gen: Generated) -> None:
    seen = 0
    for pkg, server in gen.servers.items():
        for binding in server.BINDINGS:
            definition = json.loads(binding.definition_json)
            pairs = [(definition["inputSchema"], binding.input_dialect)]
            if "outputSchema" in definition:
                pairs.append((definition["outputSchema"], binding.output_dialect))
            for schema, dialect in pairs:
                assert gen.compiler.compile_fast_check(schema, dialect) is not None, (pkg, schema)
                seen += 1
    assert seen >= 8  # bench: add in/out; weather: 4 inputs + 2 outputs


def test_weather_fast_answers(gen: Generated) -> None:
    definitions = [json.loads(b.definition_json) for b in gen.servers["fastcheck_weather"].BINDINGS]
    (forecast,) = [d["inputSchema"] for d in definitions if d["name"] == "get_forecast"]
    fast = gen.compiler.compile_fast_check(forecast, "2020-12")
    good = {"location": {"city": "Paris", "country": "FR"}, "days": 3}
    assert fast(good) is True
    for bad in (
        {"location": {"city": "Paris", "country": "France"}},
        {"location": {"country": "FR"}},
        {"location": {"city": "Paris"}, "days": 8},
        {"location": {"city": "Paris"}, "days": 2.5},
        {"days": 3},
    ):
        assert fast(bad) is False, bad
        assert not oracle(forecast, "2020-12").is_valid(bad)


def test_where_jsonschema_itself_raises(gen: Generated) -> None:
    """jsonschema's multipleOf divides by a float divisor before its overflow guard, so an
    integer beyond float range raises OverflowError. The fast check never raises; it says
    False ("ask jsonschema") unless another branch already decides."""
    huge = 10**400
    alone = {"multipleOf": 0.1}
    with pytest.raises(OverflowError):
        oracle(alone, "2020-12").is_valid(huge)
    assert gen.compiler.compile_fast_check(alone, "2020-12")(huge) is False
    either = {"anyOf": [{"type": "array", "multipleOf": 0.1}, True]}
    with pytest.raises(OverflowError):
        oracle(either, "2020-12").is_valid(huge)  # it evaluates the first branch fully
    assert gen.compiler.compile_fast_check(either, "2020-12")(huge) is True  # JSON Schema's answer


def test_schema_check_answers_for_huge_integers(gen: Generated) -> None:
    # jsonschema raises OverflowError here; the check answers "not accepted", it never raises
    problems = gen.validation.SchemaCheck({"multipleOf": 0.1}, "2020-12").problems(10**400)
    assert problems == [
        "- (root): the value cannot be checked against the schema (OverflowError)"
    ]
    assert gen.validation.SchemaCheck({"multipleOf": 0.1}, "2020-12").problems(10**4) == []


def _nest(depth: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("dialect", ["draft-07", "2020-12"])
def test_deep_instance_does_not_raise(gen: Generated, dialect: str) -> None:
    key = "definitions" if dialect == "draft-07" else "$defs"
    schema = {
        "$ref": f"#/{key}/node",
        key: {"node": {"type": ["array", "integer"], "items": {"$ref": f"#/{key}/node"}}},
    }
    fast = gen.compiler.compile_fast_check(schema, dialect)
    assert fast is not None
    assert fast(_nest(50, 1)) is True
    assert fast(_nest(50, "x")) is False
    # 5000 levels exceed the recursion limit: the answer is False ("ask jsonschema") or the
    # correct one, never an exception.
    assert fast(_nest(5000, 1)) in (True, False)
    assert fast(_nest(5000, "x")) is False
    # and the full check (jsonschema recurses too deep here) answers with a message
    assert gen.validation.SchemaCheck(schema, dialect).problems(_nest(5000, "x")) != []
