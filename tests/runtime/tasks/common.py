"""A generated server with task tools, and raw JSON-RPC helpers for the tasks tests."""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from tests.interop.procs import HttpServer, free_port
from tests.interop.wire import HttpPeer, StdioPeer, modern_meta

EXT = "io.modelcontextprotocol/tasks"

MANIFEST = {
    "server": {
        "name": "tasked",
        "version": "1.0.0",
        "tasks": {"keepSeconds": 2, "pollIntervalMs": 50, "maxLivePerCaller": 3, "maxLive": 100},
    },
    "tools": [
        {
            "name": "echo",
            "description": "Echoes text (a plain tool).",
            "inputSchema": {
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"],
            },
        },
        {
            "name": "work",
            "description": "Works `seconds`, reporting progress (optional task, idempotent).",
            "annotations": {"idempotentHint": True},
            "execution": {"taskSupport": "optional"},
            "inputSchema": {
                "type": "object",
                "properties": {"seconds": {"type": "number"}},
                "required": ["seconds"],
            },
        },
        {
            "name": "export",
            "description": "Works `seconds` (always a task, not idempotent).",
            "execution": {"taskSupport": "required"},
            "inputSchema": {
                "type": "object",
                "properties": {"seconds": {"type": "number"}},
                "required": ["seconds"],
            },
        },
        {
            "name": "ask",
            "description": "Asks a number, then works a little (optional task).",
            "execution": {"taskSupport": "optional"},
            "inputSchema": {"type": "object", "properties": {}},
        },
    ],
}

HANDLERS = textwrap.dedent(
    """
    from __future__ import annotations

    import asyncio
    import os

    from pydantic import BaseModel

    from mcpgen_runtime import ToolContext

    from ._generated import ToolsBase
    from ._generated.models import AskInput, EchoInput, ExportInput, WorkInput


    class Number(BaseModel):
        n: int


    class Handlers(ToolsBase):
        async def echo(self, args: EchoInput, ctx: ToolContext) -> str:
            return f"{args.text} pid={os.getpid()}"

        async def work(self, args: WorkInput, ctx: ToolContext) -> str:
            steps = max(1, int(args.seconds * 10))
            for i in range(steps):
                await asyncio.sleep(args.seconds / steps)
                await ctx.progress(i + 1, steps, f"step {i + 1} of {steps}")
            return f"worked {args.seconds:g} s pid={os.getpid()}"

        async def export(self, args: ExportInput, ctx: ToolContext) -> str:
            await asyncio.sleep(args.seconds)
            return f"exported pid={os.getpid()}"

        async def ask(self, args: AskInput, ctx: ToolContext) -> str:
            answer = await ctx.elicit(Number, "Which number?", key="n")
            await asyncio.sleep(0.1)
            return f"n={answer.data.n if answer.data else None}"
    """
)


def write(out: Path) -> Path:
    from tests.server.helpers import write_package

    manifest = out / "tools.json"
    manifest.write_text(json.dumps(MANIFEST))
    write_package(manifest, out, "tasked", HANDLERS)
    return out


def env(package: Path, **extra: str) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")},
        "PYTHONPATH": str(package),
        **extra,
    }


def http_server(package: Path, *args: str, **extra: str) -> HttpServer:
    port = free_port()
    return HttpServer(
        cmd=[sys.executable, "-m", "tasked", "--http", "--port", str(port), *args],
        env=env(package, **extra),
        port=port,
    )


def stdio(package: Path, *args: str) -> StdioPeer:
    return StdioPeer([sys.executable, "-m", "tasked", *args], env=env(package))


def meta(tasks: bool = True, **caps: Any) -> dict[str, Any]:
    m = modern_meta()
    declared: dict[str, Any] = dict(caps)
    if tasks:
        declared["extensions"] = {EXT: {}}
    m["io.modelcontextprotocol/clientCapabilities"] = declared
    return m


class Client:
    """Raw 2026-07-28 requests to one server (HTTP or stdio)."""

    def __init__(self, peer: HttpPeer | StdioPeer, token: str | None = None) -> None:
        self.peer = peer
        self.token = token

    def rpc(self, method: str, params: dict[str, Any], *, tasks: bool = True) -> dict[str, Any]:
        caps = {"elicitation": {}}
        body = {**params, "_meta": meta(tasks, **caps)}
        if self.token is not None:
            assert isinstance(self.peer, HttpPeer)
            headers = {"Authorization": f"Bearer {self.token}"}
            return self.peer.request(method, body, headers=headers)
        return self.peer.request(method, body)

    def call(self, name: str, args: dict[str, Any], *, tasks: bool = True) -> dict[str, Any]:
        return self.rpc("tools/call", {"name": name, "arguments": args}, tasks=tasks)

    def get(self, task_id: str) -> dict[str, Any]:
        return self.rpc("tasks/get", {"taskId": task_id})

    def until(self, task_id: str, *statuses: str, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            res = self.get(task_id)
            assert "result" in res, res
            if res["result"]["status"] in statuses:
                return dict(res["result"])
            assert time.monotonic() < deadline, res
            time.sleep(0.05)
