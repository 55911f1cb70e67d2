"""YAML is loaded with YAML 1.2 (JSON-compatible) rules; YAML 1.1 surprises are reported."""

from __future__ import annotations

import pytest

from mcpgen.errors import McpgenError
from mcpgen.manifest.sourcemap import parse_text

from .conftest import by_rule, where


def load(text: str):
    return parse_text(text, "t.yaml")


@pytest.mark.parametrize(
    "scalar, value, rule",
    [
        ("yes", "yes", "YAML_IMPLICIT_TYPE"),
        ("No", "No", "YAML_IMPLICIT_TYPE"),
        ("on", "on", "YAML_IMPLICIT_TYPE"),
        ("OFF", "OFF", "YAML_IMPLICIT_TYPE"),
        ("y", "y", "YAML_IMPLICIT_TYPE"),
        ("n", "n", "YAML_IMPLICIT_TYPE"),
        ("1e3", 1000.0, "YAML_IMPLICIT_TYPE"),
        ("0o17", 15, "YAML_IMPLICIT_TYPE"),
        ("017", 17, "YAML_IMPLICIT_TYPE"),
        ("1_000", "1_000", "YAML_IMPLICIT_TYPE"),
        ("0b101", "0b101", "YAML_IMPLICIT_TYPE"),
        ("1:30", "1:30", "YAML_IMPLICIT_TYPE"),
        (".inf", ".inf", "YAML_IMPLICIT_TYPE"),
        (".nan", ".nan", "YAML_IMPLICIT_TYPE"),
        ("2024-01-31", "2024-01-31", "YAML_TIMESTAMP"),
        ("2024-01-31T10:00:00Z", "2024-01-31T10:00:00Z", "YAML_TIMESTAMP"),
        ("2001-12-14 21:59:43.10 -5", "2001-12-14 21:59:43.10 -5", "YAML_TIMESTAMP"),
    ],
)
def test_yaml11_traps_load_safely_and_warn(scalar, value, rule) -> None:
    doc = load(f"a:\n  b: {scalar}\n")
    got = doc.value["a"]["b"]
    assert got == value and type(got) is type(value)
    assert [d.rule_id for d in doc.diagnostics] == [rule]
    d = doc.diagnostics[0]
    assert where(d) == (2, 6) and d.location.pointer == "/a/b"
    assert d.severity.label == "warning"
    assert repr(scalar) in d.message


@pytest.mark.parametrize(
    "scalar, value",
    [
        ("true", True),
        ("False", False),
        ("TRUE", True),
        ("null", None),
        ("~", None),
        ("", None),
        ("12", 12),
        ("-3", -3),
        ("0", 0),
        ("0x1F", 31),
        ("1.5", 1.5),
        ("-0.5e+3", -500.0),
        ("1.0e-3", 0.001),
        ("'yes'", "yes"),
        ('"2024-01-31"', "2024-01-31"),
        ("'1e3'", "1e3"),
        ("!!str yes", "yes"),
        ("!!int '42'", 42),
        ("!!float 1", 1.0),
        ("!!bool yes", True),
        ("hello world", "hello world"),
        ("Yesterday", "Yesterday"),
    ],
)
def test_plain_values_without_warnings(scalar, value) -> None:
    doc = load(f"k: {scalar}\n")
    got = doc.value["k"]
    assert got == value and type(got) is type(value)
    assert doc.diagnostics == []


def test_protocol_dates_are_not_reported() -> None:
    doc = load("protocol: [2025-06-18, 2025-11-25]\nother: 2025-06-18\n")
    assert doc.value["protocol"] == ["2025-06-18", "2025-11-25"]
    assert [(d.rule_id, d.location.pointer) for d in doc.diagnostics] == [
        ("YAML_TIMESTAMP", "/other")
    ]


def test_boolean_words_as_keys_stay_strings() -> None:
    doc = load("properties:\n  on: {type: string}\n  x: 1\n  y: 2\n")
    assert list(doc.value["properties"]) == ["on", "x", "y"]
    [d] = doc.diagnostics  # `y` is a common property name: only yes/no/on/off keys warn
    assert (d.rule_id, where(d), d.location.pointer) == (
        "YAML_IMPLICIT_TYPE",
        (2, 3),
        "/properties/on",
    )


def test_duplicate_keys_yaml() -> None:
    doc = load("tools:\n  - name: a\n    name: b\n")
    assert doc.value == {"tools": [{"name": "b"}]}
    [d] = by_rule(doc.diagnostics, "DUPLICATE_KEY")
    assert where(d) == (3, 5) and d.severity.label == "error"
    assert [(r.line, r.col) for r in d.related] == [(2, 5)]
    assert "'name'" in d.message


def test_duplicate_keys_json() -> None:
    doc = parse_text('{"tools": [\n {"name": "a",\n  "name": "b"}]}', "t.json")
    assert doc.value == {"tools": [{"name": "b"}]}
    [d] = by_rule(doc.diagnostics, "DUPLICATE_KEY")
    assert where(d) == (3, 3) and d.location.pointer == "/tools/0/name"
    assert [(r.line, r.col) for r in d.related] == [(2, 3)]


def test_anchors_aliases_and_merge_keys() -> None:
    text = (
        "base: &b {type: string, minLength: 1}\np:\n  a: *b\n  c:\n    <<: *b\n    minLength: 3\n"
    )
    doc = load(text)
    assert doc.value["p"]["a"] == {"type": "string", "minLength": 1}
    assert doc.value["p"]["c"] == {"type": "string", "minLength": 3}
    # aliases are copies: the tree has no shared objects
    assert doc.value["p"]["a"] is not doc.value["base"]
    assert doc.source_map.positions["/p/a"] == (3, 6)
    assert doc.diagnostics == []


@pytest.mark.parametrize(
    "text, message, pos",
    [
        ("a: !custom x\n", "unsupported YAML tag !custom", (1, 4)),
        ("a: !!int nope\n", "is not a valid int", (1, 4)),
        ("a: *nothing\n", "undefined alias *nothing", (1, 4)),
        ("a: &x [1, *x]\n", "recursive alias *x", (1, 11)),
        ("a: 1\n---\nb: 2\n", "more than one YAML document", (2, 1)),
        ("? [a, b]\n: 1\n", "mapping keys must be strings", (1, 3)),
        ("a: b: c\n", "invalid YAML: mapping values are not allowed", (1, 5)),
        ("a:\n\tb: 1\n", "invalid YAML", (2, 1)),
    ],
)
def test_unloadable_yaml_raises_one_located_error(text, message, pos) -> None:
    with pytest.raises(McpgenError) as exc:
        load(text)
    assert message in exc.value.message
    assert (exc.value.line, exc.value.col) == pos
    assert exc.value.path == "t.yaml"
