"""``python -m <package> --loop auto|asyncio|uvloop``: the event loop a generated server runs on.

auto picks uvloop when it is installed (as uvicorn does for HTTP) and asyncio otherwise; each
choice is checked by a real stdio session whose handler reports the loop it runs on.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.helpers import write_package

MANIFEST = """\
server: {name: loops, version: 1.0.0}
tools:
  - name: loop_info
    description: Which event loop serves this call
    inputSchema: {type: object}
    outputSchema:
      type: object
      properties: {module: {type: string}}
      required: [module]
"""

HANDLERS = '''\
from __future__ import annotations

import asyncio

from ._generated import LoopsToolsBase, ToolContext
from ._generated.models import LoopInfoInput, LoopInfoOutput


class Handlers(LoopsToolsBase):
    async def loop_info(self, args: LoopInfoInput, ctx: ToolContext) -> LoopInfoOutput:
        return LoopInfoOutput(module=type(asyncio.get_running_loop()).__module__)
'''

HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("loops")
    (root / "tools.yaml").write_text(MANIFEST, encoding="utf-8")
    write_package(root / "tools.yaml", root, "loops_pkg", HANDLERS)
    return root


def _loop_module(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "loop_info"}},
    ]
    stdin = "".join(json.dumps(m) + "\n" for m in lines)
    env = dict(os.environ, PYTHONPATH=str(out))
    return subprocess.run(
        [sys.executable, "-m", "loops_pkg", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def _served_by(proc: subprocess.CompletedProcess[str]) -> str:
    for line in proc.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("id") == 2:
            return str(msg["result"]["structuredContent"]["module"])
    raise AssertionError(f"no tools/call answer; stderr:\n{proc.stderr}")


def test_asyncio_on_request(out: Path) -> None:
    assert _served_by(_loop_module(out, "--loop", "asyncio")).startswith("asyncio")


@pytest.mark.skipif(not HAS_UVLOOP, reason="uvloop is not installed (not on Windows)")
def test_uvloop_by_default_when_installed(out: Path) -> None:
    assert _served_by(_loop_module(out)) == "uvloop"
    assert _served_by(_loop_module(out, "--loop", "uvloop")) == "uvloop"


def test_unknown_loop_is_a_usage_error(out: Path) -> None:
    proc = _loop_module(out, "--loop", "trio")
    assert proc.returncode == 2
    assert "invalid choice: 'trio'" in proc.stderr
    assert "Traceback" not in proc.stderr
