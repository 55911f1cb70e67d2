"""The ``skills:`` section: folders beside the manifest, read by the loader like ``file:``
resources. A good folder loads with its front matter (YAML 1.2 scalars) and every file; each
bad input is one located finding (in the manifest, or inside SKILL.md for the front matter),
and ``mcpgen server`` refuses it with exit 2 and writes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mcpgen.check.config import RuleConfig
from mcpgen.check.runner import check_file
from mcpgen.manifest.load import load_manifest

GOOD = "---\nname: pdf\ndescription: Work with PDF files.\nversion: 2026-01-02\n---\n\n# PDF\n"


def _project(tmp_path: Path, skill_md: str | None = GOOD, entries: str = "  - path: pdf\n") -> Path:
    if skill_md is not None:
        (tmp_path / "pdf" / "references").mkdir(parents=True)
        (tmp_path / "pdf" / "SKILL.md").write_text(skill_md, encoding="utf-8")
        (tmp_path / "pdf" / "references" / "FORMS.md").write_text("# Forms\n", encoding="utf-8")
        (tmp_path / "pdf" / ".DS_Store").write_bytes(b"\x00junk")
    (tmp_path / "m.yaml").write_text(
        "server: {name: s}\ntools: [{name: t, inputSchema: {type: object}}]\nskills:\n" + entries,
        encoding="utf-8",
    )
    return tmp_path / "m.yaml"


def _findings(path: Path) -> list[tuple[str, str, int, int, str]]:
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        result = check_file(path.name, RuleConfig())
    finally:
        os.chdir(here)
    return [
        (d.rule_id, d.location.path, d.location.line, d.location.col, d.message)
        for d in result.diagnostics
        if d.rule_id.startswith(("SKILL_", "YAML_", "MANIFEST_SCHEMA"))
    ]


def _mcpgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("mcpgen")
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_a_skill_folder_loads_with_its_files_and_front_matter(tmp_path: Path) -> None:
    res = load_manifest(_project(tmp_path))
    assert res.errors == []
    (skill,) = res.manifest.skills  # type: ignore[union-attr]
    assert skill.name == "pdf"
    # YAML 1.2 scalars: the date stays the string the extension's JSON carries
    assert skill.frontmatter == {
        "name": "pdf",
        "description": "Work with PDF files.",
        "version": "2026-01-02",
    }
    assert [f.path for f in skill.files] == ["SKILL.md", "references/FORMS.md"]  # no dot-file
    assert skill.files[1].data == b"# Forms\n"
    deps = {d.path for d in res.manifest.dependencies}  # type: ignore[union-attr]
    assert {"pdf/SKILL.md", "pdf/references/FORMS.md"} <= deps


@pytest.mark.parametrize(
    ("skill_md", "rule", "where", "message"),
    [
        ("# PDF\nno front matter\n", "SKILL_FRONTMATTER", (1, 1), "must begin with YAML front"),
        ("---\nname: pdf\n---\n", "SKILL_FRONTMATTER", (2, 1), "non-empty `description`"),
        ("---\nname: PDF\ndescription: d\n---\n", "SKILL_NAME", (2, 7), "lowercase"),
        ("---\nname: a--b\ndescription: d\n---\n", "SKILL_NAME", (2, 7), "doubled hyphen"),
        ("---\nname: word\ndescription: d\n---\n", "SKILL_NAME", (2, 7), "differs from its folder"),
        (
            "---\nname: pdf\ndescription: " + "x" * 1025 + "\n---\n",
            "SKILL_DESCRIPTION",
            (3, 14),
            "1025 characters; the limit is 1024",
        ),
        ("---\nname: [pdf\n---\n", "SKILL_FRONTMATTER", (2, 1), ""),
        ("---\n- a\n- b\n---\n", "SKILL_FRONTMATTER", (2, 1), "must be a mapping"),
    ],
)
def test_bad_front_matter_is_one_finding_inside_skill_md(
    tmp_path: Path, skill_md: str, rule: str, where: tuple[int, int], message: str
) -> None:
    found = [f for f in _findings(_project(tmp_path, skill_md)) if f[0].startswith("SKILL_")]
    assert len(found) == 1, found
    rule_id, path, line, col, text = found[0]
    assert (rule_id, path) == (rule, "pdf/SKILL.md")
    if rule != "SKILL_FRONTMATTER" or message:
        assert (line, col) == where
    assert message in text


def test_reserved_metadata_key_is_a_warning(tmp_path: Path) -> None:
    md = "---\nname: pdf\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: 1\n---\n"
    found = _findings(_project(tmp_path, md))
    assert [(f[0], f[2], f[3]) for f in found] == [("SKILL_METADATA_RESERVED", 5, 3)]
    assert found[0][1] == "pdf/SKILL.md"
    assert load_manifest(tmp_path / "m.yaml").errors == []


def test_folder_problems_point_at_the_manifest_entry(tmp_path: Path) -> None:
    m = _project(tmp_path, entries="  - path: pdf\n  - path: ./pdf/\n  - path: nothere\n")
    (tmp_path / "empty").mkdir()
    found = _findings(m)
    assert [(f[0], f[1], f[2], f[3]) for f in found] == [
        ("SKILL_NAME_UNIQUE", "m.yaml", 5, 11),
        ("SKILL_FOLDER", "m.yaml", 6, 11),
        ("YAML_TIMESTAMP", "pdf/SKILL.md", 4, 10),  # a warning: YAML 1.1 hosts see a date
    ]
    assert "already served by 'pdf'" in found[0][4]
    assert "does not exist" in found[1][4]


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_a_symlink_out_of_the_skill_folder_is_refused(tmp_path: Path, kind: str) -> None:
    m = _project(tmp_path)
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key.txt").write_text("nope\n")
    if kind == "file":
        os.symlink(secret / "key.txt", tmp_path / "pdf" / "key.txt")
    else:
        os.symlink(secret, tmp_path / "pdf" / "more")
    found = [f for f in _findings(m) if f[0] != "YAML_TIMESTAMP"]
    assert [(f[0], f[2]) for f in found] == [("SKILL_FOLDER", 4)]
    assert "out" in found[0][4] or "outside" in found[0][4]


def test_a_file_over_16_mib_is_refused(tmp_path: Path) -> None:
    m = _project(tmp_path)
    with open(tmp_path / "pdf" / "big.bin", "wb") as fh:
        fh.truncate(16 * 1024 * 1024 + 1)
    found = [f for f in _findings(m) if f[0] != "YAML_TIMESTAMP"]
    assert [(f[0], f[2]) for f in found] == [("SKILL_FOLDER", 4)]
    assert "16777217 bytes; the limit is 16777216" in found[0][4]


def test_no_skill_md_and_not_a_folder(tmp_path: Path) -> None:
    m = _project(tmp_path, entries="  - path: pdf/references\n  - path: pdf/SKILL.md\n")
    found = [f for f in _findings(m) if f[0] != "YAML_TIMESTAMP"]
    assert [f[4].split(" ")[-3:] for f in found] == [
        ["at", "its", "root"],
        ["not", "a", "directory"],
    ]


def test_generation_refuses_bad_skills_and_writes_nothing(tmp_path: Path) -> None:
    _project(tmp_path, "# PDF\nno front matter\n")
    made = _mcpgen("server", "m.yaml", "--out", ".", "--package", "pkg", cwd=tmp_path)
    assert made.returncode == 2
    assert made.stderr.startswith("mcpgen: error: pdf/SKILL.md:1:1: SKILL.md must begin with YAML")
    assert "[SKILL_FRONTMATTER]" in made.stderr
    assert "Traceback" not in made.stderr
    assert not (tmp_path / "pkg").exists()


def test_generation_bundles_the_folder_byte_for_byte(tmp_path: Path) -> None:
    _project(tmp_path)
    (tmp_path / "pdf" / "logo.png").write_bytes(bytes(range(256)))
    made = _mcpgen("server", "m.yaml", "--out", ".", "--package", "pkg", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    out = tmp_path / "pkg" / "_generated" / "skills" / "pdf"
    for rel in ("SKILL.md", "references/FORMS.md", "logo.png"):
        assert (out / rel).read_bytes() == (tmp_path / "pdf" / rel).read_bytes()
    assert not (out / ".DS_Store").exists()
    server_py = (tmp_path / "pkg" / "_generated" / "server.py").read_text()
    import hashlib

    digest = hashlib.sha256(bytes(range(256))).hexdigest()
    assert '"logo.png",\n                "image/png",\n                True,' in server_py
    assert f'"sha256:{digest}",\n                256,' in server_py
    # a changed skill file makes the package out of date
    (tmp_path / "pdf" / "references" / "FORMS.md").write_text("# Forms, changed\n")
    checked = _mcpgen("server", "m.yaml", "--out", ".", "--package", "pkg", "--check", cwd=tmp_path)
    assert checked.returncode == 1
