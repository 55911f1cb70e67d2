"""Deterministic generator of realistic tool manifests, for benchmarks and tests.

``make_manifest(n_tools, seed=0)`` returns a manifest dict (server, protocol, shared ``$defs``,
tools) whose tools mix what real servers use: nested objects, enums, arrays of objects,
``$ref`` to shared and tool-local ``$defs``, outputSchemas, annotations, icons and (on the
2026-07-28 revision) ``x-mcp-header``. The same (n_tools, seed) always gives the same
manifest, and every generated manifest is clean under ``mcpgen check`` (default rules).
``dump_yaml``/``dump_json`` serialise it.
"""

from __future__ import annotations

import json
import random
from typing import Any

__all__ = ["make_manifest", "dump_yaml", "dump_json"]

_VERBS = [
    "get",
    "list",
    "create",
    "update",
    "delete",
    "search",
    "fetch",
    "sync",
    "export",
    "render",
]
_NOUNS = [
    "weather",
    "issue",
    "invoice",
    "user",
    "repo",
    "ticket",
    "order",
    "report",
    "file",
    "calendar_event",
    "dataset",
    "metric",
    "alert",
    "deployment",
    "message",
]
_FIELDS = [
    ("query", "string"),
    ("limit", "integer"),
    ("offset", "integer"),
    ("verbose", "boolean"),
    ("threshold", "number"),
    ("region", "string"),
    ("owner", "string"),
    ("since", "string"),
    ("priority", "integer"),
    ("include_archived", "boolean"),
    ("label", "string"),
    ("ratio", "number"),
    ("page_token", "string"),
    ("timezone", "string"),
]
_ENUMS = [
    ["asc", "desc"],
    ["low", "medium", "high", "critical"],
    ["json", "csv", "xml"],
    ["draft", "open", "closed", "merged"],
    ["metric", "imperial"],
]

SHARED_DEFS: dict[str, Any] = {
    "Pagination": {
        "type": "object",
        "description": "Cursor pagination.",
        "properties": {
            "cursor": {"type": "string", "description": "Opaque cursor from the previous page."},
            "page_size": {
                "type": "integer",
                "minimum": 1,
                "maximum": 500,
                "description": "Items per page.",
            },
        },
        "additionalProperties": False,
    },
    "Address": {
        "type": "object",
        "description": "A postal address.",
        "properties": {
            "street": {"type": "string", "description": "Street and number."},
            "city": {"type": "string", "description": "City."},
            "country": {"type": "string", "pattern": "^[A-Z]{2}$", "description": "ISO 3166 code."},
        },
        "required": ["city", "country"],
    },
}


def _scalar(rng: random.Random, name: str, typ: str) -> dict[str, Any]:
    s: dict[str, Any] = {"type": typ, "description": f"The {name.replace('_', ' ')} to use."}
    if typ == "integer":
        s["minimum"] = 0
        if rng.random() < 0.5:
            s["maximum"] = rng.choice([10, 100, 1000])
    elif typ == "number":
        s["minimum"] = 0
        s["maximum"] = 1
    elif typ == "string" and rng.random() < 0.3:
        s["maxLength"] = rng.choice([64, 256, 1024])
    return s


def _object(rng: random.Random, depth: int, n_fields: int) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for name, typ in rng.sample(_FIELDS, n_fields):
        props[name] = _scalar(rng, name, typ)
    if rng.random() < 0.6:
        props["order"] = {
            "type": "string",
            "enum": rng.choice(_ENUMS),
            "description": "One of the allowed values.",
        }
    if depth > 0 and rng.random() < 0.7:
        props["filter"] = {
            **_object(rng, depth - 1, rng.randint(1, 3)),
            "description": "Nested filter options.",
        }
    if depth > 0 and rng.random() < 0.5:
        props["items"] = {
            "type": "array",
            "description": "A list of entries.",
            "items": _object(rng, depth - 1, rng.randint(1, 3)),
            "maxItems": 50,
        }
    obj: dict[str, Any] = {"type": "object", "properties": props}
    req = [k for k in props if rng.random() < 0.3]
    if req:
        obj["required"] = req
    if rng.random() < 0.5:
        obj["additionalProperties"] = False
    return obj


def _tool(rng: random.Random, i: int, modern: bool) -> dict[str, Any]:
    verb, noun = rng.choice(_VERBS), rng.choice(_NOUNS)
    name = f"{verb}_{noun}_{i}"
    schema = _object(rng, depth=2, n_fields=rng.randint(2, 6))
    props = schema["properties"]
    roll = rng.random()
    if roll < 0.2:
        props["page"] = {"$ref": "#/$defs/Pagination", "description": "Which page to return."}
    elif roll < 0.35:
        schema["$defs"] = {
            "Window": {
                "type": "object",
                "description": "A time window.",
                "properties": {
                    "start": {
                        "type": "string",
                        "format": "date-time",
                        "description": "Start (inclusive).",
                    },
                    "end": {
                        "type": "string",
                        "format": "date-time",
                        "description": "End (exclusive).",
                    },
                },
            }
        }
        props["window"] = {"$ref": "#/$defs/Window", "description": "Time window."}
    elif roll < 0.45:
        props["address"] = {"$ref": "#/$defs/Address", "description": "Where to deliver."}
    if modern and rng.random() < 0.25:
        props["tenant"] = {
            "type": "string",
            "description": "Tenant id, also sent as a header.",
            "x-mcp-header": "Tenant",
        }
    tool: dict[str, Any] = {
        "name": name,
        "title": f"{verb.title()} {noun.replace('_', ' ')}",
        "description": f"{verb.title()} a {noun.replace('_', ' ')} ({i}). Returns structured data.",
        "inputSchema": schema,
    }
    if rng.random() < 0.7:
        out = _object(rng, depth=1, n_fields=rng.randint(1, 4))
        out["properties"]["status"] = {
            "type": "string",
            "enum": ["ok", "partial"],
            "description": "Outcome.",
        }
        out["required"] = ["status"]
        tool["outputSchema"] = out
    ro = verb in ("get", "list", "search", "fetch", "export", "render")
    ann: dict[str, Any] = {"readOnlyHint": ro, "openWorldHint": rng.random() < 0.5}
    if not ro:
        ann["destructiveHint"] = verb == "delete"
        ann["idempotentHint"] = verb in ("update", "sync")
    tool["annotations"] = ann
    if rng.random() < 0.3:
        tool["icons"] = [
            {
                "src": f"https://icons.example.com/{noun}.svg",
                "mimeType": "image/svg+xml",
                "sizes": ["any"],
                "theme": rng.choice(["light", "dark"]),
            },
            {"src": f"https://icons.example.com/{noun}-48.png", "sizes": ["48x48"]},
        ]
    return tool


def _surface(seed: int, resources: int, templates: int, prompts: int) -> dict[str, Any]:
    """Resources (half inline text, half served by a handler), templates with one or two
    typed variables and completions, and prompts (half static with placeholders, half built
    by a handler), from their own random stream (the tools stay as they were)."""
    rng = random.Random(seed + 7919)
    out: dict[str, Any] = {}
    if resources:
        out["resources"] = [
            {
                "uri": f"bench://docs/{i}/{rng.choice(_NOUNS)}",
                "name": f"doc-{i}",
                "title": f"Document {i}",
                "description": f"Reference document {i} about {rng.choice(_NOUNS)}.",
                "mimeType": rng.choice(["text/plain", "text/markdown", "application/json"]),
                **({"text": f"Contents of document {i}."} if i % 2 == 0 else {"handler": True}),
            }
            for i in range(resources)
        ]
    if templates:
        out["resourceTemplates"] = [
            {
                "uriTemplate": f"bench://items{i}/{{id}}" + ("/{part}" if i % 2 else ""),
                "name": f"item-{i}",
                "description": f"Item {i} by id.",
                "mimeType": "application/json",
                "variables": {
                    "id": {"type": "integer", "minimum": 1, "completions": ["1", "2", "3"]},
                    **({"part": {"type": "string", "enum": ["head", "body"]}} if i % 2 else {}),
                },
            }
            for i in range(templates)
        ]
    if prompts:
        out["prompts"] = [
            {
                "name": f"prompt-{i}",
                "description": f"Prompt {i}: {rng.choice(_NOUNS)}.",
                "arguments": [
                    {"name": "topic", "required": True, "completions": list(_NOUNS[:5])},
                    {"name": "style", "description": "Tone of voice."},
                ],
                **(
                    {"messages": [{"role": "user", "text": f"Write about {{topic}} ({i})."}]}
                    if i % 2 == 0
                    else {"handler": True}
                ),
            }
            for i in range(prompts)
        ]
    return out


def make_manifest(
    n_tools: int, seed: int = 0, *, resources: int = 0, templates: int = 0, prompts: int = 0
) -> dict[str, Any]:
    """A manifest with ``n_tools`` tools (and, when asked, resources, templates and prompts),
    the same for the same arguments."""
    rng = random.Random(seed)
    modern = True
    return {
        "server": {
            "name": f"bench_server_{seed}",
            "version": "1.2.3",
            "title": "Benchmark server",
            "icons": [{"src": "https://icons.example.com/server.png", "sizes": ["48x48"]}],
        },
        "protocol": ["2025-11-25", "2026-07-28"],
        "$defs": json.loads(json.dumps(SHARED_DEFS)),
        "tools": [_tool(rng, i, modern) for i in range(n_tools)],
        **_surface(seed, resources, templates, prompts),
    }


def dump_yaml(manifest: dict[str, Any]) -> str:
    import yaml

    return str(yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True, width=100))


def dump_json(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=2) + "\n"
