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

HANDLERS = """\
from __future__ import annotations

import asyncio

from ._generated import LoopsToolsBase, ToolContext
from ._generated.models import LoopInfoInput, LoopInfoOutput


class Handlers(LoopsToolsBase):
    async def loop_info(self, args: LoopInfoInput, ctx: ToolContext) -> LoopInfoOutput:
        return LoopInfoOutput(module=type(asyncio.get_running_loop()).__module__)
"""

HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("loops")
    (root / "tools.yaml").write_text(MANIFEST, encoding="utf-8")
    write_package(root / "tools.yaml", root, "loops_pkg", HANDLERS)
    return root


def _loop_module(out: Path, *args: str) -> tuple[int, str, str]:
    """Run ``python -m loops_pkg ARGS``; initialize, call loop_info, and close stdin only after
    the answer arrived (closing earlier may end the session before the call is served)."""
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
    env = dict(os.environ, PYTHONPATH=str(out))
    proc = subprocess.Popen(
        [sys.executable, "-m", "loops_pkg", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    answer = ""
    try:
        for msg in lines:
            proc.stdin.write(json.dumps(msg) + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if json.loads(line).get("id") == 2:
                answer = line
                break
    except BrokenPipeError:
        pass  # the process exited (a usage error): stderr says why
    finally:
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
        proc.wait(timeout=60)
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    return proc.returncode, answer, err


def _served_by(result: tuple[int, str, str]) -> str:
    _, answer, err = result
    assert answer, f"no tools/call answer; stderr:\n{err}"
    return str(json.loads(answer)["result"]["structuredContent"]["module"])


def test_asyncio_on_request(out: Path) -> None:
    assert _served_by(_loop_module(out, "--loop", "asyncio")).startswith("asyncio")


@pytest.mark.skipif(not HAS_UVLOOP, reason="uvloop is not installed (not on Windows)")
def test_uvloop_by_default_when_installed(out: Path) -> None:
    assert _served_by(_loop_module(out)) == "uvloop"
    assert _served_by(_loop_module(out, "--loop", "uvloop")) == "uvloop"


def test_unknown_loop_is_a_usage_error(out: Path) -> None:
    code, answer, err = _loop_module(out, "--loop", "trio")
    assert code == 2
    assert answer == ""
    assert "invalid choice: 'trio'" in err
    assert "Traceback" not in err
