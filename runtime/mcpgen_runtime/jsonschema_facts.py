"""JSON Schema facts, in one place: dialects, keyword tables, JSON pointers (RFC 6901).

Pure functions over plain JSON values, standard library only (cheap to import). The generator
(``mcpgen``) imports this module too; nothing here imports the generator.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = [
    "COMBINATORS",
    "D2019",
    "D2020",
    "D4",
    "D6",
    "D7",
    "DEFAULT_DIALECT",
    "GENERATED_DIALECTS",
    "LIST_KEYWORDS",
    "MAP_KEYWORDS",
    "SINGLE_KEYWORDS",
    "dialect_of",
    "escape_token",
    "has_ref_key",
    "pointer_from_path",
    "resolve_pointer",
    "split_pointer",
    "unescape_token",
]

# -- dialects -------------------------------------------------------------------------------

D2020 = "2020-12"
D2019 = "2019-09"
D7 = "draft-07"
D6 = "draft-06"
D4 = "draft-04"

DEFAULT_DIALECT = D2020
"""A schema without ``$schema`` is 2020-12 (MCP 2025-11-25 and later say so)."""

GENERATED_DIALECTS: tuple[str, ...] = (D2020, D7)
"""The dialects generated servers and clients validate with."""

_URIS: dict[str, str] = {
    "json-schema.org/draft/2020-12/schema": D2020,
    "json-schema.org/draft/2019-09/schema": D2019,
    "json-schema.org/draft-07/schema": D7,
    "json-schema.org/draft-06/schema": D6,
    "json-schema.org/draft-04/schema": D4,
}


def dialect_of(schema: Any) -> tuple[str | None, str | None]:
    """``(dialect, declared $schema)``. No ``$schema`` means 2020-12; an unrecognised value
    gives dialect None (``http``/``https`` and a trailing ``#`` are accepted)."""
    if not isinstance(schema, dict) or "$schema" not in schema:
        return D2020, None
    declared = schema["$schema"]
    if not isinstance(declared, str):
        return None, repr(declared)
    key = declared.strip()
    for prefix in ("https://", "http://"):
        if key.startswith(prefix):
            key = key[len(prefix) :]
            break
    else:
        return None, declared
    if key.endswith("#"):
        key = key[:-1]
    return _URIS.get(key), declared


# -- keyword tables -------------------------------------------------------------------------

MAP_KEYWORDS: tuple[str, ...] = (
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
)
"""Keywords whose value is a map of name -> subschema."""

SINGLE_KEYWORDS: tuple[str, ...] = (
    "additionalProperties",
    "additionalItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
"""Keywords whose value is one subschema (``items`` is a schema or, in draft-07, a list)."""

LIST_KEYWORDS: tuple[str, ...] = ("allOf", "anyOf", "oneOf", "prefixItems")
"""Keywords whose value is a list of subschemas."""

COMBINATORS: tuple[str, ...] = ("anyOf", "oneOf", "allOf", "not", "if", "then", "else")


def has_ref_key(value: Any) -> bool:
    """Whether a ``$ref`` key appears anywhere in ``value`` (iterative: any depth). Most tool
    schemas have none, and are served and bundled as written."""
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "$ref" in node:
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


# -- JSON pointers (RFC 6901) ---------------------------------------------------------------


def escape_token(token: str) -> str:
    if "~" not in token and "/" not in token:
        return token  # the usual case, without building two new strings
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def pointer_from_path(path: Iterable[Any]) -> str:
    """``["a/b", 0]`` -> ``"/a~1b/0"``; the root is ``""``."""
    return "".join("/" + escape_token(str(p)) for p in path)


def split_pointer(pointer: str) -> list[str]:
    """``"/a~1b/0"`` -> ``["a/b", "0"]``; ``""`` -> ``[]``. Raises ValueError when the
    pointer is neither empty nor starts with ``/``."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape_token(tok) for tok in pointer[1:].split("/")]


def resolve_pointer(root: Any, pointer: str) -> tuple[bool, Any]:
    """``(True, value)`` at ``pointer`` in ``root``, or ``(False, None)`` when it does not exist."""
    try:
        tokens = split_pointer(pointer)
    except ValueError:
        return False, None
    node = root
    for tok in tokens:
        if isinstance(node, dict) and tok in node:
            node = node[tok]
        elif isinstance(node, list) and tok.isdigit() and tok.isascii() and int(tok) < len(node):
            node = node[int(tok)]
        else:
            return False, None
    return True, node
