"""What ``mcpgen docs`` tells callers (issue 50): each tool's task support and that a client
without the tasks extension gets -32021, the view a tool shows with its CSP and permissions,
the skills (names, descriptions, files), and only the revisions the server serves (no
``draft``); "1 tool", not "1 tools"."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.cli import main

MANIFEST = """\
protocol: [2025-11-25, 2026-07-28, draft]
server: {name: demo, version: 0.1.0}
tools:
  - name: export_all
    description: Export everything.
    inputSchema: {type: object}
    execution: {taskSupport: required}
  - name: show
    description: Show a card.
    inputSchema: {type: object}
    _meta: {ui: {resourceUri: "ui://demo/card"}}
resources:
  - uri: ui://demo/card
    name: card
    mimeType: text/html;profile=mcp-app
    text: "<!doctype html><p>card</p>"
    _meta:
      ui:
        csp: {connectDomains: ["https://api.example.com"]}
        permissions: {camera: {}}
skills:
  - path: skills/reading
"""


@pytest.fixture
def reference(tmp_path: Path) -> tuple[str, str]:
    skill = tmp_path / "skills" / "reading"
    (skill / "references").mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: reading\ndescription: How to read the export.\n---\n# Reading\n"
    )
    (skill / "references" / "units.md").write_text("units\n")
    (tmp_path / "tools.yaml").write_text(MANIFEST)
    with pytest.raises(SystemExit) as exc:
        main(["docs", str(tmp_path / "tools.yaml"), "--out", str(tmp_path / "ref")])
    assert exc.value.code == 0
    ref = tmp_path / "ref"
    return (ref / "README.md").read_text(), (ref / "index.html").read_text()


def test_task_support_and_its_consequence(reference: tuple[str, str]) -> None:
    for text in reference:
        assert "Task support:" in text and "required: the tool runs only as a task" in text
        assert "-32021 (Missing Required Client Capability)" in text


def test_a_view_with_its_csp_and_permissions(reference: tuple[str, str]) -> None:
    md, html = reference
    assert "- View (MCP Apps): ui://demo/card; CSP: connectDomains https://api.example.com" in md
    assert "permissions: camera" in md
    assert "<code>ui://demo/card</code>" in html and "<code>camera</code>" in html


def test_skills_are_listed(reference: tuple[str, str]) -> None:
    md, html = reference
    assert "## Skills" in md
    assert "| reading | How to read the export. | SKILL.md, references/units.md |" in md
    assert '<h2 id="skills">Skills</h2>' in html and "How to read the export." in html


def test_only_served_revisions(reference: tuple[str, str]) -> None:
    md, html = reference
    assert "| Protocol revisions | 2025-11-25, 2026-07-28 |" in md
    assert "draft" not in md.split("## Tools")[0] and "draft" not in html.split("<h2")[0]


def test_counts_are_singular_when_one(reference: tuple[str, str]) -> None:
    html = reference[1]
    assert "2 tools, 1 resource, 0 resource templates, 0 prompts, 1 skill" in html
