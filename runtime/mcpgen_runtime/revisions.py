"""MCP protocol revisions and the fields each one gives a ``Tool``: one source for the runtime
and for the generator (``codegen`` imports this module; standard library only)."""

from __future__ import annotations

__all__ = [
    "KNOWN_REVISIONS",
    "MODERN_REVISIONS",
    "NEWEST_RANK",
    "REVISIONS",
    "REVISION_RANK",
    "TOOL_FIELDS",
    "at_least",
    "has_result_type",
    "revision_index",
    "tool_field_revisions",
]

REVISIONS: tuple[str, ...] = (
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
)
"""Published protocol revisions, oldest first. The SDK negotiates only revisions it knows;
anything newer than the last entry is treated as the newest."""

REVISION_RANK: dict[str, int] = {rev: i for i, rev in enumerate(REVISIONS)}
"""Position of each revision in ``REVISIONS`` (``revision_index`` without a call, for hot paths;
unknown versions rank as the newest: ``REVISION_RANK.get(v, NEWEST_RANK)``)."""
NEWEST_RANK = len(REVISIONS) - 1

KNOWN_REVISIONS: tuple[str, ...] = (*REVISIONS, "draft")
"""Every revision mcpgen knows (``draft`` tracks the newest published one)."""

MODERN_REVISIONS: frozenset[str] = frozenset({"2026-07-28", "draft"})
"""Revisions on the stateless wire (no handshake, ``resultType`` on every result)."""

_BASE = frozenset({"name", "description", "inputSchema"})
_R2025_06 = _BASE | {"annotations", "title", "outputSchema", "_meta"}

TOOL_FIELDS: dict[str, frozenset[str]] = {
    "2024-11-05": _BASE,
    "2025-03-26": _BASE | {"annotations"},
    "2025-06-18": _R2025_06,
    "2025-11-25": _R2025_06 | {"icons", "execution"},
    "2026-07-28": _R2025_06 | {"icons"},
    "draft": _R2025_06 | {"icons"},
}
"""Top-level ``Tool`` fields per revision (the spec's schema.json, ``Tool``)."""

_R2026_07 = REVISIONS.index("2026-07-28")


def revision_index(version: str) -> int:
    """Position of ``version`` in ``REVISIONS``; unknown versions count as the newest."""
    return REVISION_RANK.get(version, NEWEST_RANK)


def at_least(version: str, revision: str) -> bool:
    return revision_index(version) >= REVISIONS.index(revision)


def has_result_type(version: str) -> bool:
    """Whether results carry ``resultType`` (2026-07-28 and anything newer or unknown)."""
    return revision_index(version) >= _R2026_07


def tool_field_revisions(field: str) -> frozenset[str]:
    """The known revisions whose ``Tool`` has ``field``."""
    return frozenset(rev for rev, fields in TOOL_FIELDS.items() if field in fields)
