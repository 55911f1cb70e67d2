"""What a handler gives back: a ``ToolResult`` (or a model, or a mapping), a ``ToolError`` to
raise; and the server's logger. Below ``context``, ``results`` and ``rounds``, which all use it."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:  # pydantic is imported where a model is met, not to start a server
    from pydantic import BaseModel

__all__ = ["LOGGER", "LOG_LEVELS", "ContentBlock", "ToolError", "ToolResult"]

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

ContentBlock = Union["BaseModel", Mapping[str, Any]]
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
