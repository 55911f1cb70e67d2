"""``mcpgen_runtime.server.validation`` against the ``jsonschema`` library: random schemas of
both dialects and random instances, the same verdict (a guard differential test). The unit tests
of ``SchemaCheck`` (messages, dialects, refs, refused fetches, hostile values) are in
test_validation.py."""

from __future__ import annotations

import functools
import json
from typing import Any

import jsonschema  # type: ignore[import-untyped,unused-ignore]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpgen_runtime.server.validation import SchemaCheck, SchemaCompileError

D7_URI = "http://json-schema.org/draft-07/schema#"
D2020_URI = "https://json-schema.org/draft/2020-12/schema"


# ---------------------------------------------------------------- differential guard

# Strategies adapted from tests/server/test_fast_check.py (which goes away with the fast path).
# Restrictions, each where jsonschema-rs and jsonschema legitimately disagree:
# 1. The dialect argument is the root's "$schema" dialect, as the generator computes it
#    (mcpgen/ir/tools.py schema_dialect): jsonschema-rs' Draft202012Validator follows a root
#    draft-07 "$schema", jsonschema's class does not; the pair never reaches SchemaCheck.
# 2. Floats within +-2**53: jsonschema-rs reads a float as its shortest decimal text (1e30 is
#    10**30, as in the JSON text), jsonschema as the binary double (1e30 > 10**30), so
#    comparisons with big ints, and multipleOf of big floats, differ.
# 3. multipleOf: integers only, never 0.1 and friends: jsonschema divides in binary floating
#    point (0.3 is not a multiple of 0.1), jsonschema-rs in decimal (it is).
# 4. Strings only from "abcä1 ": regexes are ECMA-262 in jsonschema-rs and Python `re` in
#    jsonschema; they differ on "$" before a final newline and on non-ASCII "\d" and "\w".
# 5. Where jsonschema raises (e.g. OverflowError, multipleOf 0.1 of 10**400, which 3. rules
#    out), SchemaCheck must only answer without raising: there is no verdict to compare with.
# 6. No "dependencies" in 2020-12 schemas: jsonschema-rs applies it there, jsonschema ignores
#    it (it is not a 2020-12 keyword).
# Schemas are not restricted to valid ones: jsonschema-rs checks a schema against its
# meta-schema when compiling, and must refuse exactly those jsonschema's check_schema refuses.
SETTINGS = settings(
    max_examples=300,
    database=None,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
NAMES = ("a", "b", "c", "ä", "aa", "a1")
PATTERNS = ("^a", "a$", "^[a-c]+$", "ä", "^.{2,}$", "\\d", "^(a|b)*$")
TRICKY: tuple[Any, ...] = (
    0, 1, -1, 2, 1.0, 0.0, 2.0, -0.0, 2.5, 0.1, 0.3, True, False, None, "", "a", "1", "ä",
    [], {}, [1], [1.0], [True], [0], [False], [[0]], [[False]], {"a": 1}, {"a": 1.0},
    {"a": True}, [1, True], [0, False], [1, 1.0], {"a": [1]}, {"a": [True]},
)  # fmt: skip
BIG = (2**53 + 1, 2**64, 10**30, -(10**20), 10**400)
FLOATS = (0.5, 1e-9, 1e15, -1.5, 3.3, 0.30000000000000004)
MULTIPLES = (1, 2, 3, 7, 1.0)
BOUNDS = (0, 1, -1, 2, 3, 0.5, 2.0, -1.5, 10**30, 2**64, 1e15)
TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")
# Keywords whose subschemas apply to a part of the instance: a "$ref" cycle through one of
# them ends with the instance; the generated schemas have no other cycles.
DESCENDING = {
    "properties", "additionalProperties", "patternProperties", "propertyNames", "items",
    "prefixItems", "additionalItems", "contains",
}  # fmt: skip
SUBSCHEMA_KEYWORDS = DESCENDING | {
    "allOf", "anyOf", "oneOf", "not", "if", "dependentSchemas", "dependencies",
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
        "dependentSchemas", "additionalItems",  # not "dependencies": restriction 6
    ),
}  # fmt: skip

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(BIG),
    st.sampled_from(FLOATS),
    st.floats(-(2.0**53), 2.0**53, allow_nan=False, allow_infinity=False),
    st.text(alphabet="abcä1 ", max_size=4),
    st.sampled_from(TRICKY),
)


def json_values(leaves: Any) -> Any:
    return st.recursive(
        leaves,
        lambda kids: st.one_of(
            st.lists(kids, max_size=4), st.dictionaries(st.sampled_from(NAMES), kids, max_size=4)
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


@functools.cache
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
        if roll == 6:  # a subschema of the other dialect
            inner = draw(subschema(not d7, depth, (), ()))
            if isinstance(inner, dict):
                return {"$schema": D2020_URI if d7 else D7_URI, **inner}
        schema: dict[str, Any] = {}
        for key in draw(key_lists):
            schema.update(draw(keyword(key, d7, depth - 1, refs, free)))
        return schema

    return draw_schema()


@functools.cache
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
def documents(draw: Any, dialect: str) -> Any:
    """A root schema with 0-2 local definitions that may refer to each other and to the root
    (recursion), maybe with the dialect's own "$schema" (restriction 1)."""
    d7 = dialect == "draft-07"
    defs_key = "definitions" if d7 else draw(st.sampled_from(("$defs", "$defs", "definitions")))
    count = draw(st.integers(0, 2))
    defs = tuple(f"#/{defs_key}/D{i}" for i in range(count))
    root = draw(subschema(d7, 3, defs + ("#",), defs, min_keys=1))
    if count:
        # D<i> may refer to D<j>, j < i, without descending: no cycle that does not descend.
        refs = defs + ("#",)
        root[defs_key] = {f"D{i}": draw(subschema(d7, 2, refs, defs[:i])) for i in range(count)}
    if draw(st.booleans()):
        root = {"$schema": D7_URI if d7 else D2020_URI, **root}
    return root


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
def cases(draw: Any, dialect: str) -> tuple[dict[str, Any], list[Any]]:
    schema = draw(documents(dialect))
    values = schema_values(schema)
    return schema, [placed(i, values) for i in draw(INSTANCES)]


@pytest.mark.parametrize("dialect", ["draft-07", "2020-12"])
def test_agrees_with_jsonschema(dialect: str) -> None:
    counts = {"valid": 0, "invalid": 0, "jsonschema raised": 0, "invalid schema": 0}
    draft7 = dialect == "draft-07"
    oracle_class = jsonschema.Draft7Validator if draft7 else jsonschema.Draft202012Validator

    @SETTINGS
    @given(case=cases(dialect))
    def check(case: tuple[dict[str, Any], list[Any]]) -> None:
        schema, instances = case
        ours = SchemaCheck(schema, dialect)
        try:
            oracle_class.check_schema(schema)
        except jsonschema.SchemaError:
            counts["invalid schema"] += 1
            with pytest.raises(SchemaCompileError):
                ours.compile()
            return
        oracle = oracle_class(schema)  # no format checker: formats are annotations
        # Each instance also with its ints as floats and its 0/1 as booleans: near-misses.
        for instance in [twisted(i, twist) for i in instances for twist in (0, 1, 2)]:
            try:
                expected = oracle.is_valid(instance)
            except Exception:  # noqa: BLE001 (restriction 5)
                counts["jsonschema raised"] += 1
                ours.problems(instance)
                continue
            got = ours.problems(instance)
            counts["valid" if expected else "invalid"] += 1
            assert (got == []) is expected, (
                f"SchemaCheck={got!r} jsonschema valid={expected}\n  dialect={dialect}\n"
                f"  schema={json.dumps(schema)}\n  instance={instance!r}"
            )

    check()
    # meaningful only if both answers occur often
    assert counts["valid"] >= 300 and counts["invalid"] >= 300, counts
