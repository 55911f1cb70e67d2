"""``mcpgen protocol diff OLD NEW``: type/field changes between revisions, as text and JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import assert_one_line_error, run_mcpgen


def diff(spec_dir: Path, old: str, new: str, *args: str) -> Any:
    return run_mcpgen("protocol", "diff", old, new, "--from", spec_dir, *args)


def changes_json(spec_dir: Path, old: str, new: str) -> list[dict[str, str]]:
    run = diff(spec_dir, old, new, "--format", "json")
    assert run.returncode == 0, run.stderr
    body = json.loads(run.stdout)
    assert (body["old"], body["new"]) == (old, new)
    changes: list[dict[str, str]] = body["changes"]
    return changes


def has(
    changes: list[dict[str, str]], type_name: str, kind: str, field: str = "", **values: str
) -> bool:
    return any(
        c["type_name"] == type_name
        and c["kind"] == kind
        and c["field"] == field
        and all(c[k] == v for k, v in values.items())
        for c in changes
    )


def test_2025_06_18_to_2025_11_25_text(spec_dir: Path) -> None:
    run = diff(spec_dir, "2025-06-18", "2025-11-25")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("MCP 2025-06-18 -> 2025-11-25: ")
    assert "+ Tool.icons (field added): array[Icon]" in lines
    assert "+ Tool.execution (field added): ToolExecution" in lines
    assert "+ ToolExecution (type added)" in lines
    assert "- Tool.execution (field removed): ToolExecution" not in lines
    assert not any(line.startswith(("+ Tool.name", "- Tool.name")) for line in lines)


def test_2025_06_18_to_2025_11_25_json(spec_dir: Path) -> None:
    changes = changes_json(spec_dir, "2025-06-18", "2025-11-25")
    assert has(changes, "Tool", "field-added", "icons", new="array[Icon]")
    assert has(changes, "Tool", "field-added", "execution", new="ToolExecution")
    assert has(changes, "Icon", "type-added")
    assert has(changes, "CallToolRequest", "required-added", "jsonrpc")
    assert not has(changes, "Tool", "field-added", "name")
    assert changes == sorted(
        changes, key=lambda c: (c["type_name"], c["kind"], c["field"], c["old"], c["new"])
    )


def test_2025_11_25_to_2026_07_28(spec_dir: Path) -> None:
    changes = changes_json(spec_dir, "2025-11-25", "2026-07-28")
    assert has(changes, "Tool", "field-removed", "execution", old="ToolExecution")
    assert has(changes, "ToolExecution", "type-removed")
    assert has(changes, "CallToolResult", "field-added", "resultType")
    assert has(changes, "CallToolResult", "required-added", "resultType")
    assert has(changes, "InputRequiredResult", "type-added")
    assert not has(changes, "Tool", "field-removed", "icons")
    text = diff(spec_dir, "2025-11-25", "2026-07-28").stdout.splitlines()
    assert "- Tool.execution (field removed): ToolExecution" in text
    assert any(line.startswith("+ CallToolResult.resultType (field added)") for line in text)


def test_reverse_direction_swaps_added_and_removed(spec_dir: Path) -> None:
    changes = changes_json(spec_dir, "2026-07-28", "2025-11-25")
    assert has(changes, "Tool", "field-added", "execution")
    assert has(changes, "CallToolResult", "field-removed", "resultType")


def test_identical_schemas_report_no_changes(spec_dir: Path) -> None:
    run = diff(spec_dir, "2026-07-28", "draft")  # byte-identical upstream
    assert run.returncode == 0, run.stderr
    assert run.stdout == "MCP 2026-07-28 -> draft: no type changes\n"
    assert changes_json(spec_dir, "2026-07-28", "draft") == []


def test_same_revision_twice_is_a_usage_error(spec_dir: Path) -> None:
    run = diff(spec_dir, "2025-11-25", "2025-11-25")
    assert_one_line_error(run, "same revision")
    assert run.stdout == ""


def test_unknown_revision_is_one_line(spec_dir: Path) -> None:
    for old, new in (("1999-01-01", "2025-11-25"), ("2025-11-25", "latest")):
        run = diff(spec_dir, old, new)
        bad = old if old == "1999-01-01" else new
        assert_one_line_error(run, f"unknown MCP revision {bad!r}")
        assert run.stdout == ""
