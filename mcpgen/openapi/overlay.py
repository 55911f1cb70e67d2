"""Curation that survives a re-import: an overlay file applied to every import (pure).

In the spirit of the OpenAPI Overlay specification, the imported manifest is never edited by
hand; the reviewed changes live in a small file of their own, keyed by the operation (its
method and path, which ``x-mcpgen.http`` records), so they still apply when the API changes:

.. code-block:: yaml

    server: {name: shop, description: The shop's items.}   # merged into server
    tools:
      GET /items:                       # a JSON Merge Patch (RFC 7396) of that tool
        name: list_inventory
        description: Items in stock, newest first.
        inputSchema: {properties: {limit: {maximum: 20}}}
      DELETE /items/{item_id}: {remove: true}               # never a tool

An overlay key no operation has any more is reported (the curation went stale), never applied.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mcpgen.errors import McpgenError

__all__ = ["Applied", "apply_overlay", "merge_patch", "operation_key"]


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396: objects merge recursively, ``null`` removes a member, anything else replaces."""
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def operation_key(tool: Mapping[str, Any]) -> str | None:
    ext = tool.get("x-mcpgen")
    http = ext.get("http") if isinstance(ext, Mapping) else None
    if not isinstance(http, Mapping):
        return None
    return f"{http.get('method')} {http.get('path')}"


@dataclass
class Applied:
    manifest: dict[str, Any]
    removed: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    """Overlay keys (``tools`` entries) that match no imported operation."""
    stale_at: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Where each stale key is in the overlay (line, column)."""


def apply_overlay(manifest: Mapping[str, Any], overlay: Any, path: str, locate: Any) -> Applied:
    """``manifest`` with ``overlay`` applied; ``locate(pointer)`` places overlay errors."""
    if overlay is None:
        return Applied(dict(manifest))
    if not isinstance(overlay, Mapping) or set(overlay) - {"server", "tools"}:
        line, col = locate("")
        raise McpgenError(
            "an overlay is a mapping with `server` and/or `tools`", path=path, line=line, col=col
        )
    out = dict(manifest)
    if "server" in overlay:
        out["server"] = merge_patch(out.get("server"), overlay["server"])
    patches = overlay.get("tools") or {}
    if not isinstance(patches, Mapping):
        line, col = locate("/tools")
        raise McpgenError("`tools` maps `METHOD /path` to a patch", path=path, line=line, col=col)
    by_key = {operation_key(t): t for t in out.get("tools", [])}
    applied = Applied(out)
    for key, patch in patches.items():
        if not isinstance(patch, Mapping):
            line, col = locate(f"/tools/{str(key).replace('~', '~0').replace('/', '~1')}")
            raise McpgenError(f"{key}: a patch is a mapping", path=path, line=line, col=col)
        if key not in by_key:
            applied.stale.append(str(key))
            ptr = "/tools/" + str(key).replace("~", "~0").replace("/", "~1")
            applied.stale_at[str(key)] = locate(ptr, key=True)
    tools = []
    for tool in out.get("tools", []):
        key = operation_key(tool)
        patch = patches.get(key) if key is not None else None
        if patch is None:
            tools.append(tool)
        elif patch.get("remove") is True:
            applied.removed.append(str(key))
        else:
            tools.append(merge_patch(tool, {k: v for k, v in patch.items() if k != "remove"}))
    out["tools"] = tools
    from mcpgen.openapi.selection import require_unique_names

    renamed = {
        str(k): str(p["name"])
        for k, p in patches.items()
        if isinstance(p, Mapping) and isinstance(p.get("name"), str)
    }
    named = [(operation_key(t) or "?", str(t.get("name"))) for t in tools]
    require_unique_names(named, renamed, path, locate)
    return applied
