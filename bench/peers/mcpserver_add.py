#!/usr/bin/env python3
"""Benchmark peer: the same ``add(a, b) -> {sum}`` tool on mcp 2.3.0's high-level ``MCPServer``
(formerly FastMCP; modelled on the peer harness's ref_mcpserver.py). stdio only:
``python bench/peers/mcpserver_add.py``.
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

mcp = MCPServer(name="bench-mcpserver", version="1.0.0")


class AddResult(BaseModel):
    sum: int


@mcp.tool(description="Add two integers")
async def add(a: int, b: int) -> AddResult:
    return AddResult(sum=a + b)


if __name__ == "__main__":
    mcp.run("stdio")
