"""Walking JSON Schemas: subschemas with their JSON pointers, and local `$ref` resolution
(shared by the generator's checks and the runtime's breaking-change rules).

Pure functions over plain JSON values. A pointer is RFC 6901 (``/properties/a~1b``); pointers
produced here are relative to the schema passed in, so callers prefix the tool's pointer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple
from urllib.parse import unquote, urldefrag, urljoin

from .jsonschema_facts import (
    COMBINATORS,
    LIST_KEYWORDS,
    MAP_KEYWORDS,
    SINGLE_KEYWORDS,
    resolve_pointer,
)
from .jsonschema_facts import (
    escape_token as esc,
)
from .jsonschema_facts import (
    unescape_token as unesc,
)

__all__ = [
    "COMBINATORS",
    "LIST_KEYWORDS",
    "MAP_KEYWORDS",
    "SINGLE_KEYWORDS",
    "LocalRefs",
    "Node",
    "RemoteRefRefused",
    "esc",
    "get_pointer",
    "refuse_retrieval",
    "unesc",
    "walk",
]


class RemoteRefRefused(Exception):
    """Raised by ``refuse_retrieval``: mcpgen never fetches a schema."""


def refuse_retrieval(uri: str) -> Any:
    """The ``retriever=`` every jsonschema-rs validator in ``check`` gets: nothing is fetched,
    neither from the network nor from files."""
    raise RemoteRefRefused(f"mcpgen never fetches schemas; refused to retrieve {uri}")


class Node(NamedTuple):
    schema: dict[str, Any]
    pointer: str
    static: bool
    """Reached from the root through ``properties`` keys only (x-mcp-header reachability)."""
    base: str
    """Base URI in effect (changed by ``$id``)."""


def walk(root: Any, *, base: str = "") -> Iterator[Node]:
    """Every object subschema of ``root`` (root first, depth first, document order)."""
    if not isinstance(root, dict):
        return
    stack: list[tuple[dict[str, Any], str, bool, str]] = [(root, "", True, base)]
    while stack:
        schema, ptr, static, b = stack.pop()
        sid = schema.get("$id")
        if isinstance(sid, str) and not sid.startswith("#"):
            b = urldefrag(urljoin(b, sid))[0]
        yield Node(schema, ptr, static, b)
        children: list[tuple[dict[str, Any], str, bool, str]] = []
        for kw, value in schema.items():
            if kw in MAP_KEYWORDS:
                if isinstance(value, dict):
                    kp = ptr + "/" + esc(kw)
                    is_props = kw == "properties"
                    for name, sub in value.items():
                        if isinstance(sub, dict):
                            children.append(
                                (sub, kp + "/" + esc(str(name)), static and is_props, b)
                            )
            elif kw in SINGLE_KEYWORDS:
                if isinstance(value, dict):
                    children.append((value, ptr + "/" + esc(kw), False, b))
            elif kw in LIST_KEYWORDS or kw == "items":
                if isinstance(value, dict):  # items as one schema
                    children.append((value, ptr + "/" + kw, False, b))
                elif isinstance(value, list):
                    for i, sub in enumerate(value):
                        if isinstance(sub, dict):
                            children.append((sub, f"{ptr}/{kw}/{i}", False, b))
            elif kw == "dependencies" and isinstance(value, dict):
                for name, sub in value.items():
                    if isinstance(sub, dict):
                        children.append((sub, f"{ptr}/dependencies/{esc(str(name))}", False, b))
        stack.extend(reversed(children))


get_pointer = resolve_pointer
"""(found, value) for an RFC 6901 pointer ("" is the document)."""


class LocalRefs:
    """Resolves `$ref`s against one schema document only: JSON pointers, `$anchor`s,
    `$dynamicAnchor`s, draft-07 `$id: "#name"` anchors and embedded `$id` resources.
    Anything else (another file, the network) does not resolve: mcpgen never fetches."""

    def __init__(self, root: Any, nodes: list[Node] | None = None) -> None:
        """``nodes``: ``list(walk(root))`` when the caller already has it."""
        self.root = root
        self.resources: dict[str, tuple[Any, str]] = {"": (root, "")}
        self.anchors: dict[tuple[str, str], str] = {}
        for node in walk(root) if nodes is None else nodes:
            s = node.schema
            sid = s.get("$id")
            if isinstance(sid, str):
                if sid.startswith("#"):
                    self.anchors[(node.base, sid[1:])] = node.pointer
                else:
                    self.resources.setdefault(node.base, (s, node.pointer))
            for kw in ("$anchor", "$dynamicAnchor"):
                a = s.get(kw)
                if isinstance(a, str):
                    self.anchors.setdefault((node.base, a), node.pointer)

    def resolve(self, ref: str, base: str = "") -> str | None:
        """The pointer (from the root) that ``ref`` lands on, or None."""
        target = urljoin(base, ref) if base else ref
        uri, frag = urldefrag(target)
        if uri == "" and base:
            uri = base
        res = self.resources.get(uri)
        if res is None:
            return None
        doc, doc_ptr = res
        frag = unquote(frag)
        if frag == "":
            return doc_ptr
        if frag.startswith("/"):
            found, _ = get_pointer(doc, frag)
            return doc_ptr + frag if found else None
        return self.anchors.get((uri, frag))
