"""A handler may return a mapping as structured content (FastMCP users' habit): it is checked
against the outputSchema like the output model; a value that does not fit is a tool error naming
each place (never the value), and the log names the handler. Real SDK ``Server.run`` loop, raw
JSON-RPC, responses validated against the official schema."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.server.helpers import DATA, imported, write_package
from tests.server.test_runtime import _call, _check

HANDLERS = """
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated.models import CreateNoteInput


class Handlers(ToolsBase):
    async def create_note(self, args: CreateNoteInput, ctx: ToolContext) -> Mapping[str, Any]:
        if args.title == "extra":
            return {"id": 1, "tags": args.tags, "created": datetime.date(2026, 11, 25)}
        if args.title == "missing":
            return {"tags": args.tags}
        if args.title == "wrong":
            return {"id": "secret-value", "tags": ["", *args.tags]}
        if args.title == "unjson":
            return {"id": 1, "tags": args.tags, "blob": object()}
        return {"id": len(args.tags), "tags": args.tags}
"""


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("notes_map")
    write_package(DATA / "constrained.yaml", out, "notes_map", HANDLERS)
    with imported(out, "notes_map") as handlers:
        yield handlers


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "2026-07-28"])
def test_mapping_is_structured_content(notes: ModuleType, spec_dir: Path, version: str) -> None:
    result = _call(notes, version, "create_note", {"title": "t", "tags": ["a", "b"]})["result"]
    _check(spec_dir, version, "CallToolResult", result)
    assert result["structuredContent"] == {"id": 2, "tags": ["a", "b"]}
    assert result["content"] == [{"type": "text", "text": '{"id":2,"tags":["a","b"]}'}]
    assert "isError" not in result


def test_extra_keys_pass_when_the_schema_allows_them(notes: ModuleType) -> None:
    result = _call(notes, "2025-11-25", "create_note", {"title": "extra", "tags": ["a"]})["result"]
    assert result["structuredContent"] == {"id": 1, "tags": ["a"], "created": "2026-11-25"}


def test_missing_and_wrong_keys_are_located_tool_errors(
    notes: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        missing = _call(notes, "2025-11-25", "create_note", {"title": "missing", "tags": ["a"]})
        wrong = _call(notes, "2026-07-28", "create_note", {"title": "wrong", "tags": ["a"]})
    for resp, places in ((missing, "(at (root))"), (wrong, "(at /id, /tags/0)")):
        result = resp["result"]
        assert result["isError"] is True and "structuredContent" not in result
        text = result["content"][0]["text"]
        assert "does not match its outputSchema" in text
        assert places in text
        assert "secret-value" not in text
    logs = "\n".join(r.getMessage() for r in caplog.records)
    assert "Handlers.create_note" in logs and "/id" in logs


def test_mapping_that_is_not_json_is_an_internal_error_not_a_crash(notes: ModuleType) -> None:
    result = _call(notes, "2025-11-25", "create_note", {"title": "unjson", "tags": ["a"]})["result"]
    assert result["isError"] is True
    assert "internal error" in result["content"][0]["text"]


def test_base_class_return_type_admits_a_mapping(notes: ModuleType) -> None:
    base = __import__("notes_map._generated.base", fromlist=["ToolsBase"])
    annotation = base.ToolsBase.create_note.__annotations__["return"]
    assert "Mapping[str, Any]" in annotation and "CreateNoteOutput" in annotation
