"""load_manifest: the accepted shapes, structure errors at the offending value, require_manifest."""

from __future__ import annotations

import json

import pytest

from mcpgen.errors import McpgenError
from mcpgen.manifest.load import load_manifest, load_manifest_text, require_manifest
from mcpgen.manifest.model import KNOWN_REVISIONS

from .conftest import where

TOOL = {"name": "echo", "description": "Echo", "inputSchema": {"type": "object"}}


def test_full_manifest(write) -> None:
    p = write(
        "weather.yaml",
        """\
server:
  name: weather-server
  version: 1.2.0
  title: Weather
  websiteUrl: https://example.com
protocol: [2025-11-25, 2025-06-18]
tools:
  - name: forecast
    inputSchema: {type: object, properties: {city: {type: string}}}
x-notes: extension keys are allowed
""",
    )
    res = load_manifest(p)
    assert res.diagnostics == []
    m = res.manifest
    assert m is not None and m.path == str(p)
    assert (m.server.name, m.server.version, m.server.title) == (
        "weather-server",
        "1.2.0",
        "Weather",
    )
    assert m.server.website_url == "https://example.com"
    assert m.revisions == ("2025-06-18", "2025-11-25")  # oldest first, as KNOWN_REVISIONS
    assert [t.name for t in m.tools] == ["forecast"]
    assert m.tools[0].pointer == "/tools/0"
    assert m.tools[0].input_schema["properties"]["city"] == {"type": "string"}
    assert m.source_map.locate(m.tools[0].pointer + "/name") == (8, 11)


def test_defaults_server_name_from_file_stem_and_all_revisions(write) -> None:
    m = load_manifest(write("my-tools.yaml", "tools: []\n")).manifest
    assert m is not None
    assert (m.server.name, m.server.version) == ("my-tools", "0.1.0")
    assert m.revisions == KNOWN_REVISIONS
    assert load_manifest(
        write("one.yaml", "protocol: 2025-03-26\ntools: []\n")
    ).manifest.revisions == ("2025-03-26",)


def test_tools_list_result_is_a_manifest(write) -> None:
    dump = {
        "tools": [TOOL],
        "nextCursor": "abc",
        "_meta": {},
        "resultType": "complete",
        "ttlMs": 0,
        "cacheScope": "public",
    }
    res = load_manifest(write("dump.json", json.dumps(dump, indent=2)))
    assert res.diagnostics == []
    assert res.manifest.server.name == "dump"
    assert [t.raw for t in res.manifest.tools] == [TOOL]
    assert res.manifest.tools[0].pointer == "/tools/0"


def test_jsonrpc_response_wrapping_a_result(write) -> None:
    resp = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [TOOL, TOOL | {"name": "b"}]}}
    res = load_manifest(write("live.json", json.dumps(resp, indent=1)))
    assert res.diagnostics == []
    assert [t.name for t in res.manifest.tools] == ["echo", "b"]
    assert res.manifest.tools[1].pointer == "/result/tools/1"
    assert res.manifest.source_map.locate("/result/tools/1/name")[0] > 1


def test_bare_list_of_tools(write) -> None:
    res = load_manifest(write("tools.yaml", "- name: a\n  inputSchema: {type: object}\n"))
    assert res.diagnostics == []
    assert res.manifest.tools[0].pointer == "/0"
    assert res.manifest.raw == [{"name": "a", "inputSchema": {"type": "object"}}]


def test_raw_tool_is_kept_exactly(write) -> None:
    tool = {
        "_meta": {"k": [1, 2.5, None]},
        "name": "z",
        "inputSchema": {
            "type": "object",
            "additionalProperties": False,
            "x-custom": {"$ref": "not-a-ref-here"},
        },
        "unknownKey": True,
        "outputSchema": {"type": "object"},
        "icons": [{"src": "data:,x"}],
    }
    res = load_manifest(write("t.json", json.dumps({"tools": [tool]})))
    assert res.diagnostics == []
    raw = res.manifest.tools[0].raw
    assert raw == tool and json.dumps(raw) == json.dumps(tool)  # same keys, same order


WRONG = """\
server:
  name: 5
  nmae: x
protocol: [2025-11-25, 2026-07-29]
tools:
  - name: ""
    inputSchema: {type: array}
    annotations: {readOnlyHint: "yes"}
    icons: [{mimeType: image/png}]
  - 7
  - description: no name
    inputSchema: {type: object}
"""


def test_structure_errors_one_per_problem_at_the_value(write) -> None:
    res = load_manifest(write("wrong.yaml", WRONG))
    got = sorted((where(d), d.rule_id, d.message) for d in res.diagnostics)
    assert got == [
        ((2, 9), "MANIFEST_SCHEMA", "`server.name` must be a string, not the number 5"),
        ((3, 3), "MANIFEST_SCHEMA", "unknown key `nmae` in `server`; did you mean `name`?"),
        (
            (4, 24),
            "MANIFEST_REVISION_UNKNOWN",
            "unknown MCP revision '2026-07-29' (known: " + ", ".join(KNOWN_REVISIONS) + ")"
            "; did you mean '2026-07-28'?",
        ),
        ((6, 11), "MANIFEST_SCHEMA", "`tools[0].name` must not be empty"),
        (
            (7, 25),
            "MANIFEST_SCHEMA",
            "`tools[0].inputSchema.type` must be \"object\", not the string 'array'",
        ),
        (
            (8, 33),
            "MANIFEST_SCHEMA",
            "`tools[0].annotations.readOnlyHint` must be true or false, not the string 'yes'",
        ),
        ((9, 13), "MANIFEST_SCHEMA", "`tools[0].icons[0]` is missing the required key `src`"),
        ((10, 5), "MANIFEST_SCHEMA", "`tools[1]` must be a mapping, not the number 7"),
        ((11, 5), "MANIFEST_SCHEMA", "`tools[2]` is missing the required key `name`"),
    ]
    assert all(d.severity.label == "error" for d in res.diagnostics)
    # still a manifest: the later layers see the tools that are mappings
    assert [t.pointer for t in res.manifest.tools] == ["/tools/0", "/tools/2"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("just a string\n", "found the string 'just a string'"),
        ("42\n", "found the number 42"),
        ("", "the file is empty"),
        ("# only a comment\n", "the file is empty"),
    ],
)
def test_not_a_manifest_at_all(write, text, message) -> None:
    res = load_manifest(write("x.yaml", text))
    assert res.manifest is None
    [d] = res.diagnostics
    assert d.rule_id == "MANIFEST_SCHEMA" and message in d.message and where(d) == (1, 1)


def test_tools_not_a_list(write) -> None:
    res = load_manifest(write("x.yaml", "server: {name: a}\ntools:\n  a: 1\n"))
    assert res.manifest is None
    [d] = res.diagnostics
    assert (where(d), d.message) == ((3, 3), "`tools` must be a list, not a mapping")


def test_missing_tools(write) -> None:
    res = load_manifest(write("x.yaml", "server: {name: a}\n"))
    assert res.manifest is None
    assert [d.message for d in res.diagnostics] == [
        "the manifest is missing the required key `tools`"
    ]


def test_require_manifest(write) -> None:
    good = write("good.yaml", "tools: [{name: a, inputSchema: {type: object}}]\n")
    assert require_manifest(good).tools[0].name == "a"
    # warnings do not stop generators
    assert require_manifest(
        write("w.yaml", "tools: [{name: a, inputSchema: {type: object}, title: yes}]\n")
    )
    with pytest.raises(McpgenError) as exc:
        require_manifest(write("wrong.yaml", WRONG))
    err = exc.value
    assert (err.path, err.line, err.col) == (str(good.parent / "wrong.yaml"), 2, 9)
    assert err.message == (
        "`server.name` must be a string, not the number 5 [MANIFEST_SCHEMA] "
        "(+8 more errors; run mcpgen check)"
    )


def test_load_manifest_text_resolves_file_refs_against_base_dir(write, tmp_path) -> None:
    write("defs/common.yaml", "Name: {type: string}\n")
    text = (
        "tools: [{name: a, inputSchema: {type: object, "
        "properties: {n: {$ref: 'common.yaml#/Name'}}}}]\n"
    )
    res = load_manifest_text(text, "HEAD:m.yaml", base_dir=tmp_path / "defs")
    assert res.diagnostics == []
    assert res.manifest.tools[0].input_schema["$defs"] == {"Name": {"type": "string"}}
    assert res.manifest.path == "HEAD:m.yaml"
