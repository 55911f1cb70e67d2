"""The lean engine on the 2026-07-28 Streamable HTTP wire: an ASGI front before the SDK's app.

A 2026-07-28 POST is one request with its own envelope and no session, so the engine can answer
it without the SDK's per-request machinery. The front takes a POST only when the SDK would
serve it straight through (the same checks, with the SDK's own functions: DNS-rebinding
protection, ``Accept``, routing headers once each, the header/envelope ladder) and the engine
serves its method, and when the answer is one JSON object: no ``progressToken`` and no log
level in ``_meta`` (those open an SSE stream), no ``Mcp-Param-*`` headers to check (tools whose
schema declares ``x-mcp-header``). Everything else, including every refusal, goes to the SDK's
app with the body replayed, so errors are the SDK's, byte for byte.

It is used only on a server without HTTP authentication (``server.auth``, ``--auth-*`` and
``--auth-token`` put the SDK's app, or mcpgen's OAuth front, in charge of every request): the
front must never answer a request that authentication would refuse.

One difference, on purpose: a call that runs longer than the SDK's 15 s SSE deferral window
is still answered with one JSON body (the SDK would switch to an SSE stream with keep-alive
pings); clients that need pings past proxy idle timeouts can start the server with
``--engine sdk``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

# the SDK's own checks, imported with this module: it is loaded only when the HTTP app is built
# (the SDK is loaded by then), never per request
from mcp.server.streamable_http import check_accept_headers
from mcp.shared.inbound import (
    ERROR_CODE_HTTP_STATUS,
    classify_inbound_request,
    find_duplicated_routing_header,
)
from starlette.requests import Request

from .discovery import MODERN
from .envelope import CAPABILITIES_KEY, VERSION_KEY, envelope_refusal
from .jsonrpc import encode, parse, valid_id

if TYPE_CHECKING:
    from ..server.server_runtime import ServerRuntime
    from .engine import Engine

__all__ = ["LeanHttpFront"]

ASGI = Callable[..., Awaitable[None]]
_MODERN = frozenset(v.encode() for v in MODERN)
_LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"


class LeanHttpFront:
    """ASGI: 2026-07-28 POSTs to ``path`` the engine can answer as JSON; the rest to ``app``."""

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
    ) -> None:
        self.app = app
        self.runtime = runtime
        self.path = path
        self.json_response = json_response
        self.security = security
        """The SDK's ``TransportSecurityMiddleware`` with the settings its app uses."""
        self.max_body = max_body
        self.header_checked = header_checked
        """Tools whose calls carry ``Mcp-Param-*`` headers the SDK checks."""
        self._engine: Engine | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"
            or scope["path"] != self.path
            or not self._modern_headers(scope)
        ):
            await self.app(scope, receive, send)
            return
        body, complete = await _read_body(receive, self.max_body)
        replay = _replaying(body, complete, receive)
        if not complete:
            await self.app(scope, replay, send)
            return
        msg = await self._admitted(scope, body)
        if msg is None:
            await self.app(scope, replay, send)
            return
        engine = self._engine
        if engine is None:
            from .engine import Engine

            engine = self._engine = Engine(self.runtime, self.runtime.discovery, _drop)
        answer = await engine.answer_modern(msg)
        if answer is None:
            return
        await _respond(send, answer)

    @staticmethod
    def _modern_headers(scope: Any) -> bool:
        version = None
        for name, value in scope["headers"]:
            if name == b"mcp-protocol-version":
                version = value
            elif name == b"mcp-session-id":
                return False
        return version in _MODERN

    async def _admitted(self, scope: Any, body: bytes) -> dict[str, Any] | None:
        """The request, when the front answers it (None: the SDK's app does)."""
        request = Request(scope)
        if await self.security.validate_request(request, is_post=True) is not None:
            return None
        has_json, has_sse = check_accept_headers(request)
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
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]]
        if find_duplicated_routing_header(headers) is not None:
            return None
        verdict = classify_inbound_request(msg, headers=dict(request.headers))
        if not hasattr(verdict, "protocol_version"):
            return None
        if engine is None and method not in _served(self.runtime):
            return None
        return msg


def _served(runtime: ServerRuntime) -> frozenset[str]:
    methods = {"tools/list", "tools/call", "server/discover"}
    if runtime.resources is not None:
        methods |= {"resources/list", "resources/templates/list", "resources/read"}
    if runtime.prompts is not None:
        methods |= {"prompts/list", "prompts/get"}
    if runtime.completions is not None:
        methods.add("completion/complete")
    return frozenset(methods)


async def _read_body(receive: Any, limit: int | None) -> tuple[bytes, bool]:
    """(the body read, whether it is whole): not whole when it goes over ``limit`` or the
    client leaves, for the SDK's app to refuse."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), True
        if limit is not None and size > limit:
            return b"".join(chunks), False


def _replaying(body: bytes, complete: bool, receive: Any) -> Any:
    """``receive`` for the SDK's app: what was read, then the client's own events."""
    sent = False

    async def replay() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": not complete}
        return await receive()

    return replay


async def _respond(send: Any, answer: dict[str, Any]) -> None:
    error = answer.get("error")
    status = ERROR_CODE_HTTP_STATUS.get(error["code"], 200) if error is not None else 200
    data = encode(answer)
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
