"""Running a resource, template or prompt handler: what its exceptions become on the wire.

Tools answer failures with ``isError`` results; ``resources/read`` and ``prompts/get`` have no
such field, so a handler's failure is a JSON-RPC error: ``ToolError`` carries its message
(``-32603``), ``NotImplementedError`` says "not implemented yet", and anything unexpected is
logged with an incident id and answered with a safe text (never the exception's own text).
A protocol error the handler chose (the SDK's ``MCPError``, or the runtime's ``RequestError``,
see ``errors``) and ``InputRequired`` pass through.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from .context import ToolContext
from .errors import INTERNAL_ERROR, INVALID_PARAMS, RequestError, protocol_errors
from .outcome import LOGGER, ToolError
from .sealed import InputRequired

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from pydantic import BaseModel

    from .serving import Serving

__all__ = ["Answered", "run_handler", "run_round", "validated"]


def validated(model: type[BaseModel], data: Mapping[str, Any], what: str) -> BaseModel:
    """``data`` as ``model`` (a template's variables, a prompt's arguments); ``-32602`` naming
    ``what`` and every problem when it does not fit."""
    from pydantic import ValidationError  # loaded: ``model`` is a pydantic model

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        from .validation import pydantic_problems

        problems = pydantic_problems(exc.errors(include_url=False, include_input=False))
        raise RequestError(INVALID_PARAMS, f"{what}: " + "; ".join(problems)) from None


class Answered:
    """A handler's value, or the ``InputRequiredResult`` it led to (``result``)."""

    __slots__ = ("value", "result")

    def __init__(self, value: object = None, result: dict[str, Any] | None = None) -> None:
        self.value = value
        self.result = result


async def run_round(
    serving: Serving,
    ctx: ServerRequestContext[Any, Any],
    key: str,
    name: str,
    what: str,
    arguments: Mapping[str, Any],
    call: Callable[[ToolContext], Awaitable[object]],
) -> Answered:
    """One round of a resource or prompt handler: this round's answers (2026-07-28
    ``requestState``/``inputResponses``, bound to ``key`` and ``arguments``), the handler run
    with its context, and an ``InputRequiredResult`` when it asks for input."""
    inputs = None
    raw = ctx.params
    if isinstance(raw, Mapping) and ("requestState" in raw or "inputResponses" in raw):
        from .rounds import open_inputs

        opened = open_inputs(serving.state_key, key, raw, arguments)
        if isinstance(opened, dict):  # a genuine but unusable state
            raise RequestError(INVALID_PARAMS, opened["content"][0]["text"])
        inputs = opened
    tctx = ToolContext(ctx, name, serving, inputs)
    try:
        return Answered(await run_handler(what, call(tctx)))
    except InputRequired as exc:
        from .rounds import input_required

        state = input_required(serving.state_key, key, arguments, tctx.call_inputs(), exc)
        return Answered(result=state)


async def run_handler(what: str, call: Awaitable[object]) -> object:
    """``await call``; ``what`` names the target in messages (``"resource 'test://x'"``)."""
    try:
        return await call
    except InputRequired:
        raise
    except protocol_errors():
        raise
    except ToolError as exc:
        raise RequestError(INTERNAL_ERROR, exc.message) from None
    except NotImplementedError:
        LOGGER.warning("%s is not implemented (handlers.py)", what)
        raise RequestError(INTERNAL_ERROR, f"The {what} is not implemented yet.") from None
    except Exception as exc:
        incident = uuid.uuid4().hex[:12]
        LOGGER.error("%s failed (incident %s)", what, incident, exc_info=exc)
        raise RequestError(
            INTERNAL_ERROR, f"The {what} failed with an internal error (incident {incident})."
        ) from None
