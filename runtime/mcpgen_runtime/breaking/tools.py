"""Pairs two tool lists by name and runs each subject's comparison on every pair."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .access import compare_scopes
from .annotations import compare_annotations
from .apps import compare_tool_ui
from .pairs import Emit, ToolRef, canonical
from .schemas import compare_input, compare_output
from .tasks import compare_task_support

__all__ = ["compare_tools"]


PAIR_RULES: tuple[Callable[[Emit, str, ToolRef, ToolRef], None], ...] = (
    compare_input,
    compare_output,
    compare_annotations,
    compare_scopes,
    compare_task_support,
    compare_tool_ui,
)


def _by_name(tools: Sequence[ToolRef]) -> dict[str, ToolRef]:
    out: dict[str, ToolRef] = {}
    for t in tools:
        out.setdefault(t.name, t)
    return out


def _signature(t: ToolRef) -> str:
    return canonical([t.raw.get("inputSchema"), t.raw.get("outputSchema")])


def compare_tools(
    old: Sequence[ToolRef], new: Sequence[ToolRef], emit: Emit, *, tools_pointer: str = ""
) -> None:
    """Report every breaking change from ``old`` to ``new`` through ``emit``.
    ``tools_pointer``: where the new side's tool list is (a removed tool points there)."""
    old_by_name, new_by_name = _by_name(old), _by_name(new)
    added = [t for name, t in new_by_name.items() if name not in old_by_name]
    for name, old_tool in old_by_name.items():
        new_tool = new_by_name.get(name)
        if new_tool is None:
            twins = [t for t in added if _signature(t) == _signature(old_tool)]
            if twins:
                emit(
                    "TOOL_NO_DELETE",
                    twins[0].pointer + "/name",
                    old_tool.pointer + "/name",
                    f"tool {name!r} was removed (possibly renamed to {twins[0].name!r})",
                )
            else:
                emit(
                    "TOOL_NO_DELETE",
                    tools_pointer,
                    old_tool.pointer + "/name",
                    f"tool {name!r} was removed",
                    new_key=True,
                )
            continue
        for compare_pair in PAIR_RULES:
            compare_pair(emit, name, old_tool, new_tool)
