"""Generation never reaches the network (issue 51): a reference that leaves the manifest is one
located ``REF_NETWORK`` error from ``check``, ``server`` refuses the same manifest, and no
socket is opened on the way (``no_network`` refuses and records every attempt)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcpgen.errors import McpgenError
from tests.schema_suite.suite import (
    NetworkUsed,
    check_errors,
    generated,
    manifest_text,
    tool_entry,
)

# The issue's report: passed check, then datamodel-code-generator looked the host up.
ISSUE_SCHEMA: dict[str, Any] = {
    "$id": "https://example.org/base",
    "$ref": "first#/$defs/stuff",
}


def test_the_guard_sees_a_lookup(no_network: list[str]) -> None:
    """The fixture proves something: the generator given the raw schema does look the host up
    (and is stopped here, before its own private-network guard)."""
    from mcpgen.typegen import generate_models

    schema = {"type": "object", "properties": {"v": ISSUE_SCHEMA}}
    with pytest.raises((NetworkUsed, McpgenError)):
        generate_models(schema)
    assert no_network, "the generator was expected to try a lookup on this input"


def test_remote_ref_under_an_id_is_one_located_error_and_server_refuses(
    tmp_path: Path, no_network: list[str]
) -> None:
    text = manifest_text([tool_entry("remote", ISSUE_SCHEMA, "0")])
    (error,) = check_errors(text, tmp_path / "m.json")
    assert error.rule_id == "REF_NETWORK"
    assert "https://example.org/first#/$defs/stuff" in error.message
    line = text.splitlines()[error.location.line - 1]
    assert '"$ref"' in line, line
    with pytest.raises(McpgenError), generated(text, tmp_path, "remote_pkg"):
        pass
    assert not (tmp_path / "remote_pkg-out" / "remote_pkg").exists()
    assert no_network == []


@pytest.mark.parametrize(
    "schema",
    [
        # relative to an embedded $id, declared by another embedded resource
        {
            "$id": "https://example.org/root/",
            "$defs": {"first": {"$id": "first", "$defs": {"stuff": {"type": "integer"}}}},
            "$ref": "first#/$defs/stuff",
        },
        # URN base, anchor, pointer into an embedded resource
        {
            "$id": "urn:uuid:deadbeef-1234-ff00-00ff-4321feebdaed",
            "properties": {"a": {"$ref": "#something"}, "b": {"$ref": "#/$defs/n"}},
            "$defs": {"s": {"$anchor": "something", "type": "string"}, "n": {"type": "number"}},
        },
    ],
)
def test_refs_inside_the_manifest_generate_offline(
    schema: dict[str, Any], tmp_path: Path, no_network: list[str]
) -> None:
    text = manifest_text([tool_entry("inside", schema, "0")])
    assert check_errors(text, tmp_path / "m.json") == []
    with generated(text, tmp_path, "inside_pkg") as server:
        (binding,) = server.BINDINGS
        assert json.loads(binding.definition_json)["inputSchema"]["properties"]["value"] == schema
    assert no_network == []
