"""Which tools this process serves: the manifest's toolsets and the operator's choice.

A tool joins toolsets with ``x-mcpgen.toolsets``; the manifest declares them in
``server.toolsets`` (name -> ``{description, default}``). The operator chooses with
``--toolsets a,b`` and ``--tools x,y`` (or ``$MCPGEN_TOOLSETS`` / ``$MCPGEN_TOOLS``):

* neither given: every tool, except those whose toolsets all say ``default: false``;
* either given: the tools of the named toolsets plus the named tools, nothing else.
  ``all`` names every toolset (every tool); ``default`` names the default ones.

A tool left out is not built at all: absent from ``tools/list``, and a call answers -32602
(unknown tool), as for a disabled tool. A name the manifest does not declare stops the start
(``SelectionError``), so a typo never serves an empty server.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "TOOLSETS_ENV",
    "TOOLS_ENV",
    "SelectionError",
    "declared_toolsets",
    "from_environment",
    "select",
    "split",
]

TOOLSETS_ENV = "MCPGEN_TOOLSETS"
TOOLS_ENV = "MCPGEN_TOOLS"
ALL, DEFAULT = "all", "default"


class SelectionError(ValueError):
    """``--toolsets``/``--tools`` named something the server does not have."""


def split(text: str | None) -> list[str] | None:
    """``a, b,,c`` -> ``["a", "b", "c"]``; None or blank -> None (not given)."""
    if text is None:
        return None
    names = [n.strip() for n in text.split(",") if n.strip()]
    return names or None


def declared_toolsets(value: Mapping[str, Any] | str | None) -> dict[str, dict[str, Any]]:
    """``ServerInfo.toolsets`` (the manifest's ``server.toolsets``, or its JSON text)."""
    if isinstance(value, str):
        value = json.loads(value)
    if not isinstance(value, Mapping):
        return {}
    return {str(k): dict(v) if isinstance(v, Mapping) else {} for k, v in value.items()}


def membership(definition: Mapping[str, Any]) -> tuple[str, ...]:
    """The toolsets a tool definition names (``x-mcpgen.toolsets``)."""
    ext = definition.get("x-mcpgen")
    found = ext.get("toolsets") if isinstance(ext, Mapping) else None
    return tuple(t for t in found if isinstance(t, str)) if isinstance(found, list) else ()


def from_environment(
    toolsets: Iterable[str] | None, tools: Iterable[str] | None
) -> tuple[list[str] | None, list[str] | None]:
    """The operator's choice: each of ``toolsets``/``tools`` that is None from
    ``$MCPGEN_TOOLSETS``/``$MCPGEN_TOOLS``."""
    return (
        split(os.environ.get(TOOLSETS_ENV)) if toolsets is None else list(toolsets),
        split(os.environ.get(TOOLS_ENV)) if tools is None else list(tools),
    )


def select(
    definitions: Sequence[Mapping[str, Any]],
    declared: Mapping[str, Mapping[str, Any]],
    toolsets: Iterable[str] | None = None,
    tools: Iterable[str] | None = None,
    *,
    what: str = "",
) -> list[bool]:
    """Which of ``definitions`` to keep (one flag each): both None, the defaults; else the
    named toolsets' tools and the named tools. ``what``: the options' prefix in errors
    (``--`` on a command line, nothing for keyword arguments)."""
    names = [str(d.get("name", "")) for d in definitions]
    defaults = {n for n, spec in declared.items() if spec.get("default", True) is not False}

    def by_default(member_of: tuple[str, ...]) -> bool:
        # undeclared toolsets (check reports them) count as default ones
        return not member_of or any(t in defaults or t not in declared for t in member_of)

    if toolsets is None and tools is None:
        return [by_default(membership(d)) for d in definitions]
    chosen_sets = list(toolsets or ())
    chosen_tools = list(tools or ())
    unknown = [t for t in chosen_sets if t not in declared and t not in (ALL, DEFAULT)]
    if unknown:
        known = ", ".join([ALL, DEFAULT, *sorted(declared)])
        raise SelectionError(
            f"{what}toolsets: unknown toolset {', '.join(map(repr, unknown))} (known: {known})"
        )
    missing = [t for t in chosen_tools if t not in names]
    if missing:
        raise SelectionError(
            f"{what}tools: unknown tool {', '.join(map(repr, missing))} "
            f"(known: {', '.join(names[:20])}{', ...' if len(names) > 20 else ''})"
        )
    every, with_defaults = ALL in chosen_sets, DEFAULT in chosen_sets
    sets, wanted = set(chosen_sets), set(chosen_tools)
    return [
        every
        or name in wanted
        or any(t in sets for t in membership(d))
        or (with_defaults and by_default(membership(d)))
        for name, d in zip(names, definitions, strict=True)
    ]


def describe(
    definitions: Sequence[Mapping[str, Any]], declared: Mapping[str, Mapping[str, Any]]
) -> str:
    """What ``--list-toolsets`` prints: each toolset (default or not, description, tools),
    then the tools in no toolset."""
    lines: list[str] = []
    for name, spec in declared.items():
        members = [str(d.get("name")) for d in definitions if name in membership(d)]
        flag = "" if spec.get("default", True) is not False else " (not served by default)"
        desc = spec.get("description")
        lines.append(f"{name}{flag}" + (f": {desc}" if isinstance(desc, str) and desc else ""))
        lines.append("  " + (", ".join(members) or "(no tools)"))
    loose = [str(d.get("name")) for d in definitions if not membership(d)]
    if loose:
        lines.append("in no toolset (served unless --toolsets/--tools choose otherwise)")
        lines.append("  " + ", ".join(loose))
    return "\n".join(lines)
