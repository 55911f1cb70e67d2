"""tests/inprocess.py answers as the process does: the same exit code, stdout and stderr as
``python -m mcpgen`` for a clean run (0), findings (1), a usage error (2), a diff written with
``sys.stdout.write`` (1) and a missing file (2), so the tests that use it prove what a user sees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.inprocess import mcpgen

SERVER = ("server", "missing.yaml", "--out", "x", "--package", "p")
BAD = "server: {name: s}\ntools:\n  - name: get weather\n    inputSchema: {type: object}\n"


def test_in_process_answers_as_the_process(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD)
    (tmp_path / "good.yaml").write_text(BAD.replace("get weather", "get_weather"))
    made = mcpgen("docs", "good.yaml", "--out", "ref", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    (tmp_path / "good.yaml").write_text(BAD.replace("get weather", "get_forecast"))
    cases = [
        ("check", "good.yaml"),
        ("check", "bad.yaml"),
        ("check", "bad.yaml", "--format", "nope"),
        ("check", "missing.yaml"),
        ("docs", "good.yaml", "--out", "ref", "--check"),
    ]
    codes = []
    for args in cases:
        proc = subprocess.run(
            [sys.executable, "-m", "mcpgen", *args], cwd=tmp_path, capture_output=True, text=True
        )
        here = mcpgen(*args, cwd=tmp_path)
        assert (here.returncode, here.stdout, here.stderr) == (
            proc.returncode,
            proc.stdout,
            proc.stderr,
        ), args
        codes.append(proc.returncode)
    assert codes == [0, 1, 2, 2, 1]
    assert mcpgen("check", "bad.yaml", cwd=tmp_path).stdout  # the findings are on stdout


def test_the_environment_and_the_directory_come_back(tmp_path: Path) -> None:
    import os

    here = os.getcwd()
    debug = os.environ.get("MCPGEN_DEBUG")
    mcpgen("check", "missing.yaml", cwd=tmp_path, env={"MCPGEN_DEBUG": "1"})
    assert os.getcwd() == here and os.environ.get("MCPGEN_DEBUG") == debug


def test_an_environment_given_whole_is_the_whole_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``environment(full)`` gives the command exactly ``full``, as ``subprocess.run(env=full)``
    does: a variable set here and not in ``full`` is not seen, one in ``full`` is (in this
    process, ``MCPGEN_DEBUG`` lets the error out of ``main`` instead of a traceback)."""
    import os

    from mcpgen.errors import McpgenError
    from tests.inprocess import environment

    full = {"PATH": os.environ.get("PATH", ""), "MCPGEN_DEBUG": "1"}
    made = dict(os.environ)
    for key, value in environment(full).items():
        made.pop(key) if value is None else made.__setitem__(key, value)
    assert made == full
    before = dict(os.environ)
    with pytest.raises(McpgenError, match="cannot read manifest"):
        mcpgen(*SERVER, cwd=tmp_path, env=environment(full))
    assert dict(os.environ) == before
    monkeypatch.setenv("MCPGEN_DEBUG", "1")
    quiet = mcpgen(*SERVER, cwd=tmp_path, env=environment({"PATH": "/bin"}))
    assert quiet.returncode == 2 and "cannot read manifest" in quiet.stderr
