"""The bad-input corpus: every broken manifest gives one clear, located message and no traceback.

Unreadable input (not YAML/JSON, binary, wrong encoding, too deep, too big, alias bomb, missing
file, directory) raises ``McpgenError`` -> exit code 2. Input that parses but is not a valid
manifest gives diagnostics -> `mcpgen check` exits 1. The corpus is tested through the API and
through the real `mcpgen check` command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcpgen.errors import McpgenError
from mcpgen.manifest.load import load_manifest
from mcpgen.manifest.sourcemap import MAX_BYTES, MAX_DEPTH
from tests.inprocess import mcpgen

from .conftest import BAD_INPUTS, where

# name -> (rule or "error", message fragment, (line, col))   [first/only finding]
UNREADABLE = {
    "not_yaml.yaml": ("invalid YAML: did not find expected ',' or '}'", (4, 9)),
    "tab_indent.yaml": ("invalid YAML: found character that cannot start any token", (2, 1)),
    # the stdlib's own words and place: Python 3.13 names the trailing comma and points at it,
    # older ones at the '}' after it
    "trailing_comma.json": (
        ("invalid JSON: Illegal trailing comma", (2, 15))
        if sys.version_info >= (3, 13)
        else ("invalid JSON: Expecting property name", (2, 16))
    ),
    "nan.json": ("NaN is not valid JSON", (1, 71)),
    "binary.yaml": ("binary file (NUL byte)", (3, 1)),
    "latin1.yaml": ("not valid UTF-8 (byte 0xe9)", (2, 14)),
    "utf16.json": ("UTF-16", (1, 1)),
    "billion_laughs.yaml": ("aliases expand to more than 100000 nodes", (6, 8)),
    "two_documents.yaml": ("more than one YAML document", (2, 1)),
}
FINDINGS = {
    "scalar.yaml": [("MANIFEST_SCHEMA", "found the string 'just a string'", (1, 1))],
    "number.json": [("MANIFEST_SCHEMA", "found the number 42", (1, 1))],
    "empty.yaml": [("MANIFEST_SCHEMA", "the file is empty", (1, 1))],
    "tools_not_a_list.yaml": [("MANIFEST_SCHEMA", "`tools` must be a list, not a mapping", (3, 3))],
    "duplicate_keys.json": [("DUPLICATE_KEY", "duplicate key 'tools'", (3, 3))],
    "recursive_ref.yaml": [("REF_CYCLE", "A -> B -> A", (3, 13))],
    "network_ref.yaml": [("REF_NETWORK", "never fetches", (6, 19))],
    "outside_root.yaml": [("REF_OUTSIDE_ROOT", "outside the manifest's directory", (6, 19))],
    "wrong_types.yaml": [
        ("MANIFEST_SCHEMA", "`server` must be a mapping, not a list", (1, 9)),
        ("MANIFEST_SCHEMA", "`protocol` must be a string or a list, not a mapping", (2, 11)),
        ("MANIFEST_SCHEMA", "`tools[0].name` must be a string, not a list", (4, 11)),
        ("MANIFEST_SCHEMA", "`tools[0].title` must be a string, not the number 3", (5, 12)),
        ("MANIFEST_SCHEMA", "`tools[0].description` must be a string, not a mapping", (6, 18)),
        (
            "MANIFEST_SCHEMA",
            "`tools[0].inputSchema` must be a mapping, not the string 'object'",
            (7, 18),
        ),
        ("MANIFEST_SCHEMA", "`tools[0].outputSchema` must be a mapping, not a list", (8, 19)),
        (
            "MANIFEST_SCHEMA",
            "`tools[0].annotations.readOnlyHint` must be true or false, not the number 1",
            (9, 33),
        ),
        (
            "MANIFEST_SCHEMA",
            "`tools[0].annotations.destructiveHint` must be true or false, not the string 'no'",
            (9, 53),
        ),
        ("MANIFEST_SCHEMA", "`tools[0].icons` must be a list, not a mapping", (10, 12)),
        (
            "MANIFEST_SCHEMA",
            '`tools[0].execution.taskSupport` must be one of "forbidden", "optional", "required", '
            "not the string 'sometimes'",
            (11, 30),
        ),
        ("MANIFEST_SCHEMA", "`tools[0]._meta` must be a mapping, not the number 5", (12, 12)),
        ("MANIFEST_SCHEMA", "`tools[1]` must be a mapping, not true", (13, 5)),
        ("MANIFEST_SCHEMA", "`tools[2]` must be a mapping, not null", (14, 5)),
    ],
}


def test_corpus_is_complete() -> None:
    assert {p.name for p in BAD_INPUTS.iterdir()} == set(UNREADABLE) | set(FINDINGS)


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_unreadable_inputs_raise_one_located_error(name) -> None:
    message, pos = UNREADABLE[name]
    with pytest.raises(McpgenError) as exc:
        load_manifest(BAD_INPUTS / name)
    err = exc.value
    assert message in err.message
    assert (err.path, err.line, err.col) == (str(BAD_INPUTS / name), *pos)
    assert "\n" not in str(err)


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_invalid_manifests_give_located_diagnostics(name) -> None:
    res = load_manifest(BAD_INPUTS / name)
    got = sorted(
        (where(d), d.rule_id, d.message) for d in res.diagnostics if d.severity.label == "error"
    )
    expected = FINDINGS[name]
    assert len(got) == len(expected), got
    for (pos, rule, msg), (erule, fragment, epos) in zip(
        got, sorted(expected, key=lambda e: e[2]), strict=True
    ):
        assert (pos, rule) == (epos, erule) and fragment in msg


# ---------------------------------------------------------------- generated (not committed)


def test_missing_file_and_directory(tmp_path) -> None:
    with pytest.raises(McpgenError, match="no such file") as exc:
        load_manifest(tmp_path / "nope.yaml")
    assert exc.value.path == str(tmp_path / "nope.yaml")
    with pytest.raises(McpgenError, match="is a directory"):
        load_manifest(tmp_path)


def _big_manifest(n_tools: int) -> dict:
    tool = {
        "name": "t",
        "description": "x" * 200,
        "inputSchema": {
            "type": "object",
            "properties": {
                f"p{j}": {"type": "string", "description": "d" * 40, "enum": ["a", "b", "c"]}
                for j in range(20)
            },
        },
    }
    return {"tools": [dict(tool, name=f"t{i}") for i in range(n_tools)]}


def test_ten_megabyte_json_loads_and_locates_an_error_at_the_end(tmp_path) -> None:
    m = _big_manifest(3000)
    m["tools"][-1]["annotations"] = {"readOnlyHint": "true"}
    p = tmp_path / "big.json"
    text = json.dumps(m, indent=2)
    p.write_text(text)
    assert len(text) > 10_000_000
    res = load_manifest(p)
    [d] = res.diagnostics
    assert d.location.pointer == "/tools/2999/annotations/readOnlyHint"
    line = text[: text.index('"readOnlyHint": "true"')].count("\n") + 1
    assert where(d) == (line, 25)
    assert len(res.manifest.tools) == 3000


def test_ten_megabyte_yaml_scalar_loads(tmp_path) -> None:
    p = tmp_path / "big.yaml"
    p.write_text(
        "tools:\n  - name: a\n    inputSchema: {type: object}\n    description: "
        + "x" * 10_500_000
        + "\n"
    )
    res = load_manifest(p)
    assert res.diagnostics == [] and len(res.manifest.tools[0].description) == 10_500_000


def test_file_over_the_size_limit(tmp_path) -> None:
    p = tmp_path / "huge.json"
    with p.open("wb") as fh:
        fh.truncate(MAX_BYTES + 1)
    with pytest.raises(McpgenError, match="larger than 32 MiB"):
        load_manifest(p)


@pytest.mark.parametrize("ext", ["json", "yaml"])
def test_ten_thousand_deep_nesting(tmp_path, ext) -> None:
    depth = 10_000
    p = tmp_path / f"deep.{ext}"
    p.write_text('{"tools": ' + "[" * depth + "]" * depth + "}\n")
    with pytest.raises(McpgenError) as exc:
        load_manifest(p)
    assert f"nested more than {MAX_DEPTH} levels deep" in exc.value.message
    assert (exc.value.line, exc.value.col) == (1, 11 + MAX_DEPTH - 1)


def test_deep_block_yaml(tmp_path) -> None:
    p = tmp_path / "deep.yaml"
    p.write_text("tools:\n" + "".join("  " * i + f"- k{i}:\n" for i in range(1, 400)))
    with pytest.raises(McpgenError, match="nested more than"):
        load_manifest(p)


@pytest.mark.parametrize("ext", ["json", "yaml"])
def test_depth_limit_is_exact_and_the_same_for_json_and_yaml(tmp_path, ext) -> None:
    def manifest(nest: int) -> str:
        # root, tools list, tool, inputSchema, "x" = 5 levels, then `nest` more
        schema = "{" + '"not": {' * nest + "}" * nest + "}"
        return f'{{"tools": [{{"name": "a", "inputSchema": {{"type": "object", "x": {schema}}}}}]}}'

    p = tmp_path / f"ok.{ext}"
    p.write_text(manifest(MAX_DEPTH - 5))
    assert load_manifest(p).manifest is not None
    p.write_text(manifest(MAX_DEPTH - 4))
    with pytest.raises(McpgenError, match=f"nested more than {MAX_DEPTH} levels deep"):
        load_manifest(p)


def test_alias_expansion_is_bounded_but_normal_reuse_works(tmp_path) -> None:
    p = tmp_path / "reuse.yaml"
    p.write_text(
        "x: &s {type: string}\ntools:\n"
        + "".join(
            f"  - {{name: t{i}, inputSchema: {{type: object, properties: {{a: *s}}}}}}\n"
            for i in range(500)
        )
    )
    res = load_manifest(p)
    assert res.diagnostics[0].message.startswith("unknown key `x`")
    assert len(res.manifest.tools) == 500


def test_long_ref_chain_through_files_terminates(tmp_path) -> None:
    for i in range(300):
        (tmp_path / f"s{i}.yaml").write_text(
            f"type: object\nproperties: {{n: {{$ref: 's{i + 1}.yaml'}}}}\n"
        )
    (tmp_path / "s300.yaml").write_text("$ref: 's0.yaml'\n")
    p = tmp_path / "m.yaml"
    p.write_text("tools: [{name: a, inputSchema: {type: object, $ref: 's0.yaml'}}]\n")
    res = load_manifest(p)
    assert res.diagnostics == []
    defs = res.manifest.tools[0].input_schema["$defs"]
    assert len(defs) == 301 and defs["s300"] == {"$ref": "#/$defs/s0"}


# ---------------------------------------------------------------- through the real CLI


def _mcpgen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return mcpgen(*args, cwd=cwd)


def test_cli_check_on_the_whole_corpus() -> None:
    for name in sorted(UNREADABLE) + sorted(FINDINGS):
        proc = _mcpgen("check", str(BAD_INPUTS / name))
        out = proc.stdout + proc.stderr
        assert "Traceback" not in out, (name, out)
        expected_code = 2 if name in UNREADABLE else 1
        assert proc.returncode == expected_code, (name, proc.returncode, out)
        if name in UNREADABLE:
            message, (line, col) = UNREADABLE[name]
            assert f"{BAD_INPUTS / name}:{line}:{col}:" in out and message in out, (name, out)
        else:
            rule, _, (line, col) = FINDINGS[name][0]
            assert f"{BAD_INPUTS / name}:{line}:{col}: error {rule}" in out, (name, out)


def test_cli_missing_file_directory_and_deep(tmp_path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 10_000 + "]" * 10_000)
    for target, fragment in [
        (tmp_path / "missing.yaml", "no such file"),
        (tmp_path, "is a directory"),
        (deep, "nested more than"),
    ]:
        proc = _mcpgen("check", str(target))
        out = proc.stdout + proc.stderr
        assert proc.returncode == 2 and fragment in out and "Traceback" not in out, out


def test_cli_server_generation_refuses_bad_input_with_one_line(tmp_path) -> None:
    proc = _mcpgen(
        "server",
        str(BAD_INPUTS / "wrong_types.yaml"),
        "--out",
        str(tmp_path / "out"),
        "--package",
        "wrong",
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0].startswith(f"mcpgen: error: {BAD_INPUTS / 'wrong_types.yaml'}:1:9: ")
    assert "(+13 more errors; run mcpgen check)" in lines[0]
    assert not (tmp_path / "out").exists()
