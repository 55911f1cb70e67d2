"""The answers a generated server gives before its runtime is imported (issue 37's fast boot):
computed here, at build time, by the runtime's own functions (``mcpgen_runtime.lean.discovery``,
the same code the lean engine answers with), and written into ``_generated/discovery.py``."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from mcpgen.ir.resources_prompts import ResourcesAndPrompts
from mcpgen.ir.skills import SkillIR
from mcpgen.ir.tools import ToolIR
from mcpgen.manifest.model import Manifest

__all__ = ["discovery_answers", "discovery_data"]


def discovery_answers(
    manifest: Manifest,
    tools: Sequence[ToolIR],
    catalogue: ResourcesAndPrompts,
    skills: Sequence[SkillIR] = (),
) -> tuple[tuple[str, str], ...]:
    """``(key, JSON text)`` of every precomputed answer (``Discovery.precomputed``), sorted:
    for the tools a server lists when started with its defaults."""
    from mcpgen_runtime.apps import extensions_for
    from mcpgen_runtime.lean.discovery import Discovery
    from mcpgen_runtime.server.toolsets import declared_toolsets, select
    from mcpgen_runtime.tasks.settings import EXTENSION as TASKS
    from mcpgen_runtime.tasks.settings import task_support

    server = manifest.server
    definitions = [json.loads(t.raw_json) for t in tools]
    keep = select(definitions, declared_toolsets(server.toolsets))
    scoped = any(t.scopes for t in tools) or any(i.scopes for i in catalogue.all)
    resources = bool(catalogue.resources or catalogue.templates or skills)
    skill_resources, extensions = _skills(skills)
    if any(task_support(d) != "forbidden" for d, k in zip(definitions, keep, strict=True) if k):
        extensions = {**extensions, TASKS: {}}
    discovery = Discovery(
        name=server.name,
        version=server.version,
        title=server.title,
        description=server.description,
        instructions=server.instructions,
        website_url=server.website_url,
        tools_list_changed=server.list_changed,
        resources=resources,
        prompts=bool(catalogue.prompts),
        completions=bool(catalogue.prompts or catalogue.templates),
        cache={
            "ttlMs": server.cache_ttl_ms,
            "cacheScope": "private" if scoped else server.cache_scope,
        },
        extensions={
            **extensions_for(json.loads(i.definition_json) for i in catalogue.resources),
            **extensions,
        },
    )
    from mcpgen_runtime.server.discovery_modes import DiscoveryConfig

    listed = DiscoveryConfig(server.discovery).listing(
        [d for d, k in zip(definitions, keep, strict=True) if k]
    )
    answers = discovery.precomputed(
        listed,
        resources=[json.loads(i.definition_json) for i in catalogue.resources] + skill_resources,
        templates=[json.loads(i.definition_json) for i in catalogue.templates],
        prompts=[json.loads(i.definition_json) for i in catalogue.prompts],
    )
    return tuple(sorted(answers.items()))


def discovery_data(
    manifest: Manifest, tools: Sequence[ToolIR]
) -> tuple[str | None, str | None, str | None]:
    """``server.discovery`` (canonical JSON), the search index and code mode's API table
    (compact JSON), each None when the mode does not use it: computed here, once, so the
    server only loads them."""
    from mcpgen.ir.tools import canonical_json

    block = manifest.server.discovery
    if not block:
        return None, None, None
    mode = block.get("mode", "all")
    if mode not in ("search", "code"):
        return canonical_json(block), None, None
    from mcpgen_runtime.search_index import build_index

    definitions = [json.loads(t.raw_json) for t in tools]
    index = json.dumps(build_index(definitions), ensure_ascii=False, separators=(",", ":"))
    api = None
    if mode == "code":
        from mcpgen.codemode import compile_api

        table = compile_api(definitions).table
        api = json.dumps(table, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return canonical_json(block), index, api


def _skills(
    skills: Sequence[SkillIR],
) -> tuple[list[dict[str, object]], dict[str, Mapping[str, object]]]:
    """The resources the skills' files are listed as, after the manifest's own (as
    ``build_server`` appends them), and the extension the server declares."""
    if not skills:
        return [], {}
    from mcpgen_runtime.skills_facts import (
        EXTENSION,
        SETTINGS,
        SkillBinding,
        skill_resource_definitions,
    )

    listed: list[dict[str, object]] = []
    for s in skills:
        rows = tuple(f.row for f in s.files)
        listed += skill_resource_definitions(SkillBinding(s.name, s.frontmatter_json, "", rows))
    return listed, {EXTENSION: SETTINGS}
