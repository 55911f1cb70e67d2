"""The ``mcpgen`` process entry (``mcpgen.cli.run``): exit codes, complete output through pipes,
and no traceback when the reader goes away. ``run`` ends the process without freeing every
object (as mypy does), so what it must still do is flush the standard streams."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ENV = {k: v for k, v in os.environ.items() if k != "MCPGEN_DEBUG"}


def _mcpgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
    )


def test_large_output_arrives_whole_through_a_pipe(tmp_path: Path) -> None:
    p = _mcpgen("rules", "--format", "json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    rules = json.loads(p.stdout)  # every byte flushed before the process ended
    assert len(rules) > 50
    assert {r["category"] for r in rules} == {"load", "lint", "breaking"}


def test_exit_codes_survive_the_fast_exit(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("tools:\n  - name: 'a b'\n    inputSchema: {type: object}\n")
    p = _mcpgen("check", "bad.yaml", cwd=tmp_path)
    assert p.returncode == 1
    assert "bad.yaml:2:" in p.stdout and "TOOL_NAME_CHARSET" in p.stdout
    p = _mcpgen("check", "missing.yaml", cwd=tmp_path)
    assert p.returncode == 2
    assert "missing.yaml:1:1: error INPUT_UNREADABLE no such file" in p.stdout
    assert "1 error in 1 file" in p.stderr and "Traceback" not in p.stderr
    p = _mcpgen("--version", cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.startswith("mcpgen, version ")


def test_a_reader_that_goes_away_gets_no_traceback(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcpgen", "rules"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.read(10)  # like `mcpgen rules | head -c 10`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert first.startswith(b"RULE")
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_a_profiler_still_gets_its_report(tmp_path: Path) -> None:
    """Under a profiler (or a debugger, or --debug) the process exits normally, so
    ``python -m cProfile -m mcpgen ...`` prints its statistics."""
    p = subprocess.run(
        [sys.executable, "-m", "cProfile", "-m", "mcpgen", "--version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("mcpgen, version ")
    assert "function calls" in p.stdout and "Ordered by" in p.stdout
