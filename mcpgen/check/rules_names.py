"""Tool-name rules (MCP 2025-11-25 "Tool names": 1-128 chars of A-Z a-z 0-9 _ - . , unique)."""

from __future__ import annotations

import re

from mcpgen.check.context import ManifestCtx, ToolCtx
from mcpgen.check.registry import LINT, SPEC, E, W, checker, rule

rule(
    "TOOL_NAME_LENGTH",
    LINT,
    E,
    "Tool names are 1-128 characters (or the configured `name-max-length`, e.g. 64 for clients "
    "such as Claude Desktop).",
    why=SPEC + " Over the configured limit, the client drops or renames it.",
)
rule(
    "TOOL_NAME_CHARSET",
    LINT,
    E,
    "Tool names use only A-Z a-z 0-9 _ - . (no spaces, commas, slashes or other characters).",
    why=SPEC + " Model APIs refuse such function names.",
)
rule(
    "TOOL_NAME_UNIQUE",
    LINT,
    E,
    "Tool names are unique within the manifest (case-sensitive).",
    why=SPEC + " Only one of the tools can ever be called.",
)
rule(
    "TOOL_NAME_CASE_COLLISION",
    LINT,
    W,
    "Tool names differ by more than letter case (case-insensitive clients would merge them).",
    why="Clients and model APIs that compare names case-insensitively merge the tools; one "
    "becomes unreachable.",
)
rule(
    "TOOL_NAME_PORTABLE",
    LINT,
    W,
    "Tool names match ^[a-zA-Z0-9_-]{1,64}$, the function-name pattern of major LLM APIs "
    "(off by default; enable it when models call the tools directly).",
    default_enabled=False,
    why="Off: clients map names for their model API; enable it when your client passes names "
    "through as they are (a dot or a name over 64 characters is then rejected).",
)

_ALLOWED = re.compile(r"[A-Za-z0-9_.\-]*\Z")
_PORTABLE = re.compile(r"[A-Za-z0-9_\-]{1,64}\Z")
_NAMES = {" ": "space", ",": "comma", "/": "slash", "\t": "tab", ":": "colon"}


@checker("TOOL_NAME_LENGTH", "TOOL_NAME_CHARSET", "TOOL_NAME_PORTABLE")
def check_name(ctx: ToolCtx) -> None:
    name = ctx.raw.get("name")
    if not isinstance(name, str):
        return
    limit = ctx.options.name_max_length
    if not name:
        ctx.emit("TOOL_NAME_LENGTH", "/name", "tool name is empty; names are 1-128 characters")
    elif len(name) > limit:
        why = "the MCP limit" if limit == 128 else "the configured name-max-length"
        ctx.emit(
            "TOOL_NAME_LENGTH", "/name", f"tool name is {len(name)} characters; {why} is {limit}"
        )
    if not _ALLOWED.match(name):
        bad = sorted({c for c in name if not _ALLOWED.match(c)})
        shown = ", ".join(_NAMES.get(c, repr(c)) for c in bad)
        ctx.emit(
            "TOOL_NAME_CHARSET",
            "/name",
            f"tool name {name!r} contains {shown}; allowed are A-Z a-z 0-9 _ - .",
        )
    if name and not _PORTABLE.match(name):
        ctx.emit(
            "TOOL_NAME_PORTABLE",
            "/name",
            f"tool name {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$ (LLM function names)",
        )


@checker("TOOL_NAME_UNIQUE", "TOOL_NAME_CASE_COLLISION", scope="manifest")
def check_unique(ctx: ManifestCtx) -> None:
    first: dict[str, str] = {}
    folded: dict[str, tuple[str, str]] = {}
    for tool in ctx.manifest.tools:
        name = tool.raw.get("name")
        if not isinstance(name, str):
            continue
        ptr = tool.pointer + "/name"
        if name in first:
            prev = ctx.sink.location(first[name])
            ctx.emit("TOOL_NAME_UNIQUE", ptr, f"duplicate tool name {name!r}", related=(prev,))
            continue
        first[name] = ptr
        key = name.casefold()
        if key in folded:
            other, optr = folded[key]
            prev = ctx.sink.location(optr)
            ctx.emit(
                "TOOL_NAME_CASE_COLLISION",
                ptr,
                f"tool name {name!r} differs from {other!r} only by letter case",
                related=(prev,),
            )
        else:
            folded[key] = (name, ptr)
