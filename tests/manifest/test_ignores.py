"""`# mcpgen: ignore RULE[, RULE]` comments are collected per line (A2's runner applies them)."""

from __future__ import annotations

from mcpgen.manifest.sourcemap import parse_text

TEXT = """\
tools:
  # mcpgen: ignore TOOL_DESCRIPTION_MISSING, tool_name_portable

  # another comment in between
  - name: "a b"
    title: x  # mcpgen: ignore TITLE_RULE
    description: "not # mcpgen: ignore IN_STRING"
    summary: |
      text # mcpgen: ignore IN_BLOCK
    note: it's fine  # mcpgen: ignore AFTER_APOSTROPHE
    other: 1 #mcpgen:ignore   A ,B
"""


def test_ignore_comments_by_line() -> None:
    doc = parse_text(TEXT, "m.yaml")
    assert doc.source_map.ignores == {
        5: frozenset({"TOOL_DESCRIPTION_MISSING", "TOOL_NAME_PORTABLE"}),
        6: frozenset({"TITLE_RULE"}),
        10: frozenset({"AFTER_APOSTROPHE"}),
        11: frozenset({"A", "B"}),
    }
    # the comments change nothing in the data
    assert doc.value["tools"][0]["description"] == "not # mcpgen: ignore IN_STRING"
    assert doc.value["tools"][0]["summary"] == "text # mcpgen: ignore IN_BLOCK\n"


def test_no_comments_no_ignores() -> None:
    assert parse_text("tools: []\n", "m.yaml").source_map.ignores == {}
    assert parse_text('{"tools": [], "d": "# mcpgen: ignore X"}', "m.json").source_map.ignores == {}
