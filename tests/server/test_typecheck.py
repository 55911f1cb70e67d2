"""Generated packages pass ``mypy --strict`` (the weather example with its handlers, and a
hostile manifest with its stub handlers)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.helpers import DATA, WEATHER, WEATHER_HANDLERS, write_package


@pytest.mark.slow
def test_mypy_strict_on_generated_packages(tmp_path: Path) -> None:
    write_package(WEATHER, tmp_path, "weather_typed", WEATHER_HANDLERS.read_text())
    write_package(DATA / "hostile.json", tmp_path, "hostile_typed")
    write_package(
        DATA / "behaviours.yaml",
        tmp_path,
        "behaviours_typed",
        (DATA / "behaviours_handlers.py").read_text(),
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "-p",
            "weather_typed",
            "-p",
            "hostile_typed",
            "-p",
            "behaviours_typed",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
