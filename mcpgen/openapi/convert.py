"""An OpenAPI 3.0/3.1 document -> a manifest (``mcpgen import openapi``). Pure: a parsed,
validated document in, the manifest's data and the skipped operations out.

One tool per selected operation:

* name: the ``operationId`` (else method and path) cleaned into the spec's tool-name characters
  and cut to ``max_name`` (a hash keeps cut names apart); collisions get ``_2``, ``_3``... in
  document order;
* description: ``summary`` and ``description`` (``deprecated`` said first);
* ``inputSchema``: one property per path, query, header and cookie parameter, and ``body`` for
  a JSON request body; where each goes on the wire is ``x-mcpgen.http`` (never served), with
  its ``style``/``explode`` where not the location's default; a string path parameter gets
  ``minLength: 1`` unless its schema narrows it. Left out, with a warning: header parameters
  an argument must not set (``RESERVED_HEADERS``) and parameters where a credential of the
  operation's security goes;
* ``security``: the operation's one requirement (``[A, B]``: both) or its alternatives
  (``[[A], [B]]``: either; ``[]`` among them: none needed);
* ``outputSchema``: the first 2xx JSON response (a non-object wrapped as ``{result: ...}``);
* annotations from the method: GET read-only, DELETE destructive, PUT idempotent;
* ``#/components/schemas/X`` -> ``#/$defs/X`` (only those used); other local ``$ref``s
  (parameters, request bodies, responses) resolved; OpenAPI 3.0's ``nullable``, boolean
  ``exclusiveMinimum``/``exclusiveMaximum`` and ``example`` rewritten as JSON Schema 2020-12.

An operation mcpgen cannot serve (a body that is not JSON) is skipped with a reason. Schemas in
other files (``--allow-external-refs``, see ``external``) become ``$defs`` entries too.
"""

from __future__ import annotations

import copy
import fnmatch
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mcpgen.openapi.external import Sources
from mcpgen.openapi.schemas import NAME_BAD as _NAME_BAD
from mcpgen.openapi.schemas import Refs as _Refs
from mcpgen.openapi.security import forwarded_schemes, requirements
from mcpgen_runtime.http_places import (
    DEFAULT_STYLE,
    RESERVED_HEADERS,
    STYLES,
    credential_places,
    may_be_empty,
)
from mcpgen_runtime.jsonschema_facts import escape_token

__all__ = ["Selection", "Skipped", "Converted", "convert"]

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
_SCHEMA_PREFIX = "#/components/schemas/"
_DROPPED = ("xml", "externalDocs")
_LOCATIONS = ("path", "query", "header", "cookie")
_COMPOSED = ("$ref", "allOf", "oneOf", "anyOf")


@dataclass(frozen=True)
class Selection:
    include_tags: frozenset[str] = frozenset()
    exclude_tags: frozenset[str] = frozenset()
    operations: frozenset[str] = frozenset()
    paths: tuple[str, ...] = ()

    def wants(self, op: Mapping[str, Any], path: str) -> bool:
        tags = {t for t in op.get("tags") or () if isinstance(t, str)}
        if self.include_tags and not tags & self.include_tags:
            return False
        if tags & self.exclude_tags:
            return False
        if self.operations and op.get("operationId") not in self.operations:
            return False
        return not self.paths or any(fnmatch.fnmatchcase(path, g) for g in self.paths)


@dataclass(frozen=True)
class Skipped:
    pointer: str
    operation: str
    reason: str


@dataclass
class Converted:
    tools: list[dict[str, Any]] = field(default_factory=list)
    defs: dict[str, Any] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)
    """(operation, tool name) where the name is not the operationId as written."""
    dropped_patterns: list[str] = field(default_factory=list)
    """Where a ``pattern`` was left out (not a regex mcpgen can check)."""
    warnings: list[tuple[str, str]] = field(default_factory=list)
    """(pointer, message): parameters left out, and why."""


def tool_name(raw: str, max_name: int) -> str:
    name = _NAME_BAD.sub("_", raw).strip("_.-") or "operation"
    if len(name) > max_name:
        digest = hashlib.sha1(raw.encode(), usedforsecurity=False).hexdigest()[:8]
        name = name[: max_name - 9].rstrip("_.-") + "_" + digest
    return name


def _json_content(content: Any) -> tuple[str | None, Any]:
    """(media type, schema) of the JSON entry of a ``content`` map; (None, None) if none."""
    if not isinstance(content, Mapping):
        return None, None
    for media, entry in content.items():
        base = str(media).split(";")[0].strip().lower()
        if base == "application/json" or base.endswith("+json"):
            schema = entry.get("schema") if isinstance(entry, Mapping) else None
            return str(media), schema if schema is not None else {}
    return None, None


def convert(sources: Sources, selection: Selection = Selection(), max_name: int = 64) -> Converted:
    """``sources`` (``load.load_openapi``): the document, and the files its external
    ``$ref``s reach; errors are placed in whichever holds them."""
    doc = sources.main.value
    openapi30 = str(doc.get("openapi", "")).startswith("3.0")
    refs = _Refs(sources)
    out = Converted()
    usable = forwarded_schemes(doc)
    unusable: set[str] = set()
    taken: set[str] = set()
    paths = doc.get("paths") or {}
    for path, item in paths.items() if isinstance(paths, Mapping) else ():
        path_ptr = "/paths/" + escape_token(str(path))
        item, item_ptr = refs.resolve(item, path_ptr)
        if not isinstance(item, Mapping):
            continue
        for method in METHODS:
            op = item.get(method)
            if not isinstance(op, Mapping) or not selection.wants(op, str(path)):
                continue
            op_ptr = f"{item_ptr}/{method}"
            label = str(op.get("operationId") or f"{method.upper()} {path}")
            try:
                tool = _tool(
                    refs,
                    openapi30,
                    method,
                    str(path),
                    (item, item_ptr),
                    (op, op_ptr),
                    (usable, unusable),
                    out.warnings,
                )
            except _Skip as skip:
                out.skipped.append(Skipped(op_ptr, label, str(skip)))
                continue
            raw = str(op.get("operationId") or f"{method}_{path}")
            name = base = tool_name(raw, max_name)
            n = 2
            while name in taken:
                suffix = f"_{n}"
                name = base[: max_name - len(suffix)] + suffix
                n += 1
            taken.add(name)
            if name != op.get("operationId"):
                out.renamed.append((label, name))
            out.tools.append({"name": name, **tool})
    for name in sorted(unusable):
        out.warnings.append(
            (
                f"/components/securitySchemes/{escape_token(name)}",
                f"security scheme {name!r} cannot be forwarded (mcpgen sends bearer, basic, API "
                "key and OAuth 2 access tokens): operations that need it are imported without it",
            )
        )
    out.defs = {k: v for k, v in refs.used.items() if v is not None}
    out.dropped_patterns = sorted(set(refs.dropped))
    return out


class _Skip(Exception):
    """An operation mcpgen cannot serve; the message is the reason."""


def _tool(
    refs: _Refs,
    openapi30: bool,
    method: str,
    path: str,
    item_at: tuple[Mapping[str, Any], str],
    op_at: tuple[Mapping[str, Any], str],
    schemes: tuple[Mapping[str, Any], set[str]],
    warnings: list[tuple[str, str]],
) -> dict[str, Any]:
    """One operation's tool; ``schemes``: the forwardable security schemes, and the names of
    others it met (filled here)."""
    item, item_ptr = item_at
    op, op_ptr = op_at
    usable, unusable = schemes
    params: dict[tuple[str, str], tuple[Mapping[str, Any], str]] = {}
    for where, ptr in ((item.get("parameters"), item_ptr), (op.get("parameters"), op_ptr)):
        for i, raw in enumerate(where if isinstance(where, list) else ()):
            p, p_ptr = refs.resolve(raw, f"{ptr}/parameters/{i}")
            if (
                isinstance(p, Mapping)
                and p.get("in") in _LOCATIONS
                and isinstance(p.get("name"), str)
                and p["name"]  # a parameter without a name cannot be sent
            ):
                params[(p["in"], p["name"])] = (p, p_ptr)  # the operation's win
    alternatives = requirements(op.get("security", refs.doc.get("security")))
    unusable.update(s for alt in alternatives for s in alt if s not in usable)
    alternatives = [alt for alt in alternatives if all(s in usable for s in alt)]
    credentials = credential_places(dict(usable), {s for alt in alternatives for s in alt})
    properties: dict[str, Any] = {}
    required: list[str] = []
    wire: dict[str, dict[str, Any]] = {}
    for (where, name), (p, p_ptr) in params.items():
        key = name.lower() if where == "header" else name
        if where == "header" and key in RESERVED_HEADERS:
            warnings.append(
                (
                    p_ptr,
                    f"header parameter {name!r} left out: not an argument's to set "
                    "(OpenAPI ignores Accept, Content-Type and Authorization; Host and hop-by-hop "
                    "headers would reframe the request)",
                )
            )
            continue
        if (where, key) in credentials:
            warnings.append(
                (
                    p_ptr,
                    f"{where} parameter {name!r} left out: security scheme "
                    f"{credentials[(where, key)]!r} sends its credential there",
                )
            )
            continue
        style = p.get("style")
        if style is not None and style not in STYLES[where]:
            raise _Skip(f"style {style!r} is not defined for {where} parameter {name!r}")
        prop = name if name not in properties else f"{where}_{name}"
        schema = p.get("schema")
        content_type = None
        if schema is None:
            content_type, schema = _json_content(p.get("content"))
        schema = refs.schema(schema if schema is not None else {}, f"{p_ptr}/schema", openapi30)
        if isinstance(schema, dict) and isinstance(p.get("description"), str):
            schema = {**schema, "description": p["description"]}
        if (
            where == "path"
            and isinstance(schema, dict)
            and schema.get("type") == "string"
            and may_be_empty(schema)
        ):
            schema = {**schema, "minLength": 1}  # "" would call another endpoint
        properties[prop] = schema
        if where == "path" or p.get("required") is True:
            required.append(prop)
        place: dict[str, Any] = {"in": where, "name": name}
        if style is not None and style != DEFAULT_STYLE[where]:
            place["style"] = style
        explode = p.get("explode")
        if isinstance(explode, bool) and explode != ((style or DEFAULT_STYLE[where]) == "form"):
            place["explode"] = explode
        if content_type is not None:
            place["content"] = "application/json"
        wire[prop] = place
    body_prop = None
    body_raw = op.get("requestBody")
    if body_raw is not None:
        body, body_ptr = refs.resolve(body_raw, f"{op_ptr}/requestBody")
        content = body.get("content") if isinstance(body, Mapping) else None
        media, schema = _json_content(content)
        if media is None:
            kinds = (
                ", ".join(sorted(str(m) for m in content))
                if isinstance(content, Mapping)
                else "none"
            )
            raise _Skip(f"the request body is not JSON ({kinds})")
        body_prop = "body" if "body" not in properties else "request_body"
        properties[body_prop] = refs.schema(schema, f"{body_ptr}/content", openapi30)
        if body.get("required") is True:
            required.append(body_prop)
    input_schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    tool: dict[str, Any] = {}
    text = "\n\n".join(
        t.strip()
        for t in (op.get("summary"), op.get("description"))
        if isinstance(t, str) and t.strip()
    )
    if op.get("deprecated") is True:
        text = "Deprecated. " + text if text else "Deprecated."
    if text:
        tool["description"] = text
    hints = {
        "get": {"readOnlyHint": True},
        "delete": {"destructiveHint": True},
        "put": {"idempotentHint": True},
    }.get(method)
    if hints:
        tool["annotations"] = hints
    tool["inputSchema"] = input_schema
    binding: dict[str, Any] = {"method": method.upper(), "path": path}
    if wire:
        binding["parameters"] = wire
    if body_prop:
        binding["body"] = body_prop
    if len(alternatives) == 1 and alternatives[0]:
        binding["security"] = alternatives[0]  # one requirement: its schemes, all needed
    elif any(alternatives):
        binding["security"] = alternatives
    output = _output(refs, openapi30, op, op_ptr)
    if output is not None:
        schema, wrapped = output
        tool["outputSchema"] = schema
        if wrapped:
            binding["response"] = "wrapped"
    tool["x-mcpgen"] = {"http": binding}
    return tool


def _output(
    refs: _Refs, openapi30: bool, op: Mapping[str, Any], op_ptr: str
) -> tuple[dict[str, Any], bool] | None:
    responses = op.get("responses")
    if not isinstance(responses, Mapping):
        return None
    by_code = {str(code): resp for code, resp in responses.items()}
    for code in sorted(by_code):
        if not (code.startswith("2") and len(code) == 3):
            continue
        resp, resp_ptr = refs.resolve(by_code[code], f"{op_ptr}/responses/{escape_token(code)}")
        media, schema = _json_content(resp.get("content") if isinstance(resp, Mapping) else None)
        if media is None:
            return None
        converted = refs.schema(schema, f"{resp_ptr}/content", openapi30)
        obj = _as_object(converted, refs)
        if obj is not None:
            return obj, False
        return {"type": "object", "properties": {"result": converted}, "required": ["result"]}, True
    return None


def _as_object(schema: Any, refs: _Refs) -> dict[str, Any] | None:
    """``schema`` as an object schema (a lone ``$ref`` to an object component inlined), or
    None when it does not describe an object."""
    if not isinstance(schema, Mapping):
        return None
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and len(schema) == 1:
        target = refs.used.get(ref[len("#/$defs/") :])
        if isinstance(target, Mapping) and target.get("type") == "object":
            return copy.deepcopy(dict(target))
        return None
    return dict(schema) if schema.get("type") == "object" else None
