"""``mypy --strict`` on generated code, on a cache warmed once per test run.

Every generated package imports the same libraries (pydantic, the SDK, ``mcpgen_runtime``,
``mcp_wire``, anyio, click); checking them again in each test (``--no-incremental``) cost each
run 15-30 s. One strict run over those imports fills a cache once per test run
(``tests.shared_once``); each check gets its own copy of it (mypy then checks only the generated
package, incrementally, with the same options: its cache records the options and the sources'
hashes, and rechecks whatever differs).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.shared_once import once

FLAGS = ("--strict",)
WARM = """\
import anyio
import click
import httpx
import mcp
import mcp_wire
import mcpgen_runtime
import mcpgen_runtime.client
import mcpgen_runtime.server
import pydantic
"""


def _warm(folder: Path) -> None:
    (folder / "warm.py").write_text(WARM)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", *FLAGS, "--cache-dir", str(folder / "cache"), "warm.py"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr


def strict_args(factory: pytest.TempPathFactory, into: Path) -> list[str]:
    """``mypy`` arguments for a strict run with its own copy of the warm cache (under
    ``into``)."""
    base = once(factory, "mypy-warm", _warm) / "cache"
    into.mkdir(parents=True, exist_ok=True)
    copy = into / ".mypy-cache"
    shutil.copytree(base, copy)
    return ["-m", "mypy", *FLAGS, "--cache-dir", str(copy)]
