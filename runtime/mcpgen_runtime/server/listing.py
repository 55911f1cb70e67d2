"""Paginated lists shaped per revision (resources, templates, prompts): one page after an
opaque cursor, each definition with only the fields the client's revision has, and the
2026-07-28 ``resultType``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..revisions import FIELDS, KNOWN_REVISIONS, has_result_type

__all__ = ["finish", "first_page", "page", "shape_definition", "shape_prompt"]


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
            from .errors import INVALID_PARAMS, RequestError

            raise RequestError(INVALID_PARAMS, "Invalid cursor", cursor[:200])
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


def shape_prompt(definition: Mapping[str, Any], version: str) -> dict[str, Any]:
    """A prompt definition for ``version``, its arguments too."""
    shaped = shape_definition(definition, "Prompt", version)
    if "arguments" in shaped:
        shaped["arguments"] = [
            shape_definition(a, "PromptArgument", version) for a in shaped["arguments"]
        ]
    return shaped


LISTS: dict[str, tuple[str, str]] = {
    "resources/list": ("resources", "Resource"),
    "resources/templates/list": ("resourceTemplates", "ResourceTemplate"),
    "prompts/list": ("prompts", "Prompt"),
}
"""Each list method: its result's key and the definition it lists."""


def first_page(
    method: str, definitions: Sequence[Mapping[str, Any]], version: str
) -> dict[str, Any]:
    """The whole list ``method`` answers for ``definitions`` on one page (what the lean
    engine's fast boot precomputes; the runtimes build the same with ``page``)."""
    key, kind = LISTS[method]
    if kind == "Prompt":
        items = [shape_prompt(d, version) for d in definitions]
    else:
        items = [shape_definition(d, kind, version) for d in definitions]
    return finish({key: items}, None, version)
