"""``mcpgen pull``: a live server's tools as a manifest (YAML or JSON) that ``mcpgen check``
and ``mcpgen client`` read; ``mcpgen drift``: the live tools against a manifest, with the
breaking-change rules of ``mcpgen breaking``."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from mcpgen.client.live import LiveServer
from mcpgen.diagnostics import Diagnostic, Location, Severity
from mcpgen.errors import McpgenError

_SERVER_KEYS = ("name", "version", "title", "description", "instructions", "websiteUrl", "icons")


_TOOL_KEYS = ("name", "title", "description", "annotations", "inputSchema", "outputSchema")


def _wire_order(tool: dict[str, Any]) -> dict[str, Any]:
    """The tool's top-level keys in the spec's order (values untouched; schemas as sent)."""
    first = {k: tool[k] for k in _TOOL_KEYS if k in tool}
    return {**first, **{k: v for k, v in tool.items() if k not in first}}


@functools.cache
def _known_fields(kind: str) -> frozenset[str]:
    """The fields of ``kind`` that some revision has."""
    from mcpgen_runtime.revisions import FIELDS

    return frozenset().union(*(table[kind] for table in FIELDS.values()))


def _known(item: dict[str, Any], kind: str) -> dict[str, Any]:
    """The fields of ``kind`` some revision has (what a manifest may hold), in the order sent."""
    known = _known_fields(kind)
    first = [k for k in _SURFACE_KEYS if k in item and k in known]
    return {**{k: item[k] for k in first}, **{k: v for k, v in item.items() if k in known}}


_SURFACE_KEYS = ("uri", "uriTemplate", "name", "title", "description", "mimeType", "required")
"""Keys written first in a pulled resource, template, prompt or argument (then the rest, as
the server sent them)."""


def manifest_document(live: LiveServer) -> dict[str, Any]:
    server = {k: live.server[k] for k in _SERVER_KEYS if k in live.server}
    server.setdefault("name", "server")
    server.setdefault("version", "0.0.0")
    doc: dict[str, Any] = {
        "server": server,
        "protocol": [live.protocol],
        "tools": [_wire_order(t) for t in live.tools],
    }
    # the live contents and messages are the server's: a pulled manifest marks them as
    # served by handlers (what a client needs is the wire definitions)
    resources = _resources(live)
    if resources:
        doc["resources"] = [{**_known(r, "Resource"), "handler": True} for r in resources]
    if live.templates:
        doc["resourceTemplates"] = [_known(t, "ResourceTemplate") for t in live.templates]
    if live.prompts:
        doc["prompts"] = [
            {
                **_known(p, "Prompt"),
                **(
                    {"arguments": [_known(a, "PromptArgument") for a in p["arguments"]]}
                    if isinstance(p.get("arguments"), list)
                    else {}
                ),
                "handler": True,
            }
            for p in live.prompts
        ]
    if live.skills:
        doc["skills"] = [{"path": f"skills/{s.name}"} for s in live.skills]
    return doc


def _resources(live: LiveServer) -> list[dict[str, Any]]:
    """The live resources a pulled manifest declares: a pulled skill's files are served by the
    skill (``skills:``), not as resources."""
    pulled = tuple(f"skill://{s.name}/" for s in live.skills)
    return [r for r in live.resources if not str(r.get("uri", "")).startswith(pulled)]


def manifest_text(live: LiveServer, path: Path) -> str:
    """The manifest as YAML (or JSON for ``*.json``), see ``mcpgen.manifest.dump``."""
    from mcpgen.manifest.dump import manifest_text as dump

    shown = repr(live.label)[1:-1]
    head = (
        f"# Pulled by `mcpgen pull` from {shown} (protocol {live.protocol}, "
        f"{len(live.tools)} tools{_others(live)}): the server's lists as sent.\n"
    )
    try:
        return dump(manifest_document(live), path, head)
    except McpgenError:
        raise McpgenError(
            f"{live.label}: the tools cannot be written as YAML; use -o FILE.json"
        ) from None


def _others(live: LiveServer) -> str:
    parts = [
        f", {n} {what}{'s' if n != 1 else ''}"
        for n, what in (
            (len(_resources(live)), "resource"),
            (len(live.templates), "resource template"),
            (len(live.prompts), "prompt"),
            (len(live.skills), "skill"),
        )
        if n
    ]
    return "".join(parts)


def check_written(path: Path) -> list[Diagnostic]:
    """``mcpgen check``'s findings on the written manifest (default configuration)."""
    from mcpgen.check import catalog
    from mcpgen.check.config import load_config
    from mcpgen.check.runner import check_file

    rules = catalog.load_all()
    cfg = load_config(rules).check
    return check_file(str(path), cfg).diagnostics


def write_manifest(live: LiveServer, path: Path) -> tuple[int, list[Diagnostic]]:
    """Write the manifest; return (tools written, check errors)."""
    text = manifest_text(live, path)
    if live.skills:  # the folders first: checking the manifest reads them
        from mcpgen.client.pull_skills import write_skill_folders

        write_skill_folders(live.skills, path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(text, encoding="utf-8", newline="\n")
        tmp.replace(path)
    except OSError as exc:
        raise McpgenError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
    errors = [d for d in check_written(path) if d.severity >= Severity.ERROR]
    return len(live.tools), errors


def drift_diagnostics(manifest_path: Path, live: LiveServer) -> tuple[list[Diagnostic], Any]:
    """Breaking changes from the manifest (old) to the live tools (new), and the config."""
    from mcpgen.check import catalog
    from mcpgen.check.breaking import compare
    from mcpgen.check.config import load_config
    from mcpgen.check.registry import BREAKING
    from mcpgen.check.runner import active_rules
    from mcpgen.diagnostics import sort_diagnostics
    from mcpgen.manifest.load import load_manifest_text, require_manifest
    from mcpgen.manifest.model import KNOWN_REVISIONS

    old = require_manifest(manifest_path)
    label = f"<live {live.label}>.json"
    doc = manifest_document(live)
    text = json.dumps(
        {k: doc[k] for k in ("tools", "resources", "resourceTemplates", "prompts") if k in doc},
        indent=2,
        ensure_ascii=False,
    )
    res = load_manifest_text(text, label, base_dir=manifest_path.resolve().parent)
    if res.manifest is None:
        first = res.errors[0].message if res.errors else "unusable tool list"
        raise McpgenError(f"{live.label}: the live tools cannot be compared: {first}")
    rules = catalog.load_all()
    cfg = load_config(rules).breaking
    active = active_rules((BREAKING,), KNOWN_REVISIONS, cfg)
    from mcpgen_runtime.breaking.skills import SkillSide

    skills = [
        SkillSide(s.name, f"/skills/{i}", tuple(path for path, _ in s.files))
        for i, s in enumerate(live.skills)
    ]
    found = compare(old, res.manifest, active, live=True, live_skills=skills)
    return sort_diagnostics([_at_manifest(d, label, live) for d in found]), cfg


def _at_manifest(d: Diagnostic, label: str, live: LiveServer) -> Diagnostic:
    """A drift finding located in the manifest (the only file there is), naming the live side
    by URL (or command) and tool name: never by a position in a file that does not exist."""
    if d.location.path != label:
        return d
    in_manifest = [r for r in d.related if r.path != label]
    tool = _live_tool_name(d.location.pointer, live.tools)
    where = f"live {live.label}" + (f", tool {tool!r}" if tool else "")
    anchor = in_manifest[0] if in_manifest else Location(live.label)
    return Diagnostic(
        d.rule_id, d.severity, anchor, f"{d.message} ({where})", tuple(in_manifest[1:])
    )


def _live_tool_name(pointer: str, tools: list[Any]) -> str | None:
    parts = pointer.split("/")
    if len(parts) >= 3 and parts[1] == "tools" and parts[2].isdigit():
        index = int(parts[2])
        if index < len(tools) and isinstance(tools[index], dict):
            name = tools[index].get("name")
            return name if isinstance(name, str) else None
    return None
