"""The answers a generated server gives before its runtime is imported (issue 37's fast boot):
computed here, at build time, by the runtime's own functions (``mcpgen_runtime.lean.discovery``,
the same code the lean engine answers with), and written into ``_generated/discovery.py``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from mcpgen.ir.resources_prompts import ResourcesAndPrompts
from mcpgen.ir.tools import ToolIR
from mcpgen.manifest.model import Manifest

__all__ = ["discovery_answers"]


def discovery_answers(
    manifest: Manifest, tools: Sequence[ToolIR], catalogue: ResourcesAndPrompts
) -> tuple[tuple[str, str], ...]:
    """``(key, JSON text)`` of every precomputed answer (``Discovery.precomputed``), sorted:
    for the tools a server lists when started with its defaults."""
    from mcpgen_runtime.apps import extensions_for
    from mcpgen_runtime.lean.discovery import Discovery
    from mcpgen_runtime.server.toolsets import declared_toolsets, select

    server = manifest.server
    definitions = [json.loads(t.raw_json) for t in tools]
    keep = select(definitions, declared_toolsets(server.toolsets))
    scoped = any(t.scopes for t in tools) or any(i.scopes for i in catalogue.all)
    resources = bool(catalogue.resources or catalogue.templates)
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
        extensions=extensions_for(json.loads(i.definition_json) for i in catalogue.resources),
    )
    listed = [d for d, k in zip(definitions, keep, strict=True) if k]
    answers = discovery.precomputed(
        listed,
        resources=[json.loads(i.definition_json) for i in catalogue.resources],
        templates=[json.loads(i.definition_json) for i in catalogue.templates],
        prompts=[json.loads(i.definition_json) for i in catalogue.prompts],
    )
    return tuple(sorted(answers.items()))
