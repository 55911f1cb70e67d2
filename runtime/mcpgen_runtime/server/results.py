"""Handler return values turned into ``CallToolResult`` wire JSON (newest revision; the
``shaping`` module then fits it to the client's revision).

A handler returns its generated output model (the typed path, one step), a mapping (structured
content as plain data, as FastMCP users write it), a ``ToolResult``, a ``CallToolResult`` (SDK or
``mcp_wire``), another pydantic model, a string, or None (tools without an outputSchema).
Structured content, from a model or a mapping, is checked against the tool's outputSchema; a
value that does not fit is a tool error naming each place (``/temperature: ...``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from .fastpath import dump_json, is_model, model_text
from .flat import flat_scalar_bound, json_text, plain_json, plain_json_text
from .outcome import LOGGER, ContentBlock, ToolResult
from .shaping import BLOCK_TYPES, shape_call_result, text_block, typed_call_result

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .validation import SchemaCheck

__all__ = ["error_result", "to_result"]


def error_result(text: str) -> dict[str, Any]:
    return {"content": [text_block(text)], "isError": True}


def _dump_json(value: Any) -> Any:
    return dump_json(value) if is_model(value) else value


def _dump_block(block: ContentBlock) -> dict[str, Any]:
    if is_model(block):
        data: Any = cast("BaseModel", block).model_dump(
            mode="json", by_alias=True, exclude_none=True
        )
    else:
        data = json.loads(json.dumps(dict(block)))
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise TypeError("a content block must be an object with a string 'type'")
    return data


def _is_call_result(value: object) -> bool:
    """A ``CallToolResult`` of the SDK (``mcp.types``, which is ``mcp_types``'s) or of
    ``mcp_wire`` (any revision). Unless the SDK's types are loaded, a handler cannot have
    made the SDK's, so they are not imported to tell."""
    cls = type(value)
    if cls.__name__ != "CallToolResult":
        return False
    if cls.__module__.startswith("mcp_wire."):
        return True
    sdk_types = sys.modules.get("mcp_types")
    return sdk_types is not None and cls is getattr(sdk_types, "CallToolResult", None)


def to_result(
    name: str,
    output_model: type[BaseModel] | None,
    output_check: SchemaCheck | None,
    value: object,
    version: str,
    handler: str = "",
) -> dict[str, Any]:
    """The ``CallToolResult`` (wire JSON shaped for ``version``) for what tool ``name``'s
    handler (the method ``handler``, named in logs) returned, its structured content checked
    against the outputSchema (``output_check``). Raises ``TypeError`` for a value no result
    can be made of."""
    if type(value) is output_model and output_check is not None:
        # the typed path (the handler returned its generated output model), in one step
        structured = dump_json(value)
        text = model_text(structured)  # the text mirror; its bytes also tell whether to vet
        validator = output_check.validator
        if (
            validator is not None and plain_json_text(text) and validator.is_valid(structured)
        ) or not output_check.problems(structured):
            return typed_call_result(structured, text.decode(), version)
    return shape_call_result(_to_result_any(name, output_check, value, handler), version)


def _plain(value: object) -> Any:
    """A mapping a handler returned, as JSON data (datetimes, models and enums inside it are
    converted as pydantic would; JSON data is taken as it is, without importing pydantic)."""
    if plain_json(value):
        return value
    from pydantic_core import PydanticSerializationError, to_jsonable_python

    try:
        return to_jsonable_python(value, by_alias=True)
    except PydanticSerializationError as exc:
        raise TypeError(f"the returned mapping is not JSON data: {exc}") from None


def _to_result_any(
    name: str, output_check: SchemaCheck | None, value: object, handler: str = ""
) -> dict[str, Any]:
    content: list[dict[str, Any]]
    structured: Any = None
    has_structured = False
    is_error = False
    meta: Mapping[str, Any] | None = None
    structured_model: BaseModel | None = None
    if isinstance(value, ToolResult):
        content = [_dump_block(b) for b in value.content]
        if value.structured is not None:
            structured, has_structured = _dump_json(value.structured), True
            if is_model(value.structured):
                structured_model = value.structured
        is_error, meta = value.is_error, value.meta
    elif _is_call_result(value):
        dumped = cast("BaseModel", value).model_dump(mode="json", by_alias=True, exclude_none=True)
        content = list(dumped.get("content", []))
        if "structuredContent" in dumped:
            structured, has_structured = dumped["structuredContent"], True
        is_error, meta = bool(dumped.get("isError")), dumped.get("_meta")
    elif is_model(value):
        structured, has_structured = _dump_json(value), True
        structured_model = cast("BaseModel", value)
        content = []
    elif isinstance(value, Mapping):
        structured, has_structured = _plain(value), True
        content = []
    elif isinstance(value, str):
        content = [text_block(value)]
    elif value is None and output_check is None:
        content = []
    else:
        raise TypeError(f"handler returned unsupported type {type(value).__name__}")
    for block in content:
        if block.get("type") not in BLOCK_TYPES:
            raise TypeError(f"unsupported content block type {block.get('type')!r}")
    if output_check is not None and not is_error:
        if not has_structured:
            LOGGER.error(
                "tool %r declares an outputSchema but returned no structured content", name
            )
            return error_result(
                f"Tool {name!r} returned no structured content although it declares "
                "an outputSchema."
            )
        problems = output_check.problems(structured, flat_scalar_bound(structured) is not None)
        if problems and structured_model is not None:
            # Generated models spell "optional" as ``X | None = None``: an explicit None
            # there means "absent" unless the schema allows null. Try that reading.
            alt = structured_model.model_dump(
                mode="json", by_alias=True, exclude_unset=True, exclude_none=True
            )
            if not output_check.problems(alt):
                structured, problems = alt, []
        if problems:
            LOGGER.error(
                "tool %r: the handler %s returned structured content that violates the "
                "outputSchema:\n%s",
                name,
                f"Handlers.{handler}" if handler else "",
                "\n".join(problems),
            )
            from .validation import problem_places

            # where, not what: the value may hold data the client should not see
            places = problem_places(problems)
            return error_result(
                f"Tool {name!r} produced a result that does not match its outputSchema"
                + (f" (at {', '.join(places)})." if places else ".")
            )
    result: dict[str, Any] = {"content": content}
    if has_structured:
        result["structuredContent"] = structured
        if not content:
            # compact JSON (fewer tokens for the model), cheaper than json.dumps on a small
            # object (bench/bench_server.py --instructions)
            result["content"] = [text_block(json_text(structured).decode())]
    if is_error:
        result["isError"] = True
    if meta is not None:
        result["_meta"] = dict(meta)
    return result
