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
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .loopback import LoopbackRedirect

if TYPE_CHECKING:
    import httpx2
    from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthToken

    from .dpop import DPoPKey
    from .grants import EnterpriseIdP

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

    def _write(self, key: str, value: Any) -> None:
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

    def dpop_key(self) -> bytes | None:
        """The DPoP key (PEM) the stored tokens are bound to, if any."""
        pem = self._read().get("dpop_key")
        return pem.encode("ascii") if isinstance(pem, str) else None

    def set_dpop_key(self, pem: bytes) -> None:
        self._write("dpop_key", pem.decode("ascii"))


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
    dpop: bool | None = None,
    dpop_key: str | bytes | DPoPKey | None = None,
    workload_token_file: str | os.PathLike[str] | None = None,
    workload_token_env: str | None = None,
    idp: EnterpriseIdP | None = None,
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
    replace it (headless flows, tests).

    ``workload_token_file`` or ``workload_token_env``: workload identity federation (the
    jwt-bearer grant with the platform's token, read at each token request; sent only to
    ``issuer``, default the token's audience). ``idp`` (with ``client_id``, ``client_secret``
    and ``issuer``): enterprise-managed authorization, an ID-JAG from the enterprise identity
    provider exchanged at ``issuer``. A token file or variable that cannot be read raises
    ``CredentialError`` here, naming it.

    ``dpop``: DPoP-bound tokens (RFC 9449) with a key of this client: True always, False
    never, None (default) once the server's challenge names the ``DPoP`` scheme.
    ``dpop_key``: the key (PEM or ``DPoPKey``); default one generated at first use (with a
    ``FileTokenStorage``, kept in its file next to the tokens it binds)."""
    from .dpop import DPoPAuth, DPoPKey

    scope: str | None = scopes if isinstance(scopes, str) or scopes is None else " ".join(scopes)
    store = (
        storage
        if storage is not None
        else FileTokenStorage(server_url, account=f"{client_id or ''}\0{scope or ''}")
    )
    provider: httpx2.Auth
    if workload_token_file is not None or workload_token_env:
        from .grants import CredentialSource, WorkloadIdentityOAuthProvider

        what = "workload identity token"
        source = CredentialSource(what, workload_token_file, workload_token_env)
        source.read()
        provider = WorkloadIdentityOAuthProvider(
            server_url, store, source, client_id=client_id, scope=scope, issuer=issuer
        )
    elif idp is not None:
        from mcp.client.auth.extensions.identity_assertion import IdentityAssertionOAuthProvider

        from .grants import id_jag_provider

        if not (client_id and client_secret and issuer):
            raise ValueError("idp= needs client_id, client_secret and issuer (the MCP server's)")
        idp.subject()
        provider = IdentityAssertionOAuthProvider(
            server_url,
            store,
            client_id,
            client_secret,
            issuer,
            id_jag_provider(idp, client_id),
            scope=scope,
            token_endpoint_auth_method="client_secret_basic",
        )
    else:
        provider = _provider(
            server_url, store, scope, client_name, client_id, client_secret,
            client_metadata_url, issuer, redirect, redirect_handler, callback_handler,
            flow, private_key, signing_algorithm,
        )  # fmt: skip
    if dpop is False:
        return provider
    key = DPoPKey.from_pem(dpop_key) if isinstance(dpop_key, (str, bytes)) else dpop_key
    keep = store if isinstance(store, FileTokenStorage) else None
    return DPoPAuth(provider, key, always=bool(dpop), key_store=keep)


def _provider(
    server_url: str,
    store: Any,
    scope: str | None,
    client_name: str,
    client_id: str | None,
    client_secret: str | None,
    client_metadata_url: str | None,
    issuer: str | None,
    redirect: LoopbackRedirect | None,
    redirect_handler: Callable[[str], Awaitable[None]] | None,
    callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]] | None,
    flow: str,
    private_key: str | None,
    signing_algorithm: str,
) -> httpx2.Auth:
    from mcp.client.auth import OAuthClientProvider
    from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata

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
