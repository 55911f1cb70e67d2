"""How failures from the SDK, pydantic, anyio and the transports become the typed errors of
``errors`` (a call never raises anything else)."""

from __future__ import annotations

import contextvars
import sys
from typing import Any, TypeVar

import anyio
from mcp.client._input_required import InputRequiredRoundsExceededError
from mcp.client.session import ElicitationFnT, SamplingFnT
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT, ErrorData
from pydantic import ValidationError

from ..server.validation import pydantic_problems
from .errors import (
    CallTimeoutError,
    ClientError,
    ConnectionLostError,
    InputRequiredError,
    InvalidResultError,
    ProtocolError,
)

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

__all__ = ["DECLINES", "describe", "leaf", "map_error", "recording_declines"]

DECLINES: contextvars.ContextVar[list[ErrorData]] = contextvars.ContextVar("mcpgen_declines")
"""The ``ErrorData`` a user callback answered an input request with, during one call."""

_CallbackT = TypeVar("_CallbackT", ElicitationFnT, SamplingFnT)


def recording_declines(fn: _CallbackT | None) -> _CallbackT | None:
    """``fn`` (an elicitation or sampling callback), noting each ``ErrorData`` it answers
    with, so a declined input request is reported as such."""
    if fn is None:
        return None
    callback: Any = fn

    async def wrapped(context: Any, params: Any) -> Any:
        out = await callback(context, params)
        if isinstance(out, ErrorData) and (seen := DECLINES.get(None)) is not None:
            seen.append(out)
        return out

    result: _CallbackT = wrapped
    return result


def leaf(exc: BaseException) -> BaseException:
    """The one real error inside (nested) exception groups, or the group itself."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def describe(exc: BaseException) -> str:
    exc = leaf(exc)
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(describe(e) for e in exc.exceptions[:3])
    if isinstance(exc, MCPError):
        return f"{exc.message} (JSON-RPC error {exc.code})"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def map_error(
    label: str, tool: str, exc: BaseException, *, target: str | None = None
) -> ClientError:
    """The typed error for ``exc``, raised by a call of ``tool`` (or ``tools/list``) on the
    server called ``label``; ``target``: a request about something other than a tool
    (``resource 'about://x'``, ``prompt 'p'``), named so in the message."""
    exc = leaf(exc)
    if isinstance(exc, ClientError):
        return exc
    name = None if target else tool
    if isinstance(exc, MCPError):
        if exc.code == REQUEST_TIMEOUT:
            return CallTimeoutError(exc.code, exc.message, exc.data, tool=name, target=target)
        if exc.code == CONNECTION_CLOSED:
            message = f"{label}: {exc.message}"
            return ConnectionLostError(exc.code, message, exc.data, tool=name, target=target)
        return ProtocolError(exc.code, exc.message, exc.data, tool=name, target=target)
    if isinstance(exc, InputRequiredRoundsExceededError):
        return InputRequiredError(
            tool,
            f"the server still asked for input after {exc.max_rounds} rounds (max_input_rounds)",
        )
    if isinstance(exc, ValidationError):
        problems = pydantic_problems(exc.errors())
        return InvalidResultError(tool, "the result is malformed", problems, target=target)
    if isinstance(exc, TimeoutError):
        return CallTimeoutError(REQUEST_TIMEOUT, f"timed out: {exc}", tool=name, target=target)
    if isinstance(exc, RuntimeError) and str(exc).startswith(
        ("Invalid structured content", "Tool ")
    ):
        return InvalidResultError(tool, str(exc), target=target)
    if isinstance(exc, (OSError, EOFError, anyio.BrokenResourceError, anyio.ClosedResourceError)):
        message = f"{label}: {describe(exc)}"
        return ConnectionLostError(CONNECTION_CLOSED, message, tool=name, target=target)
    return ClientError(f"{target or f'tool {tool!r}'}: {describe(exc)}")
