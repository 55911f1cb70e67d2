"""Model-friendly tool schemas: local ``$ref``s inlined and ``$defs`` dropped.

Several model APIs (Gemini's ``parameters``, OpenAI strict mode for a ``$ref`` with siblings) and
some clients refuse or drop ``$ref``/``$defs``. A server started with ``--inline-schema-refs``
serves each tool's ``inputSchema`` through ``inline_refs``; arguments are still validated
against the schema as written. A recursive ``$ref`` cannot be inlined: it stays, with the
``$defs`` entries it needs. Pure functions over plain JSON values; refs resolve through
``schemawalk.LocalRefs`` (pointers, anchors, embedded ``$id``s), never a fetch.
"""

from __future__ import annotations

import copy
from typing import Any

from .jsonschema_facts import has_ref_key
from .schemawalk import LocalRefs, get_pointer, unesc

__all__ = ["InlineTooLarge", "inline_refs"]

_DEFS = ("$defs", "definitions")
_ANNOTATIONS = frozenset(("description", "title", "default", "examples", "deprecated", "$comment"))
MAX_NODES = 200_000
"""An inlined schema larger than this (shared definitions used many times over) is not
served inlined: ``InlineTooLarge``."""


class InlineTooLarge(ValueError):
    """Inlining would make the schema larger than ``MAX_NODES`` objects and arrays."""


def inline_refs(schema: Any) -> Any:
    """``schema`` with every non-recursive local ``$ref`` replaced by what it points to, and
    ``$defs``/``definitions`` dropped unless a recursive ``$ref`` still needs them. A new
    value: ``schema`` is not changed. A schema without ``$ref`` is returned as is."""
    if not isinstance(schema, dict) or not has_ref_key(schema):
        return schema
    refs = LocalRefs(schema)
    state = _State(schema, refs)
    out = state.expand(schema, ())
    assert isinstance(out, dict)
    for kw in _DEFS:
        out.pop(kw, None)
    kept: dict[str, dict[str, Any]] = {}
    done: set[str] = set()
    while state.kept - done:  # kept targets' own bodies may keep more
        ptr = min(state.kept - done)
        done.add(ptr)
        parts = ptr.split("/")
        if len(parts) >= 3 and parts[1] in _DEFS:  # keep the whole definition it lies in
            entry = "/".join(parts[:3])
            found, target = get_pointer(schema, entry)
            if found:
                name = unesc(parts[2])
                if name not in kept.get(parts[1], {}):
                    kept.setdefault(parts[1], {})[name] = state.expand(target, (entry,))
    for kw, entries in kept.items():
        out[kw] = entries
    return out


class _State:
    def __init__(self, root: dict[str, Any], refs: LocalRefs) -> None:
        self.root = root
        self.refs = refs
        self.kept: set[str] = set()
        self.nodes = 0

    def expand(self, value: Any, stack: tuple[str, ...]) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise InlineTooLarge(f"inlined schema exceeds {MAX_NODES} nodes")
        if isinstance(value, list):
            return [self.expand(v, stack) for v in value]
        if not isinstance(value, dict):
            return value
        ref = value.get("$ref")
        if isinstance(ref, str):
            ptr = self.refs.resolve(ref)
            if ptr is not None and ptr not in stack and ptr != "":
                found, target = get_pointer(self.root, ptr)
                if found and isinstance(target, dict):
                    body = self.expand(target, (*stack, ptr))
                    siblings = {k: self.expand(v, stack) for k, v in value.items() if k != "$ref"}
                    return _merge(body, siblings)
            if ptr is not None:
                self.kept.add(ptr)  # recursive (or the root): stays a $ref
        return {
            k: (copy.deepcopy(v) if k in _DEFS else self.expand(v, stack)) for k, v in value.items()
        }


def _merge(body: dict[str, Any], siblings: dict[str, Any]) -> dict[str, Any]:
    """A ``$ref`` with sibling keywords: the target's keywords plus the siblings. When both
    set the same assertion keyword, both must hold: ``allOf``."""
    clash = [k for k in siblings if k in body and k not in _ANNOTATIONS and body[k] != siblings[k]]
    if clash:
        return {"allOf": [body], **siblings}
    merged = {k: v for k, v in body.items() if k not in _DEFS}
    merged.update(siblings)
    return merged
