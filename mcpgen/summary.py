"""The manifest's static capability summary (``mcpgen export summary``): what the server offers,
as one JSON document a gateway or a catalogue reads without starting it. Pure.

Tools, resources, resource templates and prompts are the wire definitions the server lists
(``tools/list`` etc. on the newest revision; mcpgen's own keys such as ``x-mcpgen``, ``text``,
``handler`` are left out), in manifest order (a skill's files after the manifest's resources),
the skills' ``skills/list`` entries, with the server's identity, its revisions, its
toolsets and the OAuth scopes each item needs.
"""

from __future__ import annotations

import json
from typing import Any

from mcpgen.manifest.model import Manifest
from mcpgen_runtime.revisions import REVISIONS

__all__ = ["FORMAT", "capability_summary"]

FORMAT = "mcpgen.capabilities/v1"


def capability_summary(manifest: Manifest) -> dict[str, Any]:
    from mcpgen.ir.resources_prompts import prepare_resources_and_prompts
    from mcpgen.ir.tools import build_tools

    names = [t.names for t in build_tools(manifest, package="summary")]
    resources_and_prompts = prepare_resources_and_prompts(manifest, names)
    s = manifest.server
    server: dict[str, Any] = {"name": s.name, "version": s.version}
    for key, value in (
        ("title", s.title),
        ("description", s.description),
        ("websiteUrl", s.website_url),
        ("instructions", s.instructions),
    ):
        if value:
            server[key] = value
    if s.icons:
        server["icons"] = list(s.icons)
    tools = [{k: v for k, v in t.raw.items() if k != "x-mcpgen"} for t in manifest.tools]
    out: dict[str, Any] = {
        "format": FORMAT,
        "server": server,
        # the revisions a generated server speaks, of those the manifest targets
        "protocolVersions": [r for r in manifest.revisions if r in REVISIONS],
        "tools": tools,
    }
    skill_resources, skills = _skills(manifest)
    for key, items in (
        ("resources", resources_and_prompts.resources),
        ("resourceTemplates", resources_and_prompts.templates),
        ("prompts", resources_and_prompts.prompts),
    ):
        listed = [json.loads(i.definition_json) for i in items]
        listed += skill_resources if key == "resources" else []
        if listed:
            out[key] = listed
    if skills:
        out["skills"] = skills
    if s.toolsets:
        out["toolsets"] = {
            name: {
                **({"description": spec["description"]} if spec.get("description") else {}),
                "default": spec.get("default", True) is not False,
                "tools": [t.name for t in manifest.tools if name in t.toolsets],
            }
            for name, spec in s.toolsets.items()
        }
    scopes = {
        **{f"tool:{t.name}": list(t.scopes) for t in manifest.tools if t.scopes},
        **{
            f"{kind}:{item.raw.get(key) or item.name}": list(item.scopes)
            for kind, key, items in (
                ("resource", "uri", manifest.resources),
                ("template", "uriTemplate", manifest.templates),
                ("prompt", "name", manifest.prompts),
            )
            for item in items
            if item.scopes
        },
    }
    if s.auth or scopes:
        auth = s.auth or {}
        out["authorization"] = {
            k: auth[k] for k in ("issuer", "resource", "scopes", "requiredScopes") if k in auth
        } | ({"itemScopes": scopes} if scopes else {})
    return out


def _skills(manifest: Manifest) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The resources the skills' files are listed as (after the manifest's own, as the server
    lists them) and the skills' ``skills/list`` entries."""
    if not manifest.skills:
        return [], []
    from mcpgen.ir.skills import prepare_skills
    from mcpgen_runtime.skills_facts import (
        SkillBinding,
        skill_entry,
        skill_resource_definitions,
    )

    resources: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []
    for s in prepare_skills(manifest):
        binding = SkillBinding(s.name, s.frontmatter_json, "", tuple(f.row for f in s.files))
        resources += skill_resource_definitions(binding)
        entries.append(skill_entry(binding))
    return resources, entries
