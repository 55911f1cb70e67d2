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


def suggest(
    values: Sequence[str], prefix: str, lowered: Sequence[str] | None = None
) -> dict[str, Any]:
    """The ``completion`` object: the values starting with ``prefix`` (case-insensitive;
    ``lowered``: the values lower-cased, when the caller keeps them)."""
    low = prefix.lower()
    keys = lowered if lowered is not None else [v.lower() for v in values]
    hits = [v for v, k in zip(values, keys, strict=True) if k.startswith(low)]
    return {
        "values": hits[:MAX_VALUES],
        "total": len(hits),
        "hasMore": len(hits) > MAX_VALUES,
    }


class Completions:
    def __init__(self, prompts: PromptsRuntime, resources: ResourcesRuntime) -> None:
        self.prompts = prompts
        self.resources = resources
        # (kind, prompt name or URI template) -> argument -> (values, lower-cased values);
        # an argument without completions maps to ((), ()); an unknown one is absent
        self.table: dict[tuple[str, str], dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {}
        for p in prompts.prompts:
            args = [a.get("name") for a in p.definition.get("arguments") or ()]
            self.table[("prompt", p.definition["name"])] = {
                str(n): _pair(p.binding.completions.get(str(n), ())) for n in args
            }
        for t in resources.templates:
            self.table[("template", t.definition["uriTemplate"])] = {
                n: _pair(t.binding.completions.get(n, ())) for n in t.template.variable_names
            }

    async def complete(
        self, ctx: ServerRequestContext[Any, Any], params: types.CompleteRequestParams
    ) -> dict[str, Any]:
        ref = params.ref
        name = params.argument.name
        if isinstance(ref, types.PromptReference):
            args = self.table.get(("prompt", ref.name))
            what = f"prompt {ref.name!r}"
            if args is None or ref.name in self.prompts.disabled:
                raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {ref.name}")
        else:
            uri = str(ref.uri)
            args = self.table.get(("template", uri))
            what = f"resource template {uri!r}"
            if args is None:
                raise MCPError(
                    code=types.INVALID_PARAMS, message=f"Unknown resource template: {uri}"
                )
        pair = args.get(name)
        if pair is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"{what} has no argument {name!r}")
        result: dict[str, Any] = {"completion": suggest(pair[0], params.argument.value, pair[1])}
        if has_result_type(ctx.protocol_version):
            result["resultType"] = "complete"
        return result


def _pair(values: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    kept = tuple(values)
    return kept, tuple(v.lower() for v in kept)
