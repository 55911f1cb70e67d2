#!/usr/bin/env python3
"""Benchmark peer: a hand-written server on mcp 2.3.0's low-level ``Server`` with the same
``add(a, b) -> {sum}`` tool as bench/add_manifest.yaml (modelled on the peer harness's
ref_lowlevel.py). ``python bench/peers/lowlevel_add.py [--uvloop]`` serves stdio (``--uvloop``:
the same server on uvloop, for a same-loop comparison with generated servers, which pick uvloop
when it is installed); ``--http --port N``: Streamable HTTP on 127.0.0.1:N/mcp through the SDK's
``streamable_http_app`` and uvicorn (sessions, JSON responses; uvicorn picks uvloop and httptools
when installed, as for generated servers).
"""

from __future__ import annotations

import json

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext

ADD = types.Tool(
    name="add",
    description="Add two integers",
    input_schema={
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
    output_schema={
        "type": "object",
        "properties": {"sum": {"type": "integer"}},
        "required": ["sum"],
    },
)


async def on_list_tools(
    ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[ADD])


async def on_call_tool(
    ctx: ServerRequestContext, params: types.CallToolRequestParams
) -> types.CallToolResult:
    args = params.arguments or {}
    if params.name != "add":
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"Unknown tool: {params.name}")],
            is_error=True,
        )
    data = {"sum": int(args["a"]) + int(args["b"])}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(data))], structured_content=data
    )


server = Server(
    "bench-lowlevel", version="1.0.0", on_list_tools=on_list_tools, on_call_tool=on_call_tool
)


async def main() -> None:
    import mcp.server.stdio

    async with mcp.server.stdio.stdio_server() as (r, w):
        await server.run(r, w, server.create_initialization_options())


if __name__ == "__main__":
    import sys

    argv = sys.argv[1:]
    if "--http" in argv:
        import uvicorn

        port = int(argv[argv.index("--port") + 1])
        app = server.streamable_http_app(host="127.0.0.1", json_response=True)
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
    else:
        anyio.run(main, backend_options={"use_uvloop": "--uvloop" in argv})
