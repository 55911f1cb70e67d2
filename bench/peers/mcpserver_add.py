#!/usr/bin/env python3
"""Benchmark peer: the same ``add(a, b) -> {sum}`` tool on mcp 2.3.0's high-level ``MCPServer``
(formerly FastMCP; modelled on the peer harness's ref_mcpserver.py).
``python bench/peers/mcpserver_add.py`` serves stdio; ``--http --port N``: Streamable HTTP
on 127.0.0.1:N/mcp (``streamable_http_app``, uvicorn; sessions, JSON responses).
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
    import sys

    argv = sys.argv[1:]
    if "--http" in argv:
        import uvicorn

        port = int(argv[argv.index("--port") + 1])
        app = mcp.streamable_http_app(host="127.0.0.1", json_response=True)
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
    else:
        mcp.run("stdio")
