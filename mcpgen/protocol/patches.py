"""Known defects of the upstream MCP schemas, fixed as data before generation.

Every patch states what it expects to find (``old`` for a value, ``expect`` for a count). If the
upstream file changes under a patch, generation stops with an error instead of silently
producing different models: the maintainer re-reads the defect and updates or drops the patch.

Why each patch exists (facts in the spec's ``schema.ts``, see docs/notes):
* ``format: byte`` is an OpenAPI format (base64), not JSON Schema; pydantic would decode it as
  UTF-8 and reject binary images. ``format: uri``/``uri-template`` make pydantic normalise URLs
  (``https://a.b`` -> ``https://a.b/``) and reject relative URIs. Both are annotations only.
* ``JSONValue`` (2026) lost ``number`` and ``null`` in the TS -> JSON rendering, so a float or a
  null capability value would be rejected. ``ElicitResult.content`` lost ``number`` the same way.
* 2026 ``ttlMs``/``cacheScope`` are required, but the spec says a client treats an absent
  ``ttlMs`` as 0 (older servers omit them) and the spec's own example
  ``ReadResourceResultResponse/read-resource-result-response.json`` omits them: parse leniently.
* 2026 ``resultType`` is a plain string; results that can be either an ``InputRequiredResult`` or a
  final result must dispatch on its *value*, so each arm gets its constant (the spec: complete
  results carry "complete", input-required ones "input_required").
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from mcpgen.errors import McpgenError
from mcpgen_runtime.jsonschema_facts import split_pointer


@dataclass(frozen=True)
class Replace:
    """Set the value at JSON pointer ``pointer``; the current value must match ``old`` (for
    objects: every key of ``old`` must be present with an equal value)."""

    pointer: str
    old: Any
    new: Any
    why: str


@dataclass(frozen=True)
class DropFormats:
    """Remove ``format`` keywords whose value is in ``formats``; exactly ``expect`` must exist."""

    formats: tuple[str, ...]
    expect: int
    why: str


Patch = Replace | DropFormats

_FORMATS = ("byte", "uri", "uri-template")
_WHY_FORMATS = (
    "format byte/uri/uri-template are annotations; pydantic would decode or rewrite values"
)
_NUM = "the TS source says number; the JSON rendering dropped it"
_LENIENT = (
    "absent ttlMs/cacheScope come from older servers and the spec's own example; parse leniently"
)
_RT = "dispatch InputRequiredResult vs final result on the value of resultType"


def _elicit_content_values(rev_defs: str, anyof: bool) -> list[Patch]:
    base = f"/{rev_defs}/ElicitResult/properties/content/additionalProperties"
    if anyof:
        return [
            Replace(
                f"{base}/anyOf/1/type",
                ["string", "integer", "boolean"],
                ["string", "integer", "number", "boolean"],
                _NUM,
            )
        ]
    return [
        Replace(
            f"{base}/type",
            ["string", "integer", "boolean"],
            ["string", "integer", "number", "boolean"],
            _NUM,
        )
    ]


def _modern_patches() -> list[Patch]:
    d = "$defs"
    out: list[Patch] = [
        DropFormats(_FORMATS, 17, _WHY_FORMATS),
        Replace(
            f"/{d}/JSONValue/anyOf/2/type",
            ["string", "integer", "boolean"],
            ["string", "integer", "number", "boolean", "null"],
            _NUM,
        ),
        *_elicit_content_values(d, anyof=True),
    ]
    for name, required in (
        ("CacheableResult", ["cacheScope", "resultType", "ttlMs"]),
        ("DiscoverResult", None),
        ("ListPromptsResult", None),
        ("ListResourceTemplatesResult", None),
        ("ListResourcesResult", None),
        ("ListToolsResult", ["cacheScope", "resultType", "tools", "ttlMs"]),
        ("ReadResourceResult", ["cacheScope", "contents", "resultType", "ttlMs"]),
    ):
        out.append(_relax_required(d, name, required))
    out.append(
        Replace(
            f"/{d}/InputRequiredResult/properties/resultType",
            {"type": "string"},
            {"type": "string", "const": "input_required"},
            _RT,
        )
    )
    for name in ("CallToolResult", "GetPromptResult", "ReadResourceResult"):
        out.append(
            Replace(
                f"/{d}/{name}/properties/resultType",
                {"type": "string"},
                {"type": "string", "const": "complete"},
                _RT,
            )
        )
    return out


def _relax_required(defs: str, name: str, required: list[str] | None) -> Patch:
    # ``required`` None: assert only that ttlMs and cacheScope are listed (see apply()).
    return Replace(
        f"/{defs}/{name}/required",
        required if required is not None else _HAS_CACHE,
        _DROP_CACHE,
        _LENIENT,
    )


_HAS_CACHE = object()
_DROP_CACHE = object()

PATCHES: dict[str, list[Patch]] = {
    "2024-11-05": [DropFormats(_FORMATS, 13, _WHY_FORMATS)],
    "2025-03-26": [DropFormats(_FORMATS, 14, _WHY_FORMATS)],
    "2025-06-18": [
        DropFormats(_FORMATS, 15, _WHY_FORMATS),
        *_elicit_content_values("definitions", anyof=False),
    ],
    "2025-11-25": [
        DropFormats(_FORMATS, 19, _WHY_FORMATS),
        *_elicit_content_values("$defs", anyof=True),
    ],
    "2026-07-28": _modern_patches(),
    "draft": _modern_patches(),
}


def _matches(current: Any, old: Any) -> bool:
    if old is _HAS_CACHE:
        return isinstance(current, list) and "ttlMs" in current and "cacheScope" in current
    if isinstance(old, dict) and isinstance(current, dict):
        return all(k in current and current[k] == v for k, v in old.items())
    return bool(current == old)


def _apply_replace(doc: Any, patch: Replace, revision: str) -> None:
    parts = split_pointer(patch.pointer)
    node: Any = doc
    for part in parts[:-1]:
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict):
            node = node.get(part)
        else:
            node = None
    last = parts[-1]
    if not isinstance(node, dict) or last not in node or not _matches(node[last], patch.old):
        found = node.get(last, "<missing>") if isinstance(node, dict) else "<missing>"
        raise McpgenError(
            f"schema patch for {revision} at {patch.pointer} no longer applies: expected "
            f"{_show(patch.old)}, found {_show(found)} "
            "(upstream changed; review mcpgen/protocol/patches.py)"
        )
    if patch.new is _DROP_CACHE:
        node[last] = [r for r in node[last] if r not in ("ttlMs", "cacheScope")]
    else:
        node[last] = copy.deepcopy(patch.new)


def _show(value: Any) -> str:
    if value is _HAS_CACHE:
        return "a required list naming ttlMs and cacheScope"
    text = repr(value)
    return text if len(text) < 120 else text[:117] + "..."


def _drop_formats(node: Any, formats: tuple[str, ...]) -> int:
    count = 0
    if isinstance(node, dict):
        if node.get("format") in formats:
            del node["format"]
            count += 1
        for value in node.values():
            count += _drop_formats(value, formats)
    elif isinstance(node, list):
        for value in node:
            count += _drop_formats(value, formats)
    return count


def apply_patches(doc: dict[str, Any], revision: str) -> dict[str, Any]:
    """Return a patched deep copy of ``doc``; raises McpgenError when a patch does not apply."""
    out = copy.deepcopy(doc)
    for patch in PATCHES.get(revision, []):
        if isinstance(patch, DropFormats):
            n = _drop_formats(out, patch.formats)
            if n != patch.expect:
                raise McpgenError(
                    f"schema patch for {revision}: expected {patch.expect} format keywords "
                    f"{'/'.join(patch.formats)}, found {n} "
                    "(upstream changed; review mcpgen/protocol/patches.py)"
                )
        else:
            _apply_replace(out, patch, revision)
    return out
