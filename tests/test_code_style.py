"""The project's own code follows the habits it asks of generated code: it is formatted by
``ruff format`` and passes ``ruff check`` (configuration: ``[tool.ruff]`` in pyproject.toml)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]

    return subprocess.run(
        [str(find_ruff_bin()), *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_format_check() -> None:
    proc = _ruff("format", "--check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_check() -> None:
    proc = _ruff("check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr
