"""Breaking changes in MCP Apps (``io.modelcontextprotocol/ui``): a view removed (its resource,
or a tool's link to it), a view's permissions or CSP domains narrowed, a tool's visibility
narrowed. Standard library only (see the package's docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..apps import is_view
from .pairs import Emit, ToolRef

__all__ = ["compare_tool_ui", "compare_views", "split_views"]

Entry = tuple[Mapping[str, Any], str]
_BOTH = ("model", "app")


def _ui(raw: Mapping[str, Any]) -> dict[str, Any]:
    meta = raw.get("_meta")
    ui = meta.get("ui") if isinstance(meta, Mapping) else None
    return ui if isinstance(ui, dict) else {}


def _visibility(raw: Mapping[str, Any]) -> tuple[str, ...]:
    v = _ui(raw).get("visibility")
    if not isinstance(v, list):
        return _BOTH
    return tuple(x for x in _BOTH if x in v)


def compare_tool_ui(emit: Emit, name: str, old: ToolRef, new: ToolRef) -> None:
    """A tool's view link and visibility."""
    before, after = _ui(old.raw).get("resourceUri"), _ui(new.raw).get("resourceUri")
    if isinstance(before, str) and before != after:
        change = f"now opens {after!r}" if isinstance(after, str) else "no longer opens a view"
        emit(
            "VIEW_NO_DELETE",
            new.pointer + ("/_meta/ui/resourceUri" if isinstance(after, str) else ""),
            old.pointer + "/_meta/ui/resourceUri",
            f"tool {name!r} opened the view {before!r} and {change}",
            new_key=not isinstance(after, str),
        )
    lost = [v for v in _visibility(old.raw) if v not in _visibility(new.raw)]
    if lost:
        emit(
            "TOOL_VISIBILITY_NO_NARROW",
            new.pointer + "/_meta/ui/visibility",
            old.pointer + "/_meta/ui",
            f"tool {name!r}: _meta.ui.visibility no longer includes {' or '.join(lost)}",
            old_key=False,
        )


def split_views(entries: Sequence[Entry]) -> tuple[list[Entry], list[Entry]]:
    """``(views, other resources)``."""
    views = [e for e in entries if is_view(e[0])]
    return views, [e for e in entries if not is_view(e[0])]


def compare_views(emit: Emit, old: Sequence[Entry], new: Sequence[Entry], at: str) -> None:
    """Old views (resources with the MCP Apps mime type) against the new resources."""
    new_by = {str(r.get("uri")): (r, p) for r, p in new}
    for raw, ptr in old:
        uri = str(raw.get("uri"))
        found = new_by.get(uri)
        if found is None or not is_view(found[0]):
            emit(
                "VIEW_NO_DELETE",
                found[1] + "/mimeType" if found else at,
                ptr + "/uri",
                f"view {uri!r} was removed"
                if found is None
                else f"view {uri!r} is no longer an MCP Apps view (mimeType changed)",
                new_key=found is None,
            )
            continue
        _narrowed(emit, uri, raw, ptr, found[0], found[1])


def _narrowed(
    emit: Emit, uri: str, old: Mapping[str, Any], old_ptr: str, new: Mapping[str, Any], ptr: str
) -> None:
    before, after = _ui(old), _ui(new)
    old_perms, new_perms = before.get("permissions"), after.get("permissions")
    old_perms = old_perms if isinstance(old_perms, dict) else {}
    new_perms = new_perms if isinstance(new_perms, dict) else {}
    for perm in old_perms:
        if perm not in new_perms:
            emit(
                "VIEW_PERMISSION_NO_NARROW",
                ptr + "/_meta/ui/permissions",
                f"{old_ptr}/_meta/ui/permissions/{perm}",
                f"view {uri!r}: permission {perm!r} was removed",
                old_key=True,
                new_key=True,
            )
    old_csp, new_csp = before.get("csp"), after.get("csp")
    old_csp = old_csp if isinstance(old_csp, dict) else {}
    new_csp = new_csp if isinstance(new_csp, dict) else {}
    for key, domains in old_csp.items():
        kept = new_csp.get(key)
        kept = kept if isinstance(kept, list) else []
        for i, domain in enumerate(domains if isinstance(domains, list) else ()):
            if domain not in kept:
                emit(
                    "VIEW_PERMISSION_NO_NARROW",
                    f"{ptr}/_meta/ui/csp" + (f"/{key}" if key in new_csp else ""),
                    f"{old_ptr}/_meta/ui/csp/{key}/{i}",
                    f"view {uri!r}: {domain!r} was removed from csp.{key}",
                    old_key=False,
                )
