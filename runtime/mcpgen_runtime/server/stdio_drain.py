"""End of input on the SDK engine's stdio: the requests already read are answered first.

The SDK's ``JSONRPCDispatcher.run`` cancels every in-flight handler as soon as its read stream
ends, and a handler task spawned for the last line but not yet started is cancelled before it
can answer at all: a client that writes a request and closes stdin gets nothing for it
(``mcp`` 2.3.0, with its own stdio transport as with ours; python-sdk issue #2678,
docs/sdk-upstream.md section 3). ``drained`` wraps the streams ``Server.run`` gets so that its
read stream ends only once every request it delivered is answered, or ``DRAIN_S`` has passed,
as the lean engine drains (``lean.stdio``); after that the SDK answers what still runs
``-32000`` as before. A handler's own request to the client (elicitation, sampling, roots)
can get no answer once the client has closed its end: it is answered ``-32000 Connection
closed`` on the client's behalf at once, as the lean engine fails it (``lean.closing``).
``subscriptions/listen`` lasts until cancelled, so it is not waited for.

Only the messages' ``method`` and ``id`` are looked at (no parsing, no SDK types imported
until end of input).
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import anyio

__all__ = ["DRAIN_S", "drained"]

DRAIN_S = 5.0
"""How long the requests still running at end of input get to answer (``lean.stdio``'s)."""

_UNENDING = frozenset(("subscriptions/listen",))
"""Requests answered only when cancelled or torn down: not waited for."""


def _key(rid: Any) -> Any:
    """One key for ``7`` and ``"7"``, as the SDK correlates ids (``coerce_request_id``)."""
    if type(rid) is str:
        try:
            return int(rid)
        except ValueError:
            return rid
    return rid


class _Ledger:
    """The client's requests not answered yet, and the server's requests to the client."""

    def __init__(self) -> None:
        self.served: dict[Any, list[str]] = {}
        """Request key -> the methods under it not answered (a duplicate id is served twice)."""
        self.asked: dict[Any, Any] = {}
        """The server's requests to the client not answered yet (key -> the id as sent)."""
        self._changed = anyio.Event()

    def changed(self) -> None:
        self._changed.set()

    async def wait(self) -> None:
        self._changed = anyio.Event()
        await self._changed.wait()

    def waiting(self) -> bool:
        return any(m not in _UNENDING for ms in self.served.values() for m in ms)


class _Read:
    """The SDK's read stream; its end waits for the answers (``drained``)."""

    def __init__(self, inner: Any, ledger: _Ledger, drain: float) -> None:
        self._inner = inner
        self._ledger = ledger
        self._drain = drain
        self._deadline: float | None = None
        self.last_context: Any = None

    async def receive(self) -> Any:
        if self._deadline is None:
            try:
                item = await self._inner.receive()
            except anyio.EndOfStream:
                self._deadline = anyio.current_time() + self._drain
            else:
                self.last_context = getattr(self._inner, "last_context", None)
                self._note(item)
                return item
        return await self._after_end()

    def _note(self, item: Any) -> None:
        message = getattr(item, "message", None)
        method = getattr(message, "method", None)
        rid = getattr(message, "id", None)
        ledger = self._ledger
        if method is None:
            if rid is not None:  # the client's answer to the server's request
                ledger.asked.pop(_key(rid), None)
        elif rid is not None:
            ledger.served.setdefault(_key(rid), []).append(method)
        elif method == "notifications/cancelled":  # a cancelled request is not answered
            params = getattr(message, "params", None)
            target = params.get("requestId") if isinstance(params, dict) else None
            if type(target) is str or type(target) is int:
                ledger.served.pop(_key(target), None)
                ledger.changed()

    async def _after_end(self) -> Any:
        """At end of input: the client's answer ``-32000`` to each request of the server's
        still waiting, then the end once nothing is left to answer (or at the deadline)."""
        ledger = self._ledger
        assert self._deadline is not None
        while True:
            if ledger.asked:
                _, rid = ledger.asked.popitem()
                self.last_context = None
                return _closed(rid)
            if not ledger.waiting():
                raise anyio.EndOfStream
            left = self._deadline - anyio.current_time()
            if left <= 0:
                raise anyio.EndOfStream
            with anyio.move_on_after(left):
                await ledger.wait()

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _Read:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _Read:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


class _Write:
    """The SDK's write stream; each answer it carries is struck from the ledger."""

    def __init__(self, inner: Any, ledger: _Ledger) -> None:
        self._inner = inner
        self._ledger = ledger

    async def send(self, item: Any, /) -> None:
        message = getattr(item, "message", None)
        method = getattr(message, "method", None)
        rid = getattr(message, "id", None)
        ledger = self._ledger
        if method is not None and rid is not None:
            ledger.asked[_key(rid)] = rid  # before it is sent: the answer may come at once
            ledger.changed()
        await self._inner.send(item)
        if method is None and rid is not None:
            methods = ledger.served.get(_key(rid))
            if methods:
                methods.pop(0)
                if not methods:
                    del ledger.served[_key(rid)]
            ledger.changed()

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _Write:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


def _closed(rid: Any) -> Any:
    """The client's ``-32000 Connection closed`` answer to the server's request ``rid``."""
    import mcp.types as types
    from mcp.shared.message import SessionMessage

    error = {"code": -32000, "message": "Connection closed"}
    message = types.jsonrpc_message_adapter.validate_python(
        {"jsonrpc": "2.0", "id": rid, "error": error}, by_name=False
    )
    return SessionMessage(message)


def drained(read: Any, write: Any, drain: float = DRAIN_S) -> tuple[Any, Any]:
    """``Server.run``'s streams, its read stream ending only once what it delivered is
    answered (at most ``drain`` seconds after the client's end of input)."""
    ledger = _Ledger()
    return _Read(read, ledger, drain), _Write(write, ledger)
