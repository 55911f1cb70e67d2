"""Load: 64 concurrent clients against a generated server, every answer checked against its
question (nothing lost, nothing crossed): over HTTP (64 connections, both wires) and over one
stdio connection with 64 requests in flight at a time (the runtime's pipe transport)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.interop.procs import HttpServer, free_port
from tests.server.helpers import write_package

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 64
CALLS_EACH = 25

HANDLERS = """
from __future__ import annotations

import anyio
from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated.models import AddInput, AddOutput


class Handlers(ToolsBase):
    async def add(self, args: AddInput, ctx: ToolContext) -> AddOutput:
        await anyio.sleep(0.001 * (args.a % 3))  # answers finish out of order
        return AddOutput(sum=args.a + args.b)
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("load")
    manifest = out / "add.yaml"
    manifest.write_text((ROOT / "bench" / "add_manifest.yaml").read_text())
    write_package(manifest, out, "bench_add", HANDLERS)
    return out


def _env(package: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(package)}


META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "load", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def _sum_of(text: str) -> int:
    doc = (
        json.loads(text)
        if text.lstrip().startswith("{")
        else json.loads(
            [ln[5:] for ln in text.splitlines() if ln.startswith("data:") and ln[5:].strip()][-1]
        )
    )
    return int(doc["result"]["structuredContent"]["sum"])


@pytest.mark.parametrize("wire", ["2026-07-28", "2026-07-28-h11", "2025-11-25-stateless"])
def test_http_64_clients(package: Path, wire: str) -> None:
    port = free_port()
    args = ["--stateless"] if wire.endswith("stateless") else []
    if wire.endswith("h11"):
        args = ["--http-parser", "h11"]  # uvicorn's pure-Python parser (without the extra)
    srv = HttpServer(
        cmd=[sys.executable, "-m", "bench_add", "--http", "--port", str(port), *args],
        env=_env(package),
        port=port,
    )
    srv.start()
    modern = wire.startswith("2026-07-28")

    async def client(n: int, http: httpx.AsyncClient) -> list[tuple[int, int]]:
        got = []
        for i in range(CALLS_EACH):
            a, b = n * 1000 + i, n
            params: dict[str, Any] = {"name": "add", "arguments": {"a": a, "b": b}}
            headers = {
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2025-11-25",  # stateless: no handshake
            }
            if modern:
                params["_meta"] = META
                headers.update(
                    {
                        "MCP-Protocol-Version": "2026-07-28",
                        "Mcp-Method": "tools/call",
                        "Mcp-Name": "add",
                    }
                )
            body = {"jsonrpc": "2.0", "id": f"{n}-{i}", "method": "tools/call", "params": params}
            r = await http.post(srv.url, json=body, headers=headers)
            assert r.status_code == 200, r.text
            got.append((a + b, _sum_of(r.text)))
        return got

    async def main() -> list[tuple[int, int]]:
        limits = httpx.Limits(max_connections=CLIENTS)
        async with httpx.AsyncClient(timeout=60, limits=limits) as http:
            results = await asyncio.gather(*(client(n, http) for n in range(CLIENTS)))
        return [pair for chunk in results for pair in chunk]

    try:
        pairs = asyncio.run(main())
    finally:
        srv.stop()
    assert len(pairs) == CLIENTS * CALLS_EACH
    assert all(want == got for want, got in pairs)


def test_stdio_64_in_flight(package: Path) -> None:
    """One stdio connection (pipes: the runtime's transport), 64 requests in flight at a
    time, answers out of order: each id gets its own sum, once."""

    async def main() -> dict[Any, int]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench_add",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env=_env(package),
            limit=1 << 24,
        )
        assert proc.stdin is not None and proc.stdout is not None

        def send(msg: dict[str, Any]) -> None:
            assert proc.stdin is not None
            proc.stdin.write((json.dumps(msg) + "\n").encode())

        send(
            {
                "jsonrpc": "2.0",
                "id": "init",
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "load", "version": "1"},
                },
            }
        )
        await proc.stdin.drain()
        assert json.loads(await proc.stdout.readline())["id"] == "init"
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        answers: dict[Any, int] = {}
        total = CLIENTS * CALLS_EACH
        sent = 0
        while len(answers) < total:
            while sent < total and sent - len(answers) < CLIENTS:
                send(
                    {
                        "jsonrpc": "2.0",
                        "id": sent,
                        "method": "tools/call",
                        "params": {"name": "add", "arguments": {"a": sent, "b": 3}},
                    }
                )
                sent += 1
            await proc.stdin.drain()
            doc = json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))
            assert doc["id"] not in answers, doc
            answers[doc["id"]] = doc["result"]["structuredContent"]["sum"]
        proc.stdin.close()
        await asyncio.wait_for(proc.wait(), 30)
        return answers

    answers = asyncio.run(main())
    assert answers == {i: i + 3 for i in range(CLIENTS * CALLS_EACH)}
