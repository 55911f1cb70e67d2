"""The lean engine in the Streamable HTTP sessions of the handshake wire (2025-11-25 and before).

Sessions stay the SDK's: ``initialize`` goes through to its app, which mints the session id,
negotiates the revision and serves GET streams, DELETE, every method the engine does not take
and the notifications the server sends outside a request. The SDK's ``Connection`` of each
session is found by its id in ``serving.Notices.sessions`` (recorded when the session
initializes); its negotiated revision and the client's capabilities are what the engine reads.

A POST carrying the id of a session the SDK still serves (``sdk_adapter.live_session``: not
deleted, not idle-timed-out) is answered here when the SDK would serve it straight through:
the same checks, with the SDK's own functions where it has public ones (DNS-rebinding
protection, ``Accept``), its body parser (``pydantic_core.from_json``) and its message model
for what is not a plain request. Then:

* a request for a method the engine serves (``Engine.session_handler``) runs in this POST's
  own task; its answer is one SSE event ``message`` (the SDK's headers, framing and keep-alive
  pings every 15 s), or with ``--json-response`` one JSON body. In SSE mode the handler's
  progress and log entries, and its server-to-client requests (elicitation, sampling, roots),
  are events on the same stream before the answer, as the SDK writes them; the client's
  answer to such a request comes as its own POST and is routed back here (202, as the SDK).
  In JSON mode they have no wire (the SDK drops them; a handler that asks gets the SDK's
  refusal, ``can_send_request`` is false);
* ``notifications/cancelled`` for a request running here cancels it; on this era's wire its
  stream then ends with the SDK's ``-32800 Request cancelled``;
* a DELETE the SDK accepts ends what runs here for that session, as the SDK's ``terminate``
  does: an SSE stream ends without an answer, a JSON one gets the SDK's 500.

Everything else goes to the SDK's app with the body replayed: its refusals, ``initialize``,
unknown or ended sessions, requests carrying the 2026-07-28 envelope, custom methods. The
session's idle clock is kept as the SDK keeps it (``begin``/``end_session_request``, the
countdown started from a request's end on the front's one timer, ``http_sse.Ticker``), so a
session used only through the engine does not expire, and expires when the SDK's would.

Differences, on purpose: the engine's server-to-client requests carry ids ``mcpgen-N`` (the
SDK numbers its own from 1 in the same session; distinct ids keep the two apart); the headers
of an SSE answer are written with its first event, or after 50 ms (the SDK writes them before
the handler runs); the JSON inside an event is the engine's, equal in value to the SDK's but
not always in key order (the SDK re-dumps results through its per-revision models).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from mcp.server.streamable_http import REQUEST_CANCELLED
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCResponse, jsonrpc_message_adapter
from pydantic import ValidationError
from pydantic_core import from_json

from ..server.sdk_adapter import (
    HeaderChecks,
    begin_session_request,
    end_session_request,
    live_session,
)
from . import jsonrpc
from .context import HttpRequest
from .envelope import enveloped
from .http_sse import SseStream, Ticker

if TYPE_CHECKING:
    from collections.abc import Callable

    from .engine import Engine

__all__ = ["HandshakeSessions"]

_REQUEST_KEYS = frozenset(("jsonrpc", "id", "method", "params"))
_JSON_TYPE = (b"content-type", b"application/json")
_TERMINATED = jsonrpc.encode_body(
    jsonrpc.error(None, jsonrpc.INTERNAL_ERROR, "Session terminated before the request completed")
)


class _Call:
    """A request running here: its task, and why it was cancelled."""

    __slots__ = ("task", "cancelled", "ended")

    def __init__(self, task: Any) -> None:
        self.task = task
        self.cancelled = False
        """By the client's ``notifications/cancelled``."""
        self.ended = False
        """By the end of its session (DELETE)."""


class HandshakeSessions:
    """The handshake wire's session POSTs the engine answers (see the module docstring)."""

    def __init__(
        self,
        engine: Callable[[], Engine],
        manager: Any,
        connections: Any,
        checks: HeaderChecks,
        *,
        json_response: bool,
    ) -> None:
        self.engine = engine
        self.manager = manager
        """The SDK's ``StreamableHTTPSessionManager``."""
        self.connections = connections
        """Session id -> the SDK's ``Connection`` (``serving.Notices.sessions``)."""
        self.checks = checks
        self.json_response = json_response
        self.running: dict[tuple[str, Any], _Call] = {}
        self.ticker: Ticker | None = None
        self.asked: dict[str, tuple[str, asyncio.Future[Any]]] = {}
        self._next_ask = 0

    async def post(
        self, scope: Any, send: Any, headers: dict[str, str], sid: str, body: bytes
    ) -> bool:
        """Answer one POST of session ``sid`` (False: not taken, the SDK's app answers)."""
        transport = live_session(self.manager, sid)
        if transport is None:
            return False
        conn = self.connections.get(sid)
        if conn is None or not conn.initialize_accepted:
            return False
        if await self.checks.refuses(headers):
            return False
        has_json, has_sse = self.checks.accepted(headers)
        if not has_json or not (self.json_response or has_sse):
            return False
        if not _json_content_type(headers.get("content-type", "")):
            return False
        try:
            msg = from_json(body)
        except ValueError:
            return False
        if type(msg) is not dict:
            return False
        if "method" not in msg:
            return await self._response(send, msg, sid)
        if "id" not in msg:
            return await self._cancel(send, msg, sid)
        return await self._request(scope, send, msg, sid, transport, conn)

    # -- requests -----------------------------------------------------------------------

    async def _request(
        self, scope: Any, send: Any, msg: dict[str, Any], sid: str, transport: Any, conn: Any
    ) -> bool:
        rid = msg["id"]
        method = msg["method"]
        params = msg.get("params")
        t = type(rid)
        if (
            (t is not str and t is not int)
            or type(method) is not str
            or msg.get("jsonrpc") != "2.0"
            or not msg.keys() <= _REQUEST_KEYS
            or (params is not None and (type(params) is not dict or enveloped(params)))
        ):
            return False
        engine = self.engine()
        handler = engine.session_handler(method)
        key = (sid, coerce_request_id(rid))
        if handler is None or key in self.running:
            return False
        call = self.running[key] = _Call(asyncio.current_task())
        begin_session_request(transport)
        sid_header = (b"mcp-session-id", sid.encode("latin-1"))
        stream: SseStream | None = None
        try:
            if self.json_response:
                channel: tuple[Any, ...] = (conn, _dropped, conn.client_capabilities, 0, None)
            else:
                stream = SseStream(send, sid_header, self._ticker())
                ask = _Asking(self, sid, stream).ask
                channel = (conn, stream.notify, conn.client_capabilities, 0, ask)
            meta = params.get("_meta") if params is not None else None
            req = HttpRequest(method, params, rid, meta, conn.protocol_version, channel)
            req.scope = scope
            answer = await engine.answer_request(handler, req, params or {})
            del self.running[key]
            if answer is None:
                answer = _settled(call, rid)
            if self.json_response:
                await _json(send, sid_header, 200 if answer else 500, answer)
            else:
                assert stream is not None
                await stream.end(None if answer is None else jsonrpc.encode_body(answer))
        finally:
            self.running.pop(key, None)
            if stream is not None:
                stream.close()
            if end_session_request(transport):
                ticker = self._ticker()
                ticker.ended(transport, ticker.loop.time())
        return True

    # -- what the client sends about them -------------------------------------------------

    async def _cancel(self, send: Any, msg: dict[str, Any], sid: str) -> bool:
        """``notifications/cancelled`` for a request running here (else the SDK's)."""
        if msg.get("method") != "notifications/cancelled" or not self.running:
            return False
        parsed = _message(msg)
        if not isinstance(parsed, JSONRPCNotification):
            return False
        target = as_request_id((parsed.params or {}).get("requestId"))
        call = self.running.get((sid, coerce_request_id(target))) if target is not None else None
        if call is None:
            return False
        if not call.cancelled:  # now: once its answer is being written it is not in running
            call.cancelled = True
            call.task.cancel()
        await _accepted(send, sid)
        return True

    async def _response(self, send: Any, msg: dict[str, Any], sid: str) -> bool:
        """The client's answer to a request a handler here asked (else the SDK's)."""
        rid = msg.get("id")
        entry = self.asked.get(rid) if type(rid) is str else None
        if entry is None or entry[0] != sid:
            return False
        parsed = _message(msg)
        if not isinstance(parsed, (JSONRPCResponse, JSONRPCError)):
            return False
        await _accepted(send, sid)
        waiter = entry[1]
        if not waiter.done():
            waiter.set_result(parsed)
        return True

    def _ticker(self) -> Ticker:
        ticker = self.ticker
        if ticker is None:
            ticker = self.ticker = Ticker(asyncio.get_running_loop())
        return ticker

    def holds(self, sid: str) -> bool:
        """Whether anything of session ``sid`` runs here."""
        return any(k[0] == sid for k in self.running) or any(
            s == sid for s, _ in self.asked.values()
        )

    def end(self, sid: str) -> None:
        """Session ``sid`` was deleted: what runs here for it ends, as the SDK's do."""
        for (s, _), call in list(self.running.items()):
            if s == sid and not call.ended:
                call.ended = True
                call.task.cancel()


class _Asking:
    """Server-to-client requests of one handler, on its POST's SSE stream."""

    __slots__ = ("sessions", "sid", "stream")

    def __init__(self, sessions: HandshakeSessions, sid: str, stream: SseStream) -> None:
        self.sessions = sessions
        self.sid = sid
        self.stream = stream

    async def ask(self, method: str, params: Any, related: Any) -> Any:
        """The client's result (an error answer raises ``MCPError``), as ``Engine._ask``."""
        sessions = self.sessions
        sessions._next_ask += 1
        rid = f"mcpgen-{sessions._next_ask}"
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        sessions.asked[rid] = (self.sid, waiter)
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params:
            msg["params"] = params
        try:
            await self.stream.event(jsonrpc.encode_body(msg))
            answer = await waiter
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):  # the stream may be gone with its session
                await self.stream.event(jsonrpc.encode_body(jsonrpc.courtesy_cancel(rid)))
            raise
        finally:
            sessions.asked.pop(rid, None)
        if isinstance(answer, JSONRPCError):
            from mcp.shared.exceptions import MCPError

            raise MCPError.from_error_data(answer.error)
        return answer.result


def _settled(call: _Call, rid: Any) -> dict[str, Any] | None:
    """A request whose handler was cancelled: the SDK's ``-32800`` when the client cancelled
    it, None when its session ended; any other cancellation (shutdown) goes on."""
    task = call.task
    if call.ended:
        task.uncancel()
        return None
    if call.cancelled:
        task.uncancel()
        return jsonrpc.error(rid, REQUEST_CANCELLED, "Request cancelled")
    raise asyncio.CancelledError


def _message(msg: dict[str, Any]) -> Any:
    """The SDK's model of ``msg`` (None where the SDK refuses it)."""
    try:
        return jsonrpc_message_adapter.validate_python(msg, by_name=False)
    except ValidationError:
        return None


def _json_content_type(value: str) -> bool:
    """The SDK transport's ``_check_content_type``."""
    if value == "application/json":
        return True
    return any(part.strip() == "application/json" for part in value.split(";")[0].split(","))


async def _dropped(method: str, params: Any) -> None:
    """A notification of a request answered as one JSON body: no wire (the SDK drops it)."""


async def _accepted(send: Any, sid: str) -> None:
    """202 for a notification or a response, with the SDK's headers."""
    headers = [_JSON_TYPE, (b"mcp-session-id", sid.encode("latin-1")), (b"content-length", b"0")]
    await send({"type": "http.response.start", "status": 202, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


async def _json(
    send: Any, sid_header: tuple[bytes, bytes], status: int, answer: dict[str, Any] | None
) -> None:
    body = _TERMINATED if answer is None else jsonrpc.encode_body(answer)
    headers = [_JSON_TYPE, sid_header, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
