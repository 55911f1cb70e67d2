"""inputSchema / outputSchema rules: shape, dialect, meta-schema validity, $refs, `required`,
and the shapes major model providers reject."""

from __future__ import annotations

from typing import Any

from mcpgen.check.context import ToolCtx
from mcpgen.check.dialects import (
    D2020,
    dialect_of,
    meta_errors,
    python_regex_ok,
    regex_ok,
    rs_compile_problem,
)
from mcpgen.check.registry import LINT, SPEC, E, I, W, checker, rule, since
from mcpgen_runtime.schemawalk import COMBINATORS, Node, esc

rule(
    "INPUT_SCHEMA_REQUIRED",
    LINT,
    E,
    "Every tool has an inputSchema that is a JSON object (never null).",
    why=SPEC,
)
rule(
    "INPUT_SCHEMA_ROOT_OBJECT",
    LINT,
    E,
    "The inputSchema root declares `type: object` (tool arguments are objects).",
    why=SPEC + " Model APIs refuse the tool.",
)
rule(
    "INPUT_SCHEMA_ROOT_COMBINATOR",
    LINT,
    W,
    "The inputSchema root has no anyOf/oneOf/allOf/not/if/then/else: Anthropic, Bedrock, Vertex "
    "and Azure reject such tools (some clients drop them silently).",
    why="Allowed by the spec, but the model APIs most clients use refuse the tool, so it fails "
    "there.",
)
rule(
    "INPUT_SCHEMA_NO_PARAMS_OPEN",
    LINT,
    I,
    "A tool without parameters says `additionalProperties: false` (the spec's recommended form).",
    since("2025-11-25"),
    why="Info: a recommendation; clients call a tool with an open empty schema without trouble.",
)
rule(
    "OUTPUT_SCHEMA_ROOT_OBJECT",
    LINT,
    E,
    "The outputSchema root declares `type: object` (required up to 2025-11-25; any type from "
    "2026-07-28).",
    frozenset(("2025-06-18", "2025-11-25")),
    why=SPEC + " Clients validating structuredContent fail.",
)
rule(
    "SCHEMA_DIALECT_UNKNOWN",
    LINT,
    E,
    "A tool schema's `$schema` names a JSON Schema dialect mcpgen knows (2020-12, 2019-09, "
    "draft-07/06/04); an unsupported dialect must be answered with an error.",
    why=SPEC + " Clients cannot validate with the schema.",
)
rule(
    "SCHEMA_DIALECT_PORTABLE",
    LINT,
    I,
    "Tool schemas use JSON Schema 2020-12, the one dialect every client must support "
    "(a client may reject draft-07).",
    since("2025-11-25"),
    why="Info: draft-07 is what the TypeScript SDK (zod) emits and what clients in use accept; "
    "2020-12 is only the one dialect the spec guarantees.",
)
rule(
    "SCHEMA_VALID",
    LINT,
    E,
    "Each tool schema is a valid JSON Schema of its dialect, and each resource template "
    "variable's schema a valid 2020-12 one (checked against the official meta-schemas); each tool "
    "schema also compiles with jsonschema-rs, the runtime's validator.",
    why=SPEC + " Validating clients fail on every call; `mcpgen server` cannot type a variable "
    "from an invalid schema.",
)
rule(
    "OUTPUT_SCHEMA_PATTERN_PYTHON",
    LINT,
    W,
    "Each regex of an outputSchema (`pattern`, `patternProperties` names) also compiles with "
    "Python's `re`, not only with jsonschema-rs (what SCHEMA_VALID asks).",
    why="The official Python SDK's client (mcp 2.3; mcpgen's typed clients run on it) checks each "
    "outputSchema with jsonschema, whose `regex` format is Python's `re`, and refuses to call a "
    "tool whose outputSchema has a pattern `re` cannot compile (`\\p{L}`, `\\cA`, `\\z`...).",
)
rule(
    "SCHEMA_REF_UNRESOLVED",
    LINT,
    E,
    "Every $ref in a tool schema resolves inside that schema (clients never fetch other files or "
    "URLs).",
    why=SPEC + " Validating clients fail on every call.",
)
rule(
    "SCHEMA_REQUIRED_UNDEFINED",
    LINT,
    E,
    "Every name in `required` is declared in the same object's `properties`.",
    why="The model is never told about the required name, so its calls fail validation.",
)

_ELSEWHERE = (
    "patternProperties",
    "$ref",
    "$dynamicRef",
    "allOf",
    "anyOf",
    "oneOf",
    "if",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
)


@checker(
    "INPUT_SCHEMA_REQUIRED",
    "INPUT_SCHEMA_ROOT_OBJECT",
    "INPUT_SCHEMA_ROOT_COMBINATOR",
    "INPUT_SCHEMA_NO_PARAMS_OPEN",
)
def check_input_root(ctx: ToolCtx) -> None:
    raw = ctx.raw
    if "inputSchema" not in raw:
        ctx.emit("INPUT_SCHEMA_REQUIRED", "", f"tool {ctx.name()!r} has no inputSchema", key=False)
        return
    schema = raw["inputSchema"]
    if not isinstance(schema, dict):
        what = "null" if schema is None else type(schema).__name__
        ctx.emit(
            "INPUT_SCHEMA_REQUIRED",
            "/inputSchema",
            f"inputSchema must be a JSON Schema object, not {what}",
        )
        return
    t = schema.get("type")
    if t != "object":
        where = "/inputSchema/type" if "type" in schema else "/inputSchema"
        got = "no type" if "type" not in schema else f"type {t!r}"
        ctx.emit(
            "INPUT_SCHEMA_ROOT_OBJECT",
            where,
            f"inputSchema root must declare type: object (found {got})",
        )
    for kw in COMBINATORS:
        if kw in schema:
            ctx.emit(
                "INPUT_SCHEMA_ROOT_COMBINATOR",
                "/inputSchema/" + kw,
                f"inputSchema root uses {kw!r}; major model providers reject root-level "
                "combinators: move it below a property",
                key=True,
            )
    props = schema.get("properties")
    if (
        not props
        and "additionalProperties" not in schema
        and not any(k in schema for k in _ELSEWHERE + COMBINATORS)
    ):
        ctx.emit(
            "INPUT_SCHEMA_NO_PARAMS_OPEN",
            "/inputSchema",
            "tool takes no parameters: add `additionalProperties: false` (recommended by the spec)",
        )


rule(
    "SCHEMA_KEYWORD_AT_TOOL_LEVEL",
    LINT,
    W,
    "A JSON Schema keyword (additionalProperties, properties, required, type...) written on the "
    "tool itself instead of inside its inputSchema.",
    why="It is served as an unknown tool field that every client ignores: the constraint you "
    "meant (a closed input, a required argument) is not there.",
)

# Keywords that mean something inside a schema and nothing on a Tool. ``title`` and
# ``description`` are Tool fields too, so they are not on the list.
_SCHEMA_KEYWORDS = frozenset(
    {
        "additionalProperties",
        "properties",
        "required",
        "type",
        "items",
        "enum",
        "const",
        "$defs",
        "definitions",
        "$ref",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "patternProperties",
        "propertyNames",
        "unevaluatedProperties",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "if",
        "then",
        "else",
    }
)


@checker("SCHEMA_KEYWORD_AT_TOOL_LEVEL")
def check_tool_level_keywords(ctx: ToolCtx) -> None:
    for key in ctx.raw:
        if key in _SCHEMA_KEYWORDS:
            ctx.emit(
                "SCHEMA_KEYWORD_AT_TOOL_LEVEL",
                "/" + esc(key),
                f"{key!r} is a JSON Schema keyword on tool {ctx.name()!r} itself, where clients "
                "ignore it; did you mean inside inputSchema? (indent it under inputSchema:)",
                key=True,
            )


@checker("OUTPUT_SCHEMA_ROOT_OBJECT")
def check_output_root(ctx: ToolCtx) -> None:
    schema = ctx.raw.get("outputSchema")
    if not isinstance(schema, dict):
        return
    if schema.get("type") != "object":
        revs = ", ".join(ctx.revs("OUTPUT_SCHEMA_ROOT_OBJECT"))
        where = "/outputSchema/type" if "type" in schema else "/outputSchema"
        ctx.emit(
            "OUTPUT_SCHEMA_ROOT_OBJECT",
            where,
            f"outputSchema root must declare type: object for revision {revs} "
            "(other root types are allowed only from 2026-07-28)",
        )


@checker("SCHEMA_DIALECT_UNKNOWN", "SCHEMA_DIALECT_PORTABLE", "SCHEMA_VALID")
def check_dialect(ctx: ToolCtx) -> None:
    for field in ("inputSchema", "outputSchema"):
        if field not in ctx.raw:
            continue
        schema = ctx.raw[field]
        base = "/" + field
        if not isinstance(schema, dict):
            if field == "outputSchema":
                ctx.emit(
                    "SCHEMA_VALID", base, "outputSchema must be a JSON Schema object when present"
                )
            continue
        dialect, declared = dialect_of(schema)
        if dialect is None:
            ctx.emit(
                "SCHEMA_DIALECT_UNKNOWN",
                base + "/$schema",
                f"{field} declares unknown dialect {declared}; supported: 2020-12 (the default), "
                "2019-09, draft-07, draft-06, draft-04",
            )
            continue
        if dialect != D2020:
            revs = ctx.revs("SCHEMA_DIALECT_PORTABLE")
            if revs:
                ctx.emit(
                    "SCHEMA_DIALECT_PORTABLE",
                    base + "/$schema",
                    f"{field} uses {dialect}; revision {revs[0]} only guarantees 2020-12 "
                    "support and some clients reject other dialects",
                )
        if not ctx.active("SCHEMA_VALID"):
            continue
        errors = _dedupe(meta_errors(schema, dialect))
        for n, (ptr, msg) in enumerate(errors):
            if n == 5:
                ctx.emit("SCHEMA_VALID", base, f"{field}: further meta-schema errors omitted")
                break
            ctx.emit("SCHEMA_VALID", base + ptr, f"{field} is not a valid {dialect} schema: {msg}")
        problem = None if errors else rs_compile_problem(schema, dialect)
        # a ref to retrieve is REF_NETWORK's or REF_UNRESOLVED's finding already
        if problem is not None and "not present in a registry" not in problem:
            nodes = ctx.input_nodes if field == "inputSchema" else ctx.output_nodes
            refs = [n.pointer for n in nodes if f"'{n.schema.get('$ref')}'" in problem]
            ctx.emit(
                "SCHEMA_VALID",
                base + (refs[0] + "/$ref" if refs else ""),
                f"{field} cannot be compiled by jsonschema-rs, the runtime's validator "
                f"(every call would fail): {problem}"
                + (
                    "; percent-encode what is not ASCII"
                    if "Invalid URI reference" in problem
                    else ""
                ),
            )


@checker("OUTPUT_SCHEMA_PATTERN_PYTHON")
def check_output_patterns(ctx: ToolCtx) -> None:
    for node in ctx.output_nodes:
        found: list[tuple[str, object, bool]] = [
            (node.pointer + "/pattern", node.schema.get("pattern"), False)
        ]
        names = node.schema.get("patternProperties")
        if isinstance(names, dict):
            found += [(f"{node.pointer}/patternProperties/{esc(k)}", k, True) for k in names]
        for ptr, regex, is_name in found:
            if isinstance(regex, str) and regex_ok(regex) and not python_regex_ok(regex):
                ctx.emit(
                    "OUTPUT_SCHEMA_PATTERN_PYTHON",
                    "/outputSchema" + ptr,
                    f"Python's re cannot compile {regex!r}: the official Python SDK's client "
                    "refuses to call this tool (it checks the outputSchema with jsonschema); "
                    "write a pattern both read (e.g. [A-Za-z] for \\p{L}), or check it in the "
                    "handler",
                    key=is_name,
                )


def _dedupe(errs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    out = []
    for e in errs:
        if e not in seen:
            seen.add(e)
            out.append(e)
    return out


@checker("SCHEMA_REF_UNRESOLVED", "SCHEMA_REQUIRED_UNDEFINED")
def check_refs_and_required(ctx: ToolCtx) -> None:
    for field, nodes in (("inputSchema", ctx.input_nodes), ("outputSchema", ctx.output_nodes)):
        base = "/" + field
        refs = None
        for node in nodes:
            s = node.schema
            for kw in ("$ref", "$dynamicRef"):
                ref = s.get(kw)
                if isinstance(ref, str):
                    if refs is None:
                        refs = ctx.refs(field)
                    if refs.resolve(ref, node.base) is None:
                        ctx.emit(
                            "SCHEMA_REF_UNRESOLVED",
                            f"{base}{node.pointer}/{esc(kw)}",
                            _unresolved_message(field, ref),
                        )
            _check_required(ctx, base, node, is_root=node.pointer == "")


def _unresolved_message(field: str, ref: str) -> str:
    if ref.startswith(("http://", "https://")):
        return (
            f"{field}: $ref {ref!r} points at the network; clients never fetch remote schemas "
            "(bundle it into $defs)"
        )
    if not ref.startswith("#"):
        return f"{field}: $ref {ref!r} points outside the tool schema; bundle it into $defs"
    return f"{field}: $ref {ref!r} does not resolve inside the tool schema"


def _check_required(ctx: ToolCtx, base: str, node: Node, *, is_root: bool) -> None:
    s = node.schema
    req = s.get("required")
    if not isinstance(req, list) or not req:
        return
    props: Any = s.get("properties")
    if props is None and not is_root:
        return
    if any(k in s for k in _ELSEWHERE):
        return
    if not isinstance(props, dict):
        props = {}
    for i, name in enumerate(req):
        if isinstance(name, str) and name not in props:
            ctx.emit(
                "SCHEMA_REQUIRED_UNDEFINED",
                f"{base}{node.pointer}/required/{i}",
                f"required property {name!r} is not declared in properties",
            )
