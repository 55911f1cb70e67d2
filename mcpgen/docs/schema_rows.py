"""A JSON Schema as the rows of a reference table: one row per property, nested objects and
array items flattened into property paths (``location.city``, ``days[].high``). Pure.

Local ``$ref``s (``#/$defs/...``, ``#/definitions/...``) are followed; a schema reached again
through its own ``$ref`` is shown once and named, never expanded forever. Each row carries the
property's type, whether it is required, its constraints (in one fixed order), default,
description and examples, as plain strings the templates escape.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcpgen.docs.escape import json_text

__all__ = ["Row", "schema_rows"]

MAX_DEPTH = 8

# The keywords shown as constraints, in the order they are shown.
_CONSTRAINTS = (
    "const",
    "enum",
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "contentMediaType",
    "contentEncoding",
)


@dataclass(frozen=True)
class Row:
    path: str
    type: str
    required: bool
    constraints: tuple[str, ...]
    default: str | None
    description: str | None
    examples: tuple[str, ...]
    deprecated: bool = False


def _segment(name: str) -> str:
    """A property name as one path segment: quoted (JSON) when it could be misread."""
    plain = name and not any(c in name for c in ".[]\"' \n") and name.isprintable()
    return name if plain else json.dumps(name, ensure_ascii=False)


def _resolve(
    schema: Any, root: Mapping[str, Any], seen: frozenset[str]
) -> tuple[Any, str | None, frozenset[str]]:
    """Follow local ``$ref``s (keywords beside a ``$ref`` win over its target's). Returns the
    schema, the name of a ``$ref`` already in ``seen`` (a recursion: not followed, or None) and
    ``seen`` with every ``$ref`` followed."""
    while isinstance(schema, Mapping):
        ref = schema.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/"):
            break
        if ref in seen:
            return schema, ref.rsplit("/", 1)[-1], seen
        target: Any = root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, Mapping) else None
        if not isinstance(target, Mapping):
            break
        seen = seen | {ref}
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema, None, seen


def _type_of(schema: Any, root: Mapping[str, Any], seen: frozenset[str], depth: int = 0) -> str:
    if schema is True or schema == {}:
        return "any"
    if schema is False:
        return "nothing"
    if not isinstance(schema, Mapping) or depth > MAX_DEPTH:
        return "any"
    ref = schema.get("$ref")
    schema, recursive, seen = _resolve(schema, root, seen)
    if recursive is not None or not isinstance(schema, Mapping):
        return f"object ({recursive})" if recursive else "any"
    t = schema.get("type")
    if isinstance(t, list):
        text = " | ".join(str(x) for x in t)
    elif isinstance(t, str):
        text = t
    elif "const" in schema:
        text = type(schema["const"]).__name__.replace("str", "string").replace("NoneType", "null")
    elif "enum" in schema:
        text = "enum"
    else:
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                return " | ".join(_type_of(o, root, seen, depth + 1) for o in options)
        text = "object" if "properties" in schema else "any"
    if "array" in text.split(" | "):
        items = schema.get("items")
        if items is not None and not isinstance(items, list):
            inner = _type_of(items, root, seen, depth + 1)
            text = text.replace("array", f"array of {inner}", 1)
    if isinstance(ref, str) and text == "object":
        text = f"object ({ref.rsplit('/', 1)[-1]})"
    return text


def _constraints(schema: Mapping[str, Any]) -> tuple[str, ...]:
    out: list[str] = []
    for key in _CONSTRAINTS:
        if key in schema:
            out.append(f"{key}: {json_text(schema[key])}")
    if schema.get("additionalProperties") is False:
        out.append("no other properties")
    return tuple(out)


def _examples(schema: Mapping[str, Any]) -> tuple[str, ...]:
    ex = schema.get("examples")
    if isinstance(ex, list):
        return tuple(json_text(v) for v in ex)
    if "example" in schema:
        return (json_text(schema["example"]),)
    return ()


def schema_rows(schema: Mapping[str, Any] | None) -> list[Row]:
    """The rows of ``schema``'s properties (empty when it has none)."""
    if not isinstance(schema, Mapping):
        return []
    rows: list[Row] = []
    _object_rows(schema, schema, "", frozenset(), rows, 0)
    return rows


def _object_rows(
    schema: Any,
    root: Mapping[str, Any],
    prefix: str,
    seen: frozenset[str],
    rows: list[Row],
    depth: int,
) -> None:
    schema, recursive, seen = _resolve(schema, root, seen)
    if recursive is not None or not isinstance(schema, Mapping) or depth > MAX_DEPTH:
        return
    props = schema.get("properties")
    required = schema.get("required")
    required_names = set(required) if isinstance(required, list) else set()
    if isinstance(props, Mapping):
        for name, prop in props.items():
            path = f"{prefix}.{_segment(str(name))}" if prefix else _segment(str(name))
            _property_row(prop, root, path, name in required_names, seen, rows, depth)
    items = schema.get("items")
    if prefix and isinstance(items, Mapping):
        _object_rows(items, root, f"{prefix}[]", seen, rows, depth + 1)


def _property_row(
    prop: Any,
    root: Mapping[str, Any],
    path: str,
    required: bool,
    seen: frozenset[str],
    rows: list[Row],
    depth: int,
) -> None:
    resolved, recursive, _ = _resolve(prop, root, seen)
    body: Mapping[str, Any] = resolved if isinstance(resolved, Mapping) else {}
    description = body.get("description")
    title = body.get("title")
    if not isinstance(description, str):
        description = title if isinstance(title, str) else None
    rows.append(
        Row(
            path=path,
            type=_type_of(prop, root, seen),
            required=required,
            constraints=_constraints(body) if recursive is None else (),
            default=json_text(body["default"]) if "default" in body else None,
            description=description,
            examples=_examples(body),
            deprecated=body.get("deprecated") is True,
        )
    )
    if recursive is None:
        _object_rows(prop, root, path, seen, rows, depth + 1)
