"""MCP Apps (``io.modelcontextprotocol/ui``, SEP-1865): the facts both engines and the
generator share.

A view is a resource whose ``mimeType`` is ``text/html;profile=mcp-app`` (by convention at a
``ui://`` URI); a tool opens it through ``_meta.ui.resourceUri``. A server with a view
advertises the extension under ``capabilities.extensions`` (an empty settings object, as the
extensions overview shows), and ``resources/read`` repeats the view's ``_meta`` (its ``ui``:
``csp``, ``permissions``, ``domain``, ``prefersBorder``) on the contents item, where hosts read
it first (ext-apps ``McpUiToolMeta``: "Hosts read it from the ``resources/read`` content item,
with the ``resources/list`` entry as fallback").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["EXTENSION_ID", "RESOURCE_MIME_TYPE", "extensions_for", "is_view", "view_meta"]

EXTENSION_ID = "io.modelcontextprotocol/ui"
RESOURCE_MIME_TYPE = "text/html;profile=mcp-app"


def is_view(definition: Mapping[str, Any]) -> bool:
    """A resource definition that is an MCP Apps view (its mime type says so)."""
    return definition.get("mimeType") == RESOURCE_MIME_TYPE


def extensions_for(resources: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """``capabilities.extensions`` of a server serving ``resources`` (definitions)."""
    return {EXTENSION_ID: {}} if any(is_view(d) for d in resources) else {}


def view_meta(definition: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``_meta`` a view's ``resources/read`` contents item carries (None: not a view, or
    no ``_meta``)."""
    meta = definition.get("_meta")
    if is_view(definition) and isinstance(meta, dict) and meta:
        return meta
    return None
