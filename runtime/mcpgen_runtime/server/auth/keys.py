"""The authorization server's signing keys: its metadata (RFC 8414, else OpenID discovery)
names the JWKS, fetched with httpx and cached. A token signed with an unknown ``kid`` triggers
a refetch (key rotation), rate-limited (a token bucket: ``refetch_burst`` at once, then one per
``refetch_interval`` seconds), so a flood of made-up ``kid``s cannot hammer the authorization
server. Keys are parsed by PyJWT (``PyJWK``); this module only
fetches, caches and picks.

Fails closed: with no keys (the endpoint never answered), every token is refused, and the
outage is logged once, in one line, until the endpoint answers again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    import httpx2 as httpx
    from jwt import PyJWK

    from .config import OAuthSettings

__all__ = ["KEY_TYPES", "KeySource", "discovery_urls"]

LOGGER = logging.getLogger("mcpgen.auth")

KEY_TYPES = {"RS": "RSA", "PS": "RSA", "ES": "EC", "Ed": "OKP"}
"""The JWK ``kty`` each algorithm family signs with."""

MAX_DOCUMENT_BYTES = 1 << 20


def discovery_urls(issuer: str) -> list[str]:
    """Where an issuer's metadata lives: RFC 8414 (path inserted after the well-known
    prefix), then OpenID Connect discovery (path appended)."""
    parts = urlsplit(issuer)
    path = parts.path.rstrip("/")
    return [
        urlunsplit(
            (parts.scheme, parts.netloc, "/.well-known/oauth-authorization-server" + path, "", "")
        ),
        urlunsplit(
            (parts.scheme, parts.netloc, path + "/.well-known/openid-configuration", "", "")
        ),
    ]


class KeySource:
    def __init__(
        self,
        settings: OAuthSettings,
        http: httpx.AsyncClient,
        *,
        max_age: float = 3600.0,
        refetch_interval: float = 12.0,
        refetch_burst: int = 5,
    ) -> None:
        from ..limits import TokenBucket

        self.settings = settings
        self.http = http
        self.max_age = max_age
        self.refetches = TokenBucket(1.0 / refetch_interval, refetch_burst)
        self.jwks_uri = settings.jwks_uri
        self.introspection_url = settings.introspection_url
        self._jwks: dict[str, dict[str, Any]] = {}
        self._parsed: dict[tuple[str, str], PyJWK] = {}
        self._fetched = -1e18  # last successful fetch
        self._lock = asyncio.Lock()
        self._down = False

    # -- discovery and fetching ------------------------------------------------------------

    async def _get_json(self, url: str) -> Mapping[str, Any]:
        response = await self.http.get(url, headers={"Accept": "application/json"})
        if response.status_code != 200:
            raise OSError(f"HTTP {response.status_code}")
        if len(response.content) > MAX_DOCUMENT_BYTES:
            raise OSError("document over 1 MiB")
        doc = json.loads(response.content)
        if not isinstance(doc, dict):
            raise OSError("not a JSON object")
        return doc

    async def _discover(self) -> None:
        issuer = self.settings.issuer
        if self.jwks_uri is not None or issuer is None:
            return
        problems = []
        for url in discovery_urls(issuer):
            try:
                meta = await self._get_json(url)
            except Exception as exc:  # noqa: BLE001 - the next form, else fail closed
                problems.append(f"{url}: {_reason(exc)}")
                continue
            if meta.get("issuer") != issuer:
                problems.append(f"{url}: names issuer {meta.get('issuer')!r}")
                continue
            jwks = meta.get("jwks_uri")
            if isinstance(jwks, str) and jwks:
                from .config import checked_url

                self.jwks_uri = checked_url("jwks_uri", jwks)
                intro = meta.get("introspection_endpoint")
                if self.introspection_url is None and isinstance(intro, str):
                    self.introspection_url = intro
                return
            problems.append(f"{url}: no jwks_uri")
        raise OSError("; ".join(problems))

    async def _refresh(self) -> None:
        try:
            await self._discover()
            assert self.jwks_uri is not None
            doc = await self._get_json(self.jwks_uri)
            keys = doc.get("keys")
            if not isinstance(keys, list):
                raise OSError("no 'keys' list")
            usable = {
                k["kid"]: k
                for k in keys
                if isinstance(k, dict)
                and isinstance(k.get("kid"), str)
                and k.get("kty") in KEY_TYPES.values()
                and k.get("use", "sig") == "sig"
            }
        except Exception as exc:  # noqa: BLE001 - fail closed, say it once
            if not self._down:
                where = self.jwks_uri or self.settings.issuer
                LOGGER.error(
                    "mcpgen auth: cannot fetch the signing keys from %s (%s); refusing tokens "
                    "until it answers",
                    where,
                    _reason(exc),
                )
                self._down = True
            return
        if self._down:
            LOGGER.warning("mcpgen auth: signing keys fetched again from %s", self.jwks_uri)
        self._down = False
        self._jwks = usable
        self._parsed = {k: v for k, v in self._parsed.items() if k[0] in usable}
        self._fetched = time.monotonic()

    async def key(self, kid: str, alg: str) -> PyJWK | None:
        """The public key ``kid`` for ``alg``; None when no such key (after at most one
        rate-limited refetch) or it does not fit ``alg``."""
        if kid not in self._jwks or time.monotonic() - self._fetched > self.max_age:
            async with self._lock:  # one fetch at a time; waiters see its keys
                if kid not in self._jwks or time.monotonic() - self._fetched > self.max_age:
                    if self.refetches.take() == 0.0:
                        await self._refresh()
        jwk = self._jwks.get(kid)
        if jwk is None:
            return None
        if jwk.get("kty") != KEY_TYPES.get(alg[:2]) or jwk.get("alg", alg) != alg:
            return None
        parsed = self._parsed.get((kid, alg))
        if parsed is None:
            from jwt import PyJWK

            try:
                parsed = PyJWK(jwk, algorithm=alg)
            except Exception:  # noqa: BLE001 - an unusable key signs nothing
                return None
            self._parsed[(kid, alg)] = parsed
        return parsed


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) < 300 else text[:300] + "..."
