"""What changed for the types between two MCP revisions: types added/removed, fields
added/removed/retyped, required-ness changes. Works on the schemas (not on generated code)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from mcpgen.protocol.transforms import definitions


@dataclass(frozen=True, order=True)
class Change:
    type_name: str
    # type-added | type-removed | field-added | field-removed | field-retyped | required-added |
    # required-removed
    kind: str
    field: str = ""
    old: str = ""
    new: str = ""

    def describe(self) -> str:
        target = f"{self.type_name}.{self.field}" if self.field else self.type_name
        if self.kind == "field-retyped":
            return f"~ {target}: {self.old} -> {self.new}"
        sign = {
            "type-added": "+",
            "field-added": "+",
            "type-removed": "-",
            "field-removed": "-",
        }.get(self.kind, "*")
        detail = f": {self.new or self.old}" if self.kind.startswith("field") else ""
        label = self.kind.replace("-", " ")
        return f"{sign} {target} ({label}){detail}"


def signature(schema: Any) -> str:
    """A short, stable, human-readable type for a property schema."""
    if not isinstance(schema, dict):
        return "any"
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return " | ".join(signature(s) for s in schema[key])
    if isinstance(schema.get("allOf"), list):
        return " & ".join(signature(s) for s in schema["allOf"])
    typ = schema.get("type")
    if isinstance(typ, list):
        return " | ".join(str(t) for t in typ)
    if typ == "array":
        return f"array[{signature(schema.get('items'))}]"
    if (
        typ == "object"
        and isinstance(schema.get("additionalProperties"), dict)
        and not schema.get("properties")
    ):
        return f"map[{signature(schema['additionalProperties'])}]"
    if isinstance(typ, str):
        return typ
    return "any"


def _fields(defn: dict[str, Any]) -> tuple[dict[str, str], set[str]]:
    raw = defn.get("properties")
    props: dict[str, Any] = raw if isinstance(raw, dict) else {}
    required = set(defn.get("required") or [])
    for part in defn.get("allOf") or []:  # 2025-11-25 composes a few types with allOf
        if isinstance(part, dict) and isinstance(part.get("properties"), dict):
            props = {**part["properties"], **props}
            required |= set(part.get("required") or [])
    return {name: signature(s) for name, s in props.items()}, required


def diff_revisions(old_doc: dict[str, Any], new_doc: dict[str, Any]) -> list[Change]:
    _, old_defs = definitions(old_doc)
    _, new_defs = definitions(new_doc)
    changes: list[Change] = []
    for name in sorted(set(new_defs) - set(old_defs)):
        changes.append(Change(name, "type-added"))
    for name in sorted(set(old_defs) - set(new_defs)):
        changes.append(Change(name, "type-removed"))
    for name in sorted(set(old_defs) & set(new_defs)):
        old_fields, old_req = _fields(old_defs[name])
        new_fields, new_req = _fields(new_defs[name])
        for f in sorted(set(new_fields) - set(old_fields)):
            changes.append(Change(name, "field-added", f, new=new_fields[f]))
        for f in sorted(set(old_fields) - set(new_fields)):
            changes.append(Change(name, "field-removed", f, old=old_fields[f]))
        for f in sorted(set(old_fields) & set(new_fields)):
            if old_fields[f] != new_fields[f]:
                changes.append(Change(name, "field-retyped", f, old_fields[f], new_fields[f]))
        for f in sorted((new_req - old_req) & set(new_fields)):
            changes.append(Change(name, "required-added", f))
        for f in sorted((old_req - new_req) & set(old_fields)):
            changes.append(Change(name, "required-removed", f))
    return sorted(changes)


def render_text(old: str, new: str, changes: list[Change]) -> str:
    if not changes:
        return f"MCP {old} -> {new}: no type changes\n"
    counts: dict[str, int] = {}
    for c in changes:
        counts[c.kind] = counts.get(c.kind, 0) + 1
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    lines = [f"MCP {old} -> {new}: {summary}"]
    lines += [c.describe() for c in changes]
    return "\n".join(lines) + "\n"


def render_json(old: str, new: str, changes: list[Change]) -> str:
    body = {"old": old, "new": new, "changes": [asdict(c) for c in changes]}
    return json.dumps(body, indent=2) + "\n"
