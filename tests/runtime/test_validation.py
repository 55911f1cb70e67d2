"""``mcpgen_runtime.server.validation``: jsonschema-rs behind ``SchemaCheck``.

Messages (located, sorted, capped), the two dialects, local ``$ref`` resolution, the refusal
of every fetch (checked against real sockets and files), the values jsonschema-rs must never
see, and a guard differential test against the ``jsonschema`` library.
"""

from __future__ import annotations

import functools
import json
import os
import select
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped,unused-ignore]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpgen_runtime.server.validation import SchemaCheck, SchemaCompileError, pydantic_problems

D7_URI = "http://json-schema.org/draft-07/schema#"
D2020_URI = "https://json-schema.org/draft/2020-12/schema"
CANNOT = "- (root): the value cannot be checked against the schema ({})"


# ---------------------------------------------------------------- messages


def test_valid_instance_has_no_problems() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]}
    assert SchemaCheck(schema, "2020-12").problems({"a": 1}) == []


def test_messages_are_located_sorted_and_capped() -> None:
    schema = {
        "type": "object",
        "properties": {
            "user": {
                "type": "object",
                "properties": {"age": {"type": "integer", "minimum": 0}},
                "required": ["name"],
            },
            "tags": {"type": "array", "items": {"type": "string"}},
            "mode": {"enum": ["fast", "slow"]},
            "a/b~c": {"type": "string"},
        },
        "required": ["id"],
        "additionalProperties": False,
    }
    instance = {
        "user": {"age": -1.5},
        "tags": ["x", 3, None],
        "mode": "medium",
        "extra": 1,
        "a/b~c": 1,
    }
    assert SchemaCheck(schema, "2020-12").problems(instance) == [
        '- (root): "id" is a required property',
        "- (root): Additional properties are not allowed ('extra' was unexpected)",
        '- /a~1b~0c: 1 is not of type "string"',  # RFC 6901 escapes
        '- /mode: "medium" is not one of "fast" or "slow"',
        '- /tags/1: 3 is not of type "string"',
        '- /tags/2: null is not of type "string"',
        '- /user: "name" is a required property',
        "- /user/age: -1.5 is less than the minimum of 0",
        "- ... and 1 more",  # /user/age: -1.5 is not of type "integer"
    ]


def test_exactly_eight_problems_are_not_capped() -> None:
    lines = SchemaCheck({"items": {"type": "integer"}}, "2020-12").problems(list("abcdefgh"))
    assert len(lines) == 8 and lines[0] == '- /0: "a" is not of type "integer"'


def test_sorting_is_by_path_text_then_message() -> None:
    lines = SchemaCheck({"items": {"type": "integer"}}, "draft-07").problems(list("abcdefghijk"))
    paths = [line.split(":")[0] for line in lines[:-1]]
    assert paths == ["- /0", "- /1", "- /10", "- /2", "- /3", "- /4", "- /5", "- /6"]
    assert lines[-1] == "- ... and 3 more"


def test_long_messages_are_clipped() -> None:
    (line,) = SchemaCheck({"const": "x" * 400}, "2020-12").problems("y")
    assert line.startswith('- (root): "xxx') and line.endswith("...")
    assert len(line) == len("- (root): ") + 300


def test_root_false_schema() -> None:
    assert SchemaCheck(False, "draft-07").problems(1) == [  # type: ignore[arg-type]
        "- (root): False schema does not allow 1"
    ]
    assert SchemaCheck(True, "2020-12").problems(None) == []  # type: ignore[arg-type]


def test_pydantic_problems() -> None:
    errors: list[dict[str, Any]] = [
        {"loc": ("a", 0, "b/c"), "msg": "Field required"},
        {"loc": (), "msg": "x" * 400},
    ]
    assert pydantic_problems(errors) == [
        "- /a/0/b~1c: Field required",
        "- (root): " + "x" * 297 + "...",
    ]
    assert len(pydantic_problems([{"loc": ("a",), "msg": "m"}] * 20)) == 8


def test_unknown_dialect_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="2019-09"):
        SchemaCheck({}, "2019-09")


# ---------------------------------------------------------------- dialects and local $ref


def test_items_array_is_draft7_and_prefix_items_is_2020_12() -> None:
    tuple_d7 = {"items": [{"type": "string"}], "additionalItems": False}
    assert SchemaCheck(tuple_d7, "draft-07").problems(["a"]) == []
    assert SchemaCheck(tuple_d7, "draft-07").problems([1]) != []
    assert SchemaCheck(tuple_d7, "draft-07").problems(["a", "b"]) != []
    tuple_2020 = {"prefixItems": [{"type": "string"}], "items": False}
    assert SchemaCheck(tuple_2020, "2020-12").problems(["a"]) == []
    assert SchemaCheck(tuple_2020, "2020-12").problems([1]) == ['- /0: 1 is not of type "string"']
    assert SchemaCheck(tuple_2020, "2020-12").problems(["a", "b"]) != []
    # prefixItems is an unknown keyword (ignored) in draft-07; an array "items" is an invalid
    # 2020-12 schema (jsonschema-rs checks schemas against their meta-schema; jsonschema does not)
    assert SchemaCheck({"prefixItems": [{"type": "string"}]}, "draft-07").problems([1]) == []
    with pytest.raises(SchemaCompileError, match='/items: \\[true\\] is not of types "boolean"'):
        SchemaCheck({"items": [True]}, "2020-12").compile()


def test_dependencies_and_dependent_required() -> None:
    schema = {"dependencies": {"a": ["b"], "b": {"required": ["c"]}}}
    for dialect in ("draft-07", "2020-12"):
        check = SchemaCheck(schema, dialect)
        assert check.problems({"a": 1, "b": 1}) == ['- (root): "c" is a required property']
        assert check.problems({"a": 1, "b": 1, "c": 1}) == []
    # jsonschema-rs applies draft-07's "dependencies" in 2020-12 too (jsonschema ignores it
    # there); 2020-12's "dependentRequired" is ignored in draft-07.
    assert SchemaCheck({"dependentRequired": {"a": ["b"]}}, "2020-12").problems({"a": 1}) != []
    assert SchemaCheck({"dependentRequired": {"a": ["b"]}}, "draft-07").problems({"a": 1}) == []


def test_draft7_ref_overrides_siblings_2020_12_does_not() -> None:
    d7 = {
        "definitions": {"s": {"type": "string"}},
        "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}},
    }
    d2020 = {
        "$defs": {"s": {"type": "string"}},
        "properties": {"a": {"$ref": "#/$defs/s", "maxLength": 1}},
    }
    assert SchemaCheck(d7, "draft-07").problems({"a": "abc"}) == []
    assert SchemaCheck(d2020, "2020-12").problems({"a": "abc"}) != []


def test_local_refs_resolve() -> None:
    schema = {
        "type": "object",
        "properties": {"loc": {"$ref": "#/$defs/Location"}, "kids": {"items": {"$ref": "#"}}},
        "$defs": {"Location": {"type": "object", "required": ["city"]}},
    }
    check = SchemaCheck(schema, "2020-12")
    assert check.problems({"loc": {"city": "Paris"}, "kids": [{"loc": {"city": "x"}}]}) == []
    assert check.problems({"kids": [{"loc": {}}]}) == [
        '- /kids/0/loc: "city" is a required property'
    ]
    d7 = {"properties": {"a": {"$ref": "#/definitions/A"}}, "definitions": {"A": {"const": 1}}}
    assert SchemaCheck(d7, "draft-07").problems({"a": 2}) != []
    anchor = {"$ref": "#item", "$defs": {"i": {"$anchor": "item", "type": "string"}}}
    assert SchemaCheck(anchor, "2020-12").problems(1) != []


def test_compile_is_lazy_once_and_its_error_is_kept() -> None:
    check = SchemaCheck({"type": 12}, "2020-12")  # nothing happens yet
    with pytest.raises(SchemaCompileError, match=r"compiled: /type: 12 is not valid") as one:
        check.compile()
    with pytest.raises(SchemaCompileError) as two:
        check.problems({})
    assert one.value is two.value


@pytest.mark.parametrize(
    "schema,reason",
    [
        ({"pattern": "("}, '/pattern: "(" is not a "regex"'),
        ({"$ref": "#/$defs/nope"}, "Pointer '/$defs/nope' does not exist"),
        ({"$ref": "#nowhere"}, "Anchor 'nowhere' does not exist"),
        ({"anyOf": []}, "/anyOf: [] has less than 1 item"),
        ({1: {}}, "Dict key must be str"),
    ],
)
def test_invalid_schema_raises_schema_compile_error(schema: Any, reason: str) -> None:
    with pytest.raises(SchemaCompileError) as err:
        SchemaCheck(schema, "2020-12").problems(1)
    assert reason in str(err.value)


# ---------------------------------------------------------------- nothing is ever fetched


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)
    yield sock
    sock.close()


def assert_no_connection(sock: socket.socket) -> None:
    readable, _, _ = select.select([sock], [], [], 0.2)  # a connection attempt is readable
    assert not readable, "the validator connected to the test socket"
    with pytest.raises(BlockingIOError):
        sock.accept()


@pytest.mark.parametrize("scheme", ["http", "https"])
@pytest.mark.parametrize("dialect", ["2020-12", "draft-07"])
def test_remote_ref_is_refused_without_connecting(
    listener: socket.socket, scheme: str, dialect: str
) -> None:
    uri = f"{scheme}://127.0.0.1:{listener.getsockname()[1]}/s.json"
    for schema in (
        {"$ref": uri},
        {"properties": {"a": {"$ref": uri + "#/x"}}},
        {"definitions": {"unused": {"$ref": uri}}},  # resolved eagerly, used or not
        {"anyOf": [True, {"$ref": uri}]},
    ):
        check = SchemaCheck(schema, dialect)
        with pytest.raises(SchemaCompileError) as err:
            check.problems({"a": 1})
        assert str(err.value) == (
            f"schema cannot be compiled: $ref {uri!r} refused: "
            "generated servers never fetch schemas"
        )
    assert_no_connection(listener)


def test_id_relative_ref_is_refused_without_connecting(listener: socket.socket) -> None:
    base = f"http://127.0.0.1:{listener.getsockname()[1]}"
    schema = {"$id": f"{base}/root.json", "properties": {"a": {"$ref": "sibling.json"}}}
    with pytest.raises(SchemaCompileError, match=f"'{base}/sibling.json' refused"):
        SchemaCheck(schema, "2020-12").compile()
    assert_no_connection(listener)


def test_unknown_meta_schema_is_not_fetched(listener: socket.socket) -> None:
    meta = f"http://127.0.0.1:{listener.getsockname()[1]}/meta.json"
    check = SchemaCheck({"$schema": meta, "type": "string"}, "2020-12")
    assert check.problems("x") == []  # the library tries, is refused, and goes on
    assert check.problems(1) != []
    assert_no_connection(listener)


def _atime_is_tracked(tmp_path: Path) -> bool:
    """Whether reading a file moves its atime here (not on noatime mounts)."""
    probe = tmp_path / "probe.json"
    probe.write_text("{}")
    os.utime(probe, ns=(0, 10**18))
    probe.read_text()
    return probe.stat().st_atime_ns != 0


def test_file_ref_is_refused_and_the_file_not_read(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_text(json.dumps({"type": "string"}))
    os.utime(target, ns=(0, 10**18))  # atime < mtime: any read moves atime (relatime too)
    for schema in ({"$ref": target.as_uri()}, {"items": {"$ref": target.as_uri() + "#"}}):
        with pytest.raises(SchemaCompileError, match=f"'{target.as_uri()}' refused"):
            SchemaCheck(schema, "2020-12").problems("x")
    if _atime_is_tracked(tmp_path):
        assert target.stat().st_atime_ns == 0, "the referenced file was read"


def test_relative_ref_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "other.json").write_text(json.dumps({"type": "string"}))
    monkeypatch.chdir(tmp_path)  # a resolver relative to the working directory would find it
    for dialect in ("2020-12", "draft-07"):
        with pytest.raises(SchemaCompileError, match="'other.json' refused"):
            SchemaCheck({"$ref": "other.json"}, dialect).problems("x")


# ---------------------------------------------------------------- values it must not decide


def _nest(depth: int, leaf: Any, as_dict: bool = False) -> Any:
    value = leaf
    for _ in range(depth):
        value = {"a": value} if as_dict else [value]
    return value


@pytest.mark.parametrize("dialect", ["2020-12", "draft-07"])
def test_huge_integers(dialect: str) -> None:
    # jsonschema-rs decides exactly up to Python's int->str limit (jsonschema overflowed)
    assert SchemaCheck({"multipleOf": 0.1}, dialect).problems(10**400) == []
    (line,) = SchemaCheck({"multipleOf": 3}, dialect).problems(10**400)
    assert line.startswith("- (root): 1000") and line.endswith("...")  # clipped
    assert SchemaCheck({"multipleOf": 2.5}, dialect).problems(10**400 + 1) != []
    assert SchemaCheck({"maximum": 5}, dialect).problems(10**400) != []
    # beyond the limit it would read 0 (valid against {"maximum": 5}): refused first
    for huge in (10**5000, -(10**5000), [1, {"a": 10**4300}]):
        assert SchemaCheck({"maximum": 5}, dialect).problems(huge) == [CANNOT.format("ValueError")]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_floats_are_refused(value: float) -> None:
    # jsonschema-rs would read null: {} and {"minimum": 0} would accept them
    for schema in ({}, {"minimum": 0}, {"type": ["number", "null"]}):
        check = SchemaCheck(schema, "2020-12")
        assert check.problems(value) == [CANNOT.format("ValueError")]
        assert check.problems({"a": [1, (2, value)]}) == [CANNOT.format("ValueError")]

    class Sub(float):
        pass

    assert SchemaCheck({}, "draft-07").problems([Sub(value)]) == [CANNOT.format("ValueError")]


@pytest.mark.parametrize("as_dict", [False, True])
@pytest.mark.parametrize("dialect", ["2020-12", "draft-07"])
def test_deep_instances_are_refused(dialect: str, as_dict: bool) -> None:
    key = "definitions" if dialect == "draft-07" else "$defs"
    node = {"type": ["array", "object", "integer"], "items": {"$ref": f"#/{key}/n"}}
    node["additionalProperties"] = {"$ref": f"#/{key}/n"}
    recursive = {"$ref": f"#/{key}/n", key: {"n": node}}
    for schema in (recursive, {}):
        check = SchemaCheck(schema, dialect)
        assert check.problems(_nest(5000, 1, as_dict)) == [CANNOT.format("RecursionError")]
        assert check.problems(_nest(129, 1, as_dict)) == [CANNOT.format("RecursionError")]
        assert check.problems(_nest(128, 1, as_dict)) == []
    (line,) = SchemaCheck(recursive, dialect).problems(_nest(128, "x", as_dict))
    assert line.endswith('"x" is not of types "integer", "array", "object"')


def test_deep_instance_in_a_small_thread_stack() -> None:
    """128 levels of a recursive schema in a 1 MiB thread stack: an answer, not a SIGSEGV."""
    schema = {
        "$ref": "#/$defs/n",
        "$defs": {
            "n": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#/$defs/n"}}]}
        },
    }
    out: list[list[str]] = []
    previous = threading.stack_size(1 << 20)
    try:
        thread = threading.Thread(
            target=lambda: out.append(SchemaCheck(schema, "2020-12").problems(_nest(128, "x")))
        )
        thread.start()
        thread.join()
    finally:
        threading.stack_size(previous)
    assert out and out[0] != []


def test_cycles_are_refused() -> None:
    loop: list[Any] = []
    loop.append(loop)
    assert SchemaCheck({}, "2020-12").problems(loop) == [CANNOT.format("RecursionError")]


@pytest.mark.parametrize(
    "value,exc",
    [
        ({1: 2}, "ValueError"),
        (b"x", "ValueError"),
        ({"a", "b"}, "ValueError"),
        (object(), "ValueError"),
        ("\ud800", "UnicodeEncodeError"),
    ],
)
def test_values_the_library_rejects(value: Any, exc: str) -> None:
    assert SchemaCheck({}, "2020-12").problems(value) == [CANNOT.format(exc)]


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
