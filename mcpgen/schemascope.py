"""Where a ``$ref`` of a tool schema leads, resolved by ``referencing`` (the library jsonschema
uses) against the schema itself and nothing else: no retriever is ever given, so a reference
that leaves the schema is unresolvable, never fetched.

The base URI of a node is that of its nearest ``$id`` (an embedded schema resource), so
``#/$defs/x`` inside ``{"$id": "urn:x", ...}`` means that resource's ``$defs``, as every
validator reads it; ``$anchor``, URN bases and pointers into embedded resources resolve the
same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urljoin

from referencing import Registry, Resource, Specification
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT7, DRAFT202012

from mcpgen_runtime.jsonschema_facts import (
    LIST_KEYWORDS,
    MAP_KEYWORDS,
    SINGLE_KEYWORDS,
    escape_token,
)

__all__ = ["ROOT_URI", "Scope", "embedded_ids", "find_anchor", "has_embedded_ids", "resolve_at"]

ROOT_URI = "urn:mcpgen:tool-schema"
"""The base URI of a tool schema without a root ``$id``."""
_MAP = frozenset(MAP_KEYWORDS)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_LIST = frozenset(LIST_KEYWORDS)
_ONE = frozenset((*SINGLE_KEYWORDS, "items"))


def _spec(dialect: str) -> Specification[Any]:
    return DRAFT7 if dialect == "draft-07" else DRAFT202012


def has_embedded_ids(schema: Any) -> bool:
    """Whether a schema node below the root carries an ``$id`` (or ``$anchor``)."""
    stack = [(schema, True)]
    while stack:
        node, root = stack.pop()
        if isinstance(node, dict):
            if not root and any(isinstance(node.get(k), str) for k in ("$id", "$anchor")):
                return True
            stack.extend((v, False) for v in _subschemas(node))
    return False


def _subschemas(node: dict[str, Any]) -> Iterable[Any]:
    for k, v in node.items():
        if k in _MAP and isinstance(v, dict):
            yield from v.values()
        elif (k in _LIST or k == "items") and isinstance(v, list):
            yield from v
        elif k in _ONE:
            yield v


class Scope:
    """The resolution scope of one node of a tool schema."""

    __slots__ = ("resolver", "spec")

    def __init__(self, resolver: Any, spec: Specification[Any]) -> None:
        self.resolver = resolver
        self.spec = spec

    @classmethod
    def of_root(cls, schema: Any, dialect: str = "2020-12") -> Scope:
        spec = _spec(dialect)
        resource = Resource.from_contents(schema, default_specification=spec)
        root_id = schema.get("$id") if isinstance(schema, dict) else None
        base = root_id if isinstance(root_id, str) and root_id else ROOT_URI
        try:
            registry: Registry[Any] = Registry().with_resource(base, resource).crawl()
        except Exception:  # noqa: BLE001 (a malformed $id: the root alone)
            registry = Registry().with_resource(ROOT_URI, resource)
            base = ROOT_URI
        return cls(registry.resolver(base_uri=base), spec)

    def enter(self, node: Any) -> Scope:
        """The scope of ``node``, a subschema of this scope's node (its own ``$id`` if any)."""
        if isinstance(node, dict) and isinstance(node.get("$id"), str):
            try:
                return Scope(
                    self.resolver.in_subresource(self.spec.create_resource(node)), self.spec
                )
            except Exception:  # noqa: BLE001 (a malformed $id)
                return self
        return self

    def at(self, root: Any, tokens: list[str]) -> Scope | None:
        """The scope of the node at ``tokens`` (a pointer's tokens) below the root, or None
        when the path does not lead through schemas."""
        scope, node, i = self, root, 0
        while i < len(tokens):
            if not isinstance(node, dict):
                return None
            key = tokens[i]
            value = node.get(key)
            if key in _MAP and isinstance(value, dict) and i + 1 < len(tokens):
                node, i = value.get(tokens[i + 1]), i + 2
            elif (
                (key in _LIST or key == "items") and isinstance(value, list) and i + 1 < len(tokens)
            ):
                try:
                    node, i = value[int(tokens[i + 1])], i + 2
                except (ValueError, IndexError):
                    return None
            elif key in _ONE:
                node, i = value, i + 1
            else:
                return None
            scope = scope.enter(node)
        return scope

    def absolute(self, ref: str) -> str | None:
        """The absolute URI ``ref`` names here, when this scope's base is a declared ``$id``
        with a scheme (``https:``, ``urn:``...); None under the tool's own base."""
        base = getattr(self.resolver, "_base_uri", "")
        if not base or base == ROOT_URI or not _SCHEME.match(base):
            return None
        absolute = urljoin(base, ref) if not _SCHEME.match(ref) else ref
        return absolute if _SCHEME.match(absolute) else None

    def lookup(self, ref: str) -> tuple[Any, Scope] | None:
        """The schema ``ref`` names and its scope, or None when it leads outside the schema
        (or nowhere)."""
        try:
            found = self.resolver.lookup(ref)
        except (Unresolvable, Exception):  # noqa: BLE001 (never a fetch: no retriever)
            return None
        return found.contents, Scope(found.resolver, self.spec)


def resolve_at(root: Scope, schema: Any, tokens: list[str], ref: str) -> tuple[bool, str | None]:
    """Whether ``ref``, at the node ``tokens`` below ``schema`` (whose scope is ``root``),
    names a schema of ``schema`` itself, resolved against the base URI of its place (nearest
    ``$id``); if not, the absolute URI it names when that base is a declared ``$id`` (never a
    file beside the manifest)."""
    here = root.at(schema, tokens)
    if here is None:
        return False, None
    if here.lookup(ref) is not None:
        return True, None
    return False, here.absolute(ref)


def find_anchor(root: Any, name: str) -> str | None:
    """Pointer of the schema carrying ``$anchor: name`` (iterative search), or None."""
    todo: list[tuple[Any, str]] = [(root, "")]
    while todo:
        node, ptr = todo.pop()
        if isinstance(node, dict):
            if node.get("$anchor") == name or node.get("$dynamicAnchor") == name:
                return ptr
            todo.extend((v, f"{ptr}/{escape_token(k)}") for k, v in node.items())
        elif isinstance(node, list):
            todo.extend((v, f"{ptr}/{i}") for i, v in enumerate(node))
    return None


def embedded_ids(root: Any) -> set[str]:
    """Every ``$id`` in ``root`` (without fragment)."""
    out: set[str] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$id"), str):
                out.add(node["$id"].split("#")[0])
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return out
