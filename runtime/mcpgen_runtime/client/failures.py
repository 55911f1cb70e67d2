"""How failures from the SDK, pydantic, anyio and the transports become the typed errors of
``errors`` (a call never raises anything else)."""

from __future__ import annotations

import sys

import anyio
from mcp.client._input_required import InputRequiredRoundsExceededError
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
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

__all__ = ["describe", "leaf", "map_error"]


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


def map_error(label: str, tool: str, exc: BaseException) -> ClientError:
    """The typed error for ``exc``, raised by a call of ``tool`` (or ``tools/list``) on the
    server called ``label``."""
    exc = leaf(exc)
    if isinstance(exc, ClientError):
        return exc
    if isinstance(exc, MCPError):
        if exc.code == REQUEST_TIMEOUT:
            return CallTimeoutError(exc.code, exc.message, exc.data, tool=tool)
        if exc.code == CONNECTION_CLOSED:
            return ConnectionLostError(exc.code, f"{label}: {exc.message}", exc.data, tool=tool)
        return ProtocolError(exc.code, exc.message, exc.data, tool=tool)
    if isinstance(exc, InputRequiredRoundsExceededError):
        return InputRequiredError(
            tool,
            f"the server still asked for input after {exc.max_rounds} rounds (max_input_rounds)",
        )
    if isinstance(exc, ValidationError):
        return InvalidResultError(tool, "the result is malformed", pydantic_problems(exc.errors()))
    if isinstance(exc, TimeoutError):
        return CallTimeoutError(REQUEST_TIMEOUT, f"timed out: {exc}", tool=tool)
    if isinstance(exc, RuntimeError) and str(exc).startswith(
        ("Invalid structured content", "Tool ")
    ):
        return InvalidResultError(tool, str(exc))
    if isinstance(exc, (OSError, EOFError, anyio.BrokenResourceError, anyio.ClosedResourceError)):
        return ConnectionLostError(CONNECTION_CLOSED, f"{label}: {describe(exc)}", tool=tool)
    return ClientError(f"tool {tool!r}: {describe(exc)}")
