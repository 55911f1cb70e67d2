"""The two eras' request checks, shared by the engine and the fast boot (no asyncio here):
``negotiate`` an ``initialize``; whether a request carries the 2026-07-28 envelope, and the
SDK's ladder over it (``classify_inbound_request``, without the HTTP header rung)."""

from __future__ import annotations

from typing import Any

from . import jsonrpc
from .discovery import HANDSHAKE_REVISIONS, LATEST_HANDSHAKE, MODERN

__all__ = [
    "CAPABILITIES_KEY",
    "KNOWN_META",
    "VERSION_KEY",
    "enveloped",
    "envelope_refusal",
    "initialize_is_plain",
    "meta_is_plain",
    "negotiate",
    "remember_capabilities",
]

VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
_LEVELS = frozenset(
    ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
)
_KNOWN_CAPABILITIES: list[Any] = []
"""Client capabilities the SDK's models accepted on this process (at most 16, compared by
value): a client sends the same ones on every request, so checking them is one comparison."""
KNOWN_META: list[Any] = []
"""``_meta`` values found plain before (at most 16, compared by value; ``checks`` looks
here first, saving a call per request)."""
_KNOWN_INFO: list[Any] = []
"""Client info values found plain before (at most 16, compared by value)."""
_INFO_KEYS = frozenset(("name", "version", "title"))
_META_KEYS = frozenset(
    ("progressToken", VERSION_KEY, CAPABILITIES_KEY, LOG_LEVEL_KEY, CLIENT_INFO_KEY)
)
_INITIALIZE_KEYS = frozenset(("protocolVersion", "capabilities", "clientInfo"))
_ABSENT: Any = object()


def remember_capabilities(caps: Any) -> None:
    """``caps`` passed the SDK's models (``meta_is_plain`` accepts them from now on)."""
    if type(caps) is dict and len(_KNOWN_CAPABILITIES) < 16 and caps not in _KNOWN_CAPABILITIES:
        _KNOWN_CAPABILITIES.append(caps)


def _plain_capabilities(caps: Any) -> bool:
    """Capabilities the SDK's ``ClientCapabilities`` accepts on every revision, decided in a
    few instructions: each one ``{}`` (or ``roots`` with a boolean ``listChanged``), or a value
    the models accepted before. Anything else is not plain: the models decide."""
    if type(caps) is not dict:
        return False
    for key, value in caps.items():
        if type(value) is not dict:
            return caps in _KNOWN_CAPABILITIES
        if value and not (
            key == "roots"
            and value.keys() == {"listChanged"}
            and type(value["listChanged"]) is bool
        ):
            return caps in _KNOWN_CAPABILITIES
    return True


def _plain_info(info: Any) -> bool:
    return (
        type(info) is dict
        and info.keys() <= _INFO_KEYS
        and all(type(v) is str for v in info.values())
        and "name" in info
        and "version" in info
    )


def meta_is_plain(meta: Any) -> bool:
    """A request's ``_meta`` the SDK's models accept on every revision (absent; a string or
    integer ``progressToken``; a valid envelope of plain capabilities). False is not a
    refusal: the models decide (``checks.surface_check``), exactly as the SDK does."""
    if meta is None or meta in KNOWN_META:
        return True  # a client sends the same ``_meta`` on every request: one comparison
    if type(meta) is not dict or not meta.keys() <= _META_KEYS:
        return False
    get = meta.get
    token = get("progressToken", 0)
    if type(token) is not int and type(token) is not str:
        return False
    caps = get(CAPABILITIES_KEY, _KNOWN_CAPABILITIES)
    if caps is not _KNOWN_CAPABILITIES and caps not in _KNOWN_CAPABILITIES:
        if not _plain_capabilities(caps):
            return False
        remember_capabilities(caps)
    if type(get(VERSION_KEY, "")) is not str:
        return False
    level = get(LOG_LEVEL_KEY, "info")
    if type(level) is not str or level not in _LEVELS:
        return False
    info = get(CLIENT_INFO_KEY, _KNOWN_INFO)
    if info is not _KNOWN_INFO and info not in _KNOWN_INFO:
        if not _plain_info(info):
            return False
        if len(_KNOWN_INFO) < 16:
            _KNOWN_INFO.append(info)
    if len(KNOWN_META) < 16:
        KNOWN_META.append(meta)
    return True


def initialize_is_plain(params: Any) -> bool:
    """``initialize`` params the SDK's ``InitializeRequestParams`` accepts, decided in a few
    instructions (False: the models decide)."""
    return (
        type(params) is dict
        and params.keys() <= _INITIALIZE_KEYS
        and type(params.get("protocolVersion")) is str
        and _plain_capabilities(params.get("capabilities"))
        and _plain_info(params.get("clientInfo"))
    )


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
    version = meta.get(VERSION_KEY, _ABSENT)
    if version is _ABSENT or CAPABILITIES_KEY not in meta:
        missing = [k for k in (VERSION_KEY, CAPABILITIES_KEY) if k not in meta]
        return (
            jsonrpc.INVALID_PARAMS,
            f"params._meta is missing the required envelope key(s): {', '.join(missing)}",
            None,
        )
    if type(version) is not str:
        return (jsonrpc.INVALID_PARAMS, f"{VERSION_KEY} must be a string", None)
    if version not in MODERN:
        return (
            jsonrpc.UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
            {"supported": list(MODERN), "requested": version},
        )
    return None
