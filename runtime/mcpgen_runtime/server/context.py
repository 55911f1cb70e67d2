"""What handlers use: the request context, the full result type, the error to raise."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mcp.server.context import ServerRequestContext
from pydantic import BaseModel

from ..revisions import MODERN_REVISIONS, at_least

__all__ = ["ContentBlock", "LOG_LEVELS", "ToolContext", "ToolError", "ToolResult"]

LOGGER = logging.getLogger("mcpgen_runtime.server")

LOG_LEVELS: tuple[str, ...] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)

ContentBlock = BaseModel | Mapping[str, Any]
"""A content block: a wire model (``TextContent``, ``ImageContent``, ``AudioContent``,
``ResourceLink``, ``EmbeddedResource``, from ``mcpgen_runtime``) or its JSON as a mapping."""


class ToolError(Exception):
    """Raise from a handler to report a tool execution error (``isError: true``).

    The message is shown to the client (and the model): say what went wrong and how to fix
    it. Unexpected exceptions are never shown; they are logged and replaced by a safe text.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class ToolResult:
    """A full tool result: content blocks, optional structured content, error flag.

    Return it from a handler when the typed output model is not enough (images, audio,
    resource links, embedded resources, annotations, several blocks).
    """

    content: Sequence[ContentBlock] = ()
    structured: Any = None
    """Structured content (a JSON value or a pydantic model); checked against the
    outputSchema. When ``content`` is empty it is also sent as a JSON text block."""
    is_error: bool = False
    meta: Mapping[str, Any] | None = None


class _LogLevelSource(Protocol):
    client_log_level: str


class ToolContext:
    """What a handler knows about the request it serves.

    New capabilities (input requests, cancellation, ...) are added as new members; existing
    handlers keep working.
    """

    __slots__ = ("_request", "_tool_name", "_levels")

    def __init__(
        self,
        request: ServerRequestContext[Any, Any],
        tool_name: str,
        levels: _LogLevelSource,
    ) -> None:
        self._request = request
        self._tool_name = tool_name
        self._levels = levels

    @property
    def protocol_version(self) -> str:
        """The protocol revision this client negotiated (e.g. ``"2025-06-18"``)."""
        return self._request.protocol_version

    @property
    def request_id(self) -> str | int | None:
        """The JSON-RPC id of this ``tools/call`` request."""
        return self._request.request_id

    @property
    def tool_name(self) -> str:
        return self._tool_name

    @property
    def logger(self) -> logging.Logger:
        """A server-side logger (stderr); never sent to the client."""
        return LOGGER.getChild("tools")

    @property
    def progress_token(self) -> str | int | None:
        """The client's progress token, if it asked for progress notifications."""
        meta = self._request.meta
        if meta is None:
            return None
        token = meta.get("progressToken") if isinstance(meta, Mapping) else None
        return token if isinstance(token, (str, int)) else None

    @property
    def sdk_context(self) -> ServerRequestContext[Any, Any]:
        """The SDK's request context (escape hatch for features not wrapped here)."""
        return self._request

    async def progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """Send ``notifications/progress`` (a no-op unless the client sent a progress token)."""
        if message is not None and not at_least(self.protocol_version, "2025-03-26"):
            message = None
        await self._request.session.report_progress(progress, total, message)

    async def log(self, level: str, data: Any) -> None:
        """Send a ``notifications/message`` log entry to the client.

        Handshake revisions: sent when ``level`` is at or above the level the client set with
        ``logging/setLevel`` (default: everything). 2026-07-28: sent only if this request
        opted in (the SDK enforces it).
        """
        if level not in LOG_LEVELS:
            raise ValueError(f"unknown log level {level!r}; use one of {LOG_LEVELS}")
        if self.protocol_version not in MODERN_REVISIONS and LOG_LEVELS.index(
            level
        ) < LOG_LEVELS.index(self._levels.client_log_level):
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await self._request.session.send_log_message(
                level,  # type: ignore[arg-type]
                data,
                logger=self._tool_name,
                related_request_id=self._request.request_id,
            )
