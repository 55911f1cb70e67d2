"""``mcpgen server`` and ``mcpgen client`` refuse what ``mcpgen check`` rejects: check's error
rules run first, their findings are printed in check's format, nothing is written and the exit
code is 2 (an input the generator refuses, as for every command); warnings are printed and
generation goes on; check's config and inline ignores apply to both."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests import inprocess

REPO = Path(__file__).resolve().parents[2]

BAD = """\
server: {name: notes, version: 0.1.0}
tools:
  - name: delete note
    description: Delete a note.
    inputSchema: {type: object}
  - name: list_notes
    inputSchema: {type: object}
"""


def mcpgen(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return inprocess.mcpgen(*args, cwd=cwd)


@pytest.mark.parametrize("command", ["server", "client"])
def test_check_errors_stop_generation(tmp_path: Path, command: str) -> None:
    (tmp_path / "tools.yaml").write_text(BAD)
    checked = mcpgen("check", "tools.yaml", cwd=tmp_path)
    assert checked.returncode == 1
    error_line = "tools.yaml:3:11: error TOOL_NAME_CHARSET tool name 'delete note' contains space"
    assert error_line in checked.stdout
    proc = mcpgen(command, "tools.yaml", "--out", "out", "--package", "notes", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert error_line in proc.stderr
    assert "mcpgen: error: tools.yaml: mcpgen check found 1 error; nothing was generated" in (
        proc.stderr
    )
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()
    # --check too: a drift check of a manifest check rejects is the same error
    again = mcpgen(
        command, "tools.yaml", "--out", "out", "--package", "notes", "--check", cwd=tmp_path
    )
    assert again.returncode == 2 and error_line in again.stderr


def test_warnings_are_printed_and_generation_goes_on(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(BAD.replace("delete note", "delete_note"))
    proc = mcpgen("server", "tools.yaml", "--out", "out", "--package", "notes", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "tools.yaml:6:11: warning TOOL_DESCRIPTION_MISSING tool 'list_notes'" in proc.stderr
    assert (tmp_path / "out" / "notes" / "_generated" / "server.py").is_file()


def test_check_config_and_inline_ignores_apply(tmp_path: Path) -> None:
    """The escape hatch is check's own, per rule: no blanket override flag."""
    (tmp_path / "tools.yaml").write_text(
        BAD.replace("delete note", "delete note  # mcpgen: ignore TOOL_NAME_CHARSET")
    )
    proc = mcpgen("server", "tools.yaml", "--out", "out", "--package", "notes", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "tools.yaml").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mcpgen.check]\nseverity = { TOOL_NAME_CHARSET = "warning" }\n'
    )
    proc = mcpgen("client", "tools.yaml", "--out", "out", "--package", "notes_client", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "warning TOOL_NAME_CHARSET" in proc.stderr


@pytest.mark.parametrize("command", ["server", "client"])
def test_related_places_read_as_check_prints_them(tmp_path: Path, command: str) -> None:
    """A finding's other place reads "(see FILE:L:C)" as `mcpgen check` prints it, not "(was
    at ...)" (the wording of breaking changes, where the place is in the old manifest)."""
    (tmp_path / "tools.yaml").write_text(
        "server: {name: c, version: 0.1.0}\n"
        "tools:\n"
        "  - {name: list_notes, description: List notes., inputSchema: {type: object}}\n"
        "  - {name: list_notes, description: List notes., inputSchema: {type: object}}\n"
    )
    line = "tools.yaml:4:12: error TOOL_NAME_UNIQUE duplicate tool name 'list_notes' (see "
    checked = mcpgen("check", "tools.yaml", cwd=tmp_path)
    assert line in checked.stdout
    proc = mcpgen(command, "tools.yaml", "--out", "out", "--package", "c", cwd=tmp_path)
    assert proc.returncode == 2
    assert line in proc.stderr and "was at" not in proc.stderr
