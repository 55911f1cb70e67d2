"""Breaking changes in ``server.discovery``: meta-tools removed by a mode change (an error:
their callers fail) and tools that tools/list stops listing (a warning: every served tool stays
callable by name, but a client choosing from the list no longer sees them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .pairs import Emit

__all__ = ["compare_discovery"]


def compare_discovery(
    emit: Emit,
    old: Mapping[str, Any] | None,
    new: Mapping[str, Any] | None,
    tools: Sequence[Mapping[str, Any]],
    pointer: str,
) -> None:
    """``old`` and ``new``: the two ``server.discovery`` blocks (None: mode ``all``);
    ``tools``: the new side's tool definitions; ``pointer``: where ``new``'s block is (or
    ``/server``)."""
    from ..server.discovery_modes import META_TOOLS, DiscoveryConfig

    before, after = DiscoveryConfig(old), DiscoveryConfig(new)
    kept = set(META_TOOLS.get(after.mode, ()))
    for name in META_TOOLS.get(before.mode, ()):
        if name not in kept:
            emit(
                "DISCOVERY_META_NO_DELETE",
                pointer,
                pointer,
                f"discovery mode {before.mode!r} -> {after.mode!r} removes the meta-tool {name!r}",
            )
    if after.mode == "all":
        return
    unlisted = [
        str(d.get("name"))
        for d in tools
        if (before.mode == "all" or before.always_listed(d)) and not after.always_listed(d)
    ]
    if unlisted:
        shown = ", ".join(unlisted[:5]) + (
            f" and {len(unlisted) - 5} more" if len(unlisted) > 5 else ""
        )
        emit(
            "DISCOVERY_NO_UNLIST",
            pointer,
            pointer,
            f"tools/list no longer lists {len(unlisted)} tool(s) ({shown}): callers by name keep "
            "working; models see them only through search_tools",
        )
