"""OpenAPI schemas -> JSON Schema 2020-12 for a manifest, and ``$ref`` handling: component
schemas kept as ``$defs`` (those in other files too, with ``--allow-external-refs``), other refs
(parameters, request bodies, responses, path items) followed; cycles refused at their place."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from mcpgen.errors import McpgenError
from mcpgen.openapi.external import Sources
from mcpgen_runtime.jsonschema_facts import escape_token, resolve_pointer, unescape_token

__all__ = ["NAME_BAD", "Refs"]

NAME_BAD = re.compile(r"[^A-Za-z0-9_.-]+")
_SCHEMA_PREFIX = "#/components/schemas/"
_DROPPED = ("xml", "externalDocs")
_COMPOSED = ("$ref", "allOf", "oneOf", "anyOf")


class Refs:
    """Local ``$ref`` handling for one document: schema refs kept (as ``$defs``), the rest
    resolved; cycles and external refs refused with their pointer."""

    def __init__(self, src: Sources) -> None:
        self.src = src
        self.doc = src.main.value
        self.used: dict[str, Any] = {}
        self.dropped: list[str] = []
        """Pointers of ``pattern``s left out: not a regex mcpgen can check (``\\p{L}``...)."""
        self.external: dict[str, str] = {}
        """``FILE#/ptr`` of a schema in another file -> its ``$defs`` name."""

    def fail(self, message: str, pointer: str) -> McpgenError:
        return self.src.fail(message, pointer)

    def resolve(self, node: Any, pointer: str, seen: tuple[str, ...] = ()) -> tuple[Any, str]:
        """A parameter, request body or response object with its ``$ref`` followed."""
        while isinstance(node, Mapping) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if ref.startswith("#") and not ref.startswith("#/") and ref != "#":
                raise self.fail(f"$ref {ref!r} is not a JSON pointer", pointer)
            target = self.src.target(ref, pointer)
            if target in seen:
                raise self.fail(f"$ref cycle through {ref!r}", pointer)
            seen = (*seen, target)
            ok, value = self.src.value(target)
            if not ok:
                raise self.fail(f"$ref {ref!r} points at nothing in the document", pointer)
            node, pointer = value, target
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
            elif key in _DROPPED or (key in ("$defs", "definitions") and _elsewhere(pointer)):
                continue  # another file's definitions become $defs entries when used
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
        from mcpgen.check.dialects import regex_ok

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
        if not ref.startswith("#/") or Sources.split(pointer)[0] is not None:
            return "#/$defs/" + self._external_ref(ref, pointer, openapi30)
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

    def _external_ref(self, ref: str, pointer: str, openapi30: bool) -> str:
        """A schema in another file (``--allow-external-refs``): kept as a ``$defs`` entry
        named for the last pointer token (or the file's stem), apart from every other name."""
        target = self.src.target(ref, pointer)
        if target in self.external:
            return self.external[target]
        key, ptr = Sources.split(target)
        if key is None:  # another file's ref back into the main document
            return self._schema_ref("#" + ptr, "", openapi30).removeprefix("#/$defs/")
        ok, value = self.src.value(target)
        if not ok:
            raise self.fail(f"$ref {ref!r} points at nothing in that file", pointer)
        last = ptr.rsplit("/", 1)[-1] if ptr else PurePosixPath(key).stem
        base = NAME_BAD.sub("_", unescape_token(last)).strip("_") or "schema"
        main = self.doc.get("components", {}).get("schemas", {})
        name, n = base, 2
        while name in self.used or name in self.external.values() or name in main:
            name, n = f"{base}_{n}", n + 1
        self.external[target] = name
        self.used[name] = None  # placeholder: a recursive schema refers to itself
        self.used[name] = self.schema(value, target, openapi30)
        return name


def _elsewhere(pointer: str) -> bool:
    return Sources.split(pointer)[0] is not None


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
