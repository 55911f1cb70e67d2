"""The grants of ``oauth`` for services, where no person signs in at a browser.

* Workload identity federation (SEP-1933): the RFC 7523 jwt-bearer grant. The assertion is a
  JWT the platform issued to this workload (a Kubernetes service account token, a cloud's
  identity token), read from a file or an environment variable at each token request, since
  platforms rotate them; never from a manifest. It is only sent to the authorization server
  it is for: the configured ``issuer``, else the token's own ``aud``.
* Enterprise-managed authorization (SEP-990): the user's ID token is exchanged at the
  enterprise identity provider (RFC 8693 token exchange) for an ID-JAG, an identity assertion
  grant for one authorization server and one MCP server; the SDK's
  ``IdentityAssertionOAuthProvider`` then presents it with the jwt-bearer grant. An ID-JAG
  for another audience, resource or client is refused before it is sent anywhere.

A credential that cannot be read is one ``CredentialError`` naming the file or variable,
never its value.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.client.auth import OAuthClientProvider, OAuthFlowError
from mcp.client.auth.utils import issuers_match
from mcp.shared.auth import JWT_BEARER_GRANT_TYPE

from .errors import CredentialError

if TYPE_CHECKING:
    import httpx2
    from mcp.client.auth import TokenStorage

__all__ = [
    "CredentialError",
    "CredentialSource",
    "EnterpriseIdP",
    "WorkloadIdentityOAuthProvider",
    "check_id_jag",
    "id_jag_provider",
]

TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag"
_MAX_BYTES = 64 * 1024
_FORM = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}


class CredentialSource:
    """A secret read from ``file`` or else the environment variable ``env``, at each use."""

    def __init__(
        self, what: str, file: str | os.PathLike[str] | None = None, env: str | None = None
    ) -> None:
        if file is None and not env:
            raise ValueError(f"{what}: give a file or an environment variable")
        self.what = what
        self.file = Path(file) if file is not None else None
        self.env = env
        self.where = f"file {self.file}" if self.file is not None else f"${env}"

    def read(self) -> str:
        """The credential (stripped), or ``CredentialError``."""
        if self.file is None:
            value = os.environ.get(self.env or "", "").strip()
            if not value:
                raise CredentialError(f"{self.what}: ${self.env} is not set")
            return value
        try:  # O_NONBLOCK: a FIFO in its place is refused, never waited on
            fd = os.open(self.file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise CredentialError(f"{self.what}: {self.where} does not exist") from None
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            raise CredentialError(f"{self.what}: {self.where} cannot be read ({why})") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise CredentialError(f"{self.what}: {self.where} is not a regular file")
            data = os.read(fd, _MAX_BYTES + 1)
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            raise CredentialError(f"{self.what}: {self.where} cannot be read ({why})") from None
        finally:
            os.close(fd)
        if len(data) > _MAX_BYTES:
            raise CredentialError(f"{self.what}: {self.where} is larger than {_MAX_BYTES} bytes")
        value = data.decode("utf-8", "replace").strip()
        if not value:
            raise CredentialError(f"{self.what}: {self.where} is empty")
        return value


def _claims(token: str) -> dict[str, Any]:
    """A JWT's claims, unverified (the client is not its audience; the server verifies it)."""
    import jwt

    try:
        claims = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError:
        return {}
    return claims if isinstance(claims, dict) else {}


def _audiences(claims: dict[str, Any]) -> list[str]:
    aud = claims.get("aud")
    return [aud] if isinstance(aud, str) else [a for a in aud or () if isinstance(a, str)]


def _unexpired(what: str, claims: dict[str, Any]) -> None:
    exp = claims.get("exp")
    if isinstance(exp, (int, float)) and exp < time.time() - 30:
        raise CredentialError(f"{what} expired {int(time.time() - exp)} s ago")


class WorkloadIdentityOAuthProvider(OAuthClientProvider):
    """The jwt-bearer grant (RFC 7523 section 2.1) with a workload identity token as the
    assertion (SEP-1933). ``issuer``: the authorization server the token is for (default:
    the token's ``aud``); the token is never sent to any other. ``client_id``: sent when
    given (the grant authenticates the workload by the assertion itself)."""

    def __init__(
        self,
        server_url: str,
        storage: TokenStorage,
        source: CredentialSource,
        *,
        client_id: str | None = None,
        scope: str | None = None,
        issuer: str | None = None,
    ) -> None:
        from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata

        metadata = OAuthClientMetadata(
            redirect_uris=None,
            grant_types=[JWT_BEARER_GRANT_TYPE],
            token_endpoint_auth_method="none",
            scope=scope,
        )
        super().__init__(server_url, metadata, storage, None, None)
        self._source = source
        self._client_id = client_id
        self._issuer = issuer
        self._fixed = OAuthClientInformationFull(
            client_id=client_id or "workload",
            redirect_uris=None,
            grant_types=[JWT_BEARER_GRANT_TYPE],
            token_endpoint_auth_method="none",
            scope=scope,
        )

    async def _initialize(self) -> None:
        self.context.current_tokens = await self.context.storage.get_tokens()
        self.context.client_info = self._fixed
        self._initialized = True

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """The SDK's flow, after a check that the token can be read when a grant may be
        needed: a missing file is then one ``CredentialError``, not an error inside the SDK's
        flow (which logs those with their traceback)."""
        if not self.context.is_token_valid():
            self._source.read()
        flow = super().async_auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                outgoing = await flow.asend((yield outgoing))
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()

    def _wanted(self, assertion: str | None) -> list[str]:
        if self._issuer:
            return [self._issuer]
        return _audiences(_claims(assertion)) if assertion is not None else []

    def _select_authorization_server(self, advertised: list[str]) -> str:
        try:
            wanted = self._wanted(None if self._issuer else self._source.read())
        except CredentialError:
            wanted = []
        return next(
            (s for s in advertised if any(issuers_match(s, w) for w in wanted)), advertised[0]
        )

    async def _perform_authorization(self) -> httpx2.Request:
        import httpx2

        assertion = self._source.read()
        claims = _claims(assertion)
        _unexpired(f"workload identity token ({self._source.where})", claims)
        wanted = self._wanted(assertion)
        if not wanted:
            raise CredentialError(
                f"workload identity token ({self._source.where}) names no audience: pass "
                "issuer=<the authorization server it is for>"
            )
        metadata = self.context.oauth_metadata
        if metadata is None:
            raise OAuthFlowError("no authorization server metadata: nowhere to send the token")
        issuer = str(metadata.issuer)
        if not any(issuers_match(issuer, w) for w in wanted):
            raise CredentialError(
                f"workload identity token ({self._source.where}) is for {', '.join(wanted)}, "
                f"not the authorization server {issuer}; it was not sent"
            )
        data = {"grant_type": JWT_BEARER_GRANT_TYPE, "assertion": assertion}
        if self._client_id:
            data["client_id"] = self._client_id
        if self.context.should_include_resource_param(self.context.protocol_version):
            data["resource"] = self.context.get_resource_url()
        if self.context.client_metadata.scope:
            data["scope"] = self.context.client_metadata.scope
        return httpx2.Request("POST", self._get_token_endpoint(), data=data, headers=_FORM)


@dataclass(frozen=True)
class EnterpriseIdP:
    """The enterprise identity provider of SEP-990 and the user's ID token there.

    ``token_endpoint`` (or ``issuer``, whose metadata names it): where the ID token is
    exchanged for an ID-JAG. ``client_id``/``client_secret``: this client at the identity
    provider. The ID token: ``id_token_file``, ``id_token_env`` or ``id_token`` (read at each
    exchange)."""

    token_endpoint: str | None = None
    issuer: str | None = None
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    id_token: str | None = field(default=None, repr=False)
    id_token_file: str | os.PathLike[str] | None = None
    id_token_env: str | None = None
    scope: str | None = None

    def subject(self) -> str:
        if self.id_token:
            return self.id_token
        if self.id_token_file is None and not self.id_token_env:
            raise ValueError("EnterpriseIdP: give id_token_file, id_token_env or id_token")
        return CredentialSource("ID token", self.id_token_file, self.id_token_env).read()


def check_id_jag(jag: str, *, audience: str, resource: str, client_id: str | None) -> None:
    """Refuse an ID-JAG that is not for ``audience`` (the authorization server's issuer),
    ``resource`` (the MCP server) and ``client_id``, or has expired (``CredentialError``).
    The client cannot verify its signature (the authorization server does); it checks that
    the identity provider issued what it asked for before sending it on."""
    import jwt

    try:
        typ = str(jwt.get_unverified_header(jag).get("typ", ""))
    except jwt.PyJWTError:
        raise CredentialError("the identity provider's ID-JAG is not a JWT") from None
    if typ.lower() != "oauth-id-jag+jwt":
        raise CredentialError(f"the identity provider's ID-JAG has typ {typ!r}, refused")
    claims = _claims(jag)
    audiences = _audiences(claims)
    if not any(issuers_match(a, audience) for a in audiences):
        raise CredentialError(
            f"the identity provider issued an ID-JAG for {', '.join(audiences) or 'no audience'}"
            f", not for the authorization server {audience}; refused"
        )
    granted = claims.get("resource")
    if granted is not None and str(granted).rstrip("/") != resource.rstrip("/"):
        raise CredentialError(f"the ID-JAG is for the resource {granted}, not {resource}; refused")
    if client_id and claims.get("client_id") not in (None, client_id):
        raise CredentialError(f"the ID-JAG is for the client {claims.get('client_id')}; refused")
    _unexpired("the ID-JAG", claims)


async def _token_endpoint(http: httpx2.AsyncClient, idp: EnterpriseIdP) -> str:
    if idp.token_endpoint:
        return idp.token_endpoint
    if not idp.issuer:
        raise ValueError("EnterpriseIdP: give token_endpoint or issuer")
    base = idp.issuer.rstrip("/")
    for well_known in ("openid-configuration", "oauth-authorization-server"):
        r = await http.get(f"{base}/.well-known/{well_known}")
        doc = r.json() if r.status_code == 200 else {}
        if isinstance(doc, dict) and isinstance(doc.get("token_endpoint"), str):
            if not issuers_match(str(doc.get("issuer")), idp.issuer):
                raise OAuthFlowError(f"{idp.issuer}: its metadata names another issuer")
            return str(doc["token_endpoint"])
    raise OAuthFlowError(f"{idp.issuer}: no identity provider metadata with a token endpoint")


def id_jag_provider(
    idp: EnterpriseIdP, client_id: str | None
) -> Callable[[str, str], Awaitable[str]]:
    """The ``assertion_provider`` of the SDK's ``IdentityAssertionOAuthProvider``: an RFC 8693
    token exchange of the ID token for an ID-JAG for ``(audience, resource)``, checked
    (``check_id_jag``)."""

    async def fetch(audience: str, resource: str) -> str:
        import base64
        from urllib.parse import quote

        import httpx2

        data = {
            "grant_type": TOKEN_EXCHANGE,
            "requested_token_type": ID_JAG_TYPE,
            "audience": audience,
            "resource": resource,
            "subject_token": idp.subject(),
            "subject_token_type": ID_TOKEN_TYPE,
        }
        if idp.scope:
            data["scope"] = idp.scope
        headers = dict(_FORM)
        if idp.client_id and idp.client_secret:
            pair = f"{quote(idp.client_id, safe='')}:{quote(idp.client_secret, safe='')}"
            headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
        elif idp.client_id:
            data["client_id"] = idp.client_id
        async with httpx2.AsyncClient(timeout=30, follow_redirects=False) as http:
            endpoint = await _token_endpoint(http, idp)
            r = await http.post(endpoint, data=data, headers=headers)
        try:
            doc = r.json()
        except ValueError:
            doc = None
        doc = doc if isinstance(doc, dict) else {}
        if r.status_code != 200:
            why = " ".join(str(doc.get(k, ""))[:200] for k in ("error", "error_description"))
            raise CredentialError(
                f"the identity provider {endpoint} refused the token exchange "
                f"(HTTP {r.status_code}{': ' + why.strip() if why.strip() else ''})"
            )
        jag = doc.get("access_token")
        if doc.get("issued_token_type") != ID_JAG_TYPE or not isinstance(jag, str):
            raise CredentialError(f"the identity provider {endpoint} issued no ID-JAG")
        check_id_jag(jag, audience=audience, resource=resource, client_id=client_id)
        return jag

    return fetch
