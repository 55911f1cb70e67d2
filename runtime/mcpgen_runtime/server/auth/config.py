"""The OAuth settings of a server: the manifest's ``server.auth`` (JSON spelling), overridden
by the operator at start-up (command line, then environment). Secrets (the introspection
client's) come from the environment only.

``resolve`` returns None when neither names an authorization server: the server then keeps its
loopback default and optional static bearer tokens.

DPoP (RFC 9449, see ``dpop``) is a deployment choice, the operator's only: ``--auth-dpop``
(``$MCPGEN_AUTH_DPOP``) ``allowed`` (the default: DPoP-bound tokens with proofs, and plain
bearer tokens), ``required`` (DPoP only) or ``off`` (bearer only; a DPoP-bound token is still
refused as a bearer token); ``--auth-dpop-nonce`` (``$MCPGEN_AUTH_DPOP_NONCE=1``) makes proofs
carry a nonce of this server's; ``--auth-dpop-window`` (``$MCPGEN_AUTH_DPOP_WINDOW``) the
seconds a proof's ``iat`` may be off. The nonce key, a secret, comes from
``$MCPGEN_AUTH_DPOP_NONCE_KEY`` only.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "ASYMMETRIC_ALGORITHMS",
    "DPOP_MODES",
    "ENV",
    "AuthConfigError",
    "OAuthSettings",
    "checked_url",
    "is_loopback_url",
    "resolve",
]

ASYMMETRIC_ALGORITHMS = (
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "ES256",
    "ES384",
    "ES512",
    "EdDSA",
)
"""The signature algorithms a token may use: asymmetric only (never ``none``, never an HMAC
keyed with a public key)."""

ENV = {
    "issuer": "MCPGEN_AUTH_ISSUER",
    "jwks_uri": "MCPGEN_AUTH_JWKS_URI",
    "resource": "MCPGEN_AUTH_RESOURCE",
    "audience": "MCPGEN_AUTH_AUDIENCE",
    "introspection_url": "MCPGEN_AUTH_INTROSPECTION_URL",
    "client_id": "MCPGEN_AUTH_INTROSPECTION_CLIENT_ID",
    "client_secret": "MCPGEN_AUTH_INTROSPECTION_CLIENT_SECRET",
    "dpop": "MCPGEN_AUTH_DPOP",
    "dpop_nonce": "MCPGEN_AUTH_DPOP_NONCE",
    "dpop_window": "MCPGEN_AUTH_DPOP_WINDOW",
    "dpop_nonce_key": "MCPGEN_AUTH_DPOP_NONCE_KEY",
}
"""The environment variables an operator sets (the command line wins over them)."""

DPOP_MODES = ("allowed", "required", "off")
"""``allowed``: DPoP-bound and bearer tokens; ``required``: DPoP only; ``off``: bearer only."""
_TRUE = ("1", "true", "yes", "on")


class AuthConfigError(ValueError):
    """The auth settings cannot work (the server refuses to start, in one line)."""


@dataclass(frozen=True)
class OAuthSettings:
    resource: str
    """This server's canonical resource URI (RFC 8707; also the default audience)."""
    issuer: str | None
    """The authorization server's issuer: its metadata (RFC 8414 / OpenID) names the JWKS."""
    jwks_uri: str | None
    audience: tuple[str, ...]
    """The ``aud`` values accepted (default: the resource URI alone)."""
    scopes: tuple[str, ...]
    """``scopes_supported`` of the protected-resource metadata."""
    required_scopes: tuple[str, ...] = ()
    """Scopes every request needs."""
    algorithms: tuple[str, ...] = ASYMMETRIC_ALGORITHMS
    introspection_url: str | None = None
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    leeway: float = 30.0
    expose_token: bool = False
    dpop: str = "allowed"
    """One of ``DPOP_MODES``."""
    dpop_nonce: bool = False
    """Proofs must carry a nonce this server issued (``DPoP-Nonce``)."""
    dpop_window: float = 300.0
    """Seconds a proof's ``iat`` may be before or after now."""
    dpop_nonce_key: bytes | None = field(default=None, repr=False)
    """The key of the nonces (``$MCPGEN_AUTH_DPOP_NONCE_KEY``); None: derived from the
    requestState key (see ``protect``)."""

    @property
    def authorization_servers(self) -> list[str]:
        return [self.issuer] if self.issuer else []


def is_loopback_url(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def checked_url(name: str, value: Any) -> str:
    """``value`` when it is an http(s) URL without a fragment, https except on loopback."""
    if not isinstance(value, str) or not value:
        raise AuthConfigError(f"auth {name}: expected a URL, got {value!r}")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise AuthConfigError(f"auth {name}: {value!r} is not an http(s) URL")
    if parts.scheme == "http" and not is_loopback_url(value):
        raise AuthConfigError(
            f"auth {name}: {value!r} must use https (plain http only on loopback)"
        )
    if parts.fragment:
        raise AuthConfigError(f"auth {name}: {value!r} has a fragment")
    return value


def _strings(name: str, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v for v in value):
        raise AuthConfigError(f"auth {name}: expected a list of strings, got {value!r}")
    return tuple(value)


def resolve(
    manifest: Mapping[str, Any] | None,
    operator: Mapping[str, Any] | None = None,
    *,
    default_resource: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> OAuthSettings | None:
    """The effective settings: ``operator`` (command line, snake_case keys) over the
    environment over ``manifest`` (the ``server.auth`` JSON). ``default_resource``: the
    server's own URL, used as the resource URI when it is on loopback and none is named."""
    env = os.environ if environ is None else environ
    m = dict(manifest or {})
    op = {k: v for k, v in (operator or {}).items() if v not in (None, "", (), [])}
    intro = m.get("introspection")
    spelled = {
        "issuer": m.get("issuer"),
        "jwks_uri": m.get("jwksUri"),
        "resource": m.get("resource"),
        "audience": m.get("audience"),
        "introspection_url": intro.get("url") if isinstance(intro, Mapping) else None,
    }
    for key, var in ENV.items():
        if key in spelled and env.get(var):
            spelled[key] = env[var]
    spelled.update({k: v for k, v in op.items() if k in spelled})
    if not (spelled["issuer"] or spelled["jwks_uri"] or spelled["introspection_url"]):
        return None
    resource = spelled["resource"] or default_resource
    if not resource:
        raise AuthConfigError(
            "auth: name this server's resource URI (server.auth.resource, --auth-resource or "
            f"${ENV['resource']}): tokens are checked for it"
        )
    resource = checked_url("resource", resource)
    audience = _strings("audience", spelled["audience"]) or (resource,)
    algorithms = _strings("algorithms", m.get("algorithms")) or ASYMMETRIC_ALGORITHMS
    bad = [a for a in algorithms if a not in ASYMMETRIC_ALGORITHMS]
    if bad:
        raise AuthConfigError(
            f"auth algorithms: {', '.join(bad)} not allowed (asymmetric only: "
            f"{', '.join(ASYMMETRIC_ALGORITHMS)})"
        )
    leeway = m.get("leewaySeconds", 30)
    if not isinstance(leeway, (int, float)) or isinstance(leeway, bool) or not 0 <= leeway <= 300:
        raise AuthConfigError(f"auth leewaySeconds: expected 0 to 300, got {leeway!r}")
    url = spelled["introspection_url"]
    dpop, nonce, window, nonce_key = _dpop(op, env)
    return OAuthSettings(
        resource=resource,
        issuer=checked_url("issuer", spelled["issuer"]) if spelled["issuer"] else None,
        jwks_uri=checked_url("jwksUri", spelled["jwks_uri"]) if spelled["jwks_uri"] else None,
        audience=audience,
        scopes=_strings("scopes", m.get("scopes")),
        required_scopes=_strings("requiredScopes", m.get("requiredScopes")),
        algorithms=algorithms,
        introspection_url=checked_url("introspection", url) if url else None,
        client_id=env.get(ENV["client_id"]) or None,
        client_secret=env.get(ENV["client_secret"]) or None,
        leeway=float(leeway),
        expose_token=bool(op.get("expose_token")),
        dpop=dpop,
        dpop_nonce=nonce,
        dpop_window=window,
        dpop_nonce_key=nonce_key,
    )


def _dpop(op: Mapping[str, Any], env: Mapping[str, str]) -> tuple[str, bool, float, bytes | None]:
    """The DPoP settings: the command line over the environment (see the module's doc)."""
    mode = op.get("dpop") or env.get(ENV["dpop"]) or "allowed"
    if mode not in DPOP_MODES:
        raise AuthConfigError(f"auth dpop: expected one of {', '.join(DPOP_MODES)}, got {mode!r}")
    nonce = bool(op.get("dpop_nonce")) or env.get(ENV["dpop_nonce"], "").lower() in _TRUE
    raw = op.get("dpop_window") or env.get(ENV["dpop_window"]) or 300
    try:
        window = float(raw)
    except (TypeError, ValueError):
        window = -1.0
    if not 5 <= window <= 3600:
        raise AuthConfigError(f"auth dpop window: expected 5 to 3600 seconds, got {raw!r}")
    text = env.get(ENV["dpop_nonce_key"])
    key = None
    if text:
        var = ENV["dpop_nonce_key"]
        try:
            key = bytes.fromhex(text[4:]) if text.startswith("hex:") else text.encode()
        except ValueError:
            raise AuthConfigError(f"{var}: 'hex:' must be followed by hex digits") from None
        if len(key) < 32:
            raise AuthConfigError(f"{var}: the nonce key needs at least 32 bytes")
    return mode, nonce, window, key
