"""Where an argument of a forwarded tool may go on the wire (``x-mcpgen.http``): the facts the
runtime's forwarding (``server.forward_params``), ``mcpgen import openapi`` and ``mcpgen check``
share. No imports: ``check`` reads it on its fast path."""

from __future__ import annotations

__all__ = ["DEFAULT_STYLE", "RESERVED_HEADERS", "STYLES", "credential_places", "may_be_empty"]

RESERVED_HEADERS = frozenset(
    {
        # OpenAPI: header parameters with these names SHALL be ignored
        "accept",
        "authorization",
        "content-type",
        # the framing and the target of the request
        "host",
        "content-length",
        "transfer-encoding",
        "expect",
        "cookie",
        # hop-by-hop (RFC 9110 7.6.1) and proxy credentials
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "upgrade",
    }
)
"""Header names (lower case) an argument never sets: ``mcpgen import openapi`` leaves such
parameters out with a warning, ``mcpgen check`` refuses a binding to one, and the runtime
drops them."""

DEFAULT_STYLE = {"path": "simple", "header": "simple", "query": "form", "cookie": "form"}
STYLES = {
    "path": ("simple", "label", "matrix"),
    "query": ("form", "spaceDelimited", "pipeDelimited", "deepObject"),
    "header": ("simple",),
    "cookie": ("form",),
}
"""The styles OpenAPI defines for each location."""


def may_be_empty(schema: object) -> bool:
    """Whether a path argument's schema lets an empty string through: it may be a string, and
    no ``minLength``, ``pattern``, ``format``, ``enum`` or ``const`` (nor a ``$ref`` or
    composition, which are not followed) narrows it."""
    if not isinstance(schema, dict):
        return schema is True
    kind = schema.get("type")
    kinds = set(kind) if isinstance(kind, list) else {kind}
    if kind is not None and "string" not in kinds:
        return False
    narrowed = (
        "minLength",
        "pattern",
        "format",
        "enum",
        "const",
        "$ref",
        "anyOf",
        "oneOf",
        "allOf",
    )
    return not any(k in schema for k in narrowed)


def credential_places(schemes: object, names: object) -> dict[tuple[str, str], str]:
    """(location, name) -> scheme, for the credential each of ``names`` sends, given
    ``server.http.securitySchemes`` entries (``schemes``; names it lacks are left out): HTTP
    schemes in the ``Authorization`` header, API keys where they say. Header names are lower
    case (they compare case-insensitively)."""
    places: dict[tuple[str, str], str] = {}
    for name in sorted(str(n) for n in names) if isinstance(names, (set, frozenset, list)) else ():
        spec = schemes.get(name) if isinstance(schemes, dict) else None
        if not isinstance(spec, dict):
            continue
        where, key = spec.get("in"), spec.get("name")
        if spec.get("type") == "http":
            places[("header", "authorization")] = name
        elif where in ("header", "query", "cookie") and isinstance(key, str):
            places[(where, key.lower() if where == "header" else key)] = name
    return places
