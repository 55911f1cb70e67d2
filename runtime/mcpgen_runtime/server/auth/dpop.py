"""DPoP on the resource server (RFC 9449; SEP-1932: MCP servers must validate DPoP proofs).

A DPoP-bound access token comes as ``Authorization: DPoP <token>`` with one ``DPoP: <proof>``
header. ``DPoPCheck.authenticate`` checks, in this order (cheap and local first, the one
shared write last):

* the proof (RFC 9449 section 4.3): at most ``MAX_PROOF_BYTES`` (longer ones are refused
  unread); a JWT whose header has ``typ: dpop+jwt``, an asymmetric ``alg`` of ``ALGORITHMS``
  (never ``none`` or an HMAC) and a public ``jwk`` (one with private members is refused)
  that fits the ``alg``; its signature verifies with that key (PyJWT: ``PyJWK``,
  ``jwt.decode``);
* its claims: ``htm`` is the request's method; ``htu``, without query and fragment, is this
  endpoint's URL as the server knows it from outside: the configured resource URI, or its
  origin with the endpoint's path (the same place the protected-resource metadata URL is
  built from, never the request's ``Host``; on loopback any loopback host with the same
  port); ``iat`` within ``dpop_window`` seconds of now; a ``jti``; ``ath`` is the
  base64url SHA-256 of the access token; with nonces on, a ``nonce`` of this server's;
* the token (the verifier, whose cache holds verified tokens, never proofs): its
  ``cnf.jkt`` is the RFC 7638 thumbprint of the proof's key;
* the ``jti`` was not seen before, by any replica: ``State.remember_once`` (Redis: ``SET NX
  PX``), kept until the proof's ``iat`` leaves the window.

Nonces (``Nonces``) are an HMAC of a time window under a key every replica has, so any
replica verifies any replica's nonce and nothing is stored. Failures raise ``DPoPError``,
logged by reason only: never a token, a proof, or a claim's value.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .config import is_loopback_url
from .keys import KEY_TYPES

if TYPE_CHECKING:
    from jwt import PyJWK
    from mcp.server.auth.provider import AccessToken

    from ..state import State
    from .config import OAuthSettings
    from .verify import OAuthTokenVerifier

__all__ = [
    "ALGORITHMS",
    "MAX_PROOF_BYTES",
    "DPoPCheck",
    "DPoPError",
    "Nonces",
    "access_token_hash",
    "bound_key",
    "thumbprint",
]

LOGGER = logging.getLogger("mcpgen.auth")
MAX_PROOF_BYTES = 8 * 1024
"""Longer proofs are refused before they are decoded."""
NONCE_WINDOW_S = 120
"""A nonce is good in the window it was issued in and the next one (2 to 4 minutes)."""
ALGORITHMS = (
    "ES256",
    "ES384",
    "ES512",
    "EdDSA",
    "PS256",
    "PS384",
    "PS512",
    "RS256",
    "RS384",
    "RS512",
)
"""The proof algorithms accepted and advertised (``dpop_signing_alg_values_supported``): those
of ``config.ASYMMETRIC_ALGORITHMS``, the compact ones first, RSA PKCS#1 v1.5 last."""
_PRIVATE = frozenset({"d", "p", "q", "dp", "dq", "qi", "oth", "k"})
"""JWK members of private or symmetric keys (RFC 7518 section 6)."""
_THUMBPRINT_MEMBERS = {
    "EC": ("crv", "kty", "x", "y"),
    "RSA": ("e", "kty", "n"),
    "OKP": ("crv", "kty", "x"),
}
_CURVES = {
    "ES256": ("P-256",),
    "ES384": ("P-384",),
    "ES512": ("P-521",),
    "EdDSA": ("Ed25519", "Ed448"),
}
_DECODE_OPTIONS: Any = {
    "verify_signature": True,
    **{f"verify_{c}": False for c in ("exp", "nbf", "iat", "aud", "iss", "sub", "jti")},
}


class DPoPError(Exception):
    """A refused DPoP request: ``error`` is the challenge's (``invalid_dpop_proof``,
    ``invalid_token``, ``use_dpop_nonce``); the message, its ``error_description``."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(description)
        self.error = error
        self.description = description


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def thumbprint(jwk: Mapping[str, Any]) -> str:
    """The RFC 7638 SHA-256 thumbprint of a public JWK (EC, RSA or OKP), base64url: the JSON
    of its required members only, in lexicographic order, without whitespace. PyJWT has no
    function for it. Raises ``ValueError`` for another key type or a missing member."""
    members = _THUMBPRINT_MEMBERS.get(str(jwk.get("kty")))
    if members is None or not all(isinstance(jwk.get(m), str) for m in members):
        raise ValueError("not a public EC, RSA or OKP key")
    canonical = json.dumps({m: jwk[m] for m in members}, separators=(",", ":"), sort_keys=True)
    return _b64url(hashlib.sha256(canonical.encode("utf-8")).digest())


def access_token_hash(token: str) -> str:
    """The ``ath`` of a proof that presents ``token``: base64url(SHA-256(its ASCII))."""
    return _b64url(hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest())


def bound_key(access: AccessToken) -> str | None:
    """The thumbprint a token is bound to (its ``cnf.jkt``: RFC 9449 section 6), or None."""
    cnf = (access.claims or {}).get("cnf")
    jkt = cnf.get("jkt") if isinstance(cnf, dict) else None
    return jkt if isinstance(jkt, str) and jkt else None


def _header(proof: str) -> dict[str, Any]:
    """A JWT's header, for the checks before its signature (``jwt.decode`` then parses the
    whole JWT again, strictly; one parse here instead of PyJWT's second strict one halves its
    cost per proof)."""
    head, dot, rest = proof.partition(".")
    try:
        header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (binascii.Error, ValueError):  # UnicodeDecodeError and JSONDecodeError too
        header = None
    if not dot or rest.count(".") != 1 or not isinstance(header, dict):
        raise DPoPError("invalid_dpop_proof", "the DPoP proof is not a JWT")
    return header


def _normalized(url: str) -> str | None:
    """``url`` without query and fragment, scheme and host in lower case, without a default
    port or a trailing slash (RFC 3986 section 6.2.3); None when it is not http(s)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname
    if parts.scheme.lower() not in ("http", "https") or not host:
        return None
    scheme = parts.scheme.lower()
    host = f"[{host}]" if ":" in host else host
    if port is not None and port != (443 if scheme == "https" else 80):
        host += f":{port}"
    return f"{scheme}://{host}{parts.path.rstrip('/')}"


def _rsa_bits(n: Any) -> int:
    """The size of an RSA JWK's modulus (0: not one)."""
    if not isinstance(n, str) or len(n) > 2048:
        return 0
    try:
        return int.from_bytes(base64.urlsafe_b64decode(n + "=" * (-len(n) % 4)), "big").bit_length()
    except (binascii.Error, ValueError):
        return 0


class Nonces:
    """Server nonces (RFC 9449 section 9): base64url(window number, HMAC-SHA256 of it under
    ``key``, 16 bytes). A nonce is good during its window and the next one."""

    def __init__(self, key: bytes, window_s: float = NONCE_WINDOW_S) -> None:
        self._key = hashlib.sha256(b"mcpgen dpop nonce v1\0" + key).digest()
        self.window_s = window_s
        self._current: tuple[int, str] = (-1, "")

    def _mac(self, index: int) -> bytes:
        return hmac.new(self._key, index.to_bytes(8, "big"), hashlib.sha256).digest()[:16]

    def current(self) -> str:
        index = int(time.time() // self.window_s)
        if self._current[0] != index:
            self._current = (index, _b64url(index.to_bytes(8, "big") + self._mac(index)))
        return self._current[1]

    def valid(self, nonce: Any) -> bool:
        if not isinstance(nonce, str) or len(nonce) != 32:
            return False
        try:
            raw = base64.urlsafe_b64decode(nonce)
        except (binascii.Error, ValueError):
            return False
        index = int.from_bytes(raw[:8], "big")
        now = int(time.time() // self.window_s)
        return index in (now, now - 1) and hmac.compare_digest(raw[8:], self._mac(index))


class DPoPCheck:
    """The DPoP checks of one protected endpoint (see the module's doc)."""

    def __init__(
        self,
        settings: OAuthSettings,
        *,
        endpoint: str,
        state: State,
        nonce_key: bytes | None,
    ) -> None:
        self.settings = settings
        self.required = settings.dpop == "required"
        self.algorithms = ALGORITHMS
        self.window = settings.dpop_window
        self.state = state
        self.nonces = Nonces(nonce_key) if settings.dpop_nonce and nonce_key else None
        resource = urlsplit(settings.resource)
        origin = f"{resource.scheme}://{resource.netloc}"
        self.targets = frozenset(
            t for t in (_normalized(settings.resource), _normalized(origin + endpoint)) if t
        )
        self.endpoint_path = endpoint.rstrip("/")
        self.loopback_port = resource.port if is_loopback_url(settings.resource) else None
        self._keys: dict[tuple[str, str], PyJWK] = {}

    async def authenticate(
        self,
        proofs: list[bytes],
        method: str,
        token: str,
        verifier: OAuthTokenVerifier,
    ) -> AccessToken:
        """The verified token of a DPoP request (``proofs``: its ``DPoP`` header values);
        raises ``DPoPError``."""
        if len(proofs) != 1:
            raise DPoPError(
                "invalid_dpop_proof", "exactly one DPoP header is required with the DPoP scheme"
            )
        if len(proofs[0]) > MAX_PROOF_BYTES:
            raise DPoPError("invalid_dpop_proof", f"the DPoP proof is over {MAX_PROOF_BYTES} bytes")
        jkt, claims = self._proof(proofs[0].decode("latin-1"), method, token)
        access = await verifier.verify_token(token)
        if access is None or (access.expires_at is not None and access.expires_at < time.time()):
            raise DPoPError("invalid_token", "the access token is invalid or expired")
        bound = bound_key(access)
        if bound is None:
            raise DPoPError("invalid_token", "the access token is not DPoP-bound (no cnf.jkt)")
        if bound != jkt:  # public values: no timing to hide
            raise DPoPError("invalid_token", "the access token is bound to another key")
        if self.nonces is not None and not self.nonces.valid(claims.get("nonce")):
            raise DPoPError("use_dpop_nonce", "a DPoP nonce of this server is required")
        # the proof is good until its iat leaves the window: its jti is kept that long
        ttl = max(1.0, float(claims["iat"]) + self.window - time.time() + 1.0)
        digest = hashlib.sha256(f"{jkt}\0{claims['jti']}".encode("utf-8", "replace"))
        if not await self.state.remember_once("dpop:" + digest.hexdigest()[:40], ttl):
            raise DPoPError("invalid_dpop_proof", "the DPoP proof was used before (jti)")
        return access

    def _proof(self, proof: str, method: str, token: str) -> tuple[str, dict[str, Any]]:
        """The key thumbprint and claims of a proof whose header, signature and claims hold."""
        import jwt

        header = _header(proof)
        if header.get("typ") != "dpop+jwt":
            raise DPoPError("invalid_dpop_proof", "the DPoP proof's typ must be dpop+jwt")
        alg = header.get("alg")
        if not isinstance(alg, str) or alg not in self.algorithms:
            raise DPoPError("invalid_dpop_proof", "the DPoP proof's alg is not supported")
        jwk = header.get("jwk")
        if not isinstance(jwk, dict):
            raise DPoPError("invalid_dpop_proof", "the DPoP proof has no jwk header")
        if _PRIVATE & jwk.keys():
            raise DPoPError("invalid_dpop_proof", "the DPoP proof's jwk holds a private key")
        try:
            jkt = thumbprint(jwk)
        except ValueError:
            raise DPoPError(
                "invalid_dpop_proof", "the DPoP proof's jwk is not a public key"
            ) from None
        key = self._key(jkt, alg, jwk)
        try:
            claims: dict[str, Any] = jwt.decode(
                proof, key=key, algorithms=[alg], options=_DECODE_OPTIONS
            )
        except jwt.PyJWTError:
            raise DPoPError(
                "invalid_dpop_proof", "the DPoP proof's signature does not verify"
            ) from None
        self._claims(claims, method, token)
        return jkt, claims

    def _key(self, jkt: str, alg: str, jwk: dict[str, Any]) -> PyJWK:
        """The proof's key (parsed once per key and algorithm: clients reuse their key)."""
        found = self._keys.get((jkt, alg))
        if found is not None:
            return found
        from jwt import PyJWK

        problem = jwk.get("kty") != KEY_TYPES.get(alg[:2])
        if alg in _CURVES and jwk.get("crv") not in _CURVES[alg]:
            problem = True
        if jwk.get("kty") == "RSA":
            problem |= _rsa_bits(jwk.get("n")) < 2048
        if problem:
            raise DPoPError(
                "invalid_dpop_proof",
                "the DPoP proof's jwk does not fit its alg (RSA: 2048 bits at least)",
            )
        try:
            parsed = PyJWK(jwk, algorithm=alg)
        except Exception:  # noqa: BLE001 - an unusable key verifies nothing
            raise DPoPError(
                "invalid_dpop_proof", "the DPoP proof's jwk is not a usable key"
            ) from None
        if len(self._keys) >= 1024:
            del self._keys[next(iter(self._keys))]
        self._keys[(jkt, alg)] = parsed
        return parsed

    def _claims(self, claims: Mapping[str, Any], method: str, token: str) -> None:
        jti = claims.get("jti")
        if not isinstance(jti, str) or not 0 < len(jti) <= 512:
            raise DPoPError("invalid_dpop_proof", "the DPoP proof has no jti")
        if claims.get("htm") != method:
            raise DPoPError(
                "invalid_dpop_proof", "the DPoP proof's htm is not this request's method"
            )
        htu = claims.get("htu")
        if not isinstance(htu, str) or len(htu) > 4096 or not self._here(htu):
            raise DPoPError("invalid_dpop_proof", "the DPoP proof's htu is not this endpoint's URL")
        iat = claims.get("iat")
        if (
            not isinstance(iat, (int, float))
            or isinstance(iat, bool)
            or abs(time.time() - iat) > self.window
        ):
            raise DPoPError(
                "invalid_dpop_proof", f"the DPoP proof's iat is not within {self.window:g} s of now"
            )
        if claims.get("ath") != access_token_hash(token):
            raise DPoPError("invalid_dpop_proof", "the DPoP proof's ath does not match the token")

    def _here(self, htu: str) -> bool:
        """Whether ``htu`` names this endpoint (see the module's doc)."""
        url = _normalized(htu)
        if url is None:
            return False
        if url in self.targets:
            return True
        if self.loopback_port is None or not is_loopback_url(url):
            return False
        parts = urlsplit(url)
        return parts.port == self.loopback_port and parts.path == self.endpoint_path

    def challenge(self, metadata_url: str, error: str | None, description: str | None) -> str:
        """The ``WWW-Authenticate`` challenge of the DPoP scheme (RFC 9449 section 7.1)."""
        parts = []
        if error:
            parts.append(f'error="{error}"')
        if description:
            parts.append(f'error_description="{_quoted(description)}"')
        parts.append(f'algs="{" ".join(self.algorithms)}"')
        parts.append(f'resource_metadata="{_quoted(metadata_url)}"')
        return "DPoP " + ", ".join(parts)


def _quoted(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
