"""Generated trees depend only on their inputs, and ``--check`` agrees with a write.

* The README's first command, run in a fresh copy of the checkout, leaves ``git status`` empty
  (a committed ``_generated/.mcpgen.json`` whose inputs digest is stale used to be rewritten).
* ``mcpgen server --check`` calls a tree out of date when a write would change any byte of it,
  the marker's inputs digest included, so CI's ``--check`` fails where a user's run would dirty
  the tree.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_readme import section

REPO = Path(__file__).resolve().parent.parent
WEATHER = REPO / "examples" / "weather" / "tools.yaml"


def _mcpgen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *args], capture_output=True, text=True, cwd=cwd
    )


def _fresh_copy(dest: Path) -> Path:
    """The checkout's tracked files as they are in the work tree (uncommitted edits included),
    committed into a new repository at ``dest``: what a fresh clone of this work would hold."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], capture_output=True, check=True, cwd=REPO
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        src = REPO / rel
        if not src.exists() and not src.is_symlink():  # deleted in the work tree
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target, follow_symlinks=False)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "fresh"]):
        subprocess.run([*git, *args], cwd=dest, check=True, capture_output=True)
    return dest


def _main_command_without_install() -> list[str]:
    """The README's first set-up command, minus making the venv and installing (this suite's
    interpreter has both installed): the commands that follow, with ``.venv/bin/`` this
    interpreter's ``bin/``."""
    blocks = re.findall(r"```sh\n(.*?)\n```", section("Set-up (two commands)"), re.S)
    steps = blocks[0].split(" && ")
    assert steps[0].startswith("python3 -m venv") and "pip install" in steps[1], steps
    bindir = f"{Path(sys.executable).parent}/"
    return [step.replace(".venv/bin/", bindir) for step in steps[2:]]


@pytest.mark.slow
def test_readme_first_command_leaves_a_fresh_clone_clean(tmp_path: Path) -> None:
    clone = _fresh_copy(tmp_path / "clone")
    steps = _main_command_without_install()
    assert any("mcpgen server examples/weather/tools.yaml" in s for s in steps), steps
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run(
        ["bash", "-c", " && ".join(steps)],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    diff = subprocess.run(["git", "diff"], cwd=clone, capture_output=True, text=True).stdout
    assert status == "", status + diff


def test_check_sees_a_stale_inputs_digest(tmp_path: Path) -> None:
    """Same files, a different inputs digest (an input changed that does not change the
    output, such as a runtime source the generator reads): ``server`` would rewrite the marker,
    so ``--check`` says out of date (exit 1) and shows it; after the write both agree."""
    args = ["server", str(WEATHER), "--out", str(tmp_path), "--package", "w"]
    assert _mcpgen(*args).returncode == 0
    marker = tmp_path / "w" / "_generated" / ".mcpgen.json"
    data = json.loads(marker.read_text())
    data["inputs_sha256"] = "0" * 64
    marker.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    stale = _mcpgen(*args, "--check")
    assert stale.returncode == 1, stale.stderr
    assert '-  "inputs_sha256": "' + "0" * 64 in stale.stdout
    assert "out of date" in stale.stderr
    assert "0" * 64 in marker.read_text()  # --check writes nothing
    rewrite = _mcpgen(*args)
    assert rewrite.returncode == 0 and "wrote" in rewrite.stderr, rewrite.stderr
    again = _mcpgen(*args, "--check")
    assert again.returncode == 0 and again.stdout == "", again.stdout


def test_committed_examples_match_a_write(tmp_path: Path) -> None:
    """Each example's committed ``_generated/`` (its marker included) is byte for byte what
    ``mcpgen server`` writes into a fresh folder from the same manifest."""
    for name, package in (("weather", "weather_server"), ("conformance", "conformance_server")):
        example = REPO / "examples" / name
        copy = tmp_path / name
        shutil.copytree(example, copy, ignore=shutil.ignore_patterns("__pycache__", package))
        proc = _mcpgen("server", "tools.yaml", "--out", ".", "--package", package, cwd=copy)
        assert proc.returncode == 0, proc.stderr
        written = copy / package / "_generated"
        committed = example / package / "_generated"
        for path in sorted(written.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                rel = path.relative_to(written)
                assert (committed / rel).read_bytes() == path.read_bytes(), f"{name}: {rel}"
