"""Results and tool definitions shaped for the protocol revision a client negotiated.

Everything a client receives is valid against the schema of its revision: fields a
revision lacks are left out, content types it lacks are downgraded to text (never sent
raw), and ``resultType`` is set on 2026-07-28.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..revisions import (
    MODERN_REVISIONS,
    NEWEST_RANK,
    REVISION_RANK,
    REVISIONS,
    TOOL_FIELDS,
    at_least,
    has_result_type,
    revision_index,
)

__all__ = [
    "BLOCK_TYPES",
    "MODERN_REVISIONS",
    "REVISIONS",
    "at_least",
    "has_result_type",
    "revision_index",
    "shape_call_result",
    "shape_tool",
    "text_block",
    "typed_call_result",
]

_R2025_03 = REVISIONS.index("2025-03-26")
_R2025_06 = REVISIONS.index("2025-06-18")
_R2025_11 = REVISIONS.index("2025-11-25")
_R2026_07 = REVISIONS.index("2026-07-28")

BLOCK_TYPES = frozenset({"text", "image", "audio", "resource_link", "resource"})


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _shape_annotations(ann: Any, rank: int) -> Any:
    if not isinstance(ann, dict) or rank >= _R2025_06:
        return ann
    return {k: v for k, v in ann.items() if k in ("audience", "priority")}


def _shape_block(block: dict[str, Any], rank: int, version: str) -> dict[str, Any]:
    """One content block as the negotiated revision knows it (downgraded, never raw)."""
    kind = block.get("type")
    if kind not in BLOCK_TYPES:
        raise TypeError(f"unsupported content block type {kind!r}")
    if kind == "text" and rank >= _R2025_06:
        return block
    if kind == "audio" and rank < _R2025_03:
        mime = block.get("mimeType", "audio")
        return text_block(f"[audio content ({mime}) omitted: not supported by protocol {version}]")
    if kind == "resource_link" and rank < _R2025_06:
        parts = [f"Resource: {block.get('name', '')} <{block.get('uri', '')}>"]
        for key in ("title", "description", "mimeType"):
            if isinstance(block.get(key), str):
                parts.append(f"{key}: {block[key]}")
        return text_block("\n".join(parts))
    out = dict(block)
    if "annotations" in out:
        out["annotations"] = _shape_annotations(out["annotations"], rank)
    if rank < _R2025_06:
        out.pop("_meta", None)
        res = out.get("resource")
        if isinstance(res, dict):
            out["resource"] = {k: v for k, v in res.items() if k != "_meta"}
    if kind == "resource_link" and rank < _R2025_11:
        out.pop("icons", None)
    return out


def shape_call_result(result: Mapping[str, Any], version: str) -> dict[str, Any]:
    """A ``CallToolResult`` (wire JSON, newest revision) shaped for ``version``.

    Content types the revision lacks become text; ``structuredContent`` is dropped for
    revisions without it (before 2025-06-18) or when it is not an object where an object is
    required (2025-06-18, 2025-11-25); the JSON text block stays.
    """
    rank = revision_index(version)
    blocks = result.get("content", ())
    if rank >= _R2025_06:  # text blocks are as they are: no call for them
        content = [b if b.get("type") == "text" else _shape_block(b, rank, version) for b in blocks]
    else:
        content = [_shape_block(b, rank, version) for b in blocks]
    out: dict[str, Any] = {"content": content}
    if "structuredContent" in result:
        sc = result["structuredContent"]
        if rank >= _R2026_07 or (rank >= _R2025_06 and isinstance(sc, dict)):
            out["structuredContent"] = sc
    if result.get("isError"):
        out["isError"] = True
    if result.get("_meta") is not None:
        out["_meta"] = result["_meta"]
    if rank >= _R2026_07:
        out["resultType"] = "complete"
    return out


def typed_call_result(structured: Any, text: str, version: str) -> dict[str, Any]:
    """``shape_call_result({"content": [text_block(text)], "structuredContent": structured},
    version)``, built directly: the result of a handler that returned its output model."""
    rank = REVISION_RANK.get(version, NEWEST_RANK)  # revision_index, inline: every call's path
    out: dict[str, Any] = {"content": [{"type": "text", "text": text}]}
    if rank >= _R2026_07 or (rank >= _R2025_06 and type(structured) is dict):
        out["structuredContent"] = structured
    if rank >= _R2026_07:
        out["resultType"] = "complete"
    return out


def shape_tool(tool: Mapping[str, Any], version: str) -> dict[str, Any]:
    """A tool definition with only the fields ``version`` defines; schemas untouched.

    An ``outputSchema`` whose root is not an object (allowed from 2026-07-28) is left out
    for earlier revisions, which require ``type: "object"`` there.
    """
    rev = REVISIONS[revision_index(version)]
    allowed = TOOL_FIELDS[rev]
    out = {k: v for k, v in tool.items() if k in allowed}
    osch = out.get("outputSchema")
    if osch is not None and rev not in MODERN_REVISIONS:
        if not (isinstance(osch, dict) and osch.get("type") == "object"):
            del out["outputSchema"]
    return out
