"""The GitHub Action (action.yml at the repository root): its steps' script
(.github/actions/mcpgen-check.sh) run in a temporary git repository with a base and a head
commit, as the action runs it on a pull request: the check's SARIF, the breaking changes
against the base (fetched when the clone is shallow), the outputs, and the gate."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import REPO_ROOT, WEATHER

SCRIPT = REPO_ROOT / ".github" / "actions" / "mcpgen-check.sh"
ACTION = REPO_ROOT / "action.yml"


def git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    proc = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return proc.stdout.strip()


def _repo(tmp_path: Path, change: str) -> tuple[Path, str]:
    """A repository whose base commit has the weather manifest and whose head commit changes
    it: ``breaking`` removes a tool, ``harmless`` rewords a description."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "uploadpack.allowAnySHA1InWant", "true")
    shutil.copyfile(WEATHER, repo / "tools.yaml")
    for folder in ("skills", "view"):  # the example's skill and view, beside it
        if (WEATHER.parent / folder).exists():
            shutil.copytree(WEATHER.parent / folder, repo / folder)
    git(repo, "add", "tools.yaml", "skills", "view")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    doc = yaml.safe_load(WEATHER.read_text())
    if change == "breaking":
        doc["tools"] = [t for t in doc["tools"] if t["name"] != "get_forecast"]
    else:
        doc["tools"][0]["description"] = "Get the current weather for a city, now."
    (repo / "tools.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    git(repo, "commit", "-q", "-am", "head")
    return repo, base


def run_script(
    repo: Path, tmp_path: Path, step: str, **env: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    out = tmp_path / "github_output"
    out.touch()
    full = {
        **os.environ,
        "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
        "GITHUB_OUTPUT": str(out),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "OUT_DIR": str(tmp_path / "sarif"),
        **env,
    }
    proc = subprocess.run(
        ["bash", str(SCRIPT), step], cwd=repo, env=full, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)
    return proc, outputs


def test_action_yml_runs_the_script_and_uploads_sarif() -> None:
    action = yaml.safe_load(ACTION.read_text())
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    assert any('.github/actions/mcpgen-check.sh" run' in r for r in runs)
    assert any('.github/actions/mcpgen-check.sh" gate' in r for r in runs)
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action"))
    assert upload["uses"] == "github/codeql-action/upload-sarif@v3"
    assert "always()" in upload["if"]
    assert upload["with"]["sarif_file"] == "${{ steps.run.outputs.sarif }}"
    assert action["inputs"]["base-ref"]["default"] == "${{ github.event.pull_request.base.sha }}"


@pytest.mark.slow
def test_breaking_change_in_a_pull_request(tmp_path: Path) -> None:
    repo, base = _repo(tmp_path, "breaking")
    proc, outputs = run_script(repo, tmp_path, "run", BASE_REF=base)
    print(proc.stdout, proc.stderr)
    assert proc.returncode == 0, proc.stderr
    assert outputs["check-exit-code"] == "0"
    assert outputs["breaking-exit-code"] == "1"
    sarif = json.loads(Path(outputs["sarif"]).read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["tool"]["driver"]["name"]
    assert "::error" in proc.stdout and "get_forecast" in proc.stdout  # a PR annotation
    gate = subprocess.run(
        ["bash", str(SCRIPT), "gate"],
        env={**os.environ, "CHECK_RC": "0", "BREAKING_RC": outputs["breaking-exit-code"]},
        capture_output=True,
        text=True,
    )
    assert gate.returncode == 1 and "breaking exited 1" in gate.stderr


@pytest.mark.slow
def test_harmless_change_passes_and_a_shallow_clone_fetches_the_base(tmp_path: Path) -> None:
    origin, base = _repo(tmp_path, "harmless")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{origin}", str(clone)], check=True
    )
    assert subprocess.run(["git", "cat-file", "-e", base], cwd=clone).returncode != 0
    proc, outputs = run_script(clone, tmp_path, "run", BASE_REF=base)
    assert proc.returncode == 0, proc.stderr
    assert outputs["check-exit-code"] == "0"
    assert outputs["breaking-exit-code"] == "0", proc.stdout
    gate = subprocess.run(
        ["bash", str(SCRIPT), "gate"],
        env={**os.environ, "CHECK_RC": "0", "BREAKING_RC": "0"},
        capture_output=True,
        text=True,
    )
    assert gate.returncode == 0


@pytest.mark.slow
def test_push_without_base_and_a_new_manifest(tmp_path: Path) -> None:
    repo, base = _repo(tmp_path, "harmless")
    proc, outputs = run_script(repo, tmp_path, "run", BASE_REF="")
    assert outputs["breaking-exit-code"] == "0"
    assert "no base ref" in proc.stdout
    shutil.copyfile(repo / "tools.yaml", repo / "more.yaml")
    git(repo, "add", "more.yaml")
    git(repo, "commit", "-q", "-m", "more")
    proc, outputs = run_script(repo, tmp_path, "run", BASE_REF=base, MANIFESTS="*.yaml")
    assert "more.yaml is new since" in proc.stdout
    assert outputs["breaking-exit-code"] == "0"


@pytest.mark.slow
def test_check_findings_fail_the_gate(tmp_path: Path) -> None:
    repo, base = _repo(tmp_path, "harmless")
    (repo / "tools.yaml").write_text("tools:\n  - name: 'bad name!'\n    inputSchema: 3\n")
    proc, outputs = run_script(repo, tmp_path, "run", BASE_REF=base)
    assert outputs["check-exit-code"] in ("1", "2"), proc.stdout + proc.stderr
    assert json.loads(Path(outputs["sarif"]).read_text())["runs"][0]["results"]
