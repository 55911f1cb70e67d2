"""How the lean engine ends a connection without losing an answer it can give.

At end of input a handler waiting for the client's answer to its own request (elicitation,
sampling, roots) gets none: it fails at once with ``-32000 Connection closed``, as the SDK's
session fails it, so its call is answered then rather than after the drain. When the
connection ends (after the drain, or at once on SIGINT), each request still running is
answered ``-32000 Connection closed``, as the SDK's engine answers it, and cancelled; the
bridge answers the ones the SDK still serves the same way (``Bridge.close``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import jsonrpc

if TYPE_CHECKING:
    from .bridge import Bridge

__all__ = ["close", "end_of_input"]


def end_of_input(asked: dict[str, asyncio.Future[Any]]) -> None:
    """Fail the handlers' server-to-client requests still waiting (``asked``)."""
    from ..server.errors import client_error

    for waiter in asked.values():
        if not waiter.done():
            waiter.set_exception(client_error(jsonrpc.CONNECTION_CLOSED, "Connection closed"))


async def close(
    tasks: dict[Any, asyncio.Task[None]],
    asked: dict[str, asyncio.Future[Any]],
    bridge: Bridge | None,
    write: Callable[[bytes], None],
    drain: bool,
) -> None:
    """Answer and cancel what still runs (``tasks``: by request id), then stop the bridge
    (its requests get 5 s to be answered, unless ``drain`` is False)."""
    served = bridge.served if bridge is not None else {}
    for rid, task in list(tasks.items()):
        if not task.done():  # a task done already wrote its answer
            served.pop(rid, None)  # not handed to the SDK yet: answered here
            write(jsonrpc.connection_closed(rid))
            task.cancel()
    for waiter in asked.values():
        waiter.cancel()
    if bridge is not None and bridge.started:
        await bridge.close(5.0 if drain else 0.0)
