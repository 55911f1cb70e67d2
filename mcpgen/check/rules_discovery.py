"""Rules for ``server.discovery``: the tools and toolsets always listed, and the meta-tools'
names (``mcpgen_runtime.server.discovery_modes``)."""

from __future__ import annotations

from mcpgen.check.context import ManifestCtx
from mcpgen.check.registry import LINT, E, W, checker, rule
from mcpgen_runtime.server.discovery_modes import META_TOOLS

rule(
    "DISCOVERY_LISTED_UNKNOWN",
    LINT,
    E,
    "Every tool and toolset in `server.discovery.listed` exists in the manifest.",
    why="A name that matches nothing lists nothing: the tool the author meant to keep in front "
    "of the model is reachable only through search, usually because of a typo or a rename.",
)
rule(
    "DISCOVERY_NAME_CLASH",
    LINT,
    E,
    "In search and code mode no tool is named like a meta-tool (`search_tools`, "
    "`get_tool_schemas`, `call_tool`, `execute`).",
    why="The meta-tool answers under that name, so the tool could never be called, listed or "
    "found.",
)
rule(
    "DISCOVERY_LISTED_IGNORED",
    LINT,
    W,
    "`server.discovery.listed` is set only with mode `search` or `code`.",
    why="In mode `all` every tool is listed anyway; the setting has no effect and suggests the "
    "mode was meant to be something else.",
)


@checker(
    "DISCOVERY_LISTED_UNKNOWN",
    "DISCOVERY_NAME_CLASH",
    "DISCOVERY_LISTED_IGNORED",
    scope="manifest",
)
def check_discovery(ctx: ManifestCtx) -> None:
    m = ctx.manifest
    block = m.server.discovery
    if not block:
        return
    mode = block.get("mode", "all")
    listed = block.get("listed")
    listed = listed if isinstance(listed, dict) else {}
    names = {t.name for t in m.tools}
    declared = m.server.toolsets or {}
    for key, known, what in (("tools", names, "tool"), ("toolsets", declared, "toolset")):
        values = listed.get(key)
        for i, name in enumerate(values if isinstance(values, list) else ()):
            if isinstance(name, str) and name not in known:
                ctx.emit(
                    "DISCOVERY_LISTED_UNKNOWN",
                    f"/server/discovery/listed/{key}/{i}",
                    f"server.discovery.listed.{key} names {what} {name!r}, which the manifest "
                    f"does not have",
                )
    if listed and mode == "all":
        ctx.emit(
            "DISCOVERY_LISTED_IGNORED",
            "/server/discovery/listed",
            "server.discovery.listed has no effect in mode 'all' (every tool is listed)",
            key=True,
        )
    meta = set(META_TOOLS.get(mode, ()))
    for tool in m.tools:
        if tool.name in meta:
            ctx.emit(
                "DISCOVERY_NAME_CLASH",
                f"{tool.pointer}/name",
                f"tool {tool.name!r} has the name of a meta-tool of discovery mode {mode!r}; "
                "rename it",
            )
