"""The recipes of docs/guides/server.md (moved there from the README) for users of other
formatters (``_generated/`` is formatted by mcpgen's pinned ruff): each one, run with the real
tool on a copy of the weather example, leaves ``_generated/`` alone while it still formats the
user's own files."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.helpers import REPO

README = (REPO / "docs" / "guides" / "server.md").read_text(encoding="utf-8")
EXAMPLE = REPO / "examples" / "weather" / "weather_server"


def _recipe(pattern: str) -> str:
    m = re.search(pattern, README)
    assert m is not None, f"docs/guides/server.md lost its recipe {pattern!r}"
    return m.group(1)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(
        EXAMPLE, tmp_path / "weather_server", ignore=shutil.ignore_patterns("__pycache__")
    )
    # a user file the formatter must still reach (a narrow line length reformats it)
    (tmp_path / "weather_server" / "extra.py").write_text(
        "def f(a, b):\n    return {'first': a, 'second': b, 'third': [a, b, a, b, a, b]}\n"
    )
    return tmp_path


def _changed(out: str) -> set[str]:
    """The files under ``_generated/`` a formatter's ``--check`` output names."""
    return set(re.findall(r"\S*/_generated/\S+\.py", out))


def test_ruff_extend_exclude(project: Path) -> None:
    value = _recipe(r"ruff `extend-exclude = (\[[^\]]*\])`")
    (project / "pyproject.toml").write_text(
        f"[tool.ruff]\nline-length = 40\nextend-exclude = {value}\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert "extra.py" in run.stdout  # the user's file is still checked
    assert _changed(run.stdout) == set()
    (project / "pyproject.toml").write_text("[tool.ruff]\nline-length = 40\n")
    without = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert _changed(without.stdout)  # the recipe is what keeps _generated out


def test_black_extend_exclude(project: Path) -> None:
    value = _recipe(r"black `--extend-exclude '([^']*)'`")
    args = [sys.executable, "-m", "black", "--check", "--line-length", "40", "."]
    run = subprocess.run(
        [*args, "--extend-exclude", value], cwd=project, capture_output=True, text=True
    )
    assert "extra.py" in run.stderr
    assert _changed(run.stderr) == set()
    without = subprocess.run(args, cwd=project, capture_output=True, text=True)
    assert _changed(without.stderr)


def test_pre_commit_exclude_pattern() -> None:
    """pre-commit matches ``exclude`` with Python's ``re.search`` on repo-relative paths."""
    pattern = re.compile(_recipe(r"pre-commit `exclude: '([^']*)'`"))
    assert pattern.search("weather_server/_generated/models.py")
    assert pattern.search("_generated/server.py")
    assert not pattern.search("weather_server/handlers.py")
    assert not pattern.search("weather_server/not_generated/x.py")
