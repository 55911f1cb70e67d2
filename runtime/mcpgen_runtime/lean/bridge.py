"""Everything the lean engine does not take goes to the SDK's ``Server`` in the same process:
custom and extension methods, ``subscriptions/listen``, and whatever a newer SDK serves that
the engine does not know. The SDK answers them exactly as it would alone (``-32601`` included).

The bridge starts on the first such message. Only then is the SDK imported and its server
made (``sdk``: ``server.sdk_server``; a server that serves only the engine's methods never
imports ``mcp``). The SDK server runs on a pair of memory streams (``Server.run``, its public
entry), and on the handshake wire the connection's ``initialize``
and ``notifications/initialized`` are replayed to it first (under a private id whose answer is
dropped), so it serves the same negotiated connection. What it writes goes to the client as
the SDK's own transport would write it; the client's answers to its requests, and
cancellations of the requests it serves, are routed back to it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from ..server.outcome import LOGGER
from . import jsonrpc

__all__ = ["Bridge"]

REPLAY_ID = "mcpgen-bridge-initialize"
MAX_SERVED = 1024
"""Requests the SDK may be serving at once (the size of its memory stream) before the engine
stops reading the client's lines (docs/lean-engine.md, "Memory bounds")."""


class Bridge:
    """The SDK server behind the lean engine, started on first use."""

    def __init__(self, sdk: Callable[[], Any], write: Callable[[bytes], None]) -> None:
        self._sdk = sdk
        """Makes (once) and returns the SDK ``Server`` (called when the bridge starts)."""
        self.server: Any = None
        self._write = write
        self._send: Any = None
        self._task: asyncio.Task[None] | None = None
        self.served: dict[Any, str] = {}
        """The client requests the SDK is serving and not answered yet (id -> method)."""
        self._answered = asyncio.Event()
        """Set when the SDK answers one of ``served``."""
        self._unwritable_logged = False
        self.hold: Callable[[str, bool], None] | None = None
        """Flow control (``Engine.flow``): reading stops while ``MAX_SERVED`` requests wait
        for the SDK's answer, and starts again at half of that."""
        self._holding = False
        self._closing = False
        self._starting: asyncio.Task[None] | None = None
        """The start, in a task of its own: a request task cancelled while it waits (end of
        input, the client's cancel) does not interrupt the replayed handshake, and every
        message waits for the whole replay before it is sent to the SDK."""
        self.ready_at: float | None = None
        """When the start ended (the loop's clock)."""

    @property
    def started(self) -> bool:
        return self._starting is not None

    async def start(self, initialize: dict[str, Any] | None) -> None:
        """Run the SDK server; replay the handshake (``initialize``: the client's request).
        Called again while it starts, waits for that start."""
        if self._starting is None:
            self._starting = asyncio.get_running_loop().create_task(self._start(initialize))
        with contextlib.suppress(Exception):  # logged once; ``forward`` answers each request
            await asyncio.shield(self._starting)

    @property
    def starting(self) -> bool:
        """Whether the start is under way (not over)."""
        return self._starting is not None and not self._starting.done()

    async def ready(self) -> None:
        """Wait until the start under way is over, however it ends."""
        if self._starting is not None and not self._starting.done():
            await asyncio.wait([self._starting])

    async def _start(self, initialize: dict[str, Any] | None) -> None:
        try:
            await self._run_sdk(initialize)
        except Exception:
            LOGGER.exception("the SDK server behind the lean engine did not start")
            raise
        finally:
            self.ready_at = asyncio.get_running_loop().time()

    async def _run_sdk(self, initialize: dict[str, Any] | None) -> None:
        import anyio
        from mcp.shared.message import SessionMessage

        server = self.server = self._sdk()
        send, receive = anyio.create_memory_object_stream[Any](1024)
        out_send, out_receive = anyio.create_memory_object_stream[Any](1024)
        self._send = send

        async def run() -> None:
            try:
                await server.run(receive, out_send, server.create_initialization_options())
            except Exception:  # noqa: BLE001 - the bridge ends; the lean engine goes on
                LOGGER.exception("the SDK server behind the lean engine stopped")

        async def pump() -> None:
            async for item in out_receive:
                message = item.message
                rid = getattr(message, "id", None)
                if rid == REPLAY_ID:
                    continue
                answer = getattr(message, "method", None) is None
                if answer and self._closing and rid not in self.served:
                    continue  # answered -32000 at close already
                self._write(self._encode(message, rid))
                if answer and rid in self.served:
                    del self.served[rid]  # answered
                    self._answered.set()
                    self._served_fewer()

        loop = asyncio.get_running_loop()
        self._task = loop.create_task(run())
        self._pump = loop.create_task(pump())
        if initialize is not None:
            params = initialize.get("params")
            await self._forward(
                SessionMessage,
                {"jsonrpc": "2.0", "id": REPLAY_ID, "method": "initialize", "params": params},
            )
            await self._forward(
                SessionMessage, {"jsonrpc": "2.0", "method": "notifications/initialized"}
            )

    def _served_fewer(self) -> None:
        if self._holding and len(self.served) <= MAX_SERVED // 2:
            self._holding = False
            if self.hold is not None:
                self.hold("bridge", False)

    def _encode(self, message: Any, rid: Any) -> bytes:
        """One line of what the SDK wrote. An answer pydantic cannot write (a lone surrogate
        echoed from the request, say) is written by the engine's encoder, which escapes it;
        what neither can write is answered ``-32603`` (logged once): the pump never stops."""
        try:
            text: str = message.model_dump_json(by_alias=True, exclude_unset=True)
            return (text + "\n").encode("utf-8", "backslashreplace")
        except Exception:  # noqa: BLE001 - pydantic_core.PydanticSerializationError and kin
            pass
        try:
            return jsonrpc.encode(message.model_dump(by_alias=True, exclude_unset=True))
        except Exception as exc:  # noqa: BLE001 - answered below, the rest go on
            if not self._unwritable_logged:
                self._unwritable_logged = True
                LOGGER.error("an answer of the SDK server could not be written", exc_info=exc)
        return jsonrpc.encode(jsonrpc.error(rid, jsonrpc.INTERNAL_ERROR, "Internal error"))

    async def forward(self, message: dict[str, Any]) -> None:
        """Hand one client message to the SDK server."""
        from mcp.shared.message import SessionMessage

        method = message.get("method")
        if method is not None and "id" in message:
            served = self.served
            served[message["id"]] = method
            if len(served) >= MAX_SERVED and not self._holding and self.hold is not None:
                self._holding = True
                self.hold("bridge", True)
        elif method == "notifications/cancelled":  # a cancelled request is not answered
            target = (message.get("params") or {}).get("requestId")
            if type(target) is str or type(target) is int:  # not every value is hashable
                if self.served.pop(target, None) is not None:
                    self._served_fewer()
        starting = self._starting
        if starting is not None and not starting.done():
            with contextlib.suppress(Exception):  # after the replayed handshake, in order
                await asyncio.shield(starting)
        if starting is None or starting.cancelled() or starting.exception() is not None:
            if method is not None and "id" in message:  # no SDK to serve it
                self.served.pop(message["id"], None)
                self._write(
                    jsonrpc.encode(
                        jsonrpc.error(message["id"], jsonrpc.INTERNAL_ERROR, "Internal error")
                    )
                )
            return
        await self._forward(SessionMessage, message)

    async def _forward(self, session_message: Any, message: dict[str, Any]) -> None:
        import mcp.types as types

        try:
            parsed = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
        except Exception as exc:  # noqa: BLE001 - the SDK's own answer to a malformed message
            await self._send.send(exc)
            return
        await self._send.send(session_message(parsed))

    async def close(self, drain: float = 5.0) -> None:
        """Stop the SDK server. The requests it is still serving get ``drain`` seconds to be
        answered first, as the engine's own get at end of input (a client that writes its
        requests and closes its end still gets its answers); ``subscriptions/listen`` lasts
        until cancelled, so it is not waited for. What is still unanswered then is answered
        ``-32000 Connection closed``, as the SDK's engine answers it."""
        loop = asyncio.get_running_loop()
        starting = self._starting
        if starting is not None and not starting.done():
            if drain:
                await asyncio.wait([starting])
            else:  # SIGINT: what waits for the start is answered below
                starting.cancel()
        deadline = loop.time() + drain
        while self._send is not None and any(
            m != "subscriptions/listen" for m in self.served.values()
        ):
            self._answered.clear()
            left = deadline - loop.time()
            if left <= 0:
                break
            try:
                await asyncio.wait_for(self._answered.wait(), left)
            except asyncio.TimeoutError:
                break
        self._closing = True
        for rid in list(self.served):
            del self.served[rid]
            self._write(jsonrpc.connection_closed(rid))
        if self._send is not None:
            await self._send.aclose()
        for task in (self._task, getattr(self, "_pump", None)):
            if task is not None:
                try:
                    await asyncio.wait_for(task, 5)
                except (asyncio.TimeoutError, asyncio.CancelledError, Exception):  # noqa: BLE001
                    task.cancel()
