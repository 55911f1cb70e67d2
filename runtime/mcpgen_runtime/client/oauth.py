"""OAuth for clients of protected servers: the official SDK's OAuth client provider (an
``httpx2.Auth`` the MCP transport uses), set up the way people and machines sign in.

* ``oauth(url, ...)``: authorization code with PKCE and a loopback redirect
  (``http://127.0.0.1:<port>/callback``) for people; client credentials for machines
  (``client_id`` + ``client_secret``). Client registration the way the spec orders it: a
  client ID metadata document (``client_metadata_url``) when the server supports it, a
  pre-registered ``client_id``, else dynamic registration. The SDK checks the authorization
  response's ``iss`` (RFC 9207), discovers the server's metadata from the 401, steps up on a
  403 ``insufficient_scope`` and uses refresh tokens before asking again.
* ``FileTokenStorage``: tokens and client registrations on disk where the platform keeps user
  data (platformdirs), one file per server URL, mode 0600.
* ``bearer(token)``: a fixed access token (CI: ``$MCPGEN_TOKEN``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    import httpx2
    from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthToken

__all__ = [
    "CLIENT_SECRET_ENV",
    "TOKEN_ENV",
    "FileTokenStorage",
    "LoopbackRedirect",
    "MemoryTokenStorage",
    "bearer_headers",
    "oauth",
]

TOKEN_ENV = "MCPGEN_TOKEN"
"""A fixed access token for CI (``Authorization: Bearer ...``)."""
CLIENT_SECRET_ENV = "MCPGEN_CLIENT_SECRET"
"""The client secret of the client-credentials grant (never on the command line)."""


def bearer_headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def default_token_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("mcpgen", appauthor=False)) / "oauth"


class FileTokenStorage:
    """The SDK's ``TokenStorage`` in a JSON file per server and ``account`` (``<dir>/<digest>
    .json``, 0600, in a 0700 directory), written atomically. ``account`` tells apart sign-ins
    to one server (``oauth`` uses the client ID and the scopes asked for)."""

    def __init__(
        self,
        server_url: str,
        directory: str | os.PathLike[str] | None = None,
        *,
        account: str = "",
    ) -> None:
        folder = Path(directory) if directory is not None else default_token_dir()
        digest = hashlib.sha256(f"{server_url}\0{account}".encode()).hexdigest()[:24]
        self.path = folder / f"{digest}.json"
        self.server_url = server_url

    def _read(self) -> dict[str, Any]:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return doc if isinstance(doc, dict) and doc.get("server") == self.server_url else {}

    def _write(self, key: str, value: dict[str, Any]) -> None:
        doc = self._read()
        doc["server"] = self.server_url
        doc[key] = value
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(doc, fh)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)

    async def get_tokens(self) -> OAuthToken | None:
        from mcp.shared.auth import OAuthToken

        raw = self._read().get("tokens")
        return OAuthToken.model_validate(raw) if isinstance(raw, dict) else None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self._write("tokens", tokens.model_dump(mode="json", exclude_none=True))

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        from mcp.shared.auth import OAuthClientInformationFull

        raw = self._read().get("client")
        return OAuthClientInformationFull.model_validate(raw) if isinstance(raw, dict) else None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self._write("client", client_info.model_dump(mode="json", exclude_none=True))


class MemoryTokenStorage:
    """The SDK's ``TokenStorage`` in memory (nothing written; sign in again next run)."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class LoopbackRedirect:
    """Receives the authorization response at ``http://127.0.0.1:<port>/callback`` (RFC 8252
    loopback redirect): ``redirect`` shows the authorization URL (and opens the browser),
    ``callback`` waits for the browser to come back."""

    def __init__(
        self,
        port: int = 0,
        *,
        open_browser: bool = True,
        timeout: float = 300.0,
        announce: Callable[[str], None] | None = None,
    ) -> None:
        self.open_browser = open_browser
        self.timeout = timeout
        self.announce = announce or (
            lambda url: print(f"mcpgen: sign in at {url}", file=sys.stderr, flush=True)
        )
        self._result: dict[str, str] | None = None
        self._done = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                parts = urlsplit(self.path)
                if parts.path != "/callback":
                    self.send_error(404)
                    return
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                ok = "code" in query
                body = (
                    b"Signed in. You can close this window."
                    if ok
                    else b"Sign-in failed: " + query.get("error", "no code").encode()[:200]
                )
                self.send_response(200 if ok else 400)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                outer._result = query
                outer._done.set()

        self._server = HTTPServer(("127.0.0.1", port), Handler)
        self._thread: threading.Thread | None = None

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/callback"

    async def redirect(self, authorization_url: str) -> None:
        self._done.clear()
        self._result = None
        if self._thread is None:
            self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
            self._thread.start()
        self.announce(authorization_url)
        if self.open_browser:
            import webbrowser

            webbrowser.open(authorization_url)

    async def callback(self) -> AuthorizationCodeResult:
        import anyio
        from mcp.shared.auth import AuthorizationCodeResult

        done = await anyio.to_thread.run_sync(self._done.wait, self.timeout)
        result = self._result
        if not done or result is None:
            raise TimeoutError(f"no authorization response within {self.timeout:.0f} s")
        if "code" not in result:
            error = result.get("error", "no code")
            raise PermissionError(f"authorization refused: {error[:200]}")
        return AuthorizationCodeResult(
            code=result["code"], state=result.get("state"), iss=result.get("iss")
        )

    def close(self) -> None:
        if self._thread is not None:
            self._server.shutdown()
        self._server.server_close()


def oauth(
    server_url: str,
    *,
    scopes: Sequence[str] | str | None = None,
    client_name: str = "mcpgen client",
    client_id: str | None = None,
    client_secret: str | None = None,
    client_metadata_url: str | None = None,
    issuer: str | None = None,
    storage: Any = None,
    redirect: LoopbackRedirect | None = None,
    redirect_handler: Callable[[str], Awaitable[None]] | None = None,
    callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]] | None = None,
    flow: Literal["auto", "authorization_code", "client_credentials"] = "auto",
    private_key: str | None = None,
    signing_algorithm: str = "RS256",
) -> httpx2.Auth:
    """An ``httpx2.Auth`` that signs in to the OAuth-protected MCP server at ``server_url``.

    ``client_id`` + ``client_secret`` + ``issuer``: the client-credentials grant (machines;
    the secret is only sent to that issuer's token endpoint), unless ``flow`` is
    ``authorization_code`` (a pre-registered confidential client signing a person in).
    ``client_id`` + ``private_key`` (PEM) + ``issuer``: client credentials authenticated by a
    signed JWT assertion (RFC 7523, ``private_key_jwt``) instead of a secret. Otherwise the
    authorization code grant with PKCE: ``client_metadata_url`` (an https URL of this client's
    metadata document) is the client ID where the server supports it; a ``client_id``
    without secret is a pre-registered public client; with neither, the client registers
    itself. ``storage``: default ``FileTokenStorage(server_url)``. ``redirect``: default a
    ``LoopbackRedirect`` that opens the browser; ``redirect_handler``/``callback_handler``
    replace it (headless flows, tests)."""
    from mcp.client.auth import OAuthClientProvider
    from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata

    scope: str | None = scopes if isinstance(scopes, str) or scopes is None else " ".join(scopes)
    store = (
        storage
        if storage is not None
        else FileTokenStorage(server_url, account=f"{client_id or ''}\0{scope or ''}")
    )
    if client_id and private_key and flow != "authorization_code":
        from mcp.client.auth.extensions.client_credentials import (
            PrivateKeyJWTOAuthProvider,
            SignedJWTParameters,
        )

        if not issuer:
            raise ValueError("private_key_jwt needs issuer=<the authorization server's issuer>")
        assertion = SignedJWTParameters(
            issuer=client_id,
            subject=client_id,
            signing_key=private_key,
            signing_algorithm=signing_algorithm,
        ).create_assertion_provider()
        signed: httpx2.Auth = PrivateKeyJWTOAuthProvider(
            server_url, store, client_id, assertion, scope=scope or None, issuer=issuer
        )
        return signed
    if client_id and client_secret and flow != "authorization_code":
        from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider

        if not issuer:
            raise ValueError(
                "client credentials need issuer=<the authorization server's issuer URL>, so "
                "the secret only ever goes there (not wherever the MCP server points)"
            )
        provider: httpx2.Auth = ClientCredentialsOAuthProvider(
            server_url, store, client_id, client_secret, scope=scope or None, issuer=issuer
        )
        return provider
    if redirect_handler is None or callback_handler is None:
        loop = redirect or LoopbackRedirect()
        redirect_uri = loop.redirect_uri
        redirect_handler, callback_handler = loop.redirect, loop.callback
    else:
        redirect_uri = "http://127.0.0.1/callback"
    metadata = OAuthClientMetadata(
        client_name=client_name,
        redirect_uris=[redirect_uri],  # type: ignore[list-item]
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
        scope=scope or None,
    )
    if client_id:
        preregistered = OAuthClientInformationFull(
            client_id=client_id,
            client_secret=client_secret,
            redirect_uris=[redirect_uri],  # type: ignore[list-item]
            grant_types=["authorization_code", "refresh_token"],
            token_endpoint_auth_method="client_secret_basic" if client_secret else "none",
            scope=scope or None,
        )
        store = _Preregistered(store, preregistered)
    return OAuthClientProvider(
        server_url,
        metadata,
        store,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
        client_metadata_url=client_metadata_url,
    )


class _Preregistered:
    """A storage whose client registration is the pre-registered client's (never replaced by
    a dynamic one)."""

    def __init__(self, inner: Any, client: OAuthClientInformationFull) -> None:
        self.inner = inner
        self.client = client

    async def get_tokens(self) -> OAuthToken | None:
        tokens: OAuthToken | None = await self.inner.get_tokens()
        return tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        await self.inner.set_tokens(tokens)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info
