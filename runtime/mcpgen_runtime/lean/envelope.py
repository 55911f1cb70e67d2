"""The two eras' request checks, shared by the engine and the fast boot (no asyncio here):
``negotiate`` an ``initialize``; whether a request carries the 2026-07-28 envelope, and the
SDK's ladder over it (``classify_inbound_request``, without the HTTP header rung)."""

from __future__ import annotations

from typing import Any

from . import jsonrpc
from .discovery import HANDSHAKE_REVISIONS, LATEST_HANDSHAKE, MODERN

__all__ = ["CAPABILITIES_KEY", "VERSION_KEY", "enveloped", "envelope_refusal", "negotiate"]

VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"


def negotiate(params: Any) -> str | None:
    """The revision an ``initialize`` with ``params`` settles on (the client's if this
    server speaks it, else the newest handshake revision), or None for params the SDK's
    ``InitializeRequestParams`` refuses."""
    p = params or {}
    requested = p.get("protocolVersion")
    caps = p.get("capabilities")
    info = p.get("clientInfo")
    if (
        type(requested) is not str
        or type(caps) is not dict
        or type(info) is not dict
        or type(info.get("name")) is not str
        or type(info.get("version")) is not str
    ):
        return None
    return requested if requested in HANDSHAKE_REVISIONS else LATEST_HANDSHAKE


def enveloped(params: Any) -> bool:
    meta = params.get("_meta") if params is not None else None
    return type(meta) is dict and VERSION_KEY in meta


def envelope_refusal(meta: Any) -> tuple[int, str, Any] | None:
    """The SDK's ladder (``classify_inbound_request``, no headers on stdio)."""
    if type(meta) is not dict:
        return (
            jsonrpc.INVALID_PARAMS,
            f"params._meta must be an object carrying the required {VERSION_KEY!r} and "
            f"{CAPABILITIES_KEY!r} envelope keys",
            None,
        )
    missing = [k for k in (VERSION_KEY, CAPABILITIES_KEY) if k not in meta]
    if missing:
        return (
            jsonrpc.INVALID_PARAMS,
            f"params._meta is missing the required envelope key(s): {', '.join(missing)}",
            None,
        )
    version = meta[VERSION_KEY]
    if type(version) is not str:
        return (jsonrpc.INVALID_PARAMS, f"{VERSION_KEY} must be a string", None)
    if version not in MODERN:
        return (
            jsonrpc.UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
            {"supported": list(MODERN), "requested": version},
        )
    return None
