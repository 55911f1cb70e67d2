"""The lean engine on stdio: lines from the client's pipe to ``Engine.receive``, answers back
on the same private duplicates of fd 0 and 1 the SDK path uses (``server.stdio.claimed_stdio``:
a handler's ``print()`` cannot corrupt the wire).

At end of input the requests still running are given ``DRAIN_S`` to answer (a client that
writes its requests and closes its end still gets its answers), then cancelled.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from . import jsonrpc
from .bridge import Bridge
from .engine import Engine

if TYPE_CHECKING:
    from ..server.server_runtime import ServerRuntime

__all__ = ["serve_stdio"]

DRAIN_S = 5.0


async def serve_stdio(server: Any, runtime: ServerRuntime) -> None:
    """Serve one client on stdin/stdout until it closes stdin."""
    from ..server.stdio import claimed_stdio

    async with claimed_stdio() as (lines, writer):
        write = writer.write_bytes
        engine = Engine(runtime, runtime.discovery, write, Bridge(server, write))
        reader = lines.reader
        receive = engine.receive
        try:
            while True:
                try:
                    line = await reader.readline()
                except ValueError:  # a line over the reader's limit: not a message we can use
                    write(
                        jsonrpc.encode(
                            jsonrpc.error(
                                None,
                                jsonrpc.INVALID_REQUEST,
                                "Invalid Request: the line is too long",
                            )
                        )
                    )
                    continue
                if not line:
                    break
                if not line.isspace():
                    receive(line)
                await writer.flush()
            pending = list(engine.tasks.values())
            if pending:
                await asyncio.wait(pending, timeout=DRAIN_S)
        finally:
            await engine.close()
