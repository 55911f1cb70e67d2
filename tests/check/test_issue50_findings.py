"""The "wrong results" of issue 50 that ``mcpgen check`` now catches (or no longer flags): a
typo or an unknown member under a tool's ``execution``, ``idempotentHint`` on a read-only task
tool, and skill file names a ``skill://`` URI cannot carry."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import inprocess
from tests.check.lint_helpers import lint, tuples

TOOLS = """
protocol: 2026-07-28
server: {name: t, version: 0.1.0}
tools:
  - name: a
    description: A.
    inputSchema: {type: object}
    execution: {tasksupport: required}
  - name: b
    description: B.
    inputSchema: {type: object}
    execution: {taskSupport: optional, ttl: 5}
"""


def test_unknown_execution_members_are_located_errors_with_did_you_mean() -> None:
    diags = lint(TOOLS)
    found = [d for d in diags if d.rule_id == "EXECUTION_TASK_SUPPORT"]
    assert tuples(found) == [
        ("m.yaml", 7, 17, "EXECUTION_TASK_SUPPORT"),
        ("m.yaml", 11, 40, "EXECUTION_TASK_SUPPORT"),
    ]
    assert "did you mean 'taskSupport'?" in found[0].message
    assert "unknown execution member 'ttl'" in found[1].message
    assert "server.tasks.keepSeconds" in found[1].message
    assert all(d.severity.label == "error" for d in found)


def _task_tool(support: str) -> str:
    return f"""
    protocol: 2026-07-28
    server: {{name: t, version: 0.1.0}}
    tools:
      - name: a
        description: A.
        inputSchema: {{type: object}}
        annotations: {{readOnlyHint: true, idempotentHint: true}}
        execution: {{taskSupport: {support}}}
    """


@pytest.mark.parametrize("support", ["optional", "required"])
def test_idempotent_hint_on_a_read_only_task_tool_is_not_redundant(support: str) -> None:
    assert tuples(lint(_task_tool(support)), "ANNOTATION_REDUNDANT") == []


def test_idempotent_hint_on_a_read_only_plain_tool_still_is() -> None:
    assert tuples(lint(_task_tool("forbidden")), "ANNOTATION_REDUNDANT") == [
        ("m.yaml", 7, 39, "ANNOTATION_REDUNDANT")
    ]


@pytest.mark.parametrize(
    ("name", "what"),
    [("hash#frag.md", "'#'"), ("q?.md", "'?'"), ("a b.md", "a space"), ("pct%41.md", "'%'")],
)
def test_skill_file_names_a_uri_cannot_carry_are_refused(
    tmp_path: Path, name: str, what: str
) -> None:
    skill = tmp_path / "skills" / "odd"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: odd\ndescription: An odd skill.\n---\n# Odd\n")
    (skill / name).write_text("x\n")
    (tmp_path / "tools.yaml").write_text(
        "protocol: 2026-07-28\nserver: {name: t, version: 0.1.0}\ntools:\n"
        "  - {name: a, description: A., inputSchema: {type: object}}\n"
        "skills:\n  - path: skills/odd\n"
    )
    done = inprocess.mcpgen("check", "tools.yaml", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    (line,) = [x for x in done.stdout.splitlines() if "SKILL_FOLDER" in x]
    assert line.startswith("tools.yaml:6:") and f"with {what}" in line, line


def test_a_newline_in_a_skill_file_name_is_refused(tmp_path: Path) -> None:
    from mcpgen.manifest.skills import _unservable

    assert _unservable("ref/a\nb.md") == "the character '\\n'"
    assert _unservable("references/units.md") is None


def test_an_unparsable_server_json_beside_the_manifest_is_reported(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(
        "server: {name: t, version: 1.0.0, registry: io.github.u/t}\ntools:\n"
        "  - {name: a, description: A., inputSchema: {type: object}}\n"
    )
    (tmp_path / "server.json").write_text('{\n  "version": "1.0.0",\n  oops\n}\n')
    done = inprocess.mcpgen("check", "tools.yaml", cwd=tmp_path)
    (line,) = [x for x in done.stdout.splitlines() if "REGISTRY_VERSION_AGREEMENT" in x]
    assert line.startswith("server.json:3:3: warning REGISTRY_VERSION_AGREEMENT"), line
    assert "is not JSON" in line and "cannot be checked" in line
