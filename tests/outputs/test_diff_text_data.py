"""``--check`` shows a changed skill file (package data that is UTF-8 text) as a diff, not as
"Binary file ... differs" (issue 50); data that is not text still is one line."""

from __future__ import annotations

from pathlib import Path

from mcpgen.emit import diff_owned_tree


def test_a_changed_text_file_is_a_diff(tmp_path: Path) -> None:
    owned = tmp_path / "_generated"
    (owned / "skills" / "s").mkdir(parents=True)
    (owned / "skills" / "s" / "SKILL.md").write_bytes(b"# Old\nline\n")
    diff = diff_owned_tree(owned, {"skills/s/SKILL.md": b"# New\nline\n"})
    assert "Binary file" not in diff
    assert "-# Old" in diff and "+# New" in diff


def test_binary_data_is_one_line(tmp_path: Path) -> None:
    owned = tmp_path / "_generated"
    owned.mkdir()
    (owned / "icon.png").write_bytes(b"\x89PNG\xff\x00")
    diff = diff_owned_tree(owned, {"icon.png": b"\x89PNG\xfe\x00"})
    assert diff == f"Binary file {owned}/icon.png differs (package data)\n"
