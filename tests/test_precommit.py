"""The published pre-commit hook, for real: a throwaway git repo whose .pre-commit-config.yaml
points at this checkout (at its current HEAD commit). pre-commit clones it, pip-installs mcpgen
into its own environment (from PyPI), and runs `mcpgen check` on the staged manifest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# pre-commit 4.7 (and identify, which it brings) needs Python 3.11; the 3.10 lock leaves it out
pytest.importorskip("pre_commit", reason="pre-commit is not installed (Python 3.10's lock)")

REPO = Path(__file__).resolve().parent.parent

BAD = """\
protocol: [2025-11-25]
tools:
  - name: get weather
    description: Weather for a city.
    inputSchema:
      type: object
      properties:
        city: {type: string, description: City name.}
"""


def _pre_commit() -> str:
    exe = Path(sys.executable).parent / "pre-commit"
    return str(exe) if exe.exists() else (shutil.which("pre-commit") or "pre-commit")


@pytest.mark.parametrize(
    ("path", "selected"),
    [
        ("mcp.yaml", True),
        ("tools.json", True),
        ("config/mcp-tools.yml", True),
        ("tools/mcp.yaml", True),
        ("tools/weather.yaml", False),
        (".github/workflows/ci.yml", False),
        ("mcp.yaml.bak", False),
        ("pyproject.toml", False),
        ("mcpgen/readme.md", False),
    ],
)
def test_check_hook_file_selection(path: str, selected: bool) -> None:
    """`files:` + `types_or:` of mcpgen-check, as pre-commit applies them."""
    import re

    import yaml
    from identify.identify import tags_from_filename

    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    hook = hooks["mcpgen-check"]
    matches = re.search(hook["files"], path) is not None
    typed = bool(set(hook["types_or"]) & tags_from_filename(path))
    assert (matches and typed) is selected
    assert (
        hooks["mcpgen-drift"]["pass_filenames"] is False and hooks["mcpgen-drift"]["require_serial"]
    )
    assert hooks["mcpgen-protocol-drift"]["entry"] == "mcpgen protocol generate --check"


@pytest.mark.slow
def test_hook_fails_on_bad_manifest_then_passes(tmp_path: Path) -> None:
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    hooks = subprocess.run(
        ["git", "show", f"{rev}:.pre-commit-hooks.yaml"], cwd=REPO, capture_output=True, text=True
    )
    assert hooks.returncode == 0, "commit .pre-commit-hooks.yaml first"

    work = tmp_path / "project"
    work.mkdir()
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "PRE_COMMIT_COLOR": "never",
    }
    env.pop("MCPGEN_DEBUG", None)

    def git(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", *args],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            check=check,
            timeout=900,
        )

    git("init", "-q", "-b", "main")
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {REPO}\n    rev: {rev}\n    hooks:\n      - id: mcpgen-check\n"
    )
    (work / "README.md").write_text("not a manifest\n")
    git("add", ".")
    git("commit", "-q", "--no-verify", "-m", "init")
    inst = subprocess.run(
        [_pre_commit(), "install"], cwd=work, env=env, capture_output=True, text=True
    )
    assert inst.returncode == 0, inst.stderr

    (work / "tools").mkdir()
    (work / "tools" / "mcp.yaml").write_text(BAD)
    (work / "notes.yaml").write_text("not: [a manifest\n")  # outside the hook's `files:` pattern
    git("add", ".")
    failed = git("commit", "-m", "add tools", check=False)
    out = failed.stdout + failed.stderr
    assert failed.returncode != 0, out
    assert (
        "tools/mcp.yaml:3:11: error TOOL_NAME_CHARSET tool name 'get weather' contains space" in out
    )
    assert "notes.yaml" not in out

    (work / "tools" / "mcp.yaml").write_text(BAD.replace("get weather", "get_weather"))
    git("add", ".")
    passed = git("commit", "-m", "add tools", check=False)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "mcpgen check" in passed.stdout + passed.stderr
