"""``$ref`` cycles with no structure in between (``A: {$ref: '#/$defs/B'}``,
``B: {$ref: '#/$defs/A'}``, or ``A: {anyOf: [{$ref: A}, ...]}``): representable, but no
validator can ever finish. ``refs`` reports them as ``REF_CYCLE``, found here among a schema's
own ``$defs`` (``own_def_cycles``) and among the schemas it copies in (``copied_cycles``, on the
in-place ref edges it records as it copies them). A ref into the middle of a def
(``#/$defs/B/properties/x``) is not followed: such a cycle is not found."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import unquote

from mcpgen.manifest.jsonpos import escape
from mcpgen_runtime.jsonschema_facts import COMBINATORS, unescape_token

__all__ = ["copied_cycles", "own_def_cycles"]

N = TypeVar("N", bound=Hashable)
C = TypeVar("C")

_INPLACE_KW = frozenset(COMBINATORS)
_DEFS = "#/$defs/"

Edges = dict[str, list[tuple[str, str]]]  # def name -> [(def it refers to in place, pointer)]


def own_def_cycles(defs: dict[str, Any], pointer: str) -> list[tuple[list[str], str]]:
    """One entry per cycle: the names around it (first repeated at the end) and the pointer
    of the ``$ref`` that closes it. ``pointer``: where the schema holding ``defs`` is."""
    edges: Edges = {}
    for name, node in defs.items():
        found: list[tuple[str, str]] = []
        _inplace_refs(node, f"{pointer}/$defs/{escape(name)}", found)
        for ref, ptr in found:
            if not ref.startswith(_DEFS):
                continue
            tail = unquote(ref[len(_DEFS) :])
            if "/" not in tail and unescape_token(tail) in defs:
                edges.setdefault(name, []).append((unescape_token(tail), ptr))
    out: list[tuple[list[str], str]] = []
    reported: set[str] = set()
    for start in sorted(edges):
        if start in reported:
            continue
        path = _cycle_from(start, edges)
        if path is not None:
            reported.update(n for n, _ in path)
            out.append(([*(n for n, _ in path), start], path[-1][1]))
    return out


def _inplace_refs(node: Any, ptr: str, out: list[tuple[str, str]]) -> None:
    """The ``$ref``s that apply to the same instance as ``node`` (its own and those under the
    combinators), with their pointers."""
    todo = [(node, ptr)]
    while todo:
        cur, at = todo.pop()
        if not isinstance(cur, dict):
            continue
        ref = cur.get("$ref")
        if isinstance(ref, str):
            out.append((ref, f"{at}/$ref"))
        for kw in _INPLACE_KW:
            sub = cur.get(kw)
            if isinstance(sub, list):
                todo.extend((v, f"{at}/{kw}/{i}") for i, v in enumerate(sub))
            elif isinstance(sub, dict):
                todo.append((sub, f"{at}/{kw}"))


def _cycle_from(start: str, edges: Edges) -> list[tuple[str, str]] | None:
    """A path ``[(node, pointer of its ref to the next)...]`` from ``start`` back to it, or
    None (depth first, iterative)."""
    stack: list[tuple[str, str, int]] = []  # (node, pointer of the edge taken, next edge)
    on_path = {start}
    node, index = start, 0
    while True:
        out = edges.get(node, [])
        if index < len(out):
            target, ptr = out[index]
            if target == start:
                return [*((n, p) for n, p, _ in stack), (node, ptr)]
            if target not in on_path and target in edges:
                stack.append((node, ptr, index + 1))
                on_path.add(target)
                node, index = target, 0
            else:
                index += 1
            continue
        if not stack:
            return None
        on_path.discard(node)
        node, _, index = stack.pop()


def copied_cycles(
    direct: Mapping[N, Sequence[tuple[N, C, str]]],
) -> list[tuple[list[N], C, str]]:
    """Cycles among copied schemas: ``direct`` maps each copied schema to its in-place refs
    (the schema referred to, the ref's context and pointer). One entry per cycle, searched
    from each schema in ``direct``'s order (a schema already on a reported cycle starts none):
    the schemas around it from the start, and the context and pointer of the ref that closes
    it."""
    out: list[tuple[list[N], C, str]] = []
    reported: set[N] = set()
    for start in list(direct):
        stack = [(start, iter(direct.get(start, ())))]
        on_path = {start}
        while stack:
            node, edges = stack[-1]
            edge = next(edges, None)
            if edge is None:
                on_path.discard(node)
                stack.pop()
                continue
            target, ctx, ptr = edge
            if target == start and start not in reported:
                reported.update(on_path)
                out.append(([n for n, _ in stack], ctx, ptr))
            elif target not in on_path and target in direct:
                on_path.add(target)
                stack.append((target, iter(direct[target])))
    return out
