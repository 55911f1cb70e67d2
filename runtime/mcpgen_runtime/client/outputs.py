"""A tool's ``CallToolResult`` -> what its typed client method returns: the typed output model
(``structuredContent`` checked against the outputSchema with jsonschema-rs, then validated by
the model) or a ``CallResult`` of content blocks. Shared by plain calls and task results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..server.validation import SchemaCompileError, pydantic_problems
from .errors import InvalidResultError, ToolCallError

if TYPE_CHECKING:
    from mcp_types import CallToolResult

    from .results import CallResult
    from .tool import ClientTool

__all__ = ["call_result", "content_of", "raise_if_error", "typed_output", "typed_structured"]

_OutT = TypeVar("_OutT", bound=BaseModel)


def content_of(tool: ClientTool, result: CallToolResult) -> list[Any]:
    from .results import decode_content

    try:
        return decode_content(result.content)
    except ValidationError as exc:
        raise InvalidResultError(
            tool.name, "malformed content blocks", pydantic_problems(exc.errors()), result.content
        ) from None


def raise_if_error(tool: ClientTool, result: CallToolResult) -> CallToolResult:
    """``result``, unless it says ``isError`` (then ``ToolCallError``)."""
    if result.is_error:
        raise ToolCallError(tool.name, content_of(tool, result), result.structured_content)
    return result


def call_result(tool: ClientTool, result: CallToolResult) -> CallResult:
    from .results import CallResult

    return CallResult(
        content=content_of(tool, result), structured=result.structured_content, meta=result.meta
    )


def typed_output(tool: ClientTool, result: CallToolResult, output_model: type[_OutT]) -> _OutT:
    structured = result.structured_content
    if structured is None and "structured_content" not in result.model_fields_set:
        raise InvalidResultError(
            tool.name,
            "no structuredContent although the tool declares an outputSchema",
            received=[b.model_dump(mode="json", exclude_none=True) for b in result.content],
        )
    return typed_structured(tool, structured, output_model)


def typed_structured(tool: ClientTool, structured: Any, output_model: type[_OutT]) -> _OutT:
    """``structuredContent`` (present) checked against the outputSchema, then validated by the
    output model (the compiled CLI path's way in: it has no ``CallToolResult``)."""
    check = tool.output_check
    if check is not None:
        try:
            problems = check.problems(structured)
        except SchemaCompileError as exc:
            raise InvalidResultError(tool.name, f"the outputSchema is unusable: {exc}") from None
        if problems:
            raise InvalidResultError(
                tool.name,
                "structuredContent does not match the outputSchema",
                problems,
                structured,
            )
    try:
        return output_model.model_validate(structured)
    except ValidationError as exc:
        raise InvalidResultError(
            tool.name,
            "structuredContent does not fit the output model",
            pydantic_problems(exc.errors()),
            structured,
        ) from None
