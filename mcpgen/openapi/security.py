"""An OpenAPI document's security, as forwarded calls need it: which schemes the runtime can
send a credential for, an operation's requirements as alternatives, and where each credential
goes (so an argument never takes its place)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["forwarded_schemes", "requirements"]


def requirements(security: Any) -> list[list[str]]:
    """An operation's security requirements as alternatives, each the sorted schemes it needs
    together (``[]``: none needed), duplicates dropped, in document order."""
    out: list[list[str]] = []
    for req in security if isinstance(security, list) else ():
        if isinstance(req, Mapping):
            alt = sorted(str(name) for name in req)
            if alt not in out:
                out.append(alt)
    return out


def forwarded_schemes(doc: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """The document's security schemes the runtime can send a credential for, as
    ``server.http.securitySchemes`` entries: HTTP bearer and basic, an API key in a header,
    query or cookie, and OAuth 2 / OpenID Connect as a bearer token (the operator supplies the
    access token)."""
    components = doc.get("components")
    schemes = components.get("securitySchemes") if isinstance(components, Mapping) else None
    kept: dict[str, dict[str, str]] = {}
    for name, scheme in schemes.items() if isinstance(schemes, Mapping) else ():
        if not isinstance(scheme, Mapping):
            continue
        kind = scheme.get("type")
        if kind == "http" and str(scheme.get("scheme", "")).lower() in ("bearer", "basic"):
            kept[str(name)] = {"type": "http", "scheme": str(scheme["scheme"]).lower()}
        elif kind in ("oauth2", "openIdConnect"):
            kept[str(name)] = {"type": "http", "scheme": "bearer"}
        elif kind == "apiKey" and scheme.get("in") in ("header", "query", "cookie"):
            kept[str(name)] = {
                "type": "apiKey",
                "in": str(scheme["in"]),
                "name": str(scheme.get("name", "")),
            }
    return kept
