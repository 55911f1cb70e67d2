"""``completion/complete``: suggestions for a prompt argument or a resource template variable,
from the static values the manifest lists for it, filtered by the prefix the client typed
(case-insensitive), or from a ``Handlers.complete_<name>`` method that also sees the other
arguments already given (``context``); at most 100 per answer with ``total`` and ``hasMore``.
An unknown prompt, template or argument is ``-32602``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..revisions import has_result_type
from .auth.scopes import require
from .errors import INTERNAL_ERROR, INVALID_PARAMS, RequestError

if TYPE_CHECKING:
    import mcp.types as types
    from mcp.server.context import ServerRequestContext

    from .prompts import PromptItem
    from .resources import TemplateItem
    from .serving import Serving

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
    """``completion/complete`` for the prompts and resource templates a server serves."""

    def __init__(
        self,
        prompts: Sequence[PromptItem],
        templates: Sequence[TemplateItem],
        handlers: object,
        serving: Serving,
    ) -> None:
        self.serving = serving
        # (kind, name) -> (bound completion method, the arguments it completes)
        self.methods: dict[tuple[str, str], tuple[Any, frozenset[str]]] = {}
        owners: list[tuple[tuple[str, str], str | None, tuple[str, ...]]] = [
            (
                ("prompt", p.definition["name"]),
                p.binding.complete_method,
                p.binding.completed_by_handler,
            )
            for p in prompts
        ] + [
            (
                ("template", t.definition["uriTemplate"]),
                t.binding.complete_method,
                t.binding.completed_by_handler,
            )
            for t in templates
        ]
        for key, method_name, completed in owners:
            if method_name:
                method = getattr(handlers, method_name, None)
                if not callable(method):
                    raise TypeError(f"handlers have no method {method_name!r}")
                self.methods[key] = (method, frozenset(completed))
        # (kind, prompt name or URI template) -> argument -> (values, lower-cased values);
        # an argument without completions maps to ((), ()); an unknown one is absent
        self.table: dict[tuple[str, str], dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {}
        for p in prompts:
            args = [a.get("name") for a in p.definition.get("arguments") or ()]
            self.table[("prompt", p.definition["name"])] = {
                str(n): _pair(p.binding.completions.get(str(n), ())) for n in args
            }
        for t in templates:
            self.table[("template", t.definition["uriTemplate"])] = {
                n: _pair(t.binding.completions.get(n, ())) for n in t.template.variable_names
            }
        # the OAuth scopes of each prompt and template: completing its arguments needs them too
        self.scopes: dict[tuple[str, str], tuple[str, ...]] = {
            ("prompt", p.definition["name"]): p.binding.scopes for p in prompts
        } | {("template", t.definition["uriTemplate"]): t.binding.scopes for t in templates}

    async def complete(
        self, ctx: ServerRequestContext[Any, Any], params: types.CompleteRequestParams
    ) -> dict[str, Any]:
        from mcp_types import PromptReference  # loaded: the params are its models

        ref = params.ref
        name = params.argument.name
        if isinstance(ref, PromptReference):
            args = self.table.get(("prompt", ref.name))
            what = f"prompt {ref.name!r}"
            switches = self.serving.prompt_switches
            disabled = switches.disabled if switches is not None else frozenset()
            if args is None or ref.name in disabled:
                raise RequestError(INVALID_PARAMS, f"Unknown prompt: {ref.name}")
        else:
            uri = str(ref.uri)
            args = self.table.get(("template", uri))
            what = f"resource template {uri!r}"
            if args is None:
                raise RequestError(INVALID_PARAMS, f"Unknown resource template: {uri}")
        key = ("prompt", ref.name) if isinstance(ref, PromptReference) else ("template", uri)
        if self.scopes.get(key):
            require(self.scopes[key], what)
        pair = args.get(name)
        if pair is None:
            raise RequestError(INVALID_PARAMS, f"{what} has no argument {name!r}")
        handler = self.methods.get(key)
        if handler is not None and name in handler[1]:
            completion = await self._from_handler(ctx, handler[0], what, name, params)
        else:
            completion = suggest(pair[0], params.argument.value, pair[1])
        result: dict[str, Any] = {"completion": completion}
        if has_result_type(ctx.protocol_version):
            result["resultType"] = "complete"
        return result

    async def _from_handler(
        self,
        ctx: ServerRequestContext[Any, Any],
        method: Any,
        what: str,
        name: str,
        params: types.CompleteRequestParams,
    ) -> dict[str, Any]:
        from .context import ToolContext
        from .requests import run_handler

        context = dict(params.context.arguments or {}) if params.context else {}
        tctx = ToolContext(ctx, what, self.serving, None)
        values = await run_handler(
            f"completion of {what}", method(name, params.argument.value, context, tctx)
        )
        if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
            raise RequestError(
                INTERNAL_ERROR, f"The completion of {what} returned something other than strings."
            )
        return {
            "values": list(values[:MAX_VALUES]),
            "total": len(values),
            "hasMore": len(values) > MAX_VALUES,
        }


def _pair(values: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    kept = tuple(values)
    return kept, tuple(v.lower() for v in kept)
