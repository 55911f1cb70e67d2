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
    from .handover import Handover

__all__ = ["serve_stdio"]

DRAIN_S = 5.0


async def serve_stdio(
    server: Any, runtime: ServerRuntime, handover: Handover | None = None
) -> None:
    """Serve one client on stdin/stdout until it closes stdin (``handover``: go on from the
    fast boot: its claimed wire, what it read and did not answer, the era it opened)."""
    from ..server.stdio import claimed_stdio

    claim = handover.claim if handover is not None else None
    async with claimed_stdio(claim) as (lines, writer):
        write = writer.write_bytes
        engine = Engine(runtime, runtime.discovery, write, Bridge(server, write))
        receive = engine.receive
        eof = False
        carry = b""
        """The start of a line the boot read without its end."""
        if handover is not None:
            engine.resume(
                handover.era, handover.version, handover.initialize, handover.client_capabilities
            )
            rest = handover.pending
            *complete, tail = rest.split(b"\n")
            for line in complete:
                if line and not line.isspace():
                    receive(line + b"\n")
            eof = handover.eof
            if eof and tail and not tail.isspace():
                receive(tail)
            else:
                carry = tail
        reader = lines.reader
        try:
            while not eof:
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
                if carry:
                    line, carry = carry + line, b""
                if not line:
                    break
                if not line.isspace():
                    receive(line)
                await writer.flush()
            pending = list(engine.tasks.values())
            if pending:
                await asyncio.wait(pending, timeout=DRAIN_S)
            await writer.flush()
        finally:
            await engine.close()
