"""What the breaking-change rules compare: a tool of one side (``ToolRef``), the finding
callback (``Emit``) and paired schema nodes (``Side``, ``pair_objects``: properties paired by
name, array items, local ``$ref``s followed), with the small readers of a schema node."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..schemawalk import LocalRefs, esc, get_pointer

__all__ = [
    "Emit",
    "Side",
    "ToolRef",
    "canonical",
    "covered",
    "json_types",
    "pair_objects",
    "path_label",
    "pointer_to",
    "properties",
    "required_names",
    "tool_side",
    "type_label",
]


@dataclass(frozen=True)
class ToolRef:
    """One tool of one side: its name, its wire JSON and where it is (a JSON pointer)."""

    name: str
    raw: Mapping[str, Any]
    pointer: str

    @property
    def annotations(self) -> dict[str, Any]:
        ann = self.raw.get("annotations")
        return ann if isinstance(ann, dict) else {}


class Emit(Protocol):
    def __call__(
        self,
        rule_id: str,
        new_ptr: str,
        old_ptr: str,
        message: str,
        *,
        new_key: bool = False,
        old_key: bool = True,
    ) -> None:
        """One finding: ``new_ptr``/``old_ptr`` locate it on each side (``*_key``: point at
        the key rather than the value)."""


@dataclass
class Side:
    """One side of a paired schema node: the node (refs followed), its pointer, its document."""

    schema: Any
    pointer: str
    refs: LocalRefs
    root_pointer: str


def canonical(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


def deref(side: Side, seen: frozenset[str] = frozenset()) -> Side:
    s = side
    for _ in range(32):
        if not isinstance(s.schema, dict):
            return s
        ref = s.schema.get("$ref")
        if not isinstance(ref, str) or s.pointer in seen:
            return s
        target = s.refs.resolve(ref)
        if target is None:
            return s
        found, val = get_pointer(s.refs.root, target)
        if not found:
            return s
        seen = seen | {s.pointer}
        s = Side(val, s.root_pointer + target, s.refs, s.root_pointer)
    return s


def json_types(s: Any) -> frozenset[str] | None:
    if not isinstance(s, dict):
        return None
    t = s.get("type")
    if isinstance(t, str):
        return frozenset((t,))
    if isinstance(t, list) and all(isinstance(x, str) for x in t):
        return frozenset(t)
    return None


def covered(t: str, by: frozenset[str]) -> bool:
    return t in by or (t == "integer" and "number" in by)


def properties(s: Any) -> dict[str, Any]:
    p = s.get("properties") if isinstance(s, dict) else None
    return p if isinstance(p, dict) else {}


def required_names(s: Any) -> list[str]:
    r = s.get("required") if isinstance(s, dict) else None
    return [x for x in r if isinstance(x, str)] if isinstance(r, list) else []


def type_label(types: frozenset[str] | None) -> str:
    return "any" if types is None else "|".join(sorted(types))


def path_label(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def pair_objects(
    old: Side, new: Side, path: str = "", depth: int = 0
) -> Iterator[tuple[Side, Side, str]]:
    """Paired schema nodes, root first: same-named properties, then array items, recursively."""
    old, new = deref(old), deref(new)
    yield old, new, path
    if depth > 32:
        return
    old_props, new_props = properties(old.schema), properties(new.schema)
    for name, old_sub in old_props.items():
        if name in new_props:
            step = "/properties/" + esc(name)
            yield from pair_objects(
                Side(old_sub, old.pointer + step, old.refs, old.root_pointer),
                Side(new_props[name], new.pointer + step, new.refs, new.root_pointer),
                path_label(path, name),
                depth + 1,
            )
    old_items = old.schema.get("items") if isinstance(old.schema, dict) else None
    new_items = new.schema.get("items") if isinstance(new.schema, dict) else None
    if isinstance(old_items, dict) and isinstance(new_items, dict):
        yield from pair_objects(
            Side(old_items, old.pointer + "/items", old.refs, old.root_pointer),
            Side(new_items, new.pointer + "/items", new.refs, new.root_pointer),
            (path or "") + "[]",
            depth + 1,
        )


def tool_side(tool: ToolRef, field: str) -> Side:
    schema = tool.raw.get(field)
    ptr = f"{tool.pointer}/{field}"
    return Side(schema, ptr, LocalRefs(schema), ptr)


def pointer_to(side: Side, key: str) -> str:
    return (
        side.pointer + "/" + key
        if isinstance(side.schema, dict) and key in side.schema
        else side.pointer
    )
