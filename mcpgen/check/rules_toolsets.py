"""Rules for toolsets: ``server.toolsets`` and the ``x-mcpgen.toolsets`` of each tool."""

from __future__ import annotations

from mcpgen.check.context import ManifestCtx
from mcpgen.check.registry import LINT, E, W, checker, rule
from mcpgen_runtime.jsonschema_facts import escape_token

rule(
    "TOOLSET_UNDECLARED",
    LINT,
    E,
    "Every toolset a tool names in `x-mcpgen.toolsets` is declared in `server.toolsets`.",
    why="Operators choose toolsets by name (`--toolsets`, `MCPGEN_TOOLSETS`) and the server "
    "refuses names it does not declare; an undeclared name is usually a typo, and its tools "
    "could only be served with `--toolsets all` or by naming each one.",
)
rule(
    "TOOLSET_EMPTY",
    LINT,
    W,
    "Every toolset `server.toolsets` declares has at least one tool.",
    why="Choosing an empty toolset serves nothing more; it usually means its tools lost their "
    "`x-mcpgen.toolsets` entry, or the toolset was renamed on one side only.",
)


@checker("TOOLSET_UNDECLARED", "TOOLSET_EMPTY", scope="manifest")
def check_toolsets(ctx: ManifestCtx) -> None:
    m = ctx.manifest
    declared = m.server.toolsets or {}
    used: set[str] = set()
    for tool in m.tools:
        for i, name in enumerate(tool.toolsets):
            used.add(name)
            if name not in declared:
                known = ", ".join(sorted(declared)) or "none declared"
                ctx.emit(
                    "TOOLSET_UNDECLARED",
                    f"{tool.pointer}/x-mcpgen/toolsets/{i}",
                    f"tool {tool.name!r} names toolset {name!r}, which server.toolsets does not "
                    f"declare ({known})",
                )
    for name in declared:
        if name not in used:
            ctx.emit(
                "TOOLSET_EMPTY",
                f"/server/toolsets/{escape_token(name)}",
                f"toolset {name!r} has no tools (no tool names it in x-mcpgen.toolsets)",
                key=True,
            )
