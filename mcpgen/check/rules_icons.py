"""Icon rules (2025-11-25+): every ``icons`` list a manifest has (tools, the server; resources
and prompts use the same ``check_icons``): src scheme, sizes, theme."""

from __future__ import annotations

import re
from typing import Any

from mcpgen.check.context import ManifestCtx, ToolCtx
from mcpgen.check.registry import LINT, SPEC, E, W, checker, rule, since

rule(
    "ICON_SRC",
    LINT,
    E,
    "An icon's src is an https: URL or a data: URI.",
    since("2025-11-25"),
    why=SPEC + " Clients must not load other schemes.",
)
rule(
    "ICON_SRC_HTTPS",
    LINT,
    W,
    "An icon's src uses https:, not plain http:.",
    since("2025-11-25"),
    why="Clients (and browsers, as mixed content) refuse to load plain-http icons.",
)
rule(
    "ICON_SIZES",
    LINT,
    E,
    'Icon sizes are a list of WxH strings (e.g. 48x48) or "any".',
    since("2025-11-25"),
    why=SPEC,
)
rule("ICON_THEME", LINT, E, "An icon's theme is light or dark.", since("2025-11-25"), why=SPEC)

_SIZE = re.compile(r"[1-9][0-9]*x[1-9][0-9]*\Z")


def check_icons(ctx: ManifestCtx | ToolCtx, icons: Any, pointer: str) -> None:
    """The icons list at ``pointer`` (of a tool, the server, and next resources and prompts)."""
    if not isinstance(icons, list):
        return  # MANIFEST_SCHEMA reports the shape
    for i, icon in enumerate(icons):
        ip = f"{pointer}/{i}"
        if not isinstance(icon, dict):
            continue
        src = icon.get("src")
        if isinstance(src, str):
            low = src.strip().lower()
            if low.startswith("http:"):
                ctx.emit("ICON_SRC_HTTPS", ip + "/src", "icon src uses plain http:; use https:")
            elif not (low.startswith("https://") or low.startswith("data:")):
                ctx.emit(
                    "ICON_SRC",
                    ip + "/src",
                    f"icon src {src[:60]!r} must be an https: URL or a data: URI",
                )
        sizes = icon.get("sizes")
        if sizes is not None:
            if not isinstance(sizes, list):
                ctx.emit("ICON_SIZES", ip + "/sizes", "icon sizes must be a list of strings")
            else:
                for j, size in enumerate(sizes):
                    if not (isinstance(size, str) and (size == "any" or _SIZE.match(size))):
                        ctx.emit(
                            "ICON_SIZES",
                            f"{ip}/sizes/{j}",
                            f'icon size {size!r} is neither WxH (e.g. 48x48) nor "any"',
                        )
        theme = icon.get("theme")
        if theme is not None and theme not in ("light", "dark"):
            ctx.emit("ICON_THEME", ip + "/theme", f"icon theme {theme!r} must be light or dark")


@checker("ICON_SRC", "ICON_SRC_HTTPS", "ICON_SIZES", "ICON_THEME")
def check_tool_icons(ctx: ToolCtx) -> None:
    if "icons" in ctx.raw:
        check_icons(ctx, ctx.raw["icons"], "/icons")


@checker("ICON_SRC", "ICON_SRC_HTTPS", "ICON_SIZES", "ICON_THEME", scope="manifest")
def check_server_icons(ctx: ManifestCtx) -> None:
    raw = ctx.manifest.raw
    server = raw.get("server") if isinstance(raw, dict) else None
    if isinstance(server, dict) and "icons" in server:
        check_icons(ctx, server["icons"], "/server/icons")
