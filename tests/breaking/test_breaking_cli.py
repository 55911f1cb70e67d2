"""`mcpgen breaking` on the command line: formats, exit codes and `--against GIT_REF` (manifests,
the files they reference and skill folders read at that ref). The rules themselves, one table
row each, are in test_breaking_rules.py, whose base manifest these tests change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_breaking_rules import BASE, _apply, skill_sides

from tests.inprocess import mcpgen


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return mcpgen(*args, cwd=cwd)


def test_cli_formats_and_exit_codes(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(BASE)
    (tmp_path / "new.yaml").write_text(_apply([("enum: [fast, slow]", "enum: [fast]")]))
    p = _run("breaking", "old.yaml", "new.yaml", cwd=tmp_path)
    assert p.returncode == 1
    assert p.stdout == (
        "new.yaml:9:36: error ENUM_VALUE_NO_DELETE tool 'search' input 'mode': enum "
        "value 'slow' was removed (was at old.yaml:9:43)\n"
    )
    sarif = json.loads(
        _run("breaking", "old.yaml", "new.yaml", "--format", "sarif", cwd=tmp_path).stdout
    )
    res = sarif["runs"][0]["results"][0]
    assert res["relatedLocations"][0]["physicalLocation"]["region"] == {
        "startLine": 9,
        "startColumn": 43,
    }
    data = json.loads(
        _run("breaking", "old.yaml", "new.yaml", "--format", "json", cwd=tmp_path).stdout
    )
    assert data["diagnostics"][0]["related"][0]["path"] == "old.yaml"
    gh = _run("breaking", "old.yaml", "new.yaml", "--format", "github", cwd=tmp_path).stdout
    assert gh.startswith("::error file=new.yaml,line=9,col=36,title=ENUM_VALUE_NO_DELETE::")
    assert _run("breaking", "old.yaml", "old.yaml", cwd=tmp_path).returncode == 0
    assert _run("breaking", "old.yaml", cwd=tmp_path).returncode == 2
    assert _run("breaking", "old.yaml", "nope.yaml", cwd=tmp_path).returncode == 2
    (tmp_path / "ignored.yaml").write_text(
        _apply(
            [
                (
                    "mode: {type: string, enum: [fast, slow]}",
                    "mode: {type: string, enum: [fast]}  # mcpgen: ignore ENUM_VALUE_NO_DELETE",
                )
            ]
        )
    )
    assert _run("breaking", "old.yaml", "ignored.yaml", cwd=tmp_path).returncode == 0
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mcpgen.breaking]\ndisable = ["ENUM_VALUE_NO_DELETE"]\n'
    )
    assert _run("breaking", "old.yaml", "new.yaml", cwd=tmp_path).returncode == 0


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t",
        },
    )


def test_against_git_ref(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    (repo / "tools" / "mcp.yaml").write_text(BASE)
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "base")
    (repo / "tools" / "mcp.yaml").write_text(_apply([("name: write", "name: write_file")]))
    p = _run("breaking", "mcp.yaml", "--against", "main", cwd=repo / "tools")
    assert p.returncode == 1, p.stderr
    assert p.stdout == (
        "mcp.yaml:30:11: error TOOL_NO_DELETE tool 'write' was removed (possibly renamed "
        "to 'write_file') (was at main:tools/mcp.yaml:30:5)\n"
    )
    p = _run("breaking", "tools/mcp.yaml", "--against", "no-such-ref", cwd=repo)
    assert p.returncode == 2 and p.stderr.startswith("mcpgen: ") and "Traceback" not in p.stderr
    (repo / "tools" / "new.yaml").write_text(BASE)
    p = _run("breaking", "tools/new.yaml", "--against", "main", cwd=repo)
    assert p.returncode == 0 and "does not exist at main" in p.stderr
    p = _run("breaking", str(tmp_path / "outside.yaml"), "--against", "main", cwd=repo)
    assert p.returncode == 2


REF_MANIFEST = """\
tools:
  - name: search
    description: Search.
    inputSchema:
      type: object
      properties:
        query: {$ref: "schemas/query.yaml#/Query"}
"""


def test_against_git_ref_reads_file_refs_at_that_ref(tmp_path: Path) -> None:
    """The old side's file `$ref`s come from the ref, not from the working tree: a change made
    only in a referenced file is seen, and a file missing at the ref is reported there."""
    repo = tmp_path / "repo"
    (repo / "tools" / "schemas").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    (repo / "tools" / "mcp.yaml").write_text(REF_MANIFEST)
    query = repo / "tools" / "schemas" / "query.yaml"
    query.write_text("Query: {type: string, enum: [fast, slow]}\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "base")
    # only the referenced file changes in the working tree
    query.write_text("Query: {type: string, enum: [fast]}\n")
    p = _run("breaking", "mcp.yaml", "--against", "main", cwd=repo / "tools")
    assert p.returncode == 1, p.stdout + p.stderr
    assert "ENUM_VALUE_NO_DELETE" in p.stdout and "enum value 'slow' was removed" in p.stdout
    # the same change committed: the ref and the working tree agree again
    _git(repo, "commit", "-q", "-am", "narrow the enum")
    assert _run("breaking", "mcp.yaml", "--against", "main", cwd=repo / "tools").returncode == 0
    p = _run("breaking", "mcp.yaml", "--against", "main~1", cwd=repo / "tools")
    assert p.returncode == 1 and "ENUM_VALUE_NO_DELETE" in p.stdout
    # a file that exists only in the working tree is not read for the ref
    from mcpgen.commands.breaking import read_at_ref
    from mcpgen.errors import McpgenError

    (repo / "tools" / "schemas" / "later.yaml").write_text("Query: {type: string}\n")
    _, label, read_bytes = read_at_ref(str(repo / "tools" / "mcp.yaml"), "main")
    assert label == "main:tools/mcp.yaml"
    assert read_bytes(query.resolve()) == b"Query: {type: string, enum: [fast]}\n"
    with pytest.raises(McpgenError, match="no such file at main"):
        read_bytes((repo / "tools" / "schemas" / "later.yaml").resolve())


def test_skill_files_are_compared_at_a_git_ref(tmp_path: Path) -> None:
    """``--against REF``: the skill's file list is read from the ref (git ls-tree)."""
    old, _ = skill_sides(tmp_path, [], [])
    repo = old.parent
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "."], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "skills"], cwd=repo, check=True)
    (repo / "pdf" / "references" / "FORMS.md").unlink()
    script = Path(sys.executable).with_name("mcpgen")
    proc = subprocess.run(
        [str(script), "breaking", "m.yaml", "--against", "HEAD"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert "SKILL_FILE_NO_DELETE" in proc.stdout
    assert "file 'references/FORMS.md' was removed" in proc.stdout
