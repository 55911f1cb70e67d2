"""``python -m <package>``: the command line of every generated server (stdio or HTTP)."""

from __future__ import annotations

import argparse
import importlib.util
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from mcp.server.lowlevel import Server

__all__ = ["run_cli"]


def run_cli(
    create: Callable[..., Server[Any]],
    handlers: Any,
    argv: Sequence[str] | None = None,
    *,
    prog: str | None = None,
) -> None:
    """``python -m <package> [--http [--host H] [--port N]] [--page-size N] [--loop L]``."""
    parser = argparse.ArgumentParser(prog=prog, description="Run this MCP server.")
    parser.add_argument(
        "--http", action="store_true", help="serve Streamable HTTP instead of stdio"
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    parser.add_argument("--path", default="/mcp", help="HTTP endpoint path (default /mcp)")
    parser.add_argument("--stateless", action="store_true", help="stateless HTTP (no sessions)")
    parser.add_argument(
        "--json-response", action="store_true", help="JSON responses instead of SSE"
    )
    parser.add_argument("--page-size", type=int, default=None, help="tools/list page size")
    parser.add_argument("--log-level", default="WARNING", help="server log level (stderr)")
    parser.add_argument(
        "--loop",
        choices=("auto", "asyncio", "uvloop"),
        default="auto",
        help="event loop: uvloop when it is installed (auto, as uvicorn does), or asyncio",
    )
    opts = parser.parse_args(argv)
    use_uvloop = opts.loop != "asyncio" and importlib.util.find_spec("uvloop") is not None
    if opts.loop == "uvloop" and not use_uvloop:
        parser.error("--loop uvloop: uvloop is not installed (pip install uvloop)")
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, str(opts.log_level).upper(), logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    server = create(handlers, page_size=opts.page_size)
    if opts.http:
        import uvicorn

        app = server.streamable_http_app(
            host=opts.host,
            streamable_http_path=opts.path,
            stateless_http=opts.stateless,
            json_response=opts.json_response,
        )
        uvicorn.run(
            app,
            host=opts.host,
            port=opts.port,
            log_level=str(opts.log_level).lower(),
            loop="uvloop" if use_uvloop else "asyncio",
        )
        return

    import anyio
    from mcp.server.stdio import stdio_server

    async def _serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(_serve, backend_options={"use_uvloop": use_uvloop})
