"""Running a resource, template or prompt handler: what its exceptions become on the wire.

Tools answer failures with ``isError`` results; ``resources/read`` and ``prompts/get`` have no
such field, so a handler's failure is a JSON-RPC error: ``ToolError`` carries its message
(``-32603``), ``NotImplementedError`` says "not implemented yet", and anything unexpected is
logged with an incident id and answered with a safe text (never the exception's own text).
``MCPError`` (a precise protocol error the handler chose) and ``InputRequired`` pass through.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable

import mcp.types as types
from mcp.shared.exceptions import MCPError

from .asking import InputRequired
from .outcome import LOGGER, ToolError

__all__ = ["run_handler"]


async def run_handler(what: str, call: Awaitable[object]) -> object:
    """``await call``; ``what`` names the target in messages (``"resource 'test://x'"``)."""
    try:
        return await call
    except (MCPError, InputRequired):
        raise
    except ToolError as exc:
        raise MCPError(code=types.INTERNAL_ERROR, message=exc.message) from None
    except NotImplementedError:
        LOGGER.warning("%s is not implemented (handlers.py)", what)
        raise MCPError(
            code=types.INTERNAL_ERROR, message=f"The {what} is not implemented yet."
        ) from None
    except Exception as exc:
        incident = uuid.uuid4().hex[:12]
        LOGGER.error("%s failed (incident %s)", what, incident, exc_info=exc)
        raise MCPError(
            code=types.INTERNAL_ERROR,
            message=f"The {what} failed with an internal error (incident {incident}).",
        ) from None
