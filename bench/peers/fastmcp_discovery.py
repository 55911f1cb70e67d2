#!/usr/bin/env python3
"""Benchmark peer of bench/bench_discovery.py: FastMCP 4.1.6 serving a large manifest's tools
(definitions read from a JSON file: name, description, inputSchema, outputSchema), each answering
bench/discovery/canned.py's result, in one of three modes:

  all     every tool listed (FastMCP as it is)
  search  ``BM25SearchTransform`` (tools/list: ``search_tools`` and ``call_tool``)
  code    ``CodeMode`` (experimental; search, get_schema, execute on pydantic-monty), when the
          venv has pydantic-monty (bench/peers/fastmcp.in)

  python bench/peers/fastmcp_discovery.py TOOLS.json --mode search     # stdio
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from fastmcp import FastMCP
from fastmcp.tools.base import Tool, ToolResult

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "discovery"))
from canned import answer  # noqa: E402


class CannedTool(Tool):
    """A manifest tool: its definition as given; the answer is bench/discovery/canned.py's."""

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        value = answer(self.name, arguments)
        return ToolResult(content=json.dumps(value), structured_content=value)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("tools")
    p.add_argument("--mode", choices=["all", "search", "code"], default="all")
    a = p.parse_args()
    with open(a.tools, encoding="utf-8") as fh:
        definitions = json.load(fh)
    mcp = FastMCP(name="bench-discovery", version="1.0.0")
    for d in definitions:
        mcp.add_tool(
            CannedTool(
                name=d["name"],
                description=d.get("description"),
                parameters=d.get("inputSchema") or {"type": "object"},
                output_schema=d.get("outputSchema"),
            )
        )
    if a.mode == "search":
        from fastmcp.server.transforms.search import BM25SearchTransform

        mcp.add_transform(BM25SearchTransform())
    elif a.mode == "code":
        from fastmcp.experimental.transforms.code_mode import CodeMode

        mcp.add_transform(CodeMode())
    mcp.run(transport="stdio", show_banner=False)


if __name__ == "__main__":
    main()
