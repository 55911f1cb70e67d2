"""``completion/complete``: suggestions for a prompt argument or a resource template variable,
from the static values the manifest lists for it, filtered by the prefix the client typed
(case-insensitive), at most 100 per answer with ``total`` and ``hasMore``. An unknown prompt,
template or argument is ``-32602``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from ..revisions import has_result_type

if TYPE_CHECKING:
    from .prompts import PromptsRuntime
    from .resources import ResourcesRuntime

__all__ = ["MAX_VALUES", "Completions", "suggest"]

MAX_VALUES = 100
"""The spec's limit of values in one completion answer."""


def suggest(values: Sequence[str], prefix: str) -> dict[str, Any]:
    """The ``completion`` object: the values starting with ``prefix`` (case-insensitive)."""
    low = prefix.lower()
    hits = [v for v in values if v.lower().startswith(low)]
    return {
        "values": hits[:MAX_VALUES],
        "total": len(hits),
        "hasMore": len(hits) > MAX_VALUES,
    }


class Completions:
    def __init__(self, prompts: PromptsRuntime, resources: ResourcesRuntime) -> None:
        self.prompts = prompts
        self.resources = resources

    async def complete(
        self, ctx: ServerRequestContext[Any, Any], params: types.CompleteRequestParams
    ) -> dict[str, Any]:
        ref = params.ref
        name = params.argument.name
        if isinstance(ref, types.PromptReference):
            prompt = self.prompts.by_name.get(ref.name)
            if prompt is None:
                raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {ref.name}")
            declared = {a.get("name") for a in prompt.definition.get("arguments") or ()}
            what = f"prompt {ref.name!r}"
            values = prompt.binding.completions.get(name)
        else:
            uri = str(ref.uri)
            template = next(
                (t for t in self.resources.templates if t.definition["uriTemplate"] == uri), None
            )
            if template is None:
                raise MCPError(
                    code=types.INVALID_PARAMS, message=f"Unknown resource template: {uri}"
                )
            declared = set(template.template.variable_names)
            what = f"resource template {uri!r}"
            values = template.binding.completions.get(name)
        if name not in declared:
            raise MCPError(code=types.INVALID_PARAMS, message=f"{what} has no argument {name!r}")
        result: dict[str, Any] = {"completion": suggest(values or (), params.argument.value)}
        if has_result_type(ctx.protocol_version):
            result["resultType"] = "complete"
        return result
