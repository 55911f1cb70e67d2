"""Access-token verification behind the SDK's ``TokenVerifier`` interface.

* JWT access tokens: signature by PyJWT with a key from ``keys.KeySource``, an asymmetric
  algorithm from the allowlist (the header's ``alg`` must also fit the key's type), ``exp``
  and ``nbf`` with a small leeway, ``iss`` and ``aud`` (this server's resource: RFC 8707, no
  token passthrough). A token without ``kid`` is refused.
* Opaque tokens: RFC 7662 introspection (httpx), with the same ``aud``/``iss`` checks.
* Static bearer tokens (``--auth-token``), compared in constant time.

Verified tokens are cached by a digest of the token until they expire, so a client's later
calls cost a hash and a dict lookup. A refused token is only ever logged by its reason, never
by its text.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mcp.server.auth.provider import AccessToken

if TYPE_CHECKING:
    import httpx2 as httpx

    from .config import OAuthSettings
    from .keys import KeySource

__all__ = ["MAX_TOKEN_BYTES", "OAuthTokenVerifier", "StaticTokenVerifier", "TokenCache"]

LOGGER = logging.getLogger("mcpgen.auth")
MAX_TOKEN_BYTES = 16 * 1024
"""Longer bearer tokens are refused unread."""
INTROSPECTION_TTL = 60.0
"""Seconds an introspection answer is trusted (revocation shows within this)."""


class TokenCache:
    """Verified tokens by digest, until their expiry (bounded; the oldest go first)."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: dict[bytes, tuple[AccessToken, float]] = {}

    @staticmethod
    def digest(token: str) -> bytes:
        return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()

    def get(self, digest: bytes) -> AccessToken | None:
        hit = self._items.get(digest)
        if hit is None:
            return None
        if hit[1] <= time.time():
            del self._items[digest]
            return None
        return hit[0]

    def put(self, digest: bytes, token: AccessToken, until: float) -> None:
        if len(self._items) >= self.size:
            now = time.time()
            for k in [k for k, (_, t) in self._items.items() if t <= now]:
                del self._items[k]
            while len(self._items) >= self.size:
                del self._items[next(iter(self._items))]
        self._items[digest] = (token, until)


class StaticTokenVerifier:
    """A fixed set of bearer tokens (constant time); each carries ``scopes`` (by default
    every scope the server declares: a shared secret is the operator's full access)."""

    def __init__(self, tokens: Sequence[str], scopes: Sequence[str] = ()) -> None:
        self._tokens = [t.encode() for t in tokens if t]
        if not self._tokens:
            raise ValueError("no bearer token given")
        self._scopes = list(scopes)

    async def verify_token(self, token: str) -> AccessToken | None:
        given = token.encode("utf-8", "surrogatepass")
        ok = False
        for t in self._tokens:
            ok |= hmac.compare_digest(given, t)
        if not ok:
            return None
        return AccessToken(token=token, client_id="bearer", scopes=list(self._scopes))


def _scopes(claims: Mapping[str, Any]) -> list[str]:
    value = claims.get("scope", claims.get("scp"))
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def _client_id(claims: Mapping[str, Any]) -> str:
    for key in ("client_id", "azp", "cid", "appid"):
        value = claims.get(key)
        if isinstance(value, str) and value:
            return value
    return "unknown"


class OAuthTokenVerifier:
    """The SDK ``TokenVerifier`` of an OAuth resource server (JWT or introspection)."""

    def __init__(self, settings: OAuthSettings, http: httpx.AsyncClient | None = None) -> None:
        import httpx2 as httpx

        from .keys import KeySource

        self.settings = settings
        self.http = http or httpx.AsyncClient(timeout=10.0, follow_redirects=False)
        self.keys: KeySource = KeySource(settings, self.http)
        self.cache = TokenCache()

    async def verify_token(self, token: str) -> AccessToken | None:
        if not token or len(token) > MAX_TOKEN_BYTES:
            LOGGER.info("mcpgen auth: refused a token: empty or over %d bytes", MAX_TOKEN_BYTES)
            return None
        digest = TokenCache.digest(token)
        hit = self.cache.get(digest)
        if hit is not None:
            return hit
        try:
            if token.count(".") == 2 and (self.settings.issuer or self.settings.jwks_uri):
                verified = await self._jwt(token)
            elif self.keys.introspection_url:
                verified = await self._introspect(token)
            else:
                raise _Refused("not a JWT, and no introspection endpoint is configured")
        except _Refused as exc:
            LOGGER.info("mcpgen auth: refused a token: %s", exc)
            return None
        access, until = verified
        self.cache.put(digest, access, until)
        return access

    # -- JWT ---------------------------------------------------------------------------

    async def _jwt(self, token: str) -> tuple[AccessToken, float]:
        import jwt

        s = self.settings
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as exc:
            raise _Refused(f"malformed JWT ({type(exc).__name__})") from None
        alg, kid = header.get("alg"), header.get("kid")
        if not isinstance(alg, str) or alg not in s.algorithms:
            raise _Refused(f"algorithm {str(alg)[:20]!r} is not allowed")
        if not isinstance(kid, str) or not kid:
            raise _Refused("the JWT names no key ('kid')")
        key = await self.keys.key(kid, alg)
        if key is None:
            raise _Refused(f"no signing key {kid[:64]!r} for {alg}")
        required = ["exp", "aud"] + (["iss"] if s.issuer else [])
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key=key.key,
                algorithms=[alg],
                audience=list(s.audience),
                issuer=s.issuer,
                leeway=s.leeway,
                options={"require": required},
            )
        except jwt.PyJWTError as exc:
            raise _Refused(f"{type(exc).__name__}: {str(exc)[:120]!r}") from None
        return self._access(token, claims), float(claims["exp"]) + s.leeway

    def _access(self, token: str, claims: Mapping[str, Any]) -> AccessToken:
        exp = claims.get("exp")
        sub = claims.get("sub")
        return AccessToken(
            token=token,
            client_id=_client_id(claims),
            scopes=_scopes(claims),
            expires_at=int(exp) + int(self.settings.leeway)
            if isinstance(exp, (int, float))
            else None,
            resource=self.settings.resource,
            subject=sub if isinstance(sub, str) else None,
            claims=dict(claims),
        )

    # -- introspection (RFC 7662) ------------------------------------------------------------

    async def _introspect(self, token: str) -> tuple[AccessToken, float]:
        s = self.settings
        url = self.keys.introspection_url
        assert url is not None
        auth = (s.client_id, s.client_secret or "") if s.client_id else None
        try:
            response = await self.http.post(
                url,
                data={"token": token, "token_type_hint": "access_token"},
                headers={"Accept": "application/json"},
                auth=auth,  # type: ignore[arg-type]
            )
            answer = response.json() if response.status_code == 200 else None
        except Exception as exc:  # noqa: BLE001 - fail closed
            LOGGER.error("mcpgen auth: introspection at %s failed: %s", url, type(exc).__name__)
            raise _Refused("introspection unavailable") from None
        if not isinstance(answer, dict):
            raise _Refused(f"introspection answered HTTP {response.status_code}")
        if answer.get("active") is not True:
            raise _Refused("inactive token")
        now = time.time()
        exp = answer.get("exp")
        if isinstance(exp, (int, float)) and exp + s.leeway < now:
            raise _Refused("expired token")
        nbf = answer.get("nbf")
        if isinstance(nbf, (int, float)) and nbf - s.leeway > now:
            raise _Refused("token not yet valid")
        if s.issuer and answer.get("iss", s.issuer) != s.issuer:
            raise _Refused("token from another issuer")
        aud = answer.get("aud")
        auds = [aud] if isinstance(aud, str) else aud if isinstance(aud, list) else []
        if not any(a in s.audience for a in auds):
            raise _Refused("token issued for another resource (aud)")
        until = now + INTROSPECTION_TTL
        if isinstance(exp, (int, float)):
            until = min(until, exp + s.leeway)
        return self._access(token, answer), until


class _Refused(Exception):
    """Why a token was refused (logged without the token)."""
