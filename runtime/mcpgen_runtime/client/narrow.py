"""A client narrowed to some toolsets or tools, as a server is with ``--toolsets``/``--tools``
(same rules: ``server.toolsets.select``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..server.toolsets import declared_toolsets, select
from .errors import ClientError
from .tool import ClientTool

__all__ = ["Narrowable", "narrowed"]


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


class Narrowable:
    """What ``ToolClient`` knows of its narrowing (``toolsets=``/``tools=``)."""

    MCPGEN_TOOLS: ClassVar[tuple[ClientTool, ...]] = ()
    """The tools this client was generated for (set by the generated subclass)."""
    MCPGEN_TOOLSETS: ClassVar[str] = "{}"
    """The manifest's ``server.toolsets`` (JSON text)."""
    _selected: frozenset[str] | None = None
    _label: str

    def _narrow(self, toolsets: Sequence[str] | None, tools: Sequence[str] | None) -> None:
        self._selected = narrowed(self.MCPGEN_TOOLS, self.MCPGEN_TOOLSETS, toolsets, tools)

    @property
    def selected_tools(self) -> tuple[ClientTool, ...]:
        """The tools this client may call: all of ``MCPGEN_TOOLS``, or those of the
        ``toolsets=``/``tools=`` it was narrowed to (e.g. to hand a model fewer tools)."""
        if self._selected is None:
            return self.MCPGEN_TOOLS
        return tuple(t for t in self.MCPGEN_TOOLS if t.name in self._selected)

    def _selected_names(self) -> list[str] | None:
        return None if self._selected is None else sorted(self._selected)

    def _refuse_unselected(self, tool: str) -> None:
        if self._selected is not None and tool not in self._selected:
            raise ClientError(
                f"{self._label}: tool {tool!r} is not among the tools this client was "
                "narrowed to (toolsets=/tools=)"
            )
