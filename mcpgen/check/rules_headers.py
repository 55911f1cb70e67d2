"""`x-mcp-header` rules (MCP 2026-07-28): a property schema inside inputSchema may carry
`"x-mcp-header": "<Name>"`, and HTTP clients then send the argument as `Mcp-Param-<Name>`.
Clients MUST drop a tool whose annotation breaks these rules, so each violation is an error."""

from __future__ import annotations

import re

from mcpgen.check.context import ToolCtx
from mcpgen.check.registry import LEGACY_REVISIONS, LINT, MODERN_REVISIONS, E, I, W, checker, rule
from mcpgen_runtime.schemawalk import unesc

KEY = "x-mcp-header"
_DROP = "A spec violation: clients MUST drop a tool whose x-mcp-header breaks this rule."
MAX_SAFE_INTEGER = 2**53 - 1

rule(
    "X_MCP_HEADER_TOKEN",
    LINT,
    E,
    "An x-mcp-header value is a non-empty RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~).",
    MODERN_REVISIONS,
    why=_DROP,
)
rule(
    "X_MCP_HEADER_UNIQUE",
    LINT,
    E,
    "x-mcp-header values are unique within an inputSchema, compared case-insensitively.",
    MODERN_REVISIONS,
    why=_DROP,
)
rule(
    "X_MCP_HEADER_TYPE",
    LINT,
    E,
    "x-mcp-header sits only on properties of type integer, string or boolean (never number).",
    MODERN_REVISIONS,
    why=_DROP,
)
rule(
    "X_MCP_HEADER_INTEGER_RANGE",
    LINT,
    E,
    "An integer x-mcp-header property stays within ±(2^53−1): its minimum/maximum (exclusive too), "
    "const, enum and default values.",
    MODERN_REVISIONS,
    why=_DROP,
)
rule(
    "X_MCP_HEADER_REACHABLE",
    LINT,
    E,
    "x-mcp-header sits only on properties reachable from the root through `properties` alone "
    "(not via items, anyOf/oneOf/allOf/not, if/then/else, $defs or $ref).",
    MODERN_REVISIONS,
    why=_DROP,
)
rule(
    "X_MCP_HEADER_SECRET",
    LINT,
    W,
    "Secret-looking arguments (password, token, key, secret...) are not mirrored into HTTP "
    "headers.",
    MODERN_REVISIONS,
    why="The spec says SHOULD NOT: header values are visible to (and logged by) every proxy on "
    "the way.",
)
rule(
    "X_MCP_HEADER_IGNORED",
    LINT,
    I,
    "x-mcp-header has an effect only from 2026-07-28; on the targeted revisions clients ignore it.",
    LEGACY_REVISIONS,
    why="Info: harmless; older clients send the argument in the body only.",
)

_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")
_SECRET = re.compile(
    r"pass(word|wd|phrase)?|secret|token|api[-_]?key|private[-_]?key|access[-_]?key|credential|"
    r"^key$|[-_]key$|auth",
    re.IGNORECASE,
)
_ALLOWED_TYPES = ("integer", "string", "boolean")


def _property_name(pointer: str) -> str:
    return unesc(pointer.rsplit("/", 1)[-1]) if pointer else ""


@checker(
    "X_MCP_HEADER_TOKEN",
    "X_MCP_HEADER_UNIQUE",
    "X_MCP_HEADER_TYPE",
    "X_MCP_HEADER_INTEGER_RANGE",
    "X_MCP_HEADER_REACHABLE",
    "X_MCP_HEADER_SECRET",
    "X_MCP_HEADER_IGNORED",
)
def check_headers(ctx: ToolCtx) -> None:
    seen: dict[str, str] = {}
    modern = any(r in MODERN_REVISIONS for r in ctx.revisions)
    for node in ctx.input_nodes:
        s = node.schema
        if KEY not in s:
            continue
        ptr = f"/inputSchema{node.pointer}/{KEY}"
        value = s[KEY]
        if not modern:
            ctx.emit(
                "X_MCP_HEADER_IGNORED",
                ptr,
                "x-mcp-header is ignored by clients on revision "
                f"{', '.join(ctx.revs('X_MCP_HEADER_IGNORED'))} "
                "(it takes effect from 2026-07-28)",
            )
            continue
        if not node.static or node.pointer == "":
            ctx.emit(
                "X_MCP_HEADER_REACHABLE",
                ptr,
                "x-mcp-header must sit on a property reachable through `properties` alone; "
                f"this one is under {_via(node.pointer)} (clients drop the tool)",
            )
        if not isinstance(value, str) or not _TOKEN.match(value):
            shown = "empty" if value == "" else repr(value)
            ctx.emit(
                "X_MCP_HEADER_TOKEN",
                ptr,
                f"x-mcp-header value {shown} is not an RFC 9110 token (clients drop the tool)",
            )
        else:
            folded = value.lower()
            if folded in seen:
                ctx.emit(
                    "X_MCP_HEADER_UNIQUE",
                    ptr,
                    f"x-mcp-header {value!r} repeats {seen[folded]!r} (names compare "
                    "case-insensitively; clients drop the tool)",
                )
            else:
                seen[folded] = value
        t = s.get("type")
        if t not in _ALLOWED_TYPES:
            if t == "number":
                why = "type number is forbidden (use integer or string)"
            elif t is None:
                why = "the property declares no type"
            else:
                why = f"type {t!r} is not allowed"
            ctx.emit(
                "X_MCP_HEADER_TYPE",
                ptr,
                f"x-mcp-header needs a property of type integer, string or boolean; {why}",
            )
        elif t == "integer":
            _check_integer_range(ctx, s, f"/inputSchema{node.pointer}")
        prop = _property_name(node.pointer)
        if _SECRET.search(prop) or (isinstance(value, str) and _SECRET.search(value)):
            ctx.emit(
                "X_MCP_HEADER_SECRET",
                ptr,
                f"property {prop!r} looks like a secret; x-mcp-header copies it into a plain "
                "HTTP header (logged by proxies)",
            )


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "const", "default")


def _check_integer_range(ctx: ToolCtx, s: dict[str, object], base: str) -> None:
    """Integers sent as x-mcp-header values must lie within ±(2^53−1)."""
    values: list[tuple[str, object]] = [(kw, s[kw]) for kw in _BOUNDS if kw in s]
    enum = s.get("enum")
    if isinstance(enum, list):
        values.extend((f"enum/{i}", v) for i, v in enumerate(enum))
    for where, v in values:
        if isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) > MAX_SAFE_INTEGER:
            shown = where.replace("/", "[", 1) + "]" if "/" in where else where
            ctx.emit(
                "X_MCP_HEADER_INTEGER_RANGE",
                f"{base}/{where}",
                f"x-mcp-header integer {shown} is {v!r}, outside ±(2^53−1) "
                f"(±{MAX_SAFE_INTEGER}); clients drop the tool",
            )


def _via(pointer: str) -> str:
    """The non-`properties` keywords on the way to ``pointer``, e.g. "items, anyOf"."""
    parts = [unesc(p) for p in pointer.split("/")[1:]]
    kinds: list[str] = []
    i = 0
    while i < len(parts):
        kw = parts[i]
        if kw in (
            "properties",
            "$defs",
            "definitions",
            "patternProperties",
            "dependentSchemas",
            "dependencies",
        ):
            if kw != "properties":
                kinds.append(kw)
            i += 2
            continue
        if not kw.isdigit():
            kinds.append(kw)
        i += 1
    return ", ".join(dict.fromkeys(kinds)) or "the root"
