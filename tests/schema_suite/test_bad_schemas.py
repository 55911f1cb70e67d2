"""Hostile tool schemas (issue 51): metaschema-invalid, references into themselves without end,
``$dynamicRef`` loops, 10,000-deep nesting, huge ``enum``s, patterns that backtrack
catastrophically in Python's ``re``. Each is one located error or a warning from ``check``
and ``server`` alike: never a traceback, a hang or a half-written package."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from mcpgen.cli import main
from tests.schema_suite.suite import generated, manifest_text, server_verdict, tool_entry


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out = capsys.readouterr()
    text = out.out + out.err
    assert "internal error" not in text and "Traceback" not in text, text
    return int(done.value.code or 0), text


def _deep(n: int, kind: str) -> str:
    """The manifest text of a parameter nested ``n`` deep (written as text: ``json.dumps``
    itself recurses)."""
    if kind == "properties":
        inner = '{"type":"object","properties":{"a":' * n + '{"type":"string"}' + "}}" * n
    else:
        inner = '{"items":' * n + '{"type":"string"}' + "}" * n
    return (
        '{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object",\n'
        '"properties":{"value":' + inner + "}}}]}"
    )


REFUSED: dict[str, tuple[str, str]] = {
    "metaschema-invalid": (
        manifest_text([tool_entry("t", {"type": 12, "minLength": "x"}, "0")]),
        "SCHEMA_VALID",
    ),
    "endless-self-ref": (
        manifest_text(
            [tool_entry("t", {"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}, "0")]
        ),
        "REF_CYCLE",
    ),
    "ref-to-own-root": (manifest_text([tool_entry("t", {"$ref": "#"}, "0")]), "REF_CYCLE"),
    "dynamic-ref-loop": (
        manifest_text([tool_entry("t", {"$dynamicAnchor": "n", "$dynamicRef": "#n"}, "0")]),
        "REF_CYCLE",
    ),
    "ref-loop-through-dynamic-ref": (
        manifest_text(
            [
                tool_entry(
                    "t",
                    {
                        "$defs": {"x": {"$dynamicAnchor": "n", "allOf": [{"$dynamicRef": "#n"}]}},
                        "$ref": "#/$defs/x",
                    },
                    "0",
                )
            ]
        ),
        "REF_CYCLE",
    ),
    "nested-10000-deep": (_deep(10_000, "properties"), "nested more than 200 levels"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_with_one_located_error_and_nothing_written(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], no_network: list[str]
) -> None:
    text, expected = REFUSED[name]
    manifest = tmp_path / "m.json"
    manifest.write_text(text)
    code, out = _run(capsys, "check", str(manifest))
    assert code != 0 and expected in out, out
    assert f"{manifest.name}:" in out or str(manifest) in out  # located: file:line:col
    code, out = _run(
        capsys, "server", str(manifest), "--out", str(tmp_path / "out"), "--package", "bad"
    )
    assert code != 0 and expected in out, out
    assert not (tmp_path / "out" / "bad").exists()
    assert no_network == []


def test_deep_but_loadable_nesting_generates_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "m.json"
    manifest.write_text(_deep(190, "items"))
    code, out = _run(capsys, "check", str(manifest))
    assert code == 0 and "SCHEMA_TYPED_AS_ANY" in out, out
    started = time.monotonic()
    code, out = _run(
        capsys, "server", str(manifest), "--out", str(tmp_path / "out"), "--package", "deep"
    )
    assert code == 0, out
    assert time.monotonic() - started < 60


def _one(schema: Any, tmp: Path, package: str) -> Any:
    return generated(manifest_text([tool_entry("t", schema, "0")]), tmp, package)


def test_a_huge_enum_generates_and_is_checked(tmp_path: Path) -> None:
    started = time.monotonic()
    with _one({"enum": list(range(100_000))}, tmp_path, "huge_enum") as server:
        (binding,) = server.BINDINGS
        assert server_verdict(binding, 99_999) and not server_verdict(binding, 100_000)
    assert time.monotonic() - started < 60


def test_a_catastrophic_pattern_is_the_validators_not_pythons(tmp_path: Path) -> None:
    schema = {"type": "string", "pattern": "^(a+)+$"}
    with _one(schema, tmp_path, "redos") as server:
        (binding,) = server.BINDINGS
        started = time.monotonic()
        assert not server_verdict(binding, "a" * 64 + "!")
        assert server_verdict(binding, "a" * 64)
        assert time.monotonic() - started < 5
        assert "^(a+)+$" in json.dumps(json.loads(binding.definition_json))
