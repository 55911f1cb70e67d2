"""Rules for tools that forward to an HTTP API (``x-mcpgen.http``, written by ``mcpgen import
openapi``): what a model-chosen argument may reach. The runtime enforces each of these at call
time (``mcpgen_runtime.server.forward_params``); the rules say so before the server runs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcpgen.check.context import ToolCtx
from mcpgen.check.registry import LINT, E, W, checker, rule
from mcpgen_runtime.http_places import RESERVED_HEADERS, STYLES, credential_places, may_be_empty
from mcpgen_runtime.jsonschema_facts import escape_token, resolve_pointer

rule(
    "HTTP_PATH_UNBOUNDED",
    LINT,
    W,
    "A string argument bound to a URL path segment has a `minLength`, `pattern`, `format` or "
    "`enum` that rules out an empty value.",
    why="The runtime refuses an empty value, `.`, `..` and values holding `/` in a path "
    'argument, because each would reach another endpoint (`/pets/{id}` with `id=""` is '
    "`/pets/`, the collection). A schema that allows them tells the model a call is valid that "
    "is then refused; `mcpgen import openapi` adds `minLength: 1`.",
)
rule(
    "HTTP_RESERVED_HEADER",
    LINT,
    E,
    "No argument is bound to a header the request's framing, target or credentials depend on "
    "(Host, Authorization, Content-Type, Content-Length, Transfer-Encoding, Cookie, "
    "hop-by-hop headers...).",
    why="OpenAPI says header parameters named Accept, Content-Type and Authorization SHALL be "
    "ignored, and Host or a hop-by-hop header set by a model could send the call elsewhere or "
    "reframe it. The runtime never sends them from arguments, so the argument does nothing.",
)
rule(
    "HTTP_CREDENTIAL_CLASH",
    LINT,
    W,
    "No argument is bound to the same place and name as a credential the tool's security "
    "schemes send.",
    why="The credential always wins (the runtime sends the operator's, never the model's), so "
    "the argument is either useless or an attempt to replace the credential.",
)
rule(
    "HTTP_STYLE",
    LINT,
    E,
    "A parameter's `style` is one OpenAPI defines for its location.",
    why="The runtime serializes each argument in its style; a style the location does not "
    "define (deepObject in a path) has no defined wire form, and the call is refused.",
)
rule(
    "HTTP_SECURITY_UNDECLARED",
    LINT,
    E,
    "Every security scheme a tool's `x-mcpgen.http.security` names is in "
    "`server.http.securitySchemes`.",
    why="A scheme the server does not declare has no credential to send, so every call of the "
    "tool fails.",
)


def _schema_of(root: Any, schema: Any) -> Any:
    ref = schema.get("$ref") if isinstance(schema, Mapping) else None
    if isinstance(ref, str) and ref.startswith("#"):
        found, target = resolve_pointer(root, ref[1:])
        return target if found else schema
    return schema


@checker(
    "HTTP_PATH_UNBOUNDED",
    "HTTP_RESERVED_HEADER",
    "HTTP_CREDENTIAL_CLASH",
    "HTTP_STYLE",
    "HTTP_SECURITY_UNDECLARED",
)
def check_http_binding(ctx: ToolCtx) -> None:
    ext = ctx.raw.get("x-mcpgen")
    binding = ext.get("http") if isinstance(ext, Mapping) else None
    if not isinstance(binding, Mapping):
        return
    api = ctx.manifest.server.http or {}
    found = api.get("securitySchemes")
    schemes: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    used: set[str] = set()
    security = binding.get("security")
    for i, alt in enumerate(security if isinstance(security, list) else ()):
        names = alt if isinstance(alt, list) else [alt]
        for j, name in enumerate(names):
            used.add(str(name))
            if str(name) not in schemes:
                ctx.emit(
                    "HTTP_SECURITY_UNDECLARED",
                    f"/x-mcpgen/http/security/{i}" + (f"/{j}" if isinstance(alt, list) else ""),
                    f"tool {ctx.name()!r} uses security scheme {name!r}, which "
                    "server.http.securitySchemes does not declare",
                )
    credentials = credential_places(dict(schemes), used)
    props = ctx.raw.get("inputSchema", {}).get("properties")
    props = props if isinstance(props, Mapping) else {}
    params = binding.get("parameters")
    for prop, place in params.items() if isinstance(params, Mapping) else ():
        if not isinstance(place, Mapping):
            continue
        ptr = f"/x-mcpgen/http/parameters/{escape_token(str(prop))}"
        where, name = str(place.get("in")), str(place.get("name"))
        style = place.get("style")
        if style is not None and style not in STYLES.get(where, ()):
            ctx.emit(
                "HTTP_STYLE",
                ptr + "/style",
                f"style {style!r} is not defined for {where} parameters "
                f"({', '.join(STYLES.get(where, ()))})",
            )
        if where == "header" and name.lower() in RESERVED_HEADERS:
            ctx.emit(
                "HTTP_RESERVED_HEADER",
                ptr + "/name",
                f"argument {prop!r} is bound to header {name!r}, which an argument never sets "
                "(the runtime does not send it)",
            )
        key = name.lower() if where == "header" else name
        if (where, key) in credentials:
            ctx.emit(
                "HTTP_CREDENTIAL_CLASH",
                ptr,
                f"argument {prop!r} is sent where security scheme {credentials[(where, key)]!r} "
                f"puts its credential ({where} {name!r}); the credential wins",
            )
        if where == "path":
            schema = _schema_of(ctx.raw.get("inputSchema"), props.get(prop))
            if may_be_empty(schema):
                ctx.emit(
                    "HTTP_PATH_UNBOUNDED",
                    f"/inputSchema/properties/{escape_token(str(prop))}",
                    f"argument {prop!r} fills a URL path segment, but its schema allows an empty "
                    "value: add minLength: 1 (or a pattern, format or enum)",
                )
