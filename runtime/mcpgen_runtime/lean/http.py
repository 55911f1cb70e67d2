"""The lean engine on Streamable HTTP: an ASGI front before the SDK's app.

**2026-07-28 wire.** A POST is one request with its own envelope and no session, so the engine
can answer it without the SDK's per-request machinery. The front takes a POST only when the SDK
would serve it straight through (the same checks, with the SDK's own functions: DNS-rebinding
protection, ``Accept``, routing headers once each, the header/envelope ladder) and the engine
serves its method, and when the answer is one JSON object: no ``progressToken`` and no log
level in ``_meta`` (those open an SSE stream), no ``Mcp-Param-*`` headers to check (tools whose
schema declares ``x-mcp-header``). One difference, on purpose: a call that runs longer than the
SDK's 15 s SSE deferral window is still answered with one JSON body (the SDK would switch to
an SSE stream with keep-alive pings); clients that need pings past proxy idle timeouts can
start the server with ``--engine sdk``.

**Handshake wire** (2025-11-25 and before): a POST in a session the SDK opened, for a method
the engine serves, is answered by ``http_sessions`` (SSE or JSON, as the SDK would answer it);
sessions themselves, GET streams and DELETE stay the SDK's. Not with ``--stateless`` or
``--resumable`` (an event store): then the whole wire is the SDK's.

Everything else, including every refusal, goes to the SDK's app with the body replayed, so
errors are the SDK's, byte for byte. Headers are read once per request into one dict (the
first value of each name, as Starlette's ``Headers.get`` reads them), which the SDK's checks
read without a Starlette ``Request`` (``sdk_adapter.HeaderChecks``, which remembers the header
values that passed).

It is used only on a server without HTTP authentication (``server.auth``, ``--auth-*`` and
``--auth-token`` put the SDK's app, or mcpgen's OAuth front, in charge of every request): the
front must never answer a request that authentication would refuse.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

# the SDK's own checks, imported with this module: it is loaded only when the HTTP app is built
# (the SDK is loaded by then), never per request
from mcp.shared.inbound import (
    ERROR_CODE_HTTP_STATUS,
    classify_inbound_request,
    find_duplicated_routing_header,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from ..server.sdk_adapter import HeaderChecks
from .discovery import MODERN
from .envelope import CAPABILITIES_KEY, VERSION_KEY, envelope_refusal
from .http_sessions import HandshakeSessions
from .jsonrpc import encode_body, parse, valid_id

if TYPE_CHECKING:
    from ..server.server_runtime import ServerRuntime
    from .engine import Engine

__all__ = ["LeanHttpFront"]

ASGI = Callable[..., Awaitable[None]]
_MODERN = frozenset(MODERN)
_HANDSHAKE = frozenset(HANDSHAKE_PROTOCOL_VERSIONS)
_LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"


class LeanHttpFront:
    """ASGI: the POSTs to ``path`` the engine answers (see the module docstring); the rest to
    ``app``."""

    def __init__(
        self,
        app: ASGI,
        runtime: ServerRuntime,
        *,
        path: str,
        json_response: bool,
        security: Any,
        max_body: int | None,
        header_checked: frozenset[str],
        sessions: Any = None,
    ) -> None:
        self.app = app
        self.runtime = runtime
        self.path = path
        self.json_response = json_response
        self.checks = HeaderChecks(security)
        """The SDK's header checks, with the ``TransportSecurityMiddleware`` (``security``)
        of the settings its app uses."""
        self.max_body = max_body
        self.header_checked = header_checked
        """Tools whose calls carry ``Mcp-Param-*`` headers the SDK checks."""
        self._engine: Engine | None = None
        self.sessions = (
            None
            if sessions is None
            else HandshakeSessions(
                self.engine,
                sessions,
                runtime.serving.notices.sessions,
                self.checks,
                json_response=json_response,
            )
        )
        """The handshake wire's sessions (``sessions``: the SDK's session manager; None:
        that wire is the SDK's alone)."""

    def engine(self) -> Engine:
        engine = self._engine
        if engine is None:
            from .engine import Engine

            engine = self._engine = Engine(self.runtime, self.runtime.discovery, _drop)
        return engine

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        if method != "POST":
            if method == "DELETE" and self.sessions is not None and self.sessions.running:
                await self._delete(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        headers, repeated = _headers(scope["headers"])
        version = headers.get("mcp-protocol-version")
        sid = headers.get("mcp-session-id")
        if sid is None:
            if version not in _MODERN:
                await self.app(scope, receive, send)
                return
        elif self.sessions is None or (version is not None and version not in _HANDSHAKE):
            await self.app(scope, receive, send)
            return
        body, complete, more = await _read_body(receive, self.max_body)
        replay = _replaying(body, more, receive)
        if complete:
            if sid is not None:
                assert self.sessions is not None
                if await self.sessions.post(scope, send, headers, sid, body):
                    return
            else:
                msg = await self._admitted(scope, body, headers, repeated)
                if msg is not None:
                    answer = await self.engine().answer_modern(msg)
                    if answer is not None:
                        await _respond(send, answer)
                    return
        await self.app(scope, replay, send)

    async def _delete(self, scope: Any, receive: Any, send: Any) -> None:
        """A DELETE the SDK accepts ends what the engine runs for that session."""
        assert self.sessions is not None
        sid = _headers(scope["headers"])[0].get("mcp-session-id")
        if sid is None or not self.sessions.holds(sid):
            await self.app(scope, receive, send)
            return
        status = 0

        async def watching(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        await self.app(scope, receive, watching)
        if status == 200:
            self.sessions.end(sid)

    async def _admitted(
        self, scope: Any, body: bytes, headers: dict[str, str], repeated: bool
    ) -> dict[str, Any] | None:
        """The 2026-07-28 request, when the front answers it (None: the SDK's app does)."""
        if await self.checks.refuses(headers):
            return None
        has_json, has_sse = self.checks.accepted(headers)
        if not has_json or (not self.json_response and not has_sse):
            return None
        try:
            msg = parse(body)
        except (ValueError, RecursionError):
            return None
        if type(msg) is not dict or msg.get("jsonrpc") != "2.0" or not valid_id(msg.get("id")):
            return None
        method = msg.get("method")
        params = msg.get("params")
        if type(method) is not str or type(params) is not dict:
            return None
        engine = self._engine
        if engine is not None and not engine.serves_modern(method):
            return None
        meta = params.get("_meta")
        if type(meta) is not dict or envelope_refusal(meta) is not None:
            return None
        if "progressToken" in meta or _LOG_LEVEL_KEY in meta:
            return None
        if type(meta.get(CAPABILITIES_KEY)) is not dict or type(meta[VERSION_KEY]) is not str:
            return None
        if method == "tools/call" and params.get("name") in self.header_checked:
            return None
        if repeated:
            pairs = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]]
            if find_duplicated_routing_header(pairs) is not None:
                return None
        verdict = classify_inbound_request(msg, headers=headers)
        if not hasattr(verdict, "protocol_version"):
            return None
        if engine is None and method not in _served(self.runtime):
            return None
        return msg


def _headers(raw: Any) -> tuple[dict[str, str], bool]:
    """The request's headers, the first value of each name (as Starlette's ``Headers.get``
    and ``dict(request.headers)`` read them), and whether a name came more than once."""
    headers: dict[str, str] = {}
    repeated = False
    for name, value in raw:
        key = name.decode("latin-1")
        if key in headers:
            repeated = True
        else:
            headers[key] = value.decode("latin-1")
    return headers, repeated


def _served(runtime: ServerRuntime) -> frozenset[str]:
    methods = {"tools/list", "tools/call", "server/discover"}
    if runtime.resources is not None:
        methods |= {"resources/list", "resources/templates/list", "resources/read"}
    if runtime.prompts is not None:
        methods |= {"prompts/list", "prompts/get"}
    if runtime.completions is not None:
        methods.add("completion/complete")
    return frozenset(methods)


async def _read_body(receive: Any, limit: int | None) -> tuple[bytes, bool, bool]:
    """(the body read, whether the front may use it, whether more is to come): not usable
    when it goes over ``limit`` in any chunk (the last one too) or the client leaves, for the
    SDK's app to refuse."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False, True  # the client left: the SDK reads it again
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        more = message.get("more_body", False)
        if limit is not None and size > limit:  # the SDK's app answers 413
            return b"".join(chunks), False, more
        if not more:
            return b"".join(chunks), True, False


def _replaying(body: bytes, more: bool, receive: Any) -> Any:
    """``receive`` for the SDK's app: what was read, then the client's own events."""
    sent = False

    async def replay() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return replay


async def _respond(send: Any, answer: dict[str, Any]) -> None:
    error = answer.get("error")
    status = ERROR_CODE_HTTP_STATUS.get(error["code"], 200) if error is not None else 200
    data = encode_body(answer)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-length", str(len(data)).encode()),
                (b"content-type", b"application/json"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


def _drop(data: bytes) -> None:
    """Where a notification outside a request would go: nowhere on this wire (2026-07-28
    notifications travel on ``subscriptions/listen`` streams, which the SDK serves)."""
