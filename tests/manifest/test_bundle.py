"""$ref bundling: shared $defs and files beside the manifest end up inside each tool's schema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from mcpgen.manifest.load import load_manifest

from .conftest import by_rule, where


def schema_of(res, i: int = 0, key: str = "inputSchema"):
    return res.manifest.tools[i].raw[key]


def assert_self_contained(schema) -> None:
    """Valid 2020-12 and usable with no registry: every ref resolves inside the schema."""
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    list(v.iter_errors({}))  # resolving a missing ref would raise here


def test_shared_defs_are_copied_and_refs_keep_their_text(write) -> None:
    res = load_manifest(
        write(
            "m.yaml",
            """\
$defs:
  Geo: {type: object, properties: {lat: {type: number}}, required: [lat]}
  Address:
    type: object
    properties:
      street: {type: string}
      geo: {$ref: '#/$defs/Geo'}
  Unused: {type: string}
tools:
  - name: a
    inputSchema:
      type: object
      properties:
        home: {$ref: '#/$defs/Address'}
        lat: {$ref: '#/$defs/Geo/properties/lat'}
  - name: b
    inputSchema: {type: object, properties: {x: {type: string}}}
""",
        )
    )
    assert res.diagnostics == []
    s = schema_of(res)
    assert s["properties"]["home"] == {"$ref": "#/$defs/Address"}
    assert s["properties"]["lat"] == {"$ref": "#/$defs/Geo/properties/lat"}
    assert list(s["$defs"]) == ["Address", "Geo"]  # discovery order; Unused is not copied
    assert s["$defs"]["Address"]["properties"]["geo"] == {"$ref": "#/$defs/Geo"}
    assert_self_contained(s)
    v = jsonschema.Draft202012Validator(s)
    assert not list(v.iter_errors({"home": {"geo": {"lat": 1}}, "lat": 2}))
    assert list(v.iter_errors({"home": {"geo": {}}}))
    # the tool without refs is the very object that was loaded
    assert res.manifest.tools[1].raw is res.manifest.raw["tools"][1]
    assert res.manifest.defs["Unused"] == {"type": "string"}


def test_untouched_parts_stay_byte_for_byte(write) -> None:
    tool = {
        "name": "t",
        "description": "d",
        "inputSchema": {
            "type": "object",
            "x-z": 1,
            "properties": {
                "a": {"$ref": "#/$defs/S"},
                "b": {"enum": [{"$ref": "#/$defs/Nope"}]},
                "c": {"const": {"$ref": "http://example.com"}},
                "d": {"default": {"$ref": "x.json"}},
            },
            "$comment": "kept",
        },
        "annotations": {"readOnlyHint": True},
    }
    res = load_manifest(
        write("m.json", json.dumps({"$defs": {"S": {"type": "string"}}, "tools": [tool]}))
    )
    assert res.diagnostics == []  # refs inside enum/const/default are data, not refs
    got = res.manifest.tools[0].raw
    expected = json.loads(json.dumps(tool))
    expected["inputSchema"]["$defs"] = {"S": {"type": "string"}}
    assert json.dumps(got) == json.dumps(expected)


def test_tool_defs_win_and_name_clashes_are_renamed(write) -> None:
    write("common.yaml", "Thing: {type: integer}\n")
    res = load_manifest(
        write(
            "m.yaml",
            """\
$defs:
  Thing: {type: boolean}
  Other: {$ref: 'common.yaml#/Thing'}
tools:
  - name: a
    inputSchema:
      type: object
      $defs:
        Thing: {type: string}
      properties:
        mine: {$ref: '#/$defs/Thing'}
        other: {$ref: '#/$defs/Other'}
        file: {$ref: 'common.yaml#/Thing'}
""",
        )
    )
    assert res.diagnostics == []
    s = schema_of(res)
    assert s["properties"]["mine"] == {"$ref": "#/$defs/Thing"}  # the tool's own, untouched
    assert s["$defs"] == {
        "Thing": {"type": "string"},
        "Other": {"$ref": "#/$defs/common_Thing"},
        "common_Thing": {"type": "integer"},
    }
    assert s["properties"]["file"] == {"$ref": "#/$defs/common_Thing"}  # one copy per target
    assert_self_contained(s)


def test_file_refs_nested_and_relative_to_their_own_file(write) -> None:
    write(
        "schemas/address.json",
        json.dumps(
            {
                "type": "object",
                "properties": {
                    "country": {"$ref": "../shared/country.yaml"},
                    "zip": {"$ref": "#/$defs/Zip"},
                },
                "$defs": {"Zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
            }
        ),
    )
    write("shared/country.yaml", "type: string\nenum: [DE, FR]\n")
    res = load_manifest(
        write(
            "m.yaml",
            """\
tools:
  - name: ship
    inputSchema:
      type: object
      properties:
        to: {$ref: './schemas/address.json'}
        country: {$ref: 'shared/country.yaml#'}
""",
        )
    )
    assert res.diagnostics == []
    s = schema_of(res)
    assert s["properties"] == {
        "to": {"$ref": "#/$defs/address"},
        "country": {"$ref": "#/$defs/country"},
    }
    assert set(s["$defs"]) == {"address", "country", "Zip"}
    assert s["$defs"]["address"]["properties"] == {
        "country": {"$ref": "#/$defs/country"},
        "zip": {"$ref": "#/$defs/Zip"},
    }
    assert_self_contained(s)
    v = jsonschema.Draft202012Validator(s)
    assert not list(v.iter_errors({"to": {"country": "DE", "zip": "12345"}}))
    assert list(v.iter_errors({"to": {"country": "XX"}}))


def test_recursive_schemas_are_bundled_once(write) -> None:
    write(
        "tree.yaml",
        """\
type: object
properties:
  value: {type: integer}
  children: {type: array, items: {$ref: '#'}}
""",
    )
    res = load_manifest(
        write(
            "m.yaml",
            """\
$defs:
  Node:
    type: object
    properties:
      next: {$ref: '#/$defs/Node'}
tools:
  - name: a
    inputSchema:
      type: object
      properties:
        list: {$ref: '#/$defs/Node'}
        tree: {$ref: 'tree.yaml'}
""",
        )
    )
    assert res.diagnostics == []
    s = schema_of(res)
    assert s["$defs"]["Node"]["properties"]["next"] == {"$ref": "#/$defs/Node"}
    assert s["$defs"]["tree"]["properties"]["children"]["items"] == {"$ref": "#/$defs/tree"}
    assert_self_contained(s)
    v = jsonschema.Draft202012Validator(s)
    assert not list(
        v.iter_errors({"tree": {"value": 1, "children": [{"value": 2, "children": []}]}})
    )
    assert list(v.iter_errors({"tree": {"children": [{"value": "x"}]}}))


def test_output_schema_is_bundled_too(write) -> None:
    res = load_manifest(
        write(
            "m.yaml",
            """\
$defs: {R: {type: object}}
tools:
  - {name: a, inputSchema: {type: object}, outputSchema: {$ref: '#/$defs/R'}}
""",
        )
    )
    assert schema_of(res, key="outputSchema") == {
        "$ref": "#/$defs/R",
        "$defs": {"R": {"type": "object"}},
    }


def test_anchor_and_embedded_id_refs_stay_local(write) -> None:
    res = load_manifest(
        write(
            "m.yaml",
            """\
tools:
  - name: a
    inputSchema:
      type: object
      properties:
        a: {$ref: '#pos'}
        b: {$ref: 'urn:example:thing'}
      $defs:
        P: {$anchor: pos, type: integer}
        T: {$id: 'urn:example:thing', type: string}
""",
        )
    )
    assert res.diagnostics == []
    assert "$defs" in schema_of(res) and set(schema_of(res)["$defs"]) == {"P", "T"}


def test_network_refs_are_reported_never_fetched(write) -> None:
    res = load_manifest(
        write(
            "m.yaml",
            """\
tools:
  - name: a
    inputSchema:
      type: object
      properties:
        a: {$ref: 'https://example.com/schemas/a.json'}
        b: {$ref: 'http://127.0.0.1:9/x#/y'}
        c: {$ref: '//example.com/x.json'}
""",
        )
    )
    got = [(d.rule_id, where(d)) for d in res.diagnostics]
    assert got == [("REF_NETWORK", (6, 19)), ("REF_NETWORK", (7, 19)), ("REF_NETWORK", (8, 19))]
    assert "never fetches" in res.diagnostics[0].message
    assert schema_of(res)["properties"]["a"] == {"$ref": "https://example.com/schemas/a.json"}


@pytest.mark.parametrize("ref", ["../../etc/passwd", "../outside.yaml#/X", "/etc/hostname"])
def test_refs_outside_the_manifest_dir(write, tmp_path, ref) -> None:
    (tmp_path / "outside.yaml").write_text("X: {type: string}\n")
    res = load_manifest(
        write("proj/m.yaml", f"tools: [{{name: a, inputSchema: {{$ref: '{ref}'}}}}]\n")
    )
    [d] = [d for d in res.diagnostics if d.rule_id.startswith("REF_")]
    assert d.rule_id == "REF_OUTSIDE_ROOT" and where(d) == (1, 39)
    assert schema_of(res) == {"$ref": ref}


def test_symlink_escaping_the_root_is_outside(write, tmp_path) -> None:
    (tmp_path / "secret.yaml").write_text("type: string\n")
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "link.yaml").symlink_to(tmp_path / "secret.yaml")
    res = load_manifest(
        write("proj/m.yaml", "tools: [{name: a, inputSchema: {type: object, $ref: 'link.yaml'}}]\n")
    )
    assert [d.rule_id for d in res.diagnostics] == ["REF_OUTSIDE_ROOT"]


def test_unresolved_refs(write) -> None:
    write("common.yaml", "A: {type: string}\n")
    write("broken.yaml", "a: [1\n")
    res = load_manifest(
        write(
            "m.yaml",
            """\
$defs: {Known: {type: string}}
tools:
  - name: a
    inputSchema:
      type: object
      properties:
        a: {$ref: '#/$defs/Knwon'}
        b: {$ref: 'missing.yaml'}
        c: {$ref: 'common.yaml#/B'}
        d: {$ref: 'broken.yaml'}
        e: {$ref: '#/properties/nope'}
        f: {$ref: 'common.yaml#nowhere'}
""",
        )
    )
    got = [(d.rule_id, where(d)) for d in res.diagnostics]
    assert got == [("REF_UNRESOLVED", (line, 19)) for line in range(7, 13)]
    msgs = [d.message for d in res.diagnostics]
    assert "Known" in msgs[0]
    assert "no such file" in msgs[1]
    assert "'/B' does not exist" in msgs[2]
    assert "invalid YAML" in msgs[3] and "broken.yaml:2:1" not in msgs[3]


def test_ref_cycle_without_structure(write) -> None:
    write("loop.yaml", "$ref: 'loop.yaml'\n")
    res = load_manifest(
        write(
            "m.yaml",
            """\
$defs:
  A: {$ref: '#/$defs/B'}
  B: {allOf: [{$ref: '#/$defs/A'}]}
tools:
  - name: a
    inputSchema: {type: object, properties: {x: {$ref: '#/$defs/A'}, y: {$ref: 'loop.yaml'}}}
""",
        )
    )
    cycles = by_rule(res.diagnostics, "REF_CYCLE")
    assert len(cycles) == 2 and len(res.diagnostics) == 2
    assert {where(d) for d in cycles} == {(3, 22), (1, 7)}
    assert {d.path.rsplit("/", 1)[-1] for d in cycles} == {"m.yaml", "loop.yaml"}


def test_diagnostics_in_referenced_files_point_into_them(write, tmp_path) -> None:
    write("common.yaml", "A:\n  type: string\n  type: integer\n  $ref: 'https://x.org/s'\n")
    res = load_manifest(
        write("m.yaml", "tools: [{name: a, inputSchema: {type: object, $ref: 'common.yaml#/A'}}]\n")
    )
    got = sorted((d.rule_id, d.path, where(d)) for d in res.diagnostics)
    p = str(tmp_path / "common.yaml")
    assert got == [("DUPLICATE_KEY", p, (3, 3)), ("REF_NETWORK", p, (4, 9))]


def test_shared_def_used_by_many_tools_reports_once(write) -> None:
    tools = "\n".join(
        f"  - {{name: t{i}, inputSchema: {{type: object, $ref: '#/$defs/S'}}}}" for i in range(5)
    )
    res = load_manifest(
        write("m.yaml", f"$defs:\n  S: {{$ref: 'http://x.org/s'}}\ntools:\n{tools}\n")
    )
    assert [(d.rule_id, where(d)) for d in res.diagnostics] == [("REF_NETWORK", (2, 13))]


def test_bundled_copies_are_located_where_they_were_written(write) -> None:
    write("common.yaml", "Person:\n  type: object\n  properties:\n    name: {type: string}\n")
    res = load_manifest(
        write(
            "m.yaml",
            """\
$defs:
  Address:
    type: object
    properties:
      street: {type: string}
tools:
  - name: a
    inputSchema:
      type: object
      properties:
        home: {$ref: '#/$defs/Address'}
        who: {$ref: 'common.yaml#/Person'}
""",
        )
    )
    sm = res.manifest.source_map
    base = res.manifest.tools[0].pointer + "/inputSchema"
    assert (
        sm.locate(f"{base}/$defs/Address/properties/street/type")
        == sm.locate("/$defs/Address/properties/street/type")
        == (5, 22)
    )
    assert sm.locate(f"{base}/$defs/Address/properties/street", key=True) == (5, 7)
    # copied from another file: at the $ref that pulled it in
    assert sm.locate(f"{base}/$defs/Person/properties/name") == (12, 21)
    # the tool's own content is not redirected
    assert sm.locate(f"{base}/properties/home") == (11, 15)


def test_file_refs_that_name_no_usable_file(write, tmp_path) -> None:
    """A NUL byte (escaped or percent-encoded), a symlink loop, a name too long: each is a
    located REF_UNRESOLVED, never an internal error."""
    (tmp_path / "loop1.json").symlink_to("loop2.json")
    (tmp_path / "loop2.json").symlink_to("loop1.json")
    long_name = "x" * 300 + ".json"
    res = load_manifest(
        write(
            "m.yaml",
            f"""\
tools:
  - name: a
    inputSchema:
      type: object
      properties:
        a: {{$ref: "x\\0.json"}}
        b: {{$ref: "x%00.json"}}
        c: {{$ref: "loop1.json"}}
        d: {{$ref: "{long_name}"}}
""",
        )
    )
    got = [(d.rule_id, where(d)) for d in res.diagnostics]
    assert got == [("REF_UNRESOLVED", (line, 19)) for line in range(6, 10)]
    msgs = [d.message for d in res.diagnostics]
    assert msgs[0] == "$ref 'x\\x00.json': a file name cannot hold a NUL character"
    assert msgs[1] == "$ref 'x%00.json': a file name cannot hold a NUL character"
    assert "loop" in msgs[2].lower()
    assert "too long" in msgs[3]
