"""Paginated lists shaped per revision (resources, templates, prompts): one page after an
opaque cursor, each definition with only the fields the client's revision has, and the
2026-07-28 ``resultType``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import mcp.types as types
from mcp.shared.exceptions import MCPError

from ..revisions import FIELDS, KNOWN_REVISIONS, has_result_type

__all__ = ["finish", "page", "shape_definition"]


def shape_definition(definition: Mapping[str, Any], kind: str, version: str) -> dict[str, Any]:
    """``definition`` with only the fields ``kind`` has in ``version`` (unknown: the newest)."""
    table = FIELDS.get(version) or FIELDS[KNOWN_REVISIONS[-1]]
    allowed = table[kind]
    return {k: v for k, v in definition.items() if k in allowed}


def page(
    items: Sequence[Any], cursor: str | None, page_size: int | None, prefix: str
) -> tuple[Sequence[Any], str | None]:
    """One page of ``items`` after ``cursor`` (``prefix:offset``); a cursor this server did not
    hand out is ``-32602``."""
    start = 0
    if cursor is not None:
        digits = cursor[len(prefix) + 1 :] if cursor.startswith(prefix + ":") else ""
        if not (digits.isdigit() and digits.isascii() and 0 < int(digits) < len(items)):
            raise MCPError(code=types.INVALID_PARAMS, message="Invalid cursor", data=cursor[:200])
        start = int(digits)
    end = len(items) if not page_size else min(start + page_size, len(items))
    return items[start:end], (f"{prefix}:{end}" if end < len(items) else None)


def finish(result: dict[str, Any], cursor: str | None, version: str) -> dict[str, Any]:
    """``result`` with its ``nextCursor`` and, on 2026-07-28, ``resultType``."""
    if cursor is not None:
        result["nextCursor"] = cursor
    if has_result_type(version):
        result["resultType"] = "complete"
    return result
