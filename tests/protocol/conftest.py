"""Fixtures for the ``mcpgen protocol`` tests: run the real CLI in a subprocess, copy the spec
mirror into a temp dir (to tamper with it), write temporary pins files, snapshot directories."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PINS_FILE = REPO_ROOT / "schema" / "revisions.json"
COMMITTED = REPO_ROOT / "generated" / "mcp_wire"
REVISIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft")


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


def clean_env(**extra: str) -> dict[str, str]:
    """The current environment without variables that would change mcpgen's behaviour."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("MCPGEN_") and k not in ("PYTHONHASHSEED", "PYTHONSTARTUP")
    }
    env.update(extra)
    return env


def run_mcpgen(*args: str | Path, cwd: Path = REPO_ROOT, env: dict[str, str] | None = None) -> Run:
    """``python -m mcpgen ARGS`` in a subprocess, with a clean environment plus ``env``."""
    proc = subprocess.run(
        [sys.executable, "-m", "mcpgen", *map(str, args)],
        cwd=cwd,
        env=clean_env(**(env or {})),
        capture_output=True,
        text=True,
        timeout=300,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def assert_one_line_error(run: Run, *needles: str) -> None:
    """Exit 2, exactly one line on stderr (``mcpgen: error: ...``), no traceback."""
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("mcpgen: error: "), run.stderr
    assert "Traceback" not in run.stderr + run.stdout
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file (and empty directory) under ``root`` -> its bytes."""
    if not root.exists():
        return {}
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file():
            out[rel] = path.read_bytes()
        elif path.is_dir() and not any(path.iterdir()):
            out[rel + "/"] = b""
    return out


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def mcpgen() -> Callable[..., Run]:
    return run_mcpgen


@pytest.fixture
def mirror_copy(spec_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the spec mirror (``<rev>/schema.json`` only), free to tamper with."""
    dest = tmp_path / "mirror"
    for rev in REVISIONS:
        (dest / rev).mkdir(parents=True)
        shutil.copyfile(spec_dir / rev / "schema.json", dest / rev / "schema.json")
    return dest


@pytest.fixture
def pins_for(tmp_path: Path) -> Callable[[Path], Path]:
    """``pins_for(mirror)``: a copy of schema/revisions.json whose sha256s match the files in
    ``mirror`` (so a broken-but-pinned schema gets past the hash check)."""

    def make(mirror: Path) -> Path:
        doc = json.loads(PINS_FILE.read_text(encoding="utf-8"))
        for rev, entry in doc["revisions"].items():
            path = mirror / rev / "schema.json"
            if path.is_file():
                entry["sha256"] = sha256_file(path)
        out = tmp_path / "pins.json"
        out.write_text(json.dumps(doc, indent=2), encoding="utf-8")
        return out

    return make


@pytest.fixture
def committed_copy(tmp_path: Path) -> Path:
    """A copy of the committed ``generated/`` tree (only ``mcp_wire``), to use as ``--out``."""
    out = tmp_path / "out"
    shutil.copytree(COMMITTED, out / "mcp_wire", ignore=shutil.ignore_patterns("__pycache__"))
    return out
