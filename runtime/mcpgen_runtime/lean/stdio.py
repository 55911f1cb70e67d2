"""The lean engine on stdio: bytes from the client's pipe split into lines and handed to
``Engine.receive`` from the pipe's own callback (no reader coroutine to wake per message),
answers back on the same private duplicates of fd 0 and 1 the SDK path uses
(``server.stdio.claimed_pipes``: a handler's ``print()`` cannot corrupt the wire).

Reading pauses while the client does not read its answers (the pipe is full), while
``engine.MAX_IN_FLIGHT`` requests run and while the SDK serves ``bridge.MAX_SERVED`` bridged
ones; a handler's notifications wait while the pipe is full (docs/lean-engine.md, "Memory
bounds"). A line longer than ``LINE_LIMIT`` is dropped with one ``-32600`` (id null); lines
are assembled in time proportional to their length. At end of input the requests still
running are given ``DRAIN_S`` to answer (a client that writes its requests and closes its end
still gets its answers), then answered ``-32000`` and cancelled (``closing``); on SIGINT at
once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import jsonrpc
from .bridge import Bridge
from .engine import Engine

if TYPE_CHECKING:
    from ..server.server_runtime import ServerRuntime
    from .handover import Handover

__all__ = ["serve_stdio"]

DRAIN_S = 5.0
LINE_LIMIT = 1 << 30
"""The longest line (bytes) taken as a message; a request over the argument limits is refused
later with its own error."""

_TOO_LONG = jsonrpc.encode(
    jsonrpc.error(None, jsonrpc.INVALID_REQUEST, "Invalid Request: the line is too long")
)


class _Lines(asyncio.Protocol):
    """stdin's bytes, cut into lines for ``receive``; ``done`` at end of input.

    Until ``attach`` the bytes are held as read, not cut: the fast boot may hand over in the
    middle of a line (its ``pending`` ends with the line's head, the pipe then holds the tail),
    so lines are cut only once ``pending`` and what came after are joined."""

    def __init__(self) -> None:
        self.receive: Callable[[bytes], None] = _unattached
        self.write: Callable[[bytes], None] = _unattached
        self.buffer = bytearray()
        self.skipping = False
        """Dropping the rest of a line over ``LINE_LIMIT``."""
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: Any = None
        self._held: list[bytes] | None = []
        """What was read before ``attach`` (None once attached)."""
        self._held_eof = False

    def attach(
        self, receive: Callable[[bytes], None], write: Callable[[bytes], None], first: bytes = b""
    ) -> None:
        """Hand lines to ``receive`` from now on: those of ``first`` (what the fast boot read
        and did not answer), then those of what this protocol read before, in that order."""
        self.receive, self.write = receive, write
        held, self._held = self._held or [], None
        for data in (first, *held):
            if data:
                self.data_received(data)
        if self._held_eof:
            self.eof_received()

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if self._held is not None:
            self._held.append(data)
            return
        buffer = self.buffer
        # one line: it ends with its first newline (memchr; a count walks byte by byte)
        if (
            not buffer
            and not self.skipping
            and data.endswith(b"\n")
            and data.find(b"\n") == len(data) - 1
        ):
            if not data.isspace():
                self.receive(data)  # one whole line: the common case
            return
        # Only the new bytes are searched, so a long line costs time in proportion to its
        # length (searching the whole buffer again on every read was quadratic).
        end = data.find(b"\n")
        if end < 0:
            self._hold(data)
            return
        if self.skipping:
            self.skipping = False  # the end of the line over the limit
        elif buffer:
            buffer += data[: end + 1]
            line = bytes(buffer)
            buffer.clear()
            self._line(line)
        else:
            self._line(data[: end + 1])
        start = end + 1
        receive = self.receive
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            line = data[start : end + 1]
            if not line.isspace():
                receive(line)
            start = end + 1
        if start < len(data):
            self._hold(data[start:])

    def _line(self, line: bytes) -> None:
        if len(line) > LINE_LIMIT + 1:
            self.write(_TOO_LONG)
        elif not line.isspace():
            self.receive(line)

    def _hold(self, data: bytes) -> None:
        """The head of a line (dropped while skipping one over ``LINE_LIMIT``)."""
        if self.skipping:
            return
        buffer = self.buffer
        buffer += data
        if len(buffer) > LINE_LIMIT:
            buffer.clear()
            self.skipping = True
            self.write(_TOO_LONG)

    def eof_received(self) -> bool | None:
        if self._held is not None:
            self._held_eof = True
            return None
        if self.buffer and not self.skipping and not self.buffer.isspace():
            self.receive(bytes(self.buffer))
        self.buffer.clear()
        if not self.done.done():
            self.done.set_result(None)
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)


async def serve_stdio(
    sdk: Callable[[], Any], runtime: ServerRuntime, handover: Handover | None = None
) -> None:
    """Serve one client on stdin/stdout until it closes stdin (``sdk``: makes, on the first
    request the bridge takes, the SDK's server around ``runtime``; ``handover``: go on from
    the fast boot: its claimed wire, what it read and did not answer, the era it opened)."""
    from ..server.stdio import claimed_pipes

    claim = handover.claim if handover is not None else None
    async with claimed_pipes(_Lines, claim) as (reading, writer):
        assert isinstance(reading, _Lines)
        write = writer.write_bytes
        engine = Engine(runtime, runtime.discovery, write, Bridge(sdk, write))
        # flow control before the first line: on 3.12+ a request's task runs as it is
        # received, and the lines the boot read and did not answer are received in ``attach``
        # (a notifying handler there ran to its end without ever waiting, buffering every
        # notification: 834 MiB for 100,000 of 1 KB to a client that did not read)
        _flow(reading, writer, engine)
        if handover is not None:
            engine.resume(
                handover.era, handover.version, handover.initialize, handover.client_capabilities
            )
            # what the boot read comes first: before what the pipe held meanwhile
            reading.attach(engine.receive, write, handover.pending)
            if handover.eof:
                reading.eof_received()
        else:
            reading.attach(engine.receive, write)
        interrupted = False
        try:
            await _serve(reading, writer, engine)
        except asyncio.CancelledError:  # SIGINT: no drain, every request answered now
            interrupted = True
            raise
        finally:
            await engine.close(drain=not interrupted)


def _flow(reading: _Lines, writer: Any, engine: Engine) -> None:
    """Reading pauses while the pipe to the client is full, while ``MAX_IN_FLIGHT`` requests
    run, and while the SDK serves ``MAX_SERVED`` bridged ones; a notifying handler waits while
    the pipe is full."""
    gate = _Gate(reading.transport)
    writer.follow(lambda: gate.hold("client", True), lambda: gate.hold("client", False))
    engine.flow(gate.hold, writer.flush)
    if engine.bridge is not None:
        engine.bridge.hold = gate.hold


async def _serve(reading: _Lines, writer: Any, engine: Engine) -> None:
    """Until end of input, then the requests still running get ``DRAIN_S`` to answer."""
    await reading.done
    engine.end_of_input()
    await _drain(engine)
    with contextlib.suppress(Exception):
        await writer.flush()


async def _drain(engine: Engine) -> None:
    """The requests still running get ``DRAIN_S`` to answer. The bridge's start (importing
    the SDK: 8 s were seen at load 40) is no request's work: the bridged requests waiting
    for it, and the rest, get ``DRAIN_S`` from its end."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DRAIN_S
    bridge = engine.bridge
    while True:
        pending = [task for task in engine.tasks.values() if not task.done()]
        if not pending:
            return
        if bridge is not None:
            if bridge.starting:
                await bridge.ready()
                continue
            if bridge.ready_at is not None:
                deadline = max(deadline, bridge.ready_at + DRAIN_S)
        left = deadline - loop.time()
        if left <= 0:
            return
        await asyncio.wait(pending, timeout=left)


class _Gate:
    """Reading from the client, paused while any reason holds it."""

    def __init__(self, transport: Any) -> None:
        self._pause = _quiet(transport.pause_reading)
        self._resume = _quiet(transport.resume_reading)
        self._reasons: set[str] = set()

    def hold(self, reason: str, on: bool) -> None:
        reasons = self._reasons
        if on:
            if not reasons:
                self._pause()
            reasons.add(reason)
        elif reason in reasons:
            reasons.discard(reason)
            if not reasons:
                self._resume()


def _unattached(data: bytes) -> None:
    raise AssertionError("_Lines cuts and answers lines only once attached")


def _quiet(call: Callable[[], None]) -> Callable[[], None]:
    def run() -> None:
        with contextlib.suppress(Exception):  # the transport is closing
            call()

    return run
