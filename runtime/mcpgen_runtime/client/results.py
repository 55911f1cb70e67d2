"""What a tool without an outputSchema returns: its content blocks as the generated wire types
(``mcp_wire``, the newest revision), plus any ``structuredContent`` and ``_meta``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from pydantic import TypeAdapter

from mcp_wire.v2026_07_28 import (
    AudioContent,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
)

__all__ = ["CallResult", "ContentBlock", "decode_content"]

ContentBlock: TypeAlias = (
    TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource
)
"""A content block of a tool result (discriminated by ``type``)."""

_BLOCKS: TypeAdapter[list[ContentBlock]] = TypeAdapter(list[ContentBlock])


@dataclass(frozen=True)
class CallResult:
    """A successful tool result (``isError`` is raised as ``ToolCallError`` instead)."""

    content: list[ContentBlock] = field(default_factory=list)
    structured: Any = None
    """``structuredContent`` as received (None when absent)."""
    meta: dict[str, Any] | None = None

    @property
    def text(self) -> str:
        """The text of every ``TextContent`` block, joined by newlines."""
        return "\n".join(b.text for b in self.content if isinstance(b, TextContent))


_BY_TYPE: dict[str, Any] = {
    "text": TextContent,
    "image": ImageContent,
    "audio": AudioContent,
    "resource_link": ResourceLink,
    "resource": EmbeddedResource,
}


def decode_content(blocks: Sequence[Any]) -> list[ContentBlock]:
    """SDK content blocks (or plain dicts) -> wire types. Raises ``pydantic.ValidationError``."""
    raw = [
        b if isinstance(b, dict) else b.model_dump(by_alias=True, mode="json", exclude_none=True)
        for b in blocks
    ]
    out: list[ContentBlock] = []
    for item in raw:
        kind = item.get("type") if isinstance(item, dict) else None
        cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
        if cls is None:  # unknown or missing type: the union reports it
            return _BLOCKS.validate_python(raw)
        out.append(cls.model_validate(item))
    return out
