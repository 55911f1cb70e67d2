"""Breaking drift between the tools a client was generated from and a server's live tools.

The rules are ``mcpgen_runtime.breaking``'s, the same ones ``mcpgen breaking`` and
``mcpgen drift`` apply, on plain tool dicts, so a deployed client needs no generator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..breaking.pairs import ToolRef
from ..breaking.rules import RULES
from ..breaking.tools import compare_tools

__all__ = ["Change", "breaking_changes"]


@dataclass(frozen=True)
class Change:
    rule: str
    """The ``mcpgen breaking`` rule id (e.g. ``TOOL_NO_DELETE``)."""
    tool: str
    message: str
    severity: str = "error"
    """``error`` (breaking) or ``warning`` (breaks only strict clients)."""


def _refs(tools: Sequence[Mapping[str, Any]]) -> list[ToolRef]:
    return [
        ToolRef(t["name"], t, f"/{i}")
        for i, t in enumerate(tools)
        if isinstance(t, Mapping) and isinstance(t.get("name"), str)
    ]


def breaking_changes(
    expected: Sequence[Mapping[str, Any]],
    live: Sequence[Mapping[str, Any]],
    names: Sequence[str] | None = None,
) -> list[Change]:
    """Changes from ``expected`` (the manifest's tools) to ``live`` (a server's tools/list) that
    break a client built from ``expected``. ``names``: compare only these tools (default all)."""
    old = _refs(expected)
    if names is not None:
        wanted = set(names)
        old = [t for t in old if t.name in wanted]
    new = _refs(live)
    by_pointer = {t.pointer: t.name for t in old}
    out: list[Change] = []

    def emit(
        rule_id: str,
        new_ptr: str,
        old_ptr: str,
        message: str,
        *,
        new_key: bool = False,
        old_key: bool = True,
    ) -> None:
        tool = by_pointer.get("/" + old_ptr.split("/", 2)[1], "") if old_ptr else ""
        out.append(Change(rule_id, tool, message, RULES[rule_id].severity.label))

    compare_tools(old, new, emit)
    return out
