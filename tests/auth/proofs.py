"""DPoP proof checks of the test servers (the identity provider's token endpoint and the
resource server of ``tests.auth.resource``), written with PyJWT apart from the runtime's
client code, so a client bug cannot hide behind a shared helper."""

from __future__ import annotations

import base64
import hashlib
import time
from typing import Any

import jwt

__all__ = ["check_proof", "jwk_thumbprint"]

ASYMMETRIC = ("ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "EdDSA")
PRIVATE = {"d", "p", "q", "dp", "dq", "qi", "k", "oth"}


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwk_thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638: the required members in lexicographic order, no whitespace, SHA-256."""
    required = {
        "EC": ["crv", "kty", "x", "y"],
        "RSA": ["e", "kty", "n"],
        "OKP": ["crv", "kty", "x"],
    }
    body = "{" + ",".join(f'"{m}":"{jwk[m]}"' for m in required[jwk["kty"]]) + "}"
    return _b64(hashlib.sha256(body.encode()).digest())


def check_proof(
    proof: str,
    record: dict[str, Any],
    *,
    method: str,
    url: str,
    jtis: set[str],
    token: str | None = None,
) -> str | None:
    """Why ``proof`` is not a valid DPoP proof for ``method url`` (and ``token``), or None.
    ``record`` gets its ``header`` and ``claims``; a valid proof's ``jti`` joins ``jtis``."""
    try:
        header = jwt.get_unverified_header(proof)
    except jwt.PyJWTError:
        return "not a JWT"
    record["header"] = header
    jwk = header.get("jwk")
    if header.get("typ") != "dpop+jwt" or header.get("alg") not in ASYMMETRIC:
        return "typ or alg"
    if not isinstance(jwk, dict) or PRIVATE & set(jwk):
        return "jwk"
    try:
        key = jwt.PyJWK(jwk, header["alg"]).key
        claims = jwt.decode(proof, key, algorithms=[header["alg"]])
    except jwt.PyJWTError as exc:
        return f"signature: {exc}"
    record["claims"] = claims
    if claims.get("htm") != method or claims.get("htu") != url:
        return "htm/htu"
    if abs(time.time() - float(claims.get("iat", 0))) > 60:
        return "iat"
    if token is not None and claims.get("ath") != _b64(hashlib.sha256(token.encode()).digest()):
        return "ath"
    if not isinstance(claims.get("jti"), str) or claims["jti"] in jtis:
        return "replayed jti"
    jtis.add(claims["jti"])
    return None
