"""Every JSON pointer maps to the exact 1-based line:col of its value (and key), YAML and JSON."""

from __future__ import annotations

import json

import pytest

from mcpgen.manifest.sourcemap import load_document, parse_text

YAML = """\
server:
  name: demo
tools:
  - name: first
    inputSchema:
      type: object
      properties:
        city: {type: string, "x/y": 1}
  - name: "second"
    description: >
      folded text
    inputSchema: {type: object}
"""

JSON = """{
  "server": {"name": "demo"},
  "tools": [
    {"name": "first",
     "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "x/y": 1}}}},
    {  "name" :  "second", "inputSchema": {}}
  ]
}"""


@pytest.mark.parametrize(
    "pointer, value_pos, key_pos",
    [
        ("", (1, 1), None),
        ("/server", (2, 3), (1, 1)),
        ("/server/name", (2, 9), (2, 3)),
        ("/tools", (4, 3), (3, 1)),
        ("/tools/0", (4, 5), None),
        ("/tools/0/name", (4, 11), (4, 5)),
        ("/tools/0/inputSchema/properties/city", (8, 15), (8, 9)),
        ("/tools/0/inputSchema/properties/city/type", (8, 22), (8, 16)),
        ("/tools/0/inputSchema/properties/city/x~1y", (8, 37), (8, 30)),
        ("/tools/1/name", (9, 11), (9, 5)),
        ("/tools/1/description", (10, 18), (10, 5)),
        ("/tools/1/inputSchema/type", (12, 25), (12, 19)),
    ],
)
def test_yaml_positions(pointer, value_pos, key_pos) -> None:
    sm = parse_text(YAML, "m.yaml").source_map
    assert sm.positions[pointer] == value_pos
    if key_pos is not None:
        assert sm.key_positions[pointer] == key_pos
        assert sm.locate(pointer, key=True) == key_pos
    assert sm.locate(pointer) == value_pos


@pytest.mark.parametrize(
    "pointer, value_pos, key_pos",
    [
        ("", (1, 1), None),
        ("/server", (2, 13), (2, 3)),
        ("/server/name", (2, 22), (2, 14)),
        ("/tools", (3, 12), (3, 3)),
        ("/tools/0", (4, 5), None),
        ("/tools/0/name", (4, 14), (4, 6)),
        ("/tools/0/inputSchema/type", (5, 30), (5, 22)),
        ("/tools/0/inputSchema/properties/city/type", (5, 72), (5, 64)),
        ("/tools/0/inputSchema/properties/city/x~1y", (5, 89), (5, 82)),
        ("/tools/1", (6, 5), None),
        ("/tools/1/name", (6, 18), (6, 8)),
        ("/tools/1/inputSchema", (6, 43), (6, 28)),
    ],
)
def test_json_positions(pointer, value_pos, key_pos) -> None:
    doc = parse_text(JSON, "m.json")
    assert doc.value == json.loads(JSON)
    sm = doc.source_map
    assert sm.locate(pointer) == value_pos
    assert pointer in sm.positions and sm.positions[pointer] == value_pos
    if key_pos is not None:
        assert sm.key_positions.get(pointer) == key_pos


@pytest.mark.parametrize("name, text", [("m.yaml", YAML), ("m.json", JSON)])
def test_unknown_pointer_falls_back_to_nearest_ancestor(name, text) -> None:
    sm = parse_text(text, name).source_map
    assert sm.locate("/tools/0/nope/deeper") == sm.locate("/tools/0")
    assert sm.locate("/tools/99") == sm.locate("/tools")
    assert "/tools/99" not in sm.positions
    assert sm.positions.get("/tools/99") is None


def test_columns_count_characters_not_bytes() -> None:
    text = 'a: "é€😀"\nb: [ "ü", 2 ]\n'
    sm = parse_text(text, "u.yaml").source_map
    assert sm.positions["/b/1"] == (2, 11)
    js = '{"a": "é€😀", "b": 2}'
    assert parse_text(js, "u.json").source_map.positions["/b"] == (1, 19)


def test_bom_is_skipped_and_positions_stay_right(tmp_path) -> None:
    p = tmp_path / "bom.json"
    p.write_bytes(b'\xef\xbb\xbf{"tools": []}')
    doc = load_document(p)
    assert doc.value == {"tools": []}
    assert doc.source_map.positions["/tools"] == (1, 11)


def test_json_extension_forces_json_and_other_text_sniffs(tmp_path) -> None:
    # YAML-only syntax in a .json file is a JSON error, with line:col
    p = tmp_path / "x.json"
    p.write_text("{\n  tools: []\n}\n")
    with pytest.raises(Exception) as exc:
        load_document(p)
    assert (exc.value.line, exc.value.col) == (2, 3)
    # a file without extension starting with "{" that is flow YAML still loads
    q = tmp_path / "manifest"
    q.write_text("{tools: []}\n")
    assert load_document(q).value == {"tools": []}


@pytest.mark.parametrize(
    "text, message, pos",
    [
        ('{"a": "NaN",\n "b": NaN}', "NaN is not valid JSON", (2, 7)),
        ('{"a": "x -Infinity", "b": -Infinity}', "-Infinity is not valid JSON", (1, 27)),
        ('{"a": "1e400",\n "max": 1e400}', "1e400 is too large for a JSON number", (2, 9)),
    ],
)
def test_json_numbers_outside_json(text, message, pos) -> None:
    from mcpgen.errors import McpgenError

    with pytest.raises(McpgenError) as exc:
        parse_text(text, "n.json")
    assert message in exc.value.message and (exc.value.line, exc.value.col) == pos
