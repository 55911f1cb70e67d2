"""Rules for resources, resource templates and prompts: URIs and their schemes, RFC 6570
syntax, duplicates, templates that can match the same URI, prompt arguments and placeholders,
MIME types, and fields a target revision does not have.

RFC 6570 parsing and matching use the official SDK's ``mcp.shared.uri_template``
(``mcpgen.uritemplates``: without importing the whole SDK).
"""

from __future__ import annotations

import re
from typing import Any

from mcpgen.check.context import ManifestCtx
from mcpgen.check.dialects import D2020, meta_errors, python_regex_ok
from mcpgen.check.registry import LINT, SPEC, E, I, W, checker, rule
from mcpgen.manifest.model import SectionItem
from mcpgen_runtime.jsonschema_facts import escape_token as esc
from mcpgen_runtime.revisions import FIELDS
from mcpgen_runtime.schemawalk import walk

_OWN = {"text", "handler", "variables", "messages", "completions"}

rule(
    "RESOURCE_URI_SCHEME",
    LINT,
    E,
    "A resource URI is absolute: it starts with a scheme (`file:`, `https:`, `myapp:`).",
    why=SPEC + " (`format: uri`). Clients resolve and key resources by URI; a relative "
    "reference means nothing to them.",
)
rule(
    "RESOURCE_URI_UNIQUE",
    LINT,
    E,
    "Resource URIs are unique, and so are resource template URIs.",
    why="`resources/read` names a resource by its URI: only one of the duplicates can be read.",
)
rule(
    "TEMPLATE_SYNTAX",
    LINT,
    E,
    "A resource template is a valid RFC 6570 URI template that mcpgen can match.",
    why="The server matches read URIs against it; an invalid template matches nothing, and "
    "clients cannot expand it either.",
)
rule(
    "TEMPLATE_VARIABLE_UNKNOWN",
    LINT,
    E,
    "`variables` declares only variables the URI template has.",
    why="A declared variable that the template lacks is never filled: its schema and "
    "completions are dead, usually a typo of the real name.",
)
rule(
    "TEMPLATE_OVERLAP",
    LINT,
    W,
    "No URI is matched by two resource templates, or by a template and a resource.",
    why="A read URI goes to the first match; the other template's handler never sees it.",
)
rule(
    "PROMPT_NAME_UNIQUE",
    LINT,
    E,
    "Prompt names are unique.",
    why="`prompts/get` names a prompt: only one of the duplicates can be got.",
)
rule(
    "PROMPT_ARGUMENT_NAME",
    LINT,
    E,
    "Prompt argument names are unique within the prompt and use A-Z a-z 0-9 _ - .",
    why="Arguments are a JSON object keyed by name: duplicates collapse, and other characters "
    "break placeholders and the typed client's keyword parameters.",
)
rule(
    "PROMPT_PLACEHOLDER_UNKNOWN",
    LINT,
    W,
    "Every `{placeholder}` in a static message is an argument of the prompt (write `{{` and "
    "`}}` for literal braces).",
    why="An unknown placeholder is sent as written, braces and all, to the model.",
)
rule(
    "PROMPT_PLACEHOLDER_OPTIONAL",
    LINT,
    W,
    "A placeholder names a required argument.",
    why="When the client omits an optional argument, its placeholder is sent as written.",
)
rule(
    "MIME_TYPE_SYNTAX",
    LINT,
    W,
    "`mimeType` is a media type: `type/subtype` (RFC 6838), e.g. `text/plain`.",
    why="Clients choose how to render contents by MIME type; an unparsable one is treated as "
    "opaque bytes.",
)
rule(
    "SURFACE_FIELD_REVISION",
    LINT,
    I,
    "Resource, template and prompt fields exist in every targeted revision (title and icons "
    "2025-06-18+ / 2025-11-25+); elsewhere the server leaves them out.",
    default_enabled=False,
    why="Off: the runtime serves each revision only the fields it has, so the field is just "
    "absent for older clients.",
)

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_ARG_NAME = re.compile(r"[A-Za-z0-9_.-]+\Z")
_MIME = re.compile(r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?\Z")
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
_SAMPLE = "mcpgen0"


def _duplicates(ctx: ManifestCtx, rule_id: str, items: tuple[SectionItem, ...], key: str) -> None:
    seen: dict[str, str] = {}
    for item in items:
        value = item.raw.get(key)
        if not isinstance(value, str):
            continue
        if value in seen:
            where = ctx.sink.location(seen[value])
            ctx.emit(
                rule_id,
                f"{item.pointer}/{key}",
                f"{key} {value!r} is used twice (first at {where.line}:{where.col})",
            )
        else:
            seen[value] = f"{item.pointer}/{key}"


def _mime(ctx: ManifestCtx, item: SectionItem) -> None:
    mime = item.raw.get("mimeType")
    if isinstance(mime, str) and not _MIME.match(mime):
        ctx.emit(
            "MIME_TYPE_SYNTAX",
            item.pointer + "/mimeType",
            f"mimeType {mime!r} is not a media type (type/subtype)",
        )


def _fields(ctx: ManifestCtx, item: SectionItem, kind: str) -> None:
    for key in item.raw:
        if key in _OWN or key.startswith("x-"):
            continue
        missing = [r for r in ctx.revisions if key not in FIELDS.get(r, {}).get(kind, {key})]
        if missing:
            ctx.emit(
                "SURFACE_FIELD_REVISION",
                f"{item.pointer}/{key}",
                f"{kind} field {key!r} does not exist in {', '.join(missing)}; the server "
                "leaves it out there",
                key=True,
            )


@checker(
    "RESOURCE_URI_SCHEME",
    "RESOURCE_URI_UNIQUE",
    "MIME_TYPE_SYNTAX",
    "SURFACE_FIELD_REVISION",
    scope="manifest",
)
def check_resources(ctx: ManifestCtx) -> None:
    m = ctx.manifest
    for item in m.resources:
        uri = item.raw.get("uri")
        if isinstance(uri, str) and not _SCHEME.match(uri):
            ctx.emit(
                "RESOURCE_URI_SCHEME",
                item.pointer + "/uri",
                f"resource URI {uri!r} has no scheme; write an absolute URI such as "
                f"'file:///{uri.lstrip('/')}' or 'myapp://{uri.lstrip('/')}'",
            )
        _mime(ctx, item)
        _fields(ctx, item, "Resource")
    _duplicates(ctx, "RESOURCE_URI_UNIQUE", m.resources, "uri")
    _duplicates(ctx, "RESOURCE_URI_UNIQUE", m.templates, "uriTemplate")


def _variable_schema(ctx: ManifestCtx, pointer: str, spec: Any) -> None:
    """A variable's schema types a handler argument (the generator builds a model from it): it
    must be a valid 2020-12 schema, as tool schemas must."""
    if not isinstance(spec, dict) or not ctx.active("SCHEMA_VALID"):
        return  # not an object: MANIFEST_SCHEMA says so
    schema = {k: v for k, v in spec.items() if k != "completions"}  # mcpgen's own key
    errors = meta_errors(schema, D2020)
    for n, (ptr, msg) in enumerate(errors):
        if n == 3:
            ctx.emit("SCHEMA_VALID", pointer, "further meta-schema errors omitted")
            break
        ctx.emit("SCHEMA_VALID", pointer + ptr, f"variable schema is not valid 2020-12: {msg}")
    if errors:
        return
    # Nothing but its model checks a variable (a tool's schema is checked by jsonschema-rs), and
    # pydantic may compile its patterns with Python's re (datamodel-code-generator switches a
    # model to it for a lookaround), so a variable's pattern must also be one `re` compiles.
    for node in walk(schema):
        names = node.schema.get("patternProperties")
        found = [(node.pointer + "/pattern", node.schema.get("pattern"), False)]
        if isinstance(names, dict):
            found += [(f"{node.pointer}/patternProperties/{esc(k)}", k, True) for k in names]
        for ptr, regex, is_name in found:
            if isinstance(regex, str) and not python_regex_ok(regex):
                ctx.emit(
                    "SCHEMA_VALID",
                    pointer + ptr,
                    f"variable schema: Python's re cannot compile {regex!r}, and a variable is "
                    "checked by its pydantic model alone, which may use re: write a pattern both "
                    "jsonschema-rs and re read (e.g. [A-Za-z] for \\p{L})",
                    key=is_name,
                )


@checker(
    "TEMPLATE_SYNTAX",
    "TEMPLATE_VARIABLE_UNKNOWN",
    "TEMPLATE_OVERLAP",
    "MIME_TYPE_SYNTAX",
    "SURFACE_FIELD_REVISION",
    "SCHEMA_VALID",
    scope="manifest",
)
def check_templates(ctx: ManifestCtx) -> None:
    m = ctx.manifest
    if not m.templates:
        return
    from mcpgen.uritemplates import uri_template_module

    rfc6570 = uri_template_module()
    InvalidUriTemplate, UriTemplate = rfc6570.InvalidUriTemplate, rfc6570.UriTemplate  # noqa: N806

    parsed: list[tuple[SectionItem, Any]] = []
    for item in m.templates:
        _mime(ctx, item)
        _fields(ctx, item, "ResourceTemplate")
        text = item.raw.get("uriTemplate")
        if not isinstance(text, str):
            continue
        try:
            template = UriTemplate.parse(text)
        except InvalidUriTemplate as exc:
            ctx.emit("TEMPLATE_SYNTAX", item.pointer + "/uriTemplate", f"{text!r}: {exc}")
            continue
        parsed.append((item, template))
        declared = item.raw.get("variables")
        declared = declared if isinstance(declared, dict) else {}
        for name, spec in declared.items():
            _variable_schema(ctx, f"{item.pointer}/variables/{esc(name)}", spec)
            if name not in template.variable_names:
                ctx.emit(
                    "TEMPLATE_VARIABLE_UNKNOWN",
                    f"{item.pointer}/variables/{name}",
                    f"variable {name!r} is not in the template {text!r} "
                    f"(it has {', '.join(template.variable_names) or 'none'})",
                    key=True,
                )
    for i, (item, template) in enumerate(parsed):
        sample = template.expand({v: _SAMPLE for v in template.variable_names})
        for other, other_template in parsed[i + 1 :]:
            if other_template.match(sample) is not None:
                ctx.emit(
                    "TEMPLATE_OVERLAP",
                    other.pointer + "/uriTemplate",
                    f"{sample!r} matches both this template and {str(template)!r}",
                )
        for resource in m.resources:
            uri = resource.raw.get("uri")
            if isinstance(uri, str) and template.match(uri) is not None:
                ctx.emit(
                    "TEMPLATE_OVERLAP",
                    item.pointer + "/uriTemplate",
                    f"the resource {uri!r} also matches this template (the resource wins)",
                )


@checker(
    "PROMPT_NAME_UNIQUE",
    "PROMPT_ARGUMENT_NAME",
    "PROMPT_PLACEHOLDER_UNKNOWN",
    "PROMPT_PLACEHOLDER_OPTIONAL",
    "SURFACE_FIELD_REVISION",
    scope="manifest",
)
def check_prompts(ctx: ManifestCtx) -> None:
    m = ctx.manifest
    _duplicates(ctx, "PROMPT_NAME_UNIQUE", m.prompts, "name")
    for item in m.prompts:
        _fields(ctx, item, "Prompt")
        args = item.raw.get("arguments")
        args = args if isinstance(args, list) else []
        required: dict[str, bool] = {}
        for i, a in enumerate(args):
            name = a.get("name") if isinstance(a, dict) else None
            if not isinstance(name, str):
                continue
            where = f"{item.pointer}/arguments/{i}/name"
            if name in required:
                ctx.emit("PROMPT_ARGUMENT_NAME", where, f"argument {name!r} is declared twice")
                continue
            if not _ARG_NAME.match(name):
                ctx.emit(
                    "PROMPT_ARGUMENT_NAME",
                    where,
                    f"argument name {name!r} uses characters other than A-Z a-z 0-9 _ - .",
                )
            required[name] = a.get("required") is True
        messages = item.raw.get("messages")
        for j, msg in enumerate(messages if isinstance(messages, list) else ()):
            text = msg.get("text") if isinstance(msg, dict) else None
            if not isinstance(text, str):
                continue
            for found in _PLACEHOLDER.finditer(text):
                name = found.group(1)
                if name is None:
                    continue
                where = f"{item.pointer}/messages/{j}/text"
                if name not in required:
                    ctx.emit(
                        "PROMPT_PLACEHOLDER_UNKNOWN",
                        where,
                        f"placeholder {{{name}}} is not an argument of prompt {item.name!r}; it "
                        "is sent as written",
                    )
                elif not required[name]:
                    ctx.emit(
                        "PROMPT_PLACEHOLDER_OPTIONAL",
                        where,
                        f"placeholder {{{name}}} names an optional argument; when it is "
                        "omitted the placeholder is sent as written (make it required)",
                    )
