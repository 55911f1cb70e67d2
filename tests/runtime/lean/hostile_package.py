"""A generated package for the hostile-client tests (issue 49): ``flood`` sends ``count``
progress notifications of ``size`` bytes, ``slow`` sleeps ``seconds``, ``ask`` elicits a name,
``add`` answers at once. ``package(tmp_path_factory)`` writes it; ``spawn`` starts it over
stdio with either engine; ``peak_rss`` reads a process's peak RSS."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.server.helpers import write_package

__all__ = ["MANIFEST", "NAME", "peak_rss", "spawn", "write"]

NAME = "hostile_server"
MANIFEST = """\
server:
  name: hostile
  version: 1.0.0
tools:
  - name: add
    description: Adds two numbers.
    inputSchema:
      type: object
      properties:
        a: {type: number}
        b: {type: number}
      required: [a, b]
  - name: flood
    description: Sends progress notifications.
    inputSchema:
      type: object
      properties:
        count: {type: integer}
        size: {type: integer}
      required: [count, size]
  - name: slow
    description: Sleeps.
    inputSchema:
      type: object
      properties:
        seconds: {type: number}
      required: [seconds]
  - name: ask
    description: Asks the user for a name.
    inputSchema: {type: object}
"""

HANDLERS = """\
from __future__ import annotations

import asyncio

from pydantic import BaseModel

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated.models import AddInput, AskInput, FloodInput, SlowInput


class Name(BaseModel):
    name: str


class Handlers(ToolsBase):
    async def add(self, args: AddInput, ctx: ToolContext) -> str:
        return f"{args.a + args.b:g}"

    async def flood(self, args: FloodInput, ctx: ToolContext) -> str:
        pad = "x" * args.size
        for i in range(args.count):
            await ctx.progress(i, args.count, pad)
        return "flooded"

    async def slow(self, args: SlowInput, ctx: ToolContext) -> str:
        await asyncio.sleep(args.seconds)
        return "slept"

    async def ask(self, args: AskInput, ctx: ToolContext) -> str:
        answer = await ctx.elicit(Name, "Your name?")
        return f"hello {answer.data.name}" if answer.data is not None else answer.action
"""


def write(out: Path) -> Path:
    """The package under ``out`` (what ``PYTHONPATH`` must name)."""
    manifest = out / "hostile.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    write_package(manifest, out, NAME, handlers=HANDLERS)
    return out


def spawn(where: Path, engine: str = "lean", **kwargs: Any) -> subprocess.Popen[bytes]:
    """The package's server over stdio (``kwargs``: ``Popen``'s, e.g. other stdin/stdout)."""
    env = dict(os.environ, PYTHONPATH=str(where), MCPGEN_ENGINE=engine)
    options: dict[str, Any] = {
        "stdin": subprocess.PIPE,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        **kwargs,
    }
    return subprocess.Popen([sys.executable, "-m", NAME], env=env, cwd=where, **options)


def read_to_end(proc: subprocess.Popen[bytes], timeout: float = 60) -> bytes:
    """The rest of ``proc``'s stdout, to its end: bounded, so a server that never closes it
    (a defect the tests look for) fails the test with what it wrote instead of hanging it."""
    import threading

    assert proc.stdout is not None
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        return proc.stdout.read()
    finally:
        timer.cancel()


def peak_rss(pid: int) -> float:
    """The process's peak resident set (MiB), from ``/proc/<pid>/status``."""
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmHWM:"):
            return int(row.split()[1]) / 1024
    raise AssertionError("no VmHWM")
