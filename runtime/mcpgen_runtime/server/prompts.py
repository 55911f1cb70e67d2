"""The prompts surface of a generated server: ``prompts/list`` and ``prompts/get``.

A prompt's messages are static (written in the manifest, with ``{argument}`` placeholders) or
built by a handler method that gets the typed arguments. Placeholders are substituted by
``fill``: a name in braces that is one of the prompt's arguments is replaced by its value,
``{{`` and ``}}`` are literal braces, and nothing is ever evaluated (no format-string attribute
or index access, no template engine at run time).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union, cast

from .auth.scopes import require
from .errors import INVALID_PARAMS, RequestError
from .fastpath import is_model
from .listing import finish, page, shape_prompt
from .requests import run_round, validated

if TYPE_CHECKING:
    import mcp.types as types
    from mcp.server.context import ServerRequestContext
    from pydantic import BaseModel

    from .serving import Serving

__all__ = ["PromptBinding", "PromptContent", "PromptItem", "PromptsRuntime", "fill", "messages"]

PromptContent = Union["BaseModel", Mapping[str, Any], Sequence[Any]]
"""What a prompt handler may return besides ``str`` (one user text message): a content block
(``TextContent``, ``ImageContent``, ``AudioContent``, ``EmbeddedResource``...), a
``{role, content}`` message, or a list of them."""

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.-]*)\}")


def fill(text: str, arguments: Mapping[str, str]) -> str:
    """``text`` with each ``{name}`` of ``arguments`` replaced by its value (``{{``/``}}``:
    literal braces; any other brace is kept as written)."""

    def one(m: re.Match[str]) -> str:
        token = m.group(0)
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        name = m.group(1)
        return arguments[name] if name in arguments else token

    return _PLACEHOLDER.sub(one, text)


class PromptBinding:
    """One prompt: its exact definition, and its static messages or its handler method."""

    __slots__ = (
        "definition_json",
        "messages",
        "method",
        "args_model",
        "completions",
        "complete_method",
        "completed_by_handler",
        "scopes",
    )

    def __init__(
        self,
        *,
        definition_json: str,
        messages: Sequence[tuple[str, str]] | None = None,
        method: str | None = None,
        args_model: type[BaseModel] | None = None,
        completions: Mapping[str, Sequence[str]] | None = None,
        complete_method: str | None = None,
        completed_by_handler: Sequence[str] = (),
        scopes: Sequence[str] = (),
    ) -> None:
        if (messages is None) == (method is None):
            raise ValueError("a prompt has either static messages or a handler method")
        self.definition_json = definition_json
        self.messages = tuple(messages or ())
        """``(role, text with placeholders)`` per message."""
        self.method = method
        self.args_model = args_model
        self.completions = dict(completions or {})
        self.complete_method = complete_method
        """The ``Handlers`` method that completes ``completed_by_handler``."""
        self.completed_by_handler = tuple(completed_by_handler)
        self.scopes = tuple(scopes)
        """OAuth scopes a caller's token needs for this prompt."""


class PromptItem:
    """One prompt as served: its parsed definition, its binding, its handler (if any)."""

    __slots__ = ("definition", "binding", "invoke", "required")

    def __init__(self, binding: PromptBinding, handlers: object) -> None:
        self.definition: dict[str, Any] = json.loads(binding.definition_json)
        self.binding = binding
        self.invoke = getattr(handlers, binding.method) if binding.method else None
        if binding.method and not callable(self.invoke):
            raise TypeError(f"handlers have no method {binding.method!r}")
        self.required = [
            a["name"] for a in self.definition.get("arguments") or () if a.get("required")
        ]


class PromptsRuntime:
    """The prompts a server serves (``prompts/list``, ``prompts/get``); their switches and
    the scopes they need are ``serving``'s."""

    def __init__(
        self, prompts: Sequence[PromptItem], page_size: int | None, serving: Serving
    ) -> None:
        self.prompts = list(prompts)
        self.by_name = {p.definition["name"]: p for p in self.prompts}
        self.page_size = page_size
        self.serving = serving

    @property
    def disabled(self) -> frozenset[str]:
        switches = self.serving.prompt_switches
        return switches.disabled if switches is not None else frozenset()

    async def list_prompts(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> dict[str, Any]:
        version = ctx.protocol_version
        visible = self.serving.scopes.visible(
            [p for p in self.prompts if p.definition["name"] not in self.disabled],
            lambda p: p.binding.scopes,
        )
        items, cursor = page(visible, params.cursor if params else None, self.page_size, "prompts")
        listed = [shape_prompt(p.definition, version) for p in items]
        return finish({"prompts": listed}, cursor, version)

    async def get_prompt(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetPromptRequestParams
    ) -> dict[str, Any]:
        version = ctx.protocol_version
        prompt = self.by_name.get(params.name)
        if prompt is None or params.name in self.disabled:
            raise RequestError(INVALID_PARAMS, f"Unknown prompt: {params.name}")
        if prompt.binding.scopes:
            require(prompt.binding.scopes, f"prompt {params.name!r}")
        arguments = dict(params.arguments or {})
        missing = [n for n in prompt.required if n not in arguments]
        if missing:
            raise RequestError(
                INVALID_PARAMS, f"Prompt {params.name!r} needs the argument(s) {', '.join(missing)}"
            )
        result: dict[str, Any] = {}
        if isinstance(prompt.definition.get("description"), str):
            result["description"] = prompt.definition["description"]
        if prompt.invoke is None:
            result["messages"] = [
                {"role": role, "content": {"type": "text", "text": fill(text, arguments)}}
                for role, text in prompt.binding.messages
            ]
        else:
            result["messages"] = await self._run(ctx, prompt, arguments)
            if isinstance(result["messages"], dict):  # an InputRequiredResult
                return result["messages"]
        return finish(result, None, version)

    async def _run(
        self, ctx: ServerRequestContext[Any, Any], prompt: PromptItem, arguments: dict[str, Any]
    ) -> Any:
        name = prompt.definition["name"]
        model = prompt.binding.args_model
        typed: Any = (
            validated(model, arguments, f"Invalid arguments for prompt {name!r}")
            if model is not None
            else arguments
        )
        invoke = prompt.invoke
        assert invoke is not None
        answered = await run_round(
            self.serving,
            ctx,
            f"prompt:{name}",
            name,
            f"prompt {name!r}",
            arguments,
            lambda tctx: invoke(typed, tctx),
        )
        if answered.result is not None:
            return answered.result
        return messages(answered.value)


def messages(value: object) -> list[dict[str, Any]]:
    """A prompt handler's value as ``GetPromptResult.messages``: a ``str`` is one user text
    message; a content block (wire model or mapping with ``type``) is one user message; a
    mapping or model with ``role`` and ``content`` is a message; a list is several."""
    if isinstance(value, str):
        return [{"role": "user", "content": {"type": "text", "text": value}}]
    if is_model(value):
        value = cast("BaseModel", value).model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, Mapping):
        if "role" in value and "content" in value:
            content = value["content"]
            if is_model(content):
                content = cast("BaseModel", content).model_dump(
                    mode="json", by_alias=True, exclude_none=True
                )
            return [{"role": value["role"], "content": dict(content)}]
        if "type" in value:
            return [{"role": "user", "content": dict(value)}]
    if isinstance(value, (list, tuple)):
        return [m for v in value for m in messages(v)]
    raise TypeError(
        f"a prompt handler returned {type(value).__name__}; return str, a content block, a "
        "{role, content} message, or a list of them"
    )
