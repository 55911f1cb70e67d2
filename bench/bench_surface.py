#!/usr/bin/env python3
"""Benchmark of resources, prompts and completions: the server mcpgen generates against the
SDK's ``MCPServer`` serving the same (not a test).

One run, same machine, over stdio, on the same event loop (asyncio: the generated server runs
with ``--loop asyncio``, ``MCPServer`` runs on anyio's asyncio backend):

  generated   ``mcpgen server bench/surface_manifest.yaml`` into a temp dir; its one handler
              returns 1 MiB of bytes; the prompt and its completions are static in the manifest
  mcpserver   bench/peers/mcpserver_surface.py (``@mcp.resource``, ``@mcp.prompt``,
              ``@mcp.completion``)

A raw driver (newline-delimited JSON-RPC on the child's pipes, handshake wire 2025-11-25)
measures three operations per server: ``resources/read`` of the 1 MiB blob (checked: the
decoded bytes are the expected ones), ``prompts/get`` with an argument (checked: the text) and
``completion/complete`` for a prompt argument (checked: the values). Servers are interleaved
within each repeat; the table shows median calls/s and the ratio generated / mcpserver
(target >= 1.0x on each operation).

  .venv/bin/python bench/bench_surface.py                 # 5 repeats
  .venv/bin/python bench/bench_surface.py --repeat 7 --json out.json

``--instructions`` counts instead of timing (timed runs cannot resolve a few percent on this
noisy box): each server runs under ``valgrind --tool=callgrind`` twice per operation, for LO
and HI checked calls, and instructions/call = (I(HI) - I(LO)) / (HI - LO), which cancels
start-up and exit; the ratio mcpserver / generated reads like a throughput ratio.

  .venv/bin/python bench/bench_surface.py --instructions
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
REVISION = "2025-11-25"
BLOB = bytes(i % 251 for i in range(1 << 20))

HANDLERS = '''\
"""Benchmark handlers: the 1 MiB resource."""

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase

BLOB = bytes(i % 251 for i in range(1 << 20))


class Handlers(ToolsBase):
    async def read_blob(self, ctx: ToolContext) -> bytes:
        return BLOB
'''


class Conn:
    def __init__(self, cmd: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            bufsize=1 << 20,  # buffered: a 1.4 MB response line is not read byte by byte
            start_new_session=True,
        )
        self.next_id = 0
        init = self.rpc(
            "initialize",
            {
                "protocolVersion": REVISION,
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"},
            },
        )
        if init["result"].get("protocolVersion") != REVISION:
            raise RuntimeError(f"initialize failed: {init}")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.proc.stdin.flush()

    def rpc(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"server closed stdout during {method}")
            resp: dict[str, Any] = json.loads(line)
            if resp.get("id") == self.next_id:
                if "error" in resp:
                    raise RuntimeError(f"{method}: {resp['error']}")
                return resp

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def _read(c: Conn) -> None:
    r = c.rpc("resources/read", {"uri": "bench://blob"})["result"]["contents"][0]
    if base64.b64decode(r["blob"]) != BLOB:
        raise RuntimeError("resources/read: wrong bytes")


def _prompt(c: Conn) -> None:
    r = c.rpc("prompts/get", {"name": "greet", "arguments": {"name": "Ada"}})["result"]
    if r["messages"][0]["content"]["text"] != "Say hello to Ada, politely.":
        raise RuntimeError(f"prompts/get: {r}")


def _complete(c: Conn) -> None:
    r = c.rpc(
        "completion/complete",
        {
            "ref": {"type": "ref/prompt", "name": "greet"},
            "argument": {"name": "name", "value": "a"},
        },
    )["result"]["completion"]
    if r["values"] != ["Ada", "Alan", "Alice", "Alonzo", "Amy", "Anna"]:
        raise RuntimeError(f"completion/complete: {r}")


OPS: dict[str, tuple[Callable[[Conn], None], int]] = {
    "resources/read 1 MiB": (_read, 60),
    "prompts/get": (_prompt, 1500),
    "completion/complete": (_complete, 1500),
}


def generate(tmp: Path) -> list[str]:
    mcpgen = Path(sys.executable).with_name("mcpgen")
    cmd = [str(mcpgen)] if mcpgen.is_file() else [sys.executable, "-m", "mcpgen"]
    manifest = tmp / "surface.yaml"
    shutil.copy(BENCH / "surface_manifest.yaml", manifest)
    proc = subprocess.run(
        [*cmd, "server", str(manifest), "--out", str(tmp), "--package", "bench_surface"],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        sys.exit(f"mcpgen server failed:\n{proc.stdout}{proc.stderr}")
    (tmp / "bench_surface" / "handlers.py").write_text(HANDLERS, encoding="utf-8")
    return [sys.executable, "-m", "bench_surface", "--loop", "asyncio"]


def measure(cmd: list[str], env: dict[str, str], op: str) -> float:
    fn, n = OPS[op]
    c = Conn(cmd, env)
    try:
        for _ in range(max(3, n // 10)):  # warm-up
            fn(c)
        t0 = time.perf_counter()
        for _ in range(n):
            fn(c)
        return n / (time.perf_counter() - t0)
    finally:
        c.close()


IC_CALLS = {
    "resources/read 1 MiB": (3, 12),
    "prompts/get": (50, 250),
    "completion/complete": (50, 250),
}


def instructions(cmd: list[str], env: dict[str, str], op: str, calls: int, out: Path) -> int:
    """Instructions the server process executes over its whole life for ``calls`` checked
    calls of ``op`` (callgrind)."""
    import re

    grind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=no"]
    c = Conn([*grind, *cmd], env)
    try:
        fn = OPS[op][0]
        for _ in range(calls):
            fn(c)
    finally:
        c.close()
    text = out.read_text(errors="replace") if out.is_file() else ""
    m = re.search(r"^(?:summary|totals):\s*(\d+)", text, re.M)
    if not m:
        raise RuntimeError(f"no instruction total in {out}")
    return int(m.group(1))


def instruction_counts(servers: dict[str, list[str]], env: dict[str, str], tmp: Path) -> int:
    print("\ninstructions per call under callgrind, (I(HI) - I(LO)) / (HI - LO)")
    print(f"{'operation':24} {'generated':>12} {'mcpserver':>12} {'calls/instr':>12}  target")
    for op, (lo, hi) in IC_CALLS.items():
        per: dict[str, float] = {}
        for label, cmd in servers.items():
            a = instructions(cmd, env, op, lo, tmp / f"cg.{label}.lo")
            b = instructions(cmd, env, op, hi, tmp / f"cg.{label}.hi")
            per[label] = (b - a) / (hi - lo)
        ratio = per["mcpserver"] / per["generated"]
        verdict = "MET" if ratio >= 1.0 else "MISSED"
        print(
            f"{op:24} {per['generated']:12,.0f} {per['mcpserver']:12,.0f} {ratio:11.3f}x"
            f"  >= 1.0x {verdict}"
        )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--instructions", action="store_true", help="count with callgrind")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mcpgen-bench-surface-"))
    try:
        env = {**os.environ, "PYTHONPATH": str(tmp), "PYTHONHASHSEED": "0"}
        servers = {
            "generated": generate(tmp),
            "mcpserver": [sys.executable, str(BENCH / "peers" / "mcpserver_surface.py")],
        }
        if a.instructions:
            return instruction_counts(servers, env, tmp)
        rates: dict[str, dict[str, list[float]]] = {s: {op: [] for op in OPS} for s in servers}
        for r in range(a.repeat):
            for op in OPS:
                for label, cmd in servers.items():
                    rates[label][op].append(measure(cmd, env, op))
            print(f"repeat {r + 1}/{a.repeat} done", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    print(f"\nstdio, {REVISION}, asyncio, median of {a.repeat} (calls/s)")
    print(f"{'operation':24} {'generated':>10} {'mcpserver':>10} {'ratio':>7}  target")
    for op in OPS:
        g = statistics.median(rates["generated"][op])
        m = statistics.median(rates["mcpserver"][op])
        ratio = g / m
        verdict = "MET" if ratio >= 1.0 else "MISSED"
        print(f"{op:24} {g:10.1f} {m:10.1f} {ratio:6.2f}x  >= 1.0x {verdict}")
        rows.append({"operation": op, "generated": g, "mcpserver": m, "ratio": ratio})
    if a.json:
        a.json.write_text(json.dumps({"rows": rows, "rates": rates}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
