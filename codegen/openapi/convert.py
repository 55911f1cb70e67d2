"""An OpenAPI 3.0/3.1 document -> a manifest (``mcpgen import openapi``). Pure: a parsed,
validated document in, the manifest's data and the skipped operations out.

One tool per selected operation:

* name: the ``operationId`` (else method and path) cleaned into the spec's tool-name characters
  and cut to ``max_name`` (a hash keeps cut names apart); collisions get ``_2``, ``_3``... in
  document order;
* description: ``summary`` and ``description`` (``deprecated`` said first);
* ``inputSchema``: one property per path, query, header and cookie parameter, and ``body`` for
  a JSON request body; where each goes on the wire is ``x-mcpgen.http`` (never served);
* ``outputSchema``: the first 2xx JSON response (a non-object wrapped as ``{result: ...}``);
* annotations from the method: GET read-only, DELETE destructive, PUT idempotent;
* ``#/components/schemas/X`` -> ``#/$defs/X`` (only those used); other local ``$ref``s
  (parameters, request bodies, responses) resolved; OpenAPI 3.0's ``nullable``, boolean
  ``exclusiveMinimum``/``exclusiveMaximum`` and ``example`` rewritten as JSON Schema 2020-12.

An operation mcpgen cannot serve (a body that is not JSON) is skipped with a reason; a
``$ref`` outside the document is refused with its location.
"""

from __future__ import annotations

import copy
import fnmatch
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from codegen.errors import McpgenError
from mcpgen_runtime.jsonschema_facts import escape_token, resolve_pointer

__all__ = ["Selection", "Skipped", "Converted", "convert"]

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
_NAME_BAD = re.compile(r"[^A-Za-z0-9_.-]+")
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


class _Refs:
    """Local ``$ref`` handling for one document: schema refs kept (as ``$defs``), the rest
    resolved; cycles and external refs refused with their pointer."""

    def __init__(self, doc: Mapping[str, Any], locate: Any) -> None:
        self.doc, self.locate = doc, locate
        self.used: dict[str, Any] = {}
        self.dropped: list[str] = []
        """Pointers of ``pattern``s left out: not a regex mcpgen can check (``\\p{L}``...)."""

    def fail(self, message: str, pointer: str) -> McpgenError:
        line, col = self.locate(pointer)
        return McpgenError(message, line=line, col=col)

    def resolve(self, node: Any, pointer: str, seen: tuple[str, ...] = ()) -> tuple[Any, str]:
        """A parameter, request body or response object with its ``$ref`` followed."""
        while isinstance(node, Mapping) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if not ref.startswith("#/"):
                raise self.fail(
                    f"external $ref {ref!r} is not supported (local refs only)", pointer
                )
            if ref in seen:
                raise self.fail(f"$ref cycle through {ref!r}", pointer)
            seen = (*seen, ref)
            ok, target = resolve_pointer(self.doc, ref[1:])
            if not ok:
                raise self.fail(f"$ref {ref!r} points at nothing in the document", pointer)
            node, pointer = target, ref[1:]
        return node, pointer

    def schema(self, node: Any, pointer: str, openapi30: bool) -> Any:
        """A schema rewritten for JSON Schema 2020-12, component refs kept as ``$defs``."""
        if isinstance(node, list):
            return [self.schema(v, f"{pointer}/{i}", openapi30) for i, v in enumerate(node)]
        if not isinstance(node, Mapping):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            here = f"{pointer}/{escape_token(str(key))}"
            if key == "$ref" and isinstance(value, str):
                out[key] = self._schema_ref(value, here, openapi30)
            elif key in _DROPPED:
                continue
            elif key in ("properties", "patternProperties", "$defs", "definitions") and isinstance(
                value, Mapping
            ):
                out[key] = {
                    k: self.schema(v, f"{here}/{escape_token(str(k))}", openapi30)
                    for k, v in value.items()
                }
            elif isinstance(value, (Mapping, list)) and key not in (
                "enum",
                "const",
                "example",
                "examples",
                "default",
            ):
                out[key] = self.schema(value, here, openapi30)
            else:
                out[key] = value
        if openapi30:
            _from_openapi30(out)
        self._mend(out, pointer)
        return out

    def _mend(self, out: dict[str, Any], pointer: str) -> None:
        """What real documents get wrong that mcpgen would refuse: a ``pattern`` that is not
        a regex ``check`` can compile (left out, and reported), and ``required`` names the
        object does not declare (declared, unconstrained: the same meaning)."""
        from codegen.check.dialects import regex_ok

        pattern = out.get("pattern")
        if isinstance(pattern, str) and not regex_ok(pattern):
            del out["pattern"]
            self.dropped.append(f"{pointer}/pattern")
        pprops = out.get("patternProperties")
        if isinstance(pprops, dict):
            for key in [k for k in pprops if not regex_ok(str(k))]:
                del pprops[key]
                self.dropped.append(f"{pointer}/patternProperties/{escape_token(str(key))}")
        required, props = out.get("required"), out.get("properties")
        if isinstance(required, list) and isinstance(props, dict):
            for name in required:
                if isinstance(name, str) and name not in props:
                    props[name] = {}

    def _schema_ref(self, ref: str, pointer: str, openapi30: bool) -> str:
        if not ref.startswith("#/"):
            raise self.fail(f"external $ref {ref!r} is not supported (local refs only)", pointer)
        if not ref.startswith(_SCHEMA_PREFIX) or "/" in ref[len(_SCHEMA_PREFIX) :]:
            raise self.fail(
                f"$ref {ref!r}: only #/components/schemas/<name> refs are supported in schemas",
                pointer,
            )
        name = ref[len(_SCHEMA_PREFIX) :]
        if name not in self.used:
            ok, target = resolve_pointer(self.doc, ref[1:])
            if not ok:
                raise self.fail(f"$ref {ref!r} points at nothing in the document", pointer)
            self.used[name] = None  # placeholder: a recursive schema refers to itself
            self.used[name] = self.schema(target, ref[1:], openapi30)
        return "#/$defs/" + name


def _from_openapi30(schema: dict[str, Any]) -> None:
    """OpenAPI 3.0's schema dialect -> JSON Schema 2020-12, in place."""
    if schema.pop("nullable", False) is True:
        typ = schema.get("type")
        if isinstance(typ, str):
            schema["type"] = [typ, "null"]
            if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
                schema["enum"] = [*schema["enum"], None]
        elif inner := {k: schema.pop(k) for k in _COMPOSED if k in schema}:
            schema["anyOf"] = [inner, {"type": "null"}]
    for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        flag = schema.get(bound)
        if isinstance(flag, bool):
            del schema[bound]
            if flag and limit in schema:
                schema[bound] = schema.pop(limit)
    if "example" in schema:
        schema.setdefault("examples", [schema.pop("example")])


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


def convert(
    doc: Mapping[str, Any], locate: Any, selection: Selection = Selection(), max_name: int = 64
) -> Converted:
    """``locate(pointer) -> (line, col)`` places errors in the source document."""
    openapi30 = str(doc.get("openapi", "")).startswith("3.0")
    refs = _Refs(doc, locate)
    out = Converted()
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
                tool = _tool(refs, openapi30, method, str(path), item, item_ptr, op, op_ptr)
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
    item: Mapping[str, Any],
    item_ptr: str,
    op: Mapping[str, Any],
    op_ptr: str,
) -> dict[str, Any]:
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
    properties: dict[str, Any] = {}
    required: list[str] = []
    wire: dict[str, dict[str, str]] = {}
    for (where, name), (p, p_ptr) in params.items():
        prop = name if name not in properties else f"{where}_{name}"
        schema = p.get("schema")
        if schema is None:
            _media, schema = _json_content(p.get("content"))
        schema = refs.schema(schema if schema is not None else {}, f"{p_ptr}/schema", openapi30)
        if isinstance(schema, dict) and isinstance(p.get("description"), str):
            schema = {**schema, "description": p["description"]}
        properties[prop] = schema
        if where == "path" or p.get("required") is True:
            required.append(prop)
        wire[prop] = {"in": where, "name": name}
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
    security = op.get("security", refs.doc.get("security"))
    schemes = sorted(
        {str(name) for req in security or () if isinstance(req, Mapping) for name in req}
    )
    if schemes:
        binding["security"] = schemes
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
