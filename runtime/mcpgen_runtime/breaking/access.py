"""Breaking changes in who may call a tool: a tool that now needs an OAuth scope it did not
(``x-mcpgen.scopes``, in manifests; live servers do not publish it, so ``drift`` never sees
one)."""

from __future__ import annotations

from typing import Any

from .pairs import Emit, ToolRef

__all__ = ["compare_scopes"]


def _scopes(tool: ToolRef) -> list[str]:
    ext: Any = tool.raw.get("x-mcpgen")
    scopes = ext.get("scopes") if isinstance(ext, dict) else None
    return [s for s in scopes if isinstance(s, str)] if isinstance(scopes, list) else []


def compare_scopes(emit: Emit, tool: str, old: ToolRef, new: ToolRef) -> None:
    before = set(_scopes(old))
    added = [s for s in _scopes(new) if s not in before]
    if not added:
        return
    pointer = new.pointer + "/x-mcpgen/scopes"
    old_ptr = old.pointer + ("/x-mcpgen/scopes" if before else "/name")
    emit(
        "TOOL_SCOPE_NO_ADD",
        pointer,
        old_ptr,
        f"tool {tool!r} now needs scope(s) {', '.join(added)}: callers whose tokens lack them "
        "are refused (403) and no longer see the tool",
        old_key=not before,
    )
