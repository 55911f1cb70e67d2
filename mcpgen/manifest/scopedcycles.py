"""``$ref``/``$dynamicRef`` cycles with no schema in between, in a tool schema with embedded
resources (``$id`` below the root), where references resolve against their nearest ``$id``
(``mcpgen.schemascope``). ``refcycles`` finds those among a schema's own ``$defs`` when
there is one scope; this finds the rest: ``{"$id": "urn:x", "$ref": "#/$defs/a", "$defs":
{"a": {"$ref": "#/$defs/a"}}}``, ``{"$dynamicAnchor": "n", "$dynamicRef": "#n"}``.

A cycle is a path back to a schema through in-place edges only: a reference, or a branch of
``allOf``/``anyOf``/``oneOf``/``not``/``if``/``then``/``else`` (they apply to the same
instance), so no validator can ever finish. Iterative throughout (schemas may be deep).
"""

from __future__ import annotations

from typing import Any

from mcpgen.manifest.jsonpos import escape
from mcpgen.schemascope import Scope
from mcpgen_runtime.jsonschema_facts import LIST_KEYWORDS, MAP_KEYWORDS, SINGLE_KEYWORDS

__all__ = ["mentions_key", "scoped_ref_cycles"]

_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("not", "if", "then", "else")
_REFS = ("$ref", "$dynamicRef")


def scoped_ref_cycles(schema: Any, pointer: str) -> list[str]:
    """The pointers (below ``pointer``, the schema's place) of the references that close a
    cycle, one per cycle."""
    if not isinstance(schema, dict):
        return []
    root = Scope.of_root(schema)
    ptrs: dict[int, str] = {}
    edges: dict[int, list[tuple[int, str | None]]] = {}  # node -> (node, ref pointer | None)
    todo: list[tuple[Any, str, Scope]] = [(schema, "", root)]
    while todo:
        node, ptr, scope = todo.pop()
        if not isinstance(node, dict) or id(node) in ptrs:
            continue
        ptrs[id(node)] = ptr
        out = edges.setdefault(id(node), [])
        for kw in _REFS:
            ref = node.get(kw)
            found = scope.lookup(ref) if isinstance(ref, str) else None
            if found is not None and isinstance(found[0], dict):
                out.append((id(found[0]), f"{ptr}/{escape(kw)}"))
        for kw, value in node.items():
            sub = f"{ptr}/{escape(kw)}"
            children: list[tuple[Any, str]] = []
            if kw in MAP_KEYWORDS and isinstance(value, dict):
                children = [(v, f"{sub}/{escape(str(k))}") for k, v in value.items()]
            elif (kw in LIST_KEYWORDS or kw == "items") and isinstance(value, list):
                children = [(v, f"{sub}/{i}") for i, v in enumerate(value)]
            elif kw in SINGLE_KEYWORDS or kw == "items":
                children = [(value, sub)]
            for child, cptr in children:
                if isinstance(child, dict):
                    todo.append((child, cptr, scope.enter(child)))
                    if kw in _IN_PLACE_LISTS or kw in _IN_PLACE_ONE:
                        out.append((id(child), None))
    return [pointer + p for p in _cycles(edges)]


def _cycles(edges: dict[int, list[tuple[int, str | None]]]) -> list[str]:
    """One closing reference pointer per cycle (colouring DFS, iterative)."""
    state: dict[int, int] = {}  # 1: on the path, 2: done
    closing: list[str] = []
    for start in edges:
        if state.get(start):
            continue
        stack: list[tuple[int, int]] = [(start, 0)]
        state[start] = 1
        while stack:
            node, i = stack.pop()
            succ = edges.get(node, [])
            if i < len(succ):
                stack.append((node, i + 1))
                nxt, via = succ[i]
                if state.get(nxt) == 1 and via is not None:
                    closing.append(via)
                elif not state.get(nxt):
                    state[nxt] = 1
                    stack.append((nxt, 0))
            else:
                state[node] = 2
    return closing


def mentions_key(schema: Any, key: str) -> bool:
    """Whether ``key`` is a key anywhere in ``schema`` (iterative)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if key in node:
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False
