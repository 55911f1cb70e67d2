"""The stdio transport of generated servers: the SDK's ``stdio_server``, fed line streams on
asyncio pipes instead of anyio's thread-backed file wrappers.

The SDK reads and writes stdin/stdout through ``anyio.wrap_file``: every line read and every
write and flush is a hop to a worker thread (about twelve per call). Its ``stdio_server`` takes
the streams as arguments (a public seam), so this module hands it ``PipeLines`` (an async
iterator of decoded lines over ``loop.connect_read_pipe``) and ``PipeWriter`` (``write`` /
``flush`` over ``loop.connect_write_pipe``): no worker threads, and it works on uvloop and
asyncio alike.

Explicit streams skip the SDK's own descriptor discipline, so ``claimed_stdio`` keeps it:
while serving, the wire lives on private duplicates of fd 0 and 1 (close-on-exec), fd 0 points
at the null device and fd 1 at stderr, so a handler's ``print()`` and a child process that
reads stdin cannot corrupt the wire; both are restored on exit.

Where pipes are not available (Windows; stdin or stdout a regular file or a terminal: the
asyncio pipe transports take pipes and sockets), ``serve_stdio`` uses the SDK's own transport.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

from .stdio_fds import Claim, claim_stdio, duplicate, pipes_available

__all__ = [
    "Claim",
    "PipeLines",
    "PipeWriter",
    "claim_stdio",
    "claimed_pipes",
    "claimed_stdio",
    "pipes_available",
    "serve_stdio",
]

LINE_LIMIT = 1 << 30
"""The longest line read (the SDK's own reader has no limit; a request over the argument
limits is refused later with its own error)."""


class PipeLines:
    """Decoded lines of a read pipe (``async for line in ...``), as the SDK's reader wants."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    @property
    def reader(self) -> asyncio.StreamReader:
        """The raw byte stream (the lean engine reads undecoded lines)."""
        return self._reader

    def __aiter__(self) -> PipeLines:
        return self

    async def __anext__(self) -> str:
        line = await self._reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", "replace")


class _WriteProtocol(asyncio.Protocol):
    """Flow control of a write pipe: ``drain`` waits while the pipe is full."""

    def __init__(self) -> None:
        self._paused = False
        self._waiters: list[asyncio.Future[None]] = []
        self._lost: BaseException | None = None
        self._closed = False
        self.followers: list[tuple[Callable[[], None], Callable[[], None]]] = []
        """``(pause, resume)`` called as the pipe fills and drains (``PipeWriter.follow``)."""

    def pause_writing(self) -> None:
        self._paused = True
        for pause, _ in self.followers:
            pause()

    def resume_writing(self) -> None:
        self._paused = False
        self._wake(None)
        for _, resume in self.followers:
            resume()

    def connection_lost(self, exc: BaseException | None) -> None:
        self._closed = True
        self._lost = exc or BrokenPipeError("stdout closed")
        self._wake(self._lost)

    def _wake(self, exc: BaseException | None) -> None:
        waiters, self._waiters = self._waiters, []
        for w in waiters:
            if not w.done():
                if exc is None:
                    w.set_result(None)
                else:
                    w.set_exception(exc)

    async def drain(self) -> None:
        if self._closed:
            raise self._lost or BrokenPipeError("stdout closed")
        if not self._paused:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        await waiter


class _SocketWriteProtocol(_WriteProtocol):
    """``_WriteProtocol`` on a socket that is stdin too (socat's ``EXEC:``, systemd's
    ``Accept=yes``, inetd): the transport never reads (stdin's own transport does), and the
    client's half-close is end of input, not the end of the answers."""

    def connection_made(self, transport: Any) -> None:
        transport.pause_reading()

    def data_received(self, data: bytes) -> None:  # pragma: no cover - reading is paused
        pass

    def eof_received(self) -> bool:
        return True  # keep writing: the client closed only its sending side


async def _connect_write(
    loop: asyncio.AbstractEventLoop, out_file: Any
) -> tuple[Any, _WriteProtocol]:
    """stdout's transport. A write pipe transport takes a socket's end of input for the
    client's going away and closes (the answers in flight are lost), so a socket gets a
    socket transport, which keeps writing after the client's half-close."""
    import socket
    import stat

    fd = out_file.fileno()
    if not stat.S_ISSOCK(os.fstat(fd).st_mode):
        return await loop.connect_write_pipe(_WriteProtocol, out_file)
    sock = socket.socket(fileno=duplicate(fd))
    if sock.type != socket.SOCK_STREAM:
        sock.close()
        return await loop.connect_write_pipe(_WriteProtocol, out_file)
    out_file.close()
    if sock.family == socket.AF_UNIX:
        return await loop.create_unix_connection(_SocketWriteProtocol, sock=sock)
    return await loop.create_connection(_SocketWriteProtocol, sock=sock)


class PipeWriter:
    """``write(str)`` / ``flush()`` over a write pipe, as the SDK's writer wants."""

    def __init__(self, transport: asyncio.WriteTransport, protocol: _WriteProtocol) -> None:
        self._transport = transport
        self._protocol = protocol

    async def write(self, text: str) -> None:
        if self._transport.is_closing():
            raise BrokenPipeError("stdout closed")
        self._transport.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._protocol.drain()

    def follow(self, pause: Callable[[], None], resume: Callable[[], None]) -> None:
        """Call ``pause`` when the pipe is full and ``resume`` when it drains (the lean engine
        stops reading requests while the client does not read its answers)."""
        self._protocol.followers.append((pause, resume))

    def write_bytes(self, data: bytes) -> None:
        """Queue ``data`` (the lean engine; ``flush`` waits while the pipe is full). Dropped
        once the client has closed its end."""
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        self._transport.close()


@asynccontextmanager
async def claimed_stdio(claim: Claim | None = None) -> AsyncIterator[tuple[PipeLines, PipeWriter]]:
    """Line streams on private duplicates of fd 0 and 1, with fd 0 at the null device and
    fd 1 at stderr while they are in use (``claim``: already moved, by the lean engine's fast
    boot)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT, loop=loop)
    factory = lambda: asyncio.StreamReaderProtocol(reader, loop=loop)  # noqa: E731
    async with claimed_pipes(factory, claim) as (_protocol, writer):
        yield PipeLines(reader), writer


@asynccontextmanager
async def claimed_pipes(
    read_protocol: Callable[[], asyncio.Protocol], claim: Claim | None = None
) -> AsyncIterator[tuple[asyncio.Protocol, PipeWriter]]:
    """The claimed wire (``claim_stdio``) on asyncio pipe transports: what ``read_protocol()``
    makes receives stdin's bytes; the ``PipeWriter`` writes stdout. Restored on exit."""
    loop = asyncio.get_running_loop()
    if claim is None:
        claim = claim_stdio()
    in_fd, out_fd = claim.in_fd, claim.out_fd
    # the transports get their own duplicates (they close them at EOF or on close); the
    # private ones stay open until fd 0 and 1 are restored from them
    in_file = os.fdopen(duplicate(in_fd), "rb", buffering=0)
    out_file = os.fdopen(duplicate(out_fd), "wb", buffering=0)
    read_transport: Any = None
    write_transport: Any = None
    try:
        read_transport, reading = await loop.connect_read_pipe(read_protocol, in_file)
        write_transport, protocol = await _connect_write(loop, out_file)
        writer = PipeWriter(write_transport, protocol)
        yield reading, writer
        with suppress(Exception):
            await asyncio.wait_for(protocol.drain(), 5.0)
    finally:
        # stop reading and writing and let the transports close their descriptors, then
        # point fd 0/1 back at the wire
        for transport in (read_transport, write_transport):
            if transport is not None:
                transport.close()
        for _ in range(3):
            await asyncio.sleep(0)
        for f in (in_file, out_file):
            with suppress(OSError, ValueError):
                f.close()
        claim.restore()


async def serve_stdio(run: Callable[[Any, Any], Awaitable[None]]) -> None:
    """``run(read_stream, write_stream)`` over stdio: on asyncio pipes where they are
    available, else on the SDK's own transport."""
    from mcp.server.stdio import stdio_server

    if not pipes_available():
        async with stdio_server() as (read, write):
            await run(read, write)
        return
    async with claimed_stdio() as (lines, writer):
        async with stdio_server(stdin=lines, stdout=writer) as (read, write):  # type: ignore[arg-type]
            await run(read, write)
