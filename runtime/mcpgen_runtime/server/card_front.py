"""``--server-card``: serve the server's Server Card (SEP-2127, Draft) and an AI Catalog that
lists it, in front of the MCP app. Off by default while the SEP is a draft.

* ``GET <path>/server-card`` (``/mcp/server-card`` by default): the card,
  ``application/mcp-server-card+json``;
* ``GET /.well-known/ai-catalog.json`` and ``GET /.well-known/mcp/catalog.json``: the catalogue;
* both with the SEP's CORS headers, ``Cache-Control: public, max-age=3600`` and an ``ETag`` (the
  body's sha256); ``If-None-Match`` with it is ``304 Not Modified``; ``OPTIONS`` is the CORS
  preflight (204); other methods 405. Public metadata: no authentication, even when the MCP
  endpoint has it.

The card is ``mcpgen_runtime.server_card.server_card`` of the server's identity (the
``ServerInfo`` the generated package passed) with the endpoint's URL as seen by the client (the
request's scheme and ``Host``) in ``remotes``; its name is the server's name when that is
reverse-DNS (``com.example/weather``), else the serving host's name reversed plus the server's
name (``localhost/weather``, ``com.example.mcp/weather``, ``1.0.0.127/weather``).
``--server-card FILE`` serves the card ``mcpgen export server-card`` wrote instead (its registry
name), adding the live endpoint when the file lists no ``remotes``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from ..revisions import REVISIONS
from ..server_card import (
    CARD_MEDIA_TYPE,
    CARD_SUFFIX,
    CATALOG_MEDIA_TYPE,
    CATALOG_PATHS,
    NAME_PATTERN,
    catalog,
    load_card,
    server_card,
)

__all__ = ["ServerCardFront"]

_CORS = [
    (b"access-control-allow-origin", b"*"),
    (b"access-control-allow-methods", b"GET"),
    (b"access-control-allow-headers", b"Content-Type, If-None-Match"),
    (b"access-control-expose-headers", b"ETag"),
]
_CACHE = (b"cache-control", b"public, max-age=3600")


def _host_namespace(host: str) -> str:
    """The serving host's name reversed (``mcp.example.com:8000`` -> ``com.example.mcp``; an
    address too, so the catalogue's ``urn:air:`` identifier, which reverses it back, names the
    host the client used)."""
    name = host.split("]")[0][1:].replace(":", "-") if host.startswith("[") else host
    name = name.rsplit(":", 1)[0] if not host.startswith("[") else name
    return ".".join(reversed(name.split("."))) or "localhost"


class ServerCardFront:
    def __init__(self, app: Any, server: Any, spec: Mapping[str, Any]) -> None:
        self.app = app
        self.path = str(spec.get("path") or "/mcp").rstrip("/")
        option = spec.get("server_card")
        self.fixed: dict[str, Any] | None = None
        if isinstance(option, str) and option:
            self.fixed = load_card(option)  # checked at start (run_cli): one line, exit 2
        icons = [i.model_dump(exclude_none=True) for i in getattr(server, "icons", None) or ()]
        self.info = {
            "name": server.name,
            "version": server.version,
            "title": getattr(server, "title", None),
            "description": getattr(server, "description", None),
            "websiteUrl": getattr(server, "website_url", None),
            "icons": icons,
        }

    def card(self, base: str, host: str) -> dict[str, Any]:
        url = base + self.path
        if self.fixed is not None:
            card = dict(self.fixed)
            if not card.get("remotes"):
                card["remotes"] = [
                    {
                        "type": "streamable-http",
                        "url": url,
                        "supportedProtocolVersions": list(REVISIONS),
                    }
                ]
            return card
        name = str(self.info["name"])
        if not NAME_PATTERN.match(name):
            name = f"{_host_namespace(host)}/{name}"
        return server_card(self.info, name=name, remote_url=url, protocol_versions=REVISIONS)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        is_card = path == self.path + CARD_SUFFIX
        if not (is_card or path in CATALOG_PATHS):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        method = scope["method"]
        if method == "OPTIONS":
            await self._send(send, 204, list(_CORS), b"")
            return
        if method not in ("GET", "HEAD"):
            await self._send(send, 405, [*_CORS, (b"allow", b"GET, HEAD, OPTIONS")], b"")
            return
        host = headers.get("host") or f"{scope['server'][0]}:{scope['server'][1]}"
        base = f"{scope.get('scheme', 'http')}://{host}"
        card = self.card(base, host)
        doc = card if is_card else catalog(card, base + self.path + CARD_SUFFIX)
        body = (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        common = [*_CORS, _CACHE, (b"etag", etag.encode())]
        wanted = [t.strip() for t in headers.get("if-none-match", "").split(",")]
        if etag in wanted or "*" in wanted or ("W/" + etag) in wanted:
            await self._send(send, 304, common, b"")
            return
        media = CARD_MEDIA_TYPE if is_card else CATALOG_MEDIA_TYPE
        if path == CATALOG_PATHS[1]:
            media = "application/json"
        common.append((b"content-type", media.encode()))
        common.append((b"content-length", str(len(body)).encode()))
        await self._send(send, 200, common, b"" if method == "HEAD" else body)

    @staticmethod
    async def _send(
        send: Any, status: int, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> None:
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
