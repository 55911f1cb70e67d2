"""What a server's reference page shows, as plain data for the templates. Pure.

Built from the checked manifest and the IR every generated package uses (``build_tools``,
``prepare_resources_and_prompts``): the server's identity, the auth it requires, its toolsets,
then every tool (input and output tables, annotations, scopes, toolsets), resource, resource
template (its variables) and prompt (its arguments), in manifest order. Strings are passed on
raw; the templates escape them (``mcpgen.docs.escape``, autoescaping for HTML).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcpgen.docs.escape import json_text
from mcpgen.docs.extras import Skill, View, served_revisions, skills_of, task_note, view_of
from mcpgen.docs.schema_rows import Row, schema_rows
from mcpgen.manifest.model import Manifest, SectionItem

__all__ = ["Item", "Page", "Tool", "page_of"]

_ANNOTATION_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


@dataclass(frozen=True)
class Tool:
    anchor: str
    name: str
    title: str | None
    description: str | None
    annotations: tuple[tuple[str, str], ...]
    scopes: tuple[str, ...]
    toolsets: tuple[str, ...]
    forwarded: str | None
    inputs: tuple[Row, ...]
    closed_input: bool
    """The input accepts no property beyond those listed."""
    outputs: tuple[Row, ...] | None
    """None: the tool declares no outputSchema."""
    task: str | None = None
    """How it runs as a task (``mcpgen.docs.extras.task_note``); None: a plain tool."""
    view: View | None = None


@dataclass(frozen=True)
class Item:
    """A resource, resource template or prompt."""

    anchor: str
    kind: str
    name: str
    key: str
    """Its URI, URI template or name."""
    title: str | None
    description: str | None
    mime_type: str | None
    scopes: tuple[str, ...]
    served: str
    rows: tuple[Row, ...]
    """A template's variables or a prompt's arguments."""
    completions: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class Page:
    name: str
    version: str
    title: str | None
    description: str | None
    instructions: str | None
    website_url: str | None
    revisions: tuple[str, ...]
    auth: tuple[tuple[str, str], ...]
    """``server.auth`` settings a user needs to know (issuer, resource, audience, scopes)."""
    item_scopes: tuple[tuple[str, str, tuple[str, ...]], ...]
    """``(kind, name, scopes)`` for every item that needs scopes, in page order."""
    toolsets: tuple[tuple[str, str | None, bool, tuple[str, ...]], ...]
    """``(name, description, served by default, tools)``."""
    tools: tuple[Tool, ...]
    resources: tuple[Item, ...]
    templates: tuple[Item, ...]
    prompts: tuple[Item, ...]
    skills: tuple[Skill, ...] = ()


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _annotations(raw: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    ann = raw.get("annotations")
    if not isinstance(ann, Mapping):
        return ()
    known = [k for k in _ANNOTATION_HINTS if k in ann]
    rest = sorted(k for k in ann if k not in _ANNOTATION_HINTS and k != "title")
    out = [(k, json_text(ann[k])) for k in (*known, *rest)]
    if isinstance(ann.get("title"), str):
        out.insert(0, ("title", ann["title"]))
    return tuple(out)


def _variable_rows(raw: Mapping[str, Any]) -> tuple[Row, ...]:
    variables = raw.get("variables")
    if not isinstance(variables, Mapping):
        return ()
    schema = {
        "type": "object",
        "properties": {
            k: {kk: vv for kk, vv in v.items() if kk != "completions"}
            for k, v in variables.items()
            if isinstance(v, Mapping)
        },
        "required": list(variables),
    }
    return tuple(schema_rows(schema))


def _argument_rows(raw: Mapping[str, Any]) -> tuple[Row, ...]:
    args = raw.get("arguments")
    rows: list[Row] = []
    for a in args if isinstance(args, list) else ():
        if isinstance(a, Mapping):
            rows.append(
                Row(
                    path=str(a.get("name", "")),
                    type="string",
                    required=a.get("required") is True,
                    constraints=(),
                    default=None,
                    description=_str(a.get("description")) or _str(a.get("title")),
                    examples=(),
                )
            )
    return tuple(rows)


def _completions(raw: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    out: list[tuple[str, tuple[str, ...]]] = []
    args = raw.get("arguments")
    named: list[tuple[str, Any]] = [
        (str(a.get("name", "")), a.get("completions"))
        for a in (args if isinstance(args, list) else ())
        if isinstance(a, Mapping)
    ]
    variables = raw.get("variables")
    if isinstance(variables, Mapping):
        named += [
            (str(k), v.get("completions")) for k, v in variables.items() if isinstance(v, Mapping)
        ]
    for name, values in named:
        if values == "handler":
            out.append((name, ("(computed by the server)",)))
        elif isinstance(values, list) and values:
            out.append((name, tuple(str(v) for v in values)))
    return tuple(out)


def _served(kind: str, item: SectionItem) -> str:
    if kind == "resource":
        if item.handler:
            return "read from the server's handler"
        return "a file bundled with the server" if "file" in item.raw else "fixed text"
    if kind == "prompt":
        return "built by the server's handler" if item.handler else "fixed messages"
    return "read from the server's handler"


def _items(kind: str, key: str, items: tuple[SectionItem, ...]) -> tuple[Item, ...]:
    return tuple(
        Item(
            anchor=f"{kind}-{i}",
            kind=kind,
            name=item.name,
            key=str(item.raw.get(key, "")),
            title=_str(item.raw.get("title")),
            description=_str(item.raw.get("description")),
            mime_type=_str(item.raw.get("mimeType")),
            scopes=item.scopes,
            served=_served(kind, item),
            rows=_variable_rows(item.raw) if kind == "template" else _argument_rows(item.raw),
            completions=_completions(item.raw),
        )
        for i, item in enumerate(items)
    )


def page_of(manifest: Manifest) -> Page:
    """The reference page of ``manifest`` (checked: ``McpgenError`` from the IR for what
    ``mcpgen server`` would also refuse)."""
    from mcpgen.ir.resources_prompts import prepare_resources_and_prompts
    from mcpgen.ir.tools import build_tools

    irs = build_tools(manifest, package="docs")
    prepare_resources_and_prompts(manifest, [t.names for t in irs])
    tools = tuple(
        Tool(
            anchor=f"tool-{ir.index}",
            name=ir.name,
            title=ir.title,
            description=ir.description,
            annotations=_annotations(tool.raw),
            scopes=ir.scopes,
            toolsets=tool.toolsets,
            forwarded=ir.forwarded,
            inputs=tuple(schema_rows(ir.input_schema)),
            closed_input=ir.input_schema.get("additionalProperties") is False,
            outputs=tuple(schema_rows(ir.output_schema)) if ir.output_schema is not None else None,
            task=task_note(tool.raw),
            view=view_of(manifest, tool.raw),
        )
        for ir, tool in zip(irs, manifest.tools, strict=True)
    )
    s = manifest.server
    auth_raw = s.auth or {}
    auth: list[tuple[str, str]] = []
    for key, label in (
        ("issuer", "Authorization server (issuer)"),
        ("resource", "Resource (token audience)"),
        ("audience", "Accepted audience"),
        ("scopes", "Scopes supported"),
        ("requiredScopes", "Scopes every request needs"),
    ):
        value = auth_raw.get(key)
        if isinstance(value, list):
            auth.append((label, ", ".join(str(v) for v in value)))
        elif value is not None:
            auth.append((label, str(value)))
        elif key == "issuer" and s.auth is not None:
            auth.append((label, "set where the server runs (--auth-issuer, MCPGEN_AUTH_ISSUER)"))
    resources = _items("resource", "uri", manifest.resources)
    templates = _items("template", "uriTemplate", manifest.templates)
    prompts = _items("prompt", "name", manifest.prompts)
    item_scopes = tuple(
        [("tool", t.name, t.scopes) for t in tools if t.scopes]
        + [(i.kind, i.key, i.scopes) for i in (*resources, *templates, *prompts) if i.scopes]
    )
    toolsets = tuple(
        (
            name,
            _str(spec.get("description")) if isinstance(spec, Mapping) else None,
            not (isinstance(spec, Mapping) and spec.get("default") is False),
            tuple(t.name for t in manifest.tools if name in t.toolsets),
        )
        for name, spec in (s.toolsets or {}).items()
    )
    return Page(
        name=s.name,
        version=s.version,
        title=s.title,
        description=s.description,
        instructions=s.instructions,
        website_url=s.website_url,
        revisions=served_revisions(manifest),
        auth=tuple(auth),
        item_scopes=item_scopes,
        toolsets=toolsets,
        tools=tools,
        resources=resources,
        templates=templates,
        prompts=prompts,
        skills=skills_of(manifest),
    )
