"""A client narrowed to some toolsets or tools, as a server is with ``--toolsets``/``--tools``
(same rules: ``server.toolsets.select``)."""

from __future__ import annotations

from collections.abc import Sequence

from ..server.toolsets import declared_toolsets, select
from .tool import ClientTool

__all__ = ["narrowed"]


def narrowed(
    tools: Sequence[ClientTool],
    toolsets_json: str,
    chosen_toolsets: Sequence[str] | None,
    chosen_tools: Sequence[str] | None,
) -> frozenset[str] | None:
    """The names of ``tools`` a client narrowed to ``chosen_toolsets``/``chosen_tools`` may
    call (None: not narrowed). Raises ``ValueError`` for a toolset or tool the manifest does
    not have, ``TypeError`` for a string where a list of names belongs."""
    if chosen_toolsets is None and chosen_tools is None:
        return None
    if isinstance(chosen_toolsets, str) or isinstance(chosen_tools, str):
        raise TypeError("toolsets= and tools= take a list of names, not a string")
    keep = select(
        [t.definition for t in tools],
        declared_toolsets(toolsets_json),
        chosen_toolsets,
        chosen_tools,
    )
    return frozenset(t.name for t, kept in zip(tools, keep, strict=True) if kept)
