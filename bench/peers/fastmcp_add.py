#!/usr/bin/env python3
"""Benchmark peer: standalone FastMCP (fastmcp 4.1.6 on mcp 2.3.0, bench/peers/fastmcp.txt) serving
the same ``add(a, b) -> {sum}`` tool as bench/add_manifest.yaml (modelled on the peer harness's
ref_fastmcp.py). Run by bench/bench_server.py from its own venv (bench/.peers/fastmcp).

  python bench/peers/fastmcp_add.py                          # stdio
  python bench/peers/fastmcp_add.py --http --port 8124       # Streamable HTTP, 127.0.0.1:8124/mcp
                                                             # (JSON responses, sessions)
"""

from __future__ import annotations

import argparse

from fastmcp import FastMCP
from pydantic import BaseModel


class AddResult(BaseModel):
    sum: int


mcp = FastMCP(name="bench-fastmcp", version="1.0.0")


@mcp.tool(description="Add two integers")
async def add(a: int, b: int) -> AddResult:
    return AddResult(sum=a + b)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--http", action="store_true")
    p.add_argument("--port", type=int, default=8124)
    a = p.parse_args()
    if a.http:
        mcp.run(
            transport="http",
            host="127.0.0.1",
            port=a.port,
            show_banner=False,
            log_level="warning",
            json_response=True,
        )
    else:
        mcp.run(transport="stdio", show_banner=False)


if __name__ == "__main__":
    main()
