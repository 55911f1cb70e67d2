#!/usr/bin/env python3
"""Benchmark peer of bench/bench_surface.py: the same 1 MiB binary resource, static prompt and
argument completion on mcp 2.3.0's high-level ``MCPServer``. stdio only."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp.types import Completion, PromptReference

BLOB = bytes(i % 251 for i in range(1 << 20))
NAMES = (
    "Ada Alan Alice Alonzo Amy Anna Barbara Bob Carol Claude Dave Donald Edsger Eve Frances "
    "Grace Hedy Ivan John Ken Linus Margaret Niklaus Radia Tim"
).split()

mcp = MCPServer(name="bench-surface", version="1.0.0")


@mcp.resource("bench://blob", name="blob", mime_type="application/octet-stream")
def blob() -> bytes:
    return BLOB


@mcp.prompt(description="Greets someone.")
def greet(name: str) -> str:
    return f"Say hello to {name}, politely."


@mcp.completion()
async def complete(ref: object, argument: object, context: object) -> Completion | None:
    if isinstance(ref, PromptReference) and ref.name == "greet":
        prefix = getattr(argument, "value", "").lower()
        hits = [n for n in NAMES if n.lower().startswith(prefix)]
        return Completion(values=hits[:100], total=len(hits), has_more=len(hits) > 100)
    return None


if __name__ == "__main__":
    mcp.run("stdio")
