"""``mcpgen_runtime.server.validation``: jsonschema-rs behind ``SchemaCheck``.

Messages (located, sorted, capped), the two dialects, local ``$ref`` resolution, the refusal
of every fetch (checked against real sockets and files), the values jsonschema-rs must never
see. The guard differential test against the ``jsonschema`` library is in
test_validation_agrees.py.
"""

from __future__ import annotations

import json
import os
import select
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
