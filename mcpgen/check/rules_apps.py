"""MCP Apps rules (``io.modelcontextprotocol/ui``, SEP-1865): the views a manifest declares
(resources with ``mimeType: text/html;profile=mcp-app``), the tools that open them
(``_meta.ui.resourceUri``), their sandbox (``_meta.ui.csp``) and the text fallback hosts
without the extension show.

A ``ui://`` URI that collides with another resource is ``RESOURCE_URI_UNIQUE``'s finding (a
view is a resource); one matched by a template is ``TEMPLATE_OVERLAP``'s.
"""

from __future__ import annotations

import re
from typing import Any

from mcpgen.check.context import ManifestCtx
from mcpgen.check.registry import LINT, E, W, checker, rule
from mcpgen.manifest.model import SectionItem
from mcpgen_runtime.apps import RESOURCE_MIME_TYPE

_HOSTS = "Hosts without MCP Apps show the model and the user only the tool's content."
rule(
    "APP_VIEW_MISSING",
    LINT,
    E,
    "A tool's _meta.ui.resourceUri names a ui:// view that the manifest declares.",
    why="Hosts fetch the view with resources/read before the call; a URI the server does not "
    "serve renders nothing, or an error frame.",
)
rule(
    "APP_VIEW_UNDECLARED",
    LINT,
    W,
    "A tool's _meta.ui.resourceUri names a view, in a file without `resources:` (a tools/list "
    "dump).",
    why="A tools/list dump cannot say which resources its server serves: the tool is generated "
    "and served as listed, and the view is the host's concern (a client never needs it). In a "
    "manifest with `resources:`, a missing view is APP_VIEW_MISSING, an error.",
)
rule(
    "APP_VIEW_UNUSED",
    LINT,
    W,
    "Every view (a resource with mimeType text/html;profile=mcp-app) is opened by some tool.",
    why="Hosts render a view only for a tool that links to it: a view no tool opens is dead "
    "weight in the package, usually a typo in a tool's resourceUri.",
)
rule(
    "APP_VIEW_MIME",
    LINT,
    E,
    "A view (a ui:// resource, or one a tool opens) has mimeType text/html;profile=mcp-app.",
    why="Hosts render only that mime type (ext-apps RESOURCE_MIME_TYPE); any other is not a "
    "view to them.",
)
rule(
    "APP_VIEW_URI",
    LINT,
    E,
    "A view's URI, and the resourceUri of a tool, use the ui:// scheme.",
    why="The extension names views by ui:// URIs; hosts ignore a resourceUri with another scheme.",
)
rule(
    "APP_VIEW_HTML",
    LINT,
    E,
    "A view's contents are a UTF-8 HTML document (<!doctype html> or <html>).",
    why="Hosts load the text of resources/read into a sandboxed frame as HTML: other bytes are "
    "served as a blob (or garbled text) and the frame stays empty.",
)
rule(
    "APP_CSP_DOMAIN",
    LINT,
    E,
    "Each _meta.ui.csp entry is an origin: http(s) or ws(s), a host (a leading *. allowed), "
    "an optional port, nothing else.",
    why="Hosts copy the entries into the frame's Content-Security-Policy: a wildcard scheme or "
    "host opens the sandbox to every origin, and a path, a quote or a ';' is dropped or "
    "injects a directive.",
)
rule(
    "APP_CSP_INSECURE",
    LINT,
    W,
    "CSP origins use https: or wss: (plain http: and ws: only for localhost).",
    why="Hosts serve views over https; browsers block mixed content, so a plain-http origin "
    "fails in production.",
)
rule(
    "APP_TEXT_FALLBACK",
    LINT,
    W,
    "A model-visible tool that opens a view declares an outputSchema, so its result always "
    "carries text.",
    why="The extension says tools MUST still return meaningful text for hosts that do not "
    "render views. " + _HOSTS + " With an outputSchema the server always sends the output "
    "as a JSON text block too; without one, mcpgen cannot know the handler returns text.",
)

_ORIGIN = re.compile(
    r"(?P<scheme>https?|wss?)://(?P<host>(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"
    r"(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(?:[0-9]{1,5}|\*))?/?\Z",
    re.IGNORECASE,
)
_LOCAL = ("localhost", "127.0.0.1", "[::1]")
_HTML_START = re.compile(r"\A(?:\s|<!--.*?-->)*<(?:!doctype\s+html|html)[\s>]", re.I | re.S)


def _ui(raw: Any) -> dict[str, Any]:
    meta = raw.get("_meta") if isinstance(raw, dict) else None
    ui = meta.get("ui") if isinstance(meta, dict) else None
    return ui if isinstance(ui, dict) else {}


def _links(ctx: ManifestCtx) -> list[tuple[str, str, str, dict[str, Any]]]:
    """``(tool name, pointer of the URI, URI, tool raw)`` of every tool that opens a view
    (``_meta.ui.resourceUri``, or the deprecated flat ``_meta["ui/resourceUri"]``)."""
    out = []
    for tool in ctx.manifest.tools:
        uri = _ui(tool.raw).get("resourceUri")
        ptr = tool.pointer + "/_meta/ui/resourceUri"
        if not isinstance(uri, str):
            meta = tool.raw.get("_meta")
            uri = meta.get("ui/resourceUri") if isinstance(meta, dict) else None
            ptr = tool.pointer + "/_meta/ui~1resourceUri"
        if isinstance(uri, str):
            out.append((tool.name, ptr, uri, tool.raw))
    return out


def _is_view(item: SectionItem) -> bool:
    return item.raw.get("mimeType") == RESOURCE_MIME_TYPE


@checker(
    "APP_VIEW_MISSING",
    "APP_VIEW_UNDECLARED",
    "APP_VIEW_UNUSED",
    "APP_VIEW_MIME",
    "APP_VIEW_URI",
    "APP_TEXT_FALLBACK",
    scope="manifest",
)
def check_view_links(ctx: ManifestCtx) -> None:
    resources: dict[str, SectionItem] = {}
    for r in ctx.manifest.resources:  # the first of duplicates (RESOURCE_URI_UNIQUE's finding)
        resources.setdefault(str(r.raw.get("uri")), r)
    links = _links(ctx)
    raw = ctx.manifest.raw
    declares_resources = isinstance(raw, dict) and "resources" in raw
    opened = {uri for _n, _p, uri, _r in links}
    for name, ptr, uri, raw in links:
        if not uri.lower().startswith("ui://"):
            ctx.emit("APP_VIEW_URI", ptr, f"tool {name!r} opens {uri!r}, not a ui:// URI")
        target = resources.get(uri)
        if target is None and not declares_resources:
            ctx.emit(
                "APP_VIEW_UNDECLARED",
                ptr,
                f"tool {name!r} opens the view {uri!r}; this file declares no `resources:` (a "
                "tools/list dump?), so the generated server does not serve it",
            )
        elif target is None:
            ctx.emit(
                "APP_VIEW_MISSING",
                ptr,
                f"tool {name!r} opens the view {uri!r}, which no resource of this manifest has "
                "(declare it under `resources:` with mimeType text/html;profile=mcp-app)",
            )
        elif not _is_view(target):
            got = target.raw.get("mimeType")
            ctx.emit(
                "APP_VIEW_MIME",
                target.pointer + ("/mimeType" if got is not None else ""),
                f"resource {uri!r} is opened by tool {name!r} as a view, but its mimeType is "
                f"{got!r}; use {RESOURCE_MIME_TYPE!r}",
                key=got is None,
            )
        visibility = _ui(raw).get("visibility")
        model = not isinstance(visibility, list) or "model" in visibility
        if model and not isinstance(raw.get("outputSchema"), dict):
            ctx.emit(
                "APP_TEXT_FALLBACK",
                ptr.rsplit("/", 1)[0],
                f"tool {name!r} opens a view but declares no outputSchema: make sure its "
                "handler returns a text block for hosts that do not render views (then "
                "silence this with `# mcpgen: ignore APP_TEXT_FALLBACK`), or declare one",
            )
    for uri, item in resources.items():
        scheme_ui = uri.lower().startswith("ui://")
        if scheme_ui and not _is_view(item):
            got = item.raw.get("mimeType")
            if uri not in opened:  # reported above when a tool opens it
                ctx.emit(
                    "APP_VIEW_MIME",
                    item.pointer + ("/mimeType" if got is not None else "/uri"),
                    f"ui:// resource {uri!r} has mimeType {got!r}; views use "
                    f"{RESOURCE_MIME_TYPE!r}",
                )
            continue
        if _is_view(item) and not scheme_ui:
            ctx.emit("APP_VIEW_URI", item.pointer + "/uri", f"view {uri!r} is not a ui:// URI")
        if _is_view(item) and uri not in opened:
            ctx.emit(
                "APP_VIEW_UNUSED",
                item.pointer + "/uri",
                f"no tool opens the view {uri!r} (set a tool's _meta.ui.resourceUri to it)",
            )


@checker("APP_VIEW_HTML", scope="manifest")
def check_view_html(ctx: ManifestCtx) -> None:
    for item in ctx.manifest.resources:
        if not _is_view(item):
            continue
        if item.data is not None:
            data, ptr = item.data, item.pointer + "/file"
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                ctx.emit(
                    "APP_VIEW_HTML",
                    ptr,
                    f"view {item.raw.get('file')!r} is not UTF-8 (byte {exc.start}: "
                    f"{data[exc.start : exc.start + 1]!r}); save it as UTF-8",
                )
                continue
        elif isinstance(item.raw.get("text"), str):
            text, ptr = item.raw["text"], item.pointer + "/text"
        else:
            continue  # a handler's view: its contents are known at run time only
        if not _HTML_START.match(text.removeprefix("\ufeff")):
            ctx.emit(
                "APP_VIEW_HTML",
                ptr,
                f"view {item.raw.get('uri')!r} is not an HTML document: it must start with "
                "<!doctype html> or <html>",
            )


@checker("APP_CSP_DOMAIN", "APP_CSP_INSECURE", scope="manifest")
def check_csp(ctx: ManifestCtx) -> None:
    for item in ctx.manifest.resources:
        csp = _ui(item.raw).get("csp")
        if not isinstance(csp, dict):
            continue
        for key, entries in csp.items():
            if not isinstance(entries, list):
                continue  # MANIFEST_SCHEMA
            for i, entry in enumerate(entries):
                if isinstance(entry, str):
                    _domain(ctx, entry, f"{item.pointer}/_meta/ui/csp/{key}/{i}", key)


def _domain(ctx: ManifestCtx, entry: str, ptr: str, key: str) -> None:
    found = _ORIGIN.match(entry)
    if found is None:
        ctx.emit("APP_CSP_DOMAIN", ptr, f"csp.{key} entry {entry!r}: {_why_bad(entry)}")
        return
    host = found["host"].lower()
    if found["scheme"].lower() in ("http", "ws") and host not in _LOCAL:
        ctx.emit(
            "APP_CSP_INSECURE",
            ptr,
            f"csp.{key} entry {entry!r} uses plain {found['scheme']}:; use "
            f"{'https' if found['scheme'].lower() == 'http' else 'wss'}:",
        )


def _why_bad(entry: str) -> str:
    s = entry.strip()
    if s != entry or any(c in entry for c in " \t\r\n;,'\""):
        return "holds spaces, quotes, ';' or ','; give one origin per entry, no CSP keywords"
    if s == "*" or s.startswith("*:") or s.startswith("*/") or "://" not in s:
        if s.startswith("*"):
            return "a wildcard scheme allows every origin; name the scheme (https://...)"
        return "no scheme; write an origin such as https://api.example.com"
    scheme, rest = s.split("://", 1)
    if "*" in scheme:
        return "a wildcard scheme allows every origin; name the scheme (https://...)"
    if scheme.lower() not in ("http", "https", "ws", "wss"):
        return f"scheme {scheme!r} is not http, https, ws or wss"
    host = rest.split("/", 1)[0]
    if host == "*" or host.startswith("*:") or "*" in host.removeprefix("*."):
        return "a wildcard host allows every origin; only a leading *. subdomain wildcard is"
    if "/" in rest.rstrip("/"):
        return "an origin has no path; CSP matches origins (scheme://host[:port])"
    return "not an origin (scheme://host[:port])"
