"""The HTTP front of a protected server, one ASGI layer in front of the SDK's Streamable HTTP
app:

* authentication: the bearer token (``Authorization`` header only) through the verifier (the
  SDK's ``TokenVerifier`` interface); a request without a valid one gets the SDK's 401
  challenge, with ``resource_metadata`` (plus a ``DPoP`` challenge naming the proof
  algorithms, unless DPoP is off). A DPoP-bound token (``cnf.jkt``) is refused as a bearer
  token; with ``Authorization: DPoP`` its proof is checked on every request (``dpop``), and
  a refusal gets a ``DPoP`` challenge (RFC 9449 section 7.1), with ``DPoP-Nonce`` when nonces
  are on. A valid one leaves what the SDK's own auth
  middleware would (``scope["user"]``: its ``AuthenticatedUser``, which its session manager
  checks session ownership against; the token in its ``auth_context_var``). One layer, one
  pass over the headers, one cache lookup per request: the SDK's stack of three middlewares
  (Starlette's ``AuthenticationMiddleware`` with ``BearerAuthBackend``,
  ``AuthContextMiddleware``, ``RequireAuthMiddleware``) cost more per call than one layer
  (bench/bench_auth.py);

* the protected-resource metadata (RFC 9728), at ``/.well-known/oauth-protected-resource``
  plus the endpoint's path (the form clients try first) and at the bare well-known path, with
  ``authorization_servers``, every supported scope and the DPoP proof algorithms
  (``dpop_bound_access_tokens_required`` when DPoP is required);
* the scope challenge: a request whose token lacks a scope it needs (every request's
  ``requiredScopes``, a tool's, a prompt's, a resource's) gets ``403`` with
  ``WWW-Authenticate: Bearer error="insufficient_scope", scope="..."`` (``DPoP`` for a DPoP
  request) before the SDK sees it, so a client can step up. On 2026-07-28 the
  ``Mcp-Method``/``Mcp-Name`` headers name the target (the SDK rejects a body that disagrees
  with them); older wires are read from the body, which is then handed on unchanged. A call of
  ``call_tool`` (discovery mode search) is gated as a call of the tool its arguments name
  (``ScopePolicy.target``; read from the body on every wire), so it gets the same challenge
  as a direct call. The runtime checks again after dispatch.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from starlette.authentication import AuthCredentials

from .dpop import DPoPError, bound_key

if TYPE_CHECKING:
    from mcp.server.auth.provider import AccessToken

    from .config import OAuthSettings
    from .dpop import DPoPCheck
    from .scopes import ScopePolicy
    from .verify import OAuthTokenVerifier

__all__ = ["AuthFront", "VerifiedUser", "metadata_paths"]

LOGGER = logging.getLogger("mcpgen.auth")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PRM = "/.well-known/oauth-protected-resource"


def metadata_paths(*paths: str) -> tuple[str, ...]:
    """Where the metadata is served: the well-known prefix plus each path (the resource URI's
    and the endpoint's), then the bare prefix."""
    return tuple(dict.fromkeys([*(PRM + p.rstrip("/") for p in paths), PRM]))


def _quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


class VerifiedUser(AuthenticatedUser):
    """What the SDK's auth middleware leaves (its ``AuthenticatedUser``), plus whether
    handlers see the raw token (``--auth-expose-token``; read by ``scopes.current_caller``)."""

    def __init__(self, access: AccessToken, *, expose_token: bool) -> None:
        super().__init__(access)
        self.expose_token = expose_token


class AuthFront:
    def __init__(
        self,
        app: ASGIApp,
        *,
        path: str,
        settings: OAuthSettings,
        policy: ScopePolicy,
        verifier: OAuthTokenVerifier,
        metadata_url: str,
        max_body: int,
        dpop: DPoPCheck | None = None,
    ) -> None:
        from mcp.shared.auth import ProtectedResourceMetadata

        self.app = app
        self.path = path.rstrip("/") or "/"
        self.settings = settings
        self.policy = policy
        self.verifier = verifier
        self.metadata_url = metadata_url
        self.max_body = max_body
        self.dpop = dpop
        self.bearer = dpop is None or not dpop.required
        """Whether plain bearer tokens are accepted."""
        scopes = list(
            dict.fromkeys([*settings.scopes, *settings.required_scopes, *sorted(policy.declared)])
        )
        meta = ProtectedResourceMetadata(
            resource=settings.resource,  # type: ignore[arg-type]
            authorization_servers=settings.authorization_servers,  # type: ignore[arg-type]
            scopes_supported=scopes or None,
            dpop_signing_alg_values_supported=list(dpop.algorithms) if dpop else None,
            dpop_bound_access_tokens_required=True if dpop and dpop.required else None,
        )
        self.supported = frozenset(scopes)
        self.metadata = meta.model_dump_json(exclude_none=True).encode()
        from urllib.parse import urlsplit

        self.metadata_paths = metadata_paths(urlsplit(settings.resource).path, self.path)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path in self.metadata_paths:
            await self._metadata(scope, send)
            return
        if path != self.path and path.rstrip("/") != self.path:
            await self.app(scope, receive, send)  # not the MCP endpoint: the SDK's 404s
            return
        raw = b""
        method_header = name_header = None
        proofs: list[bytes] = []
        for key, value in scope.get("headers") or ():  # ASGI: names are lower-case
            if key == b"authorization":
                raw = value
            elif key == b"mcp-method":
                method_header = value
            elif key == b"mcp-name":
                name_header = value
            elif key == b"dpop":
                proofs.append(value)
        access = None
        dpop = self.dpop if raw[:5].lower() == b"dpop " else None
        if dpop is not None:
            try:
                token = raw[5:].decode("latin-1")
                access = await dpop.authenticate(proofs, scope["method"], token, self.verifier)
            except DPoPError as exc:
                LOGGER.info("mcpgen auth: refused a DPoP request: %s", exc.description)
                await self._unauthorized(send, exc.error, exc.description, dpop=True)
                return
            if dpop.nonces is not None:
                send = _with_header(send, b"dpop-nonce", dpop.nonces.current().encode())
        elif raw[:7].lower() == b"bearer ":
            access = await self.verifier.verify_token(raw[7:].decode("latin-1"))
            refused = _bearer_refusal(access, self.bearer)
            if refused is not None:
                await self._unauthorized(send, "invalid_token", refused, dpop=not self.bearer)
                return
        if access is None or (access.expires_at is not None and access.expires_at < time.time()):
            await self._unauthorized(send)
            return
        needed: tuple[str, ...] = self.settings.required_scopes
        if self.policy.any and scope.get("method") == "POST":
            name = _header_value(name_header) if name_header is not None else None
            if method_header is not None and (name is None or name != self.policy.via):
                # 2026-07-28: the headers name the target (but a call_tool call names its
                # tool in the body's arguments only)
                extra = self.policy.needed(method_header.decode("latin-1"), name)
                if extra:
                    needed = needed + extra
            else:
                targets, receive = await self._body_targets(receive)
                for method, target in targets:
                    needed += self.policy.needed(method, target)
        if needed:
            held = access.scopes
            for s in needed:
                if s not in held:
                    missing = [s for s in needed if s not in held]
                    await self._forbidden(
                        send, frozenset(held), list(needed), missing, dpop=dpop is not None
                    )
                    return
        # what the SDK's auth middleware would leave: the user (session ownership) and the
        # token in its context variable (get_access_token, the runtime's caller)
        user = VerifiedUser(access, expose_token=self.settings.expose_token)
        scope["user"] = user
        scope["auth"] = AuthCredentials(access.scopes)
        reset = auth_context_var.set(user)
        try:
            await self.app(scope, receive, send)
        finally:
            auth_context_var.reset(reset)

    async def _body_targets(self, receive: Receive) -> tuple[list[tuple[str, str | None]], Receive]:
        """What the JSON-RPC body asks for (older wires, no Mcp-Method header)."""
        body, replay = await _buffer(receive, self.max_body)
        try:
            doc = json.loads(body) if body else None
        except ValueError:
            return [], replay  # the SDK answers the parse error
        out: list[tuple[str, str | None]] = []
        for msg in doc if isinstance(doc, list) else [doc]:
            if isinstance(msg, dict) and isinstance(msg.get("method"), str):
                out.append((msg["method"], self.policy.target(msg["method"], msg.get("params"))))
        return out, replay

    async def _metadata(self, scope: Scope, send: Send) -> None:
        method = scope.get("method")
        cors = [
            (b"access-control-allow-origin", b"*"),
            (b"access-control-allow-methods", b"GET, OPTIONS"),
        ]
        if method == "OPTIONS":
            await send({"type": "http.response.start", "status": 204, "headers": cors})
            await send({"type": "http.response.body", "body": b""})
            return
        if method not in ("GET", "HEAD"):
            await _send(send, 405, b'{"error":"method not allowed"}', [(b"allow", b"GET, OPTIONS")])
            return
        await _send(
            send,
            200,
            self.metadata,
            [*cors, (b"cache-control", b"public, max-age=3600")],
        )

    async def _unauthorized(
        self,
        send: Send,
        error: str = "invalid_token",
        description: str = "Authentication required",
        *,
        dpop: bool = False,
    ) -> None:
        """401, as the SDK's ``RequireAuthMiddleware`` words it: the ``Bearer`` challenge
        (unless DPoP is required), then the ``DPoP`` one (unless DPoP is off). ``dpop``: a
        refused DPoP request (or bearer one where DPoP is required), which gets the ``DPoP``
        challenge alone, with the error (and a nonce to use, when nonces are on)."""
        headers: list[tuple[bytes, bytes]] = []
        if self.bearer and not dpop:
            challenge = (
                f'Bearer error="{error}", error_description="{_quoted(description)}", '
                f'resource_metadata="{_quoted(self.metadata_url)}"'
            )
            headers.append((b"www-authenticate", challenge.encode()))
        if self.dpop is not None:
            shown = (error, description) if dpop else (None, None)
            challenge = self.dpop.challenge(self.metadata_url, *shown)
            headers.append((b"www-authenticate", challenge.encode()))
            if self.dpop.nonces is not None:
                headers.append((b"dpop-nonce", self.dpop.nonces.current().encode()))
        body = json.dumps({"error": error, "error_description": description})
        await _send(send, 401, body.encode(), headers)

    async def _forbidden(
        self,
        send: Send,
        held: frozenset[str],
        needed: list[str],
        missing: list[str],
        *,
        dpop: bool = False,
    ) -> None:
        # the scopes to ask for: what the call needs plus what the client already holds here,
        # so a step-up does not lose earlier grants
        ask = list(dict.fromkeys([*sorted(held & self.supported), *needed]))
        description = f"Required scope: {' '.join(missing)}"
        challenge = (
            f'{"DPoP" if dpop else "Bearer"} error="insufficient_scope", '
            f'scope="{_quoted(" ".join(ask))}", '
            f'resource_metadata="{_quoted(self.metadata_url)}", '
            f'error_description="{_quoted(description)}"'
        )
        body = json.dumps({"error": "insufficient_scope", "error_description": description})
        await _send(send, 403, body.encode(), [(b"www-authenticate", challenge.encode())])


def _bearer_refusal(access: AccessToken | None, bearer: bool) -> str | None:
    """Why a verified token cannot be used with the ``Bearer`` scheme, or None."""
    if access is None:
        return None
    if bound_key(access) is not None:  # RFC 9449 section 7.2
        return "The token is DPoP-bound: present it with the DPoP scheme and a proof"
    if not bearer:
        return "DPoP-bound tokens are required"
    return None


def _with_header(send: Send, name: bytes, value: bytes) -> Send:
    """``send`` that adds a header to the response."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", ()), (name, value)]
        await send(message)

    return sending


def _header_value(raw: bytes) -> str | None:
    text = raw.decode("latin-1")
    if text.startswith("=?base64?") and text.endswith("?="):
        import base64
        import binascii

        try:
            return base64.b64decode(text[9:-2], validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return None
    return text


async def _buffer(receive: Receive, limit: int) -> tuple[bytes, Receive]:
    """The request body (up to ``limit`` bytes read), and a ``receive`` that hands the same
    messages on to the app."""
    seen: list[Message] = []
    size = 0
    while True:
        message = await receive()
        seen.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        if not message.get("more_body") or size > limit:
            break
    body = b"".join(m.get("body", b"") for m in seen if m["type"] == "http.request")
    pending = list(seen)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return (body if size <= limit else b""), replay


async def _send(send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
