"""DPoP (RFC 9449, SEP-1932): access tokens bound to a key of this client, useless if stolen.

* ``DPoPKey``: the client's key (EC P-256 by default, generated in memory; or a PEM) and its
  proofs: a JWT signed by PyJWT, ``typ: dpop+jwt``, the public key in its ``jwk`` header, the
  request's method (``htm``) and URL without query or fragment (``htu``), ``iat``, a fresh
  random ``jti``, the access token's hash (``ath``) and the server's ``nonce`` when it set one.
* ``DPoPAuth``: wraps another ``httpx2.Auth`` (the OAuth flows of ``oauth``): a proof on every
  token request and on every request that presents a token, which goes as
  ``Authorization: DPoP <token>``. A ``use_dpop_nonce`` answer (the authorization server's 400,
  the resource server's 401) is retried once with the nonce it names; every ``DPoP-Nonce``
  header seen is kept, per server origin, for the next proof to that server.

No token or proof is ever logged; the key's ``repr`` shows its algorithm and thumbprint only.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import time
from collections.abc import AsyncGenerator, Sequence
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs

import httpx2

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes

__all__ = ["ALGORITHMS", "DPoPAuth", "DPoPKey", "htu", "thumbprint"]

ALGORITHMS = ("ES256", "ES384", "ES512", "EdDSA", "PS256", "RS256")
"""The signing algorithms of ``DPoPKey``, preferred first."""
_CURVES = {"ES256": "secp256r1", "ES384": "secp384r1", "ES512": "secp521r1"}
_PUBLIC = {"EC": ("crv", "kty", "x", "y"), "RSA": ("e", "kty", "n"), "OKP": ("crv", "kty", "x")}
"""The required public members of each key type (RFC 7638 section 3.2), sorted."""
_MAX_NONCE = 512


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unsupported(alg: str) -> str:
    return f"DPoP: unsupported algorithm {alg!r} (one of {', '.join(ALGORITHMS)})"


def thumbprint(jwk: dict[str, Any]) -> str:
    """The RFC 7638 SHA-256 thumbprint of a public JWK. PyJWT has no helper for it, so it is
    computed here: the key type's required members, in lexicographic order, as JSON without
    whitespace, hashed with SHA-256, base64url without padding."""
    members = {m: jwk[m] for m in _PUBLIC[jwk["kty"]]}
    canonical = json.dumps(members, sort_keys=True, separators=(",", ":"))
    return _b64url(hashlib.sha256(canonical.encode("utf-8")).digest())


def htu(url: httpx2.URL | str) -> str:
    """The ``htu`` of a request to ``url``: the URL without its query and fragment."""
    return str(httpx2.URL(url).copy_with(query=None, fragment=None))


class DPoPKey:
    """A DPoP key pair of this client. ``generate()`` makes one (``ES256``: EC P-256);
    ``from_pem(pem)`` loads one (EC P-256/384/521, RSA or Ed25519). Keep a key for as long
    as the tokens bound to it: a new key needs new tokens."""

    def __init__(self, private_key: PrivateKeyTypes, alg: str) -> None:
        from jwt.algorithms import get_default_algorithms

        if alg not in ALGORITHMS:
            raise ValueError(_unsupported(alg))
        self.alg = alg
        self._private = private_key
        full = json.loads(get_default_algorithms()[alg].to_jwk(private_key.public_key()))
        self.public_jwk: dict[str, str] = {m: full[m] for m in _PUBLIC[full["kty"]]}
        """The public key as a JWK: its required members only, never a private one."""

    @classmethod
    def generate(cls, alg: str = "ES256") -> DPoPKey:
        from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

        key: PrivateKeyTypes
        if alg in _CURVES:
            curves = {"ES256": ec.SECP256R1(), "ES384": ec.SECP384R1(), "ES512": ec.SECP521R1()}
            key = ec.generate_private_key(curves[alg])
        elif alg == "EdDSA":
            key = ed25519.Ed25519PrivateKey.generate()
        elif alg in ("RS256", "PS256"):
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        else:
            raise ValueError(_unsupported(alg))
        return cls(key, alg)

    @classmethod
    def from_pem(cls, pem: str | bytes, alg: str | None = None) -> DPoPKey:
        """The key of a PKCS#8 (or traditional) PEM, unencrypted. ``alg``: default by key
        type (the curve's ``ES*``, ``RS256``, ``EdDSA``)."""
        from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        key = load_pem_private_key(pem.encode() if isinstance(pem, str) else pem, password=None)
        if isinstance(key, ec.EllipticCurvePrivateKey):
            by_curve = {v: k for k, v in _CURVES.items()}
            default = by_curve.get(key.curve.name)
        elif isinstance(key, rsa.RSAPrivateKey):
            default = "RS256"
        elif isinstance(key, ed25519.Ed25519PrivateKey):
            default = "EdDSA"
        else:
            default = None
        if default is None:
            raise ValueError("DPoP: the key must be EC (P-256, P-384, P-521), RSA or Ed25519")
        return cls(key, alg or default)

    def pem(self) -> bytes:
        """The private key as unencrypted PKCS#8 PEM (to keep it, 0600, next to the tokens)."""
        from cryptography.hazmat.primitives import serialization

        return self._private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )

    def thumbprint(self) -> str:
        """The RFC 7638 SHA-256 thumbprint of the public key (a token's ``cnf.jkt``)."""
        return thumbprint(self.public_jwk)

    def proof(
        self,
        method: str,
        url: httpx2.URL | str,
        *,
        access_token: str | None = None,
        nonce: str | None = None,
    ) -> str:
        """A DPoP proof JWT for one request (RFC 9449 section 4.2)."""
        import jwt

        claims: dict[str, Any] = {
            "jti": secrets.token_urlsafe(16),
            "htm": method.upper(),
            "htu": htu(url),
            "iat": int(time.time()),
        }
        if access_token is not None:
            claims["ath"] = _b64url(hashlib.sha256(access_token.encode("ascii")).digest())
        if nonce is not None:
            claims["nonce"] = nonce
        headers = {"typ": "dpop+jwt", "jwk": self.public_jwk}
        return jwt.encode(claims, self._private, algorithm=self.alg, headers=headers)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"DPoPKey({self.alg}, jkt={self.thumbprint()})"


class KeyStore(Protocol):
    """Where a ``DPoPKey`` is kept between runs (``FileTokenStorage``)."""

    def dpop_key(self) -> bytes | None: ...

    def set_dpop_key(self, pem: bytes) -> None: ...


_SCHEME = re.compile(r"(?:^|,)\s*dpop(?:\s|,|$)", re.IGNORECASE)
_TOKEN = re.compile(r"(?i)^(bearer|dpop)\s+(\S+)\s*$")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _origin(url: httpx2.URL) -> str:
    return f"{url.scheme}://{url.netloc.decode('ascii')}"


def _json(response: httpx2.Response) -> dict[str, Any] | None:
    try:
        doc = json.loads(response.content)
    except (ValueError, httpx2.ResponseNotRead):
        return None
    return doc if isinstance(doc, dict) else None


def _form(request: httpx2.Request) -> dict[str, list[str]]:
    """The form fields of a token request (empty for anything else)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if request.method != "POST" or kind != "application/x-www-form-urlencoded":
        return {}
    try:
        return parse_qs(request.content.decode("utf-8", "replace"))
    except httpx2.RequestNotRead:
        return {}


class DPoPAuth(httpx2.Auth):
    """DPoP on top of ``inner`` (an ``httpx2.Auth`` whose flow gets the tokens).

    ``always``: use DPoP from the first request; otherwise from the first 401 whose
    ``WWW-Authenticate`` names the ``DPoP`` scheme, or from the start when ``key_store`` holds
    a key (the tokens stored with it are bound to it). ``key``: the client's key (default: one
    generated at first use, of the first algorithm the authorization server lists in
    ``dpop_signing_alg_values_supported``, kept in ``key_store`` when there is one). A token
    the authorization server issues as ``Bearer`` despite the proof goes as ``Bearer``; one
    from storage whose binding is unknown goes as ``DPoP`` (a refusal leads to a new grant)."""

    requires_response_body = True

    def __init__(
        self,
        inner: httpx2.Auth,
        key: DPoPKey | None = None,
        *,
        always: bool = True,
        key_store: KeyStore | None = None,
    ) -> None:
        self.inner = inner
        self.active = always
        self._key = key
        self._store = key_store
        self._algs: Sequence[str] = ()
        self._nonces: dict[str, str] = {}
        self._unbound: set[str] = set()

    @property
    def key(self) -> DPoPKey:
        """The client's key (made, or loaded from the key store, on first use)."""
        if self._key is None:
            pem = self._store.dpop_key() if self._store is not None else None
            if pem is not None:
                self._key = DPoPKey.from_pem(pem)
            else:
                alg = next((a for a in ALGORITHMS if a in self._algs), "ES256")
                self._key = DPoPKey.generate(alg)
                if self._store is not None:
                    self._store.set_dpop_key(self._key.pem())
        return self._key

    def sync_auth_flow(self, request: httpx2.Request) -> Any:
        raise RuntimeError("DPoPAuth works with async clients (httpx2.AsyncClient) only")

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        if not self.active and self._key is None and self._store is not None:
            self.active = self._store.dpop_key() is not None  # its tokens are bound to it
        flow = self.inner.async_auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                response = await self._send(request, outgoing, (yield self._sign(outgoing)))
                if self._nonce_challenge(outgoing, response):
                    # once: a fresh proof, with the nonce
                    response = await self._send(request, outgoing, (yield self._sign(outgoing)))
                if outgoing is request and not self.active and self._challenged(response):
                    self.active = True
                outgoing = await flow.asend(self._token_response(outgoing, response))
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()

    async def _send(
        self, primary: httpx2.Request, request: httpx2.Request, response: httpx2.Response
    ) -> httpx2.Response:
        """What came back for ``request``, learnt from; its body read unless it is the answer
        to the request being authenticated (a stream, maybe), which is read only on a 400."""
        if request is not primary or response.status_code == 400:
            await response.aread()
        self._learn(request, response)
        return response

    def _sign(self, request: httpx2.Request) -> httpx2.Request:
        """``request`` with its proof (a token request, or one that presents a token)."""
        if not self.active:
            return request
        request.headers.pop("DPoP", None)
        nonce = self._nonces.get(_origin(request.url))
        match = _TOKEN.match(request.headers.get("Authorization", ""))
        if match is not None:
            token = match.group(2)
            if _token_hash(token) in self._unbound:
                request.headers["Authorization"] = f"Bearer {token}"
                return request
            request.headers["Authorization"] = f"DPoP {token}"
            proof = self.key.proof(request.method, request.url, access_token=token, nonce=nonce)
            request.headers["DPoP"] = proof
        elif "grant_type" in _form(request):
            request.headers["DPoP"] = self.key.proof(request.method, request.url, nonce=nonce)
        return request

    def _learn(self, request: httpx2.Request, response: httpx2.Response) -> None:
        """Keep the server's nonce, and the algorithms an authorization server lists."""
        nonce = response.headers.get("DPoP-Nonce")
        if nonce and len(nonce) <= _MAX_NONCE and nonce.isprintable():
            self._nonces[_origin(request.url)] = nonce.strip()
        if request.method == "GET" and "/.well-known/" in request.url.path:
            algs = (_json(response) or {}).get("dpop_signing_alg_values_supported")
            if isinstance(algs, list) and self._key is None:
                self._algs = [a for a in algs if isinstance(a, str)]

    def _nonce_challenge(self, request: httpx2.Request, response: httpx2.Response) -> bool:
        if "DPoP" not in request.headers or "DPoP-Nonce" not in response.headers:
            return False
        if response.status_code == 400:
            return (_json(response) or {}).get("error") == "use_dpop_nonce"
        challenge = response.headers.get("WWW-Authenticate", "")
        return response.status_code == 401 and "use_dpop_nonce" in challenge

    @staticmethod
    def _challenged(response: httpx2.Response) -> bool:
        challenge = response.headers.get("WWW-Authenticate", "")
        return response.status_code == 401 and _SCHEME.search(challenge) is not None

    def _token_response(
        self, request: httpx2.Request, response: httpx2.Response
    ) -> httpx2.Response:
        """A token response as the inner flow reads it: a ``DPoP`` token's type is reported
        as ``Bearer`` (the SDK's token model knows no other); a ``Bearer`` one is noted as
        unbound."""
        if "DPoP" not in request.headers or response.status_code != 200 or not _form(request):
            return response
        doc = _json(response)
        if doc is None or not isinstance(doc.get("access_token"), str):
            return response
        if str(doc.get("token_type", "")).lower() != "dpop":
            self._unbound.add(_token_hash(doc["access_token"]))
            return response
        body = json.dumps({**doc, "token_type": "Bearer"}).encode()
        drop = ("content-length", "content-encoding", "transfer-encoding")
        headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in drop]
        return httpx2.Response(
            response.status_code, headers=headers, content=body, request=response.request
        )
