"""The jsonschema-rs structure check agrees with jsonschema, and manifest.schema.json is a good
schema."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpgen.manifest import structure
from mcpgen.manifest.load import _shape, load_manifest
from mcpgen.manifest.model import KNOWN_REVISIONS
from mcpgen.resources import schema_dir

SCHEMA = json.loads((schema_dir() / "manifest.schema.json").read_text())
ROOT = jsonschema.Draft202012Validator(SCHEMA)


def test_schema_is_valid_2020_12_and_documented() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$defs"]["Revision"]["enum"] == list(KNOWN_REVISIONS)
    for name, d in SCHEMA["$defs"].items():
        assert d.get("title"), name
    tool = SCHEMA["$defs"]["Tool"]["properties"]
    assert list(tool) == [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "icons",
        "execution",
        "_meta",
    ]


def test_examples_validate_against_the_published_schema(repo_root) -> None:
    import yaml

    examples = sorted((repo_root / "examples").rglob("*.yaml")) + sorted(
        (repo_root / "examples").rglob("*tools*.json")
    )
    v = jsonschema.Draft202012Validator(SCHEMA)
    for p in examples:
        data = yaml.safe_load(p.read_text()) if p.suffix == ".yaml" else json.loads(p.read_text())
        if isinstance(data, dict) and "tools" in data:
            assert not list(v.iter_errors(json.loads(json.dumps(data, default=str)))), p


# JSON-ish values biased towards the manifest's vocabulary
_keys = st.sampled_from(
    [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "type",
        "annotations",
        "readOnlyHint",
        "icons",
        "src",
        "theme",
        "server",
        "protocol",
        "tools",
        "$defs",
        "version",
        "execution",
        "taskSupport",
        "_meta",
        "nextCursor",
        "x-a",
        "other",
        "jsonrpc",
        "result",
        "ttlMs",
    ]
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-2, 2),
    st.sampled_from(["", "object", "a", "dark", "2025-11-25", "2.0", "optional", "nope", "public"]),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=4)),
    max_leaves=12,
)
_tool = st.fixed_dictionaries(
    {
        "name": st.one_of(st.just("t"), _scalars),
        "inputSchema": st.one_of(st.just({"type": "object"}), _json),
    },
    optional={
        "annotations": st.one_of(st.just({"readOnlyHint": True}), _json),
        "icons": st.one_of(st.just([{"src": "x", "theme": "dark"}]), _json),
        "execution": _json,
        "title": _scalars,
        "_meta": _json,
    },
)
_manifest = st.fixed_dictionaries(
    {"tools": st.one_of(st.lists(_tool, max_size=3), _json)},
    optional={
        "server": st.one_of(st.just({"name": "s"}), _json),
        "protocol": st.one_of(st.just(["2025-11-25"]), st.just("draft"), _json),
        "$defs": _json,
        "x-ext": _json,
        "other": _json,
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_manifest, _json, st.lists(_tool, max_size=3)))
def test_fast_path_agrees_with_jsonschema(value) -> None:
    for defname in ("Manifest", "ToolsListResult", "JsonRpcResponse", "ToolList"):
        expected = structure._validator(defname).is_valid(value)
        assert structure.quick_valid(defname, value) is expected, (defname, value)
    # the published root schema (what editors use) picks the same shape as the loader
    shape, _ = _shape(value)
    root_ok = ROOT.is_valid(value)
    assert root_ok is (shape is not None and structure._validator(shape).is_valid(value)), value


def test_valid_manifests_do_not_import_jsonschema(tmp_path) -> None:
    p = tmp_path / "m.yaml"
    p.write_text("tools: [{name: a, inputSchema: {type: object}}]\n")
    code = (
        "import sys\nfrom mcpgen.manifest.load import _shape, load_manifest\n"
        f"r = load_manifest({str(p)!r})\nassert not r.diagnostics\n"
        "print('jsonschema' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    "text",
    [
        "tools: [{name: a, inputSchema: {type: object}, annotations: {readOnlyHint: 1}}]\n",
        "server: {name: 3}\ntools: []\n",
    ],
)
def test_invalid_manifests_use_jsonschema_messages(tmp_path, text) -> None:
    p = tmp_path / "m.yaml"
    p.write_text(text)
    [d] = load_manifest(p).diagnostics
    assert d.rule_id == "MANIFEST_SCHEMA" and "must be" in d.message


def test_the_revision_enum_is_the_known_revisions() -> None:
    """A new revision is one entry in schema/revisions.json; the manifest schema's enum (for
    editors' completion) must list the same revisions, in the same order."""
    from mcpgen_runtime.revisions import KNOWN_REVISIONS

    assert tuple(SCHEMA["$defs"]["Revision"]["enum"]) == KNOWN_REVISIONS


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        # none of the alternatives: not "missing the required key `text`" (the first of them)
        (
            "resources: [{uri: 'a://x', name: x}]",
            "`resources[0]` needs one of `text`, `file` or `handler`",
        ),
        # two of them: not jsonschema's "{...} is valid under each of {'required': ...}"
        (
            "resources: [{uri: 'a://x', name: x, text: hi, handler: true}]",
            "`resources[0]` has `text` and `handler`; give only one of `text`, `file` or `handler`",
        ),
        ("prompts: [{name: p}]", "`prompts[0]` needs one of `messages` or `handler`"),
        (
            "server: {name: s, version: 1.0.0, cache: {ttlMs: -1}}",
            "`server.cache.ttlMs` must be at least 0, not the number -1",
        ),
    ],
)
def test_schema_findings_are_worded_for_people(tmp_path, entry: str, message: str) -> None:
    p = tmp_path / "m.yaml"
    p.write_text(f"{entry}\ntools: []\n" if entry.startswith("server") else f"tools: []\n{entry}\n")
    found = [d.message for d in load_manifest(p).diagnostics if d.rule_id == "MANIFEST_SCHEMA"]
    assert found == [message]
    assert all("{" not in m and "valid under" not in m for m in found)
