"""Server Cards (SEP-2127, Draft, extensions track): the static description of a remote MCP
server that clients and gateways read before connecting, and the AI Catalog entry that points
to it. Pure; no imports beyond the standard library, so ``mcpgen export server-card`` and the
running server (``--server-card``, ``mcpgen_runtime.server.card_front``) build the same card.

Shape: ``modelcontextprotocol/experimental-ext-server-card`` at commit 8924e08 (2026-07-24),
``schema.json`` ``$defs/ServerCard`` (pinned in ``SCHEMA_URL``/``SCHEMA_SHA256``):
``$schema`` (the ``/v1/`` URL), ``name`` (reverse-DNS ``namespace/name``), ``version`` (no
ranges), ``description`` (1..100 characters), optional ``title``, ``websiteUrl``, ``icons``,
``repository``, ``remotes[]`` (``type``, ``url``, ``supportedProtocolVersions``). Cards list no
tools, resources or prompts: those stay behind the protocol's list methods.

Discovery (its ``docs/discovery.md``): the card at ``GET <streamable-http-url>/server-card``
(media type ``application/mcp-server-card+json``, CORS ``*``, ``Cache-Control: public,
max-age=3600``, an ``ETag`` honoured by ``If-None-Match``); the catalogue is an AI Catalog,
``{"specVersion": "1.0", "entries": [{identifier: "urn:air:{publisher}:mcp:{name}", type,
url}]}``, at ``/.well-known/ai-catalog.json`` (the repository's current text) and at
``/.well-known/mcp/catalog.json`` (the earlier SEP text, which mcpgen's issue 41 names).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "CARD_MEDIA_TYPE",
    "CARD_SCHEMA",
    "CARD_SUFFIX",
    "CATALOG_MEDIA_TYPE",
    "CATALOG_PATHS",
    "NAME_PATTERN",
    "SCHEMA_SHA256",
    "SCHEMA_URL",
    "CardError",
    "catalog",
    "catalog_identifier",
    "load_card",
    "problems",
    "server_card",
]

CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
CARD_MEDIA_TYPE = "application/mcp-server-card+json"
CATALOG_MEDIA_TYPE = "application/ai-catalog+json"
CARD_SUFFIX = "/server-card"
CATALOG_PATHS = ("/.well-known/ai-catalog.json", "/.well-known/mcp/catalog.json")
SCHEMA_URL = (
    "https://raw.githubusercontent.com/modelcontextprotocol/experimental-ext-server-card/"
    "8924e08682b4a936e6464b57845ec2ff17dc8776/schema.json"
)
SCHEMA_SHA256 = "2c772b51edb367f154771d84ddbae87ddba00a624422c8e46f218a9ac03bf042"
NAME_PATTERN = re.compile(r"^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$")
_RANGE = re.compile(r"^[\^~<>=*]|[<>=|*]|(^|\.)[xX*](\.|$)| - ")


class CardError(ValueError):
    """A card the schema (or the registry's version rules) would refuse: one message per
    problem, each naming the member."""

    def __init__(self, found: list[str]) -> None:
        super().__init__("; ".join(found))
        self.problems = found


def problems(card: Mapping[str, Any]) -> list[str]:
    """What the pinned schema's ``ServerCard`` refuses in ``card`` (its constraints, checked
    here without a JSON Schema library)."""
    out: list[str] = []
    name = card.get("name")
    if not isinstance(name, str) or not 3 <= len(name) <= 200 or not NAME_PATTERN.match(name):
        out.append(
            f"name {name!r} is not a reverse-DNS server name of the form "
            "'com.example/weather' (3 to 200 characters, one '/')"
        )
    version = card.get("version")
    if not isinstance(version, str) or not version or len(version) > 255:
        out.append(f"version {version!r} must be a string of 1 to 255 characters")
    elif version == "latest" or _RANGE.search(version):
        out.append(f"version {version!r} is a range; a card names one version, e.g. 1.2.3")
    desc = card.get("description")
    if not isinstance(desc, str) or not 1 <= len(desc) <= 100:
        n = len(desc) if isinstance(desc, str) else 0
        out.append(f"description must be 1 to 100 characters (it has {n})")
    title = card.get("title")
    if title is not None and (not isinstance(title, str) or not 1 <= len(title) <= 100):
        out.append("title must be 1 to 100 characters")
    for i, remote in enumerate(card.get("remotes") or ()):
        url = remote.get("url") if isinstance(remote, Mapping) else None
        if not isinstance(url, str) or not re.match(r"^(https?://\S+|\{[A-Za-z_]\w*\}\S*)$", url):
            out.append(f"remotes[{i}].url {url!r} must be an http(s) URL")
    return out


def server_card(
    info: Mapping[str, Any],
    *,
    name: str | None = None,
    remote_url: str | None = None,
    protocol_versions: Iterable[str] = (),
) -> dict[str, Any]:
    """The card of a server whose ``Implementation``-like ``info`` has ``name``, ``version``,
    ``title``, ``description``, ``websiteUrl`` and ``icons``. ``name``: the reverse-DNS name
    (default: ``info["name"]``). ``remote_url``: the Streamable HTTP endpoint, listed in
    ``remotes`` with ``protocol_versions``. Raises ``CardError`` for a card the schema refuses."""
    card: dict[str, Any] = {
        "$schema": CARD_SCHEMA,
        "name": name or str(info.get("name") or ""),
        "version": str(info.get("version") or ""),
        "description": str(info.get("description") or info.get("title") or ""),
    }
    for key in ("title", "websiteUrl"):
        if info.get(key):
            card[key] = str(info[key])
    icons = [
        {k: v for k, v in icon.items() if k in ("src", "mimeType", "sizes", "theme")}
        for icon in info.get("icons") or ()
        if isinstance(icon, Mapping) and icon.get("src")
    ]
    if icons:
        card["icons"] = icons
    if remote_url:
        remote: dict[str, Any] = {"type": "streamable-http", "url": remote_url}
        versions = list(protocol_versions)
        if versions:
            remote["supportedProtocolVersions"] = versions
        card["remotes"] = [remote]
    found = problems(card)
    if found:
        raise CardError(found)
    return card


def load_card(path: str) -> dict[str, Any]:
    """The card in the file ``path`` (``--server-card FILE``), checked as ``mcpgen export
    server-card`` checks the cards it writes. Raises ``ValueError`` with one line saying what
    is wrong (unreadable, not JSON, not an object, a card the schema refuses)."""
    import json
    from pathlib import Path

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        card = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None
    if not isinstance(card, dict):
        raise ValueError(f"{path} is not a Server Card (a JSON object)")
    found = problems(card)
    if found:
        raise ValueError(f"{path} breaks the Server Card schema: {'; '.join(found)}")
    return card


def catalog_identifier(card_name: str) -> str:
    """``com.example/weather`` -> ``urn:air:example.com:mcp:weather`` (the SEP's example)."""
    namespace, _, leaf = card_name.partition("/")
    publisher = ".".join(reversed(namespace.split(".")))
    return f"urn:air:{publisher}:mcp:{leaf}"


def catalog(card: Mapping[str, Any], card_url: str) -> dict[str, Any]:
    """The AI Catalog listing this one card."""
    return {
        "specVersion": "1.0",
        "entries": [
            {
                "identifier": catalog_identifier(str(card["name"])),
                "type": CARD_MEDIA_TYPE,
                "url": card_url,
            }
        ],
    }
