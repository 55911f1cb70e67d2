"""Checkers for the model-API compatibility profiles (`mcpgen check --target ...`).

The rules, their sources and the keyword tables are data in ``profiles.py``; this module only
walks each tool's inputSchema (what a client hands the model API as the function's parameters)
and reports where a profile's constraint is broken, at the offending keyword; and the
meta-tools a discovery mode lists instead of the tools (``server.discovery.mode``).
"""

from __future__ import annotations

from typing import Any

from mcpgen.check import profiles as P
from mcpgen.check.context import ManifestCtx, ToolCtx
from mcpgen.check.registry import LINT, checker, rule
from mcpgen_runtime.schemawalk import COMBINATORS, Node, esc
from mcpgen_runtime.server.discovery_modes import meta_definitions

for _r in P.RULES:
    rule(_r.id, LINT, _r.severity, _r.purpose, why=_r.why, default_enabled=False)

_BASE = "/inputSchema"


def _is_object(s: dict[str, Any]) -> bool:
    t = s.get("type")
    return t == "object" or (isinstance(t, list) and "object" in t) or "properties" in s


def _at(node: Node, *tokens: str) -> str:
    return _BASE + node.pointer + "".join("/" + esc(t) for t in tokens)


def _names(keys: list[str]) -> str:
    return ", ".join(repr(k) for k in keys)


@checker(
    "OPENAI_STRICT_ADDITIONAL_PROPERTIES",
    "OPENAI_STRICT_ALL_REQUIRED",
    "OPENAI_STRICT_REF_SIBLINGS",
)
def check_openai_strict(ctx: ToolCtx) -> None:
    for node in ctx.input_nodes:
        s = node.schema
        if _is_object(s) and s.get("additionalProperties") is not False:
            has = "additionalProperties" in s
            ctx.emit(
                "OPENAI_STRICT_ADDITIONAL_PROPERTIES",
                _at(node, *(("additionalProperties",) if has else ())),
                "strict mode needs `additionalProperties: false` on this object"
                + (f" (it is {s['additionalProperties']!r})" if has else ""),
                key=has,
            )
        props = s.get("properties")
        if isinstance(props, dict) and props:
            req = s.get("required")
            listed = {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()
            missing = [str(k) for k in props if k not in listed]
            if missing:
                ctx.emit(
                    "OPENAI_STRICT_ALL_REQUIRED",
                    _at(node, "properties", missing[0]),
                    f"strict mode needs every property in `required`; not listed: "
                    f"{_names(missing)} (make an optional one nullable instead)",
                    key=True,
                )
        if "$ref" in s and len(s) > 1:
            others = sorted(k for k in s if k != "$ref")
            ctx.emit(
                "OPENAI_STRICT_REF_SIBLINGS",
                _at(node, "$ref"),
                f"strict mode takes a `$ref` alone; it has {_names(others)} beside it",
                key=True,
            )


@checker("OPENAI_STRICT_DISCOVERY_FREE_FORM", scope="manifest")
def check_openai_strict_discovery(ctx: ManifestCtx) -> None:
    """The meta-tools the discovery mode lists (their schemas are the runtime's, read from
    ``meta_definitions``), reported at the manifest's ``server.discovery.mode``."""
    block = ctx.manifest.server.discovery
    mode = block.get("mode", "all") if isinstance(block, dict) else "all"
    for tool in meta_definitions(mode if isinstance(mode, str) else "all"):
        props = tool["inputSchema"].get("properties", {})
        for name, prop in props.items():
            if _is_object(prop) and not prop.get("properties"):
                ctx.emit(
                    "OPENAI_STRICT_DISCOVERY_FREE_FORM",
                    "/server/discovery/mode",
                    f"discovery mode {mode!r} lists {tool['name']!r}, whose {name!r} is a "
                    "free-form object: strict mode closes it (`additionalProperties: false`), "
                    f"so a strict call of {tool['name']} passes no arguments on; use mode "
                    "'code' (execute takes the code as a string), or list the tools the model "
                    "needs in `listed`",
                    key=False,
                )


@checker("ANTHROPIC_ROOT_COMBINATOR")
def check_anthropic_root(ctx: ToolCtx) -> None:
    root = ctx.raw.get("inputSchema")
    if not isinstance(root, dict):
        return
    found = [k for k in COMBINATORS if k in root]
    if found:
        ctx.emit(
            "ANTHROPIC_ROOT_COMBINATOR",
            _BASE + "/" + esc(found[0]),
            f"Anthropic's API refuses an input_schema with {_names(found)} at its root: move the "
            "alternatives into a property",
            key=True,
        )


@checker(
    "ANTHROPIC_STRICT_ADDITIONAL_PROPERTIES",
    "ANTHROPIC_STRICT_KEYWORD",
    "ANTHROPIC_STRICT_STRING_FORMAT",
)
def check_anthropic_strict(ctx: ToolCtx) -> None:
    for node in ctx.input_nodes:
        s = node.schema
        extra = s.get("additionalProperties")
        if extra is True or isinstance(extra, dict):
            ctx.emit(
                "ANTHROPIC_STRICT_ADDITIONAL_PROPERTIES",
                _at(node, "additionalProperties"),
                "strict mode forces `additionalProperties: false`: the model can never send the "
                "extra properties this object allows",
                key=True,
            )
        dropped = [
            k
            for k in s
            if k not in P.ANTHROPIC_STRICT_KEYWORDS
            and k not in P.ANNOTATION_KEYWORDS
            and not k.startswith("x-")
        ]
        if s.get("minItems", 0) not in P.ANTHROPIC_STRICT_MIN_ITEMS:
            dropped.append("minItems")
        fmt = s.get("format")
        if fmt is not None and s.get("type") != "string":
            dropped.append("format")  # kept for strings only
        if dropped:
            ctx.emit(
                "ANTHROPIC_STRICT_KEYWORD",
                _at(node, dropped[0]),
                f"strict mode does not enforce {_names(dropped)}: it becomes description text",
                key=True,
            )
        if (
            s.get("type") == "string"
            and isinstance(fmt, str)
            and fmt not in P.ANTHROPIC_STRICT_FORMATS
        ):
            ctx.emit(
                "ANTHROPIC_STRICT_STRING_FORMAT",
                _at(node, "format"),
                f"strict mode does not support format {fmt!r}: it becomes description text",
            )


@checker(
    "GEMINI_REF",
    "GEMINI_ANYOF_IN_ITEMS",
    "GEMINI_PROPERTIES_ON_NON_OBJECT",
    "GEMINI_ADDITIONAL_PROPERTIES",
    "GEMINI_LITERAL_NOT_STRING",
    "GEMINI_KEYWORD",
)
def check_gemini(ctx: ToolCtx) -> None:
    for node in ctx.input_nodes:
        _gemini_node(ctx, node)


def _gemini_node(ctx: ToolCtx, node: Node) -> None:
    s = node.schema
    for kw in ("$ref", "$defs", "definitions"):
        if kw in s:
            ctx.emit("GEMINI_REF", _at(node, kw), f"Gemini takes no `{kw}`: inline it", key=True)
    if node.pointer.endswith("/items"):
        for kw in ("anyOf", "oneOf"):
            if kw in s:
                ctx.emit(
                    "GEMINI_ANYOF_IN_ITEMS",
                    _at(node, kw),
                    f"Gemini refuses `{kw}` directly inside `items`",
                    key=True,
                )
    t = s.get("type")
    if t is not None and not (t == "object" or (isinstance(t, list) and "object" in t)):
        for kw in ("properties", "required"):
            if kw in s:
                ctx.emit(
                    "GEMINI_PROPERTIES_ON_NON_OBJECT",
                    _at(node, kw),
                    f"Gemini refuses `{kw}` on a schema of type {t!r}",
                    key=True,
                )
    extra = s.get("additionalProperties")
    if extra is True or (isinstance(extra, dict) and extra):
        ctx.emit(
            "GEMINI_ADDITIONAL_PROPERTIES",
            _at(node, "additionalProperties"),
            "the Gemini Developer API refuses `additionalProperties` other than false",
            key=True,
        )
    enum = s.get("enum")
    if isinstance(enum, list) and not all(isinstance(v, str) for v in enum):
        bad = next(v for v in enum if not isinstance(v, str))
        ctx.emit(
            "GEMINI_LITERAL_NOT_STRING",
            _at(node, "enum"),
            f"Gemini enums are strings; this one has {bad!r}",
        )
    if "const" in s and not isinstance(s["const"], str):
        ctx.emit(
            "GEMINI_LITERAL_NOT_STRING",
            _at(node, "const"),
            f"Gemini takes only a string `const`; this one is {s['const']!r}",
        )
    dropped = [
        k
        for k in s
        if k not in P.GEMINI_KEYWORDS
        and k not in P.ANNOTATION_KEYWORDS
        and not k.startswith("x-")
        and k != "definitions"
    ]
    if dropped:
        ctx.emit(
            "GEMINI_KEYWORD",
            _at(node, dropped[0]),
            f"Gemini's Schema has no {_names(dropped)}: dropped before the model sees the tool",
            key=True,
        )
