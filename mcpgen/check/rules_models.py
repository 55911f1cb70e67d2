"""Rules for ``server.models``: what the generated handlers receive (pydantic models or
``TypedDict``-typed JSON)."""

from __future__ import annotations

from mcpgen.check.context import ManifestCtx
from mcpgen.check.registry import LINT, E, checker, rule

rule(
    "MODELS_TYPEDDICT_ARGUMENTS",
    LINT,
    E,
    "With `server.models: typeddict` the manifest has no resource template and no prompt "
    "whose handler takes arguments.",
    why="Typeddict covers tools: the runtime checks a template's variables and a prompt's "
    "arguments with their generated pydantic model, which a typeddict package does not make. "
    "Keep `pydantic`, or serve those through tools.",
)


@checker("MODELS_TYPEDDICT_ARGUMENTS", scope="manifest")
def check_models(ctx: ManifestCtx) -> None:
    m = ctx.manifest
    if m.server.models != "typeddict":
        return
    for item in m.templates:
        ctx.emit(
            "MODELS_TYPEDDICT_ARGUMENTS",
            "/server/models",
            f"server.models is 'typeddict' but resource template {item.name!r} (at "
            f"{item.pointer}) takes variables: keep 'pydantic' for this manifest",
        )
        return
    for item in m.prompts:
        if item.handler and item.raw.get("arguments"):
            ctx.emit(
                "MODELS_TYPEDDICT_ARGUMENTS",
                "/server/models",
                f"server.models is 'typeddict' but prompt {item.name!r} (at {item.pointer}) "
                "has a handler with arguments: keep 'pydantic' for this manifest",
            )
            return
