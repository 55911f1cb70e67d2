"""MCP protocol revisions and the fields each one gives a ``Tool``: one source for the runtime
and for the generator (``mcpgen`` imports this module; no third-party import).

The facts are generated: ``schema/revisions.json`` holds one entry per revision (its pin,
whether it is stateless, its ``Tool`` fields, checked against the schema), and
``mcpgen protocol generate`` writes them into ``mcp_wire/__init__.py``, read here. A new
revision is that one entry (plus a patch, ``mcpgen/protocol/patches.py``, where upstream needs
one).
"""

from __future__ import annotations

from typing import Literal, get_args

import mcp_wire as _wire

__all__ = [
    "CONNECT_MODES",
    "FIELDS",
    "ConnectMode",
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

KNOWN_REVISIONS: tuple[str, ...] = tuple(_wire.REVISIONS)
"""Every revision mcpgen knows, oldest first (``draft`` last: it tracks the newest published
one)."""

REVISIONS: tuple[str, ...] = tuple(r for r in KNOWN_REVISIONS if r != "draft")
"""Published protocol revisions, oldest first. The SDK negotiates only revisions it knows;
anything newer than the last entry is treated as the newest."""

REVISION_RANK: dict[str, int] = {rev: i for i, rev in enumerate(REVISIONS)}
"""Position of each revision in ``REVISIONS`` (``revision_index`` without a call, for hot paths;
unknown versions rank as the newest: ``REVISION_RANK.get(v, NEWEST_RANK)``)."""
NEWEST_RANK = len(REVISIONS) - 1

MODERN_REVISIONS: frozenset[str] = frozenset(_wire.STATELESS)
"""Revisions on the stateless wire (no handshake, ``resultType`` on every result)."""

FIELDS: dict[str, dict[str, frozenset[str]]] = {
    rev: {name: frozenset(fields) for name, fields in table.items()}
    for rev, table in _wire.FIELDS.items()
}
"""Revision -> definition (``Tool``, ``Resource``, ``ResourceTemplate``, ``Prompt``,
``PromptArgument``) -> its top-level fields (the spec's schema.json)."""

TOOL_FIELDS: dict[str, frozenset[str]] = {rev: table["Tool"] for rev, table in FIELDS.items()}
"""Top-level ``Tool`` fields per revision."""

ConnectMode = Literal["auto", "legacy", "2026-07-28"]
"""How a client connects: ``auto`` (``server/discover``, then the ``initialize`` handshake),
``legacy`` (the handshake only) or ``2026-07-28`` (the stateless wire only)."""
CONNECT_MODES: tuple[str, ...] = get_args(ConnectMode)

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
