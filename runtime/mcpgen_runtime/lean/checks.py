"""What the lean engine checks of a request's params before a handler runs, and how an
exception becomes a JSON-RPC error: the hot methods' plain params in a few instructions, every
other request by the SDK's own per-revision surface models (``mcp_types``, the SDK's types
package, which does not import ``mcp``), as the SDK does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import jsonrpc
from .context import Params
from .envelope import (
    CAPABILITIES_KEY,
    KNOWN_META,
    initialize_is_plain,
    meta_is_plain,
    remember_capabilities,
)

__all__ = [
    "FAST_CHECKS",
    "error_answer",
    "initialize_valid",
    "paginated",
    "plain",
    "surface_check",
    "typed",
]


def paginated(params: dict[str, Any]) -> Params:
    return Params(params)


_CALL_KEYS = frozenset(("name", "arguments", "_meta", "requestState"))
_LIST_KEYS = frozenset(("cursor", "_meta"))


def _call_is_plain(p: dict[str, Any]) -> bool:
    """A ``tools/call`` whose params the SDK's surface models accept on every revision
    (anything else is checked by them: ``_surface_check``)."""
    arguments = p.get("arguments")
    state = p.get("requestState")
    return (
        type(p.get("name")) is str
        and (arguments is None or type(arguments) is dict)
        and "inputResponses" not in p  # a retry's answers: the surface models check each
        and (state is None or type(state) is str)
        and ((meta := p.get("_meta")) is None or meta in KNOWN_META or meta_is_plain(meta))
        and p.keys() <= _CALL_KEYS
    )


def _list_is_plain(p: dict[str, Any]) -> bool:
    cursor = p.get("cursor")
    return (
        (cursor is None or type(cursor) is str)
        and ((meta := p.get("_meta")) is None or meta_is_plain(meta))
        and p.keys() <= _LIST_KEYS
    )


FAST_CHECKS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "tools/call": _call_is_plain,
    "tools/list": _list_is_plain,
}
"""The hot methods' params checked in a few instructions; every other request (and a hot one
that is not plain) is checked by the SDK's per-revision surface models, as the SDK does."""


def surface_check(method: str, version: str, params: dict[str, Any] | None) -> None:
    """The SDK's check of a client request's params for ``version`` (``mcp_types.methods``:
    the revision's surface model, then the method's params model, as the SDK's runner checks
    both before a handler runs): ``pydantic.ValidationError`` (``-32602``), or ``-32601`` for
    a method the revision lacks. Capabilities it accepted are remembered (``meta_is_plain``)."""
    from mcp_types.methods import parse_client_request

    try:
        parse_client_request(method, version, params)
    except KeyError:
        from ..server.errors import RequestError

        raise RequestError(jsonrpc.METHOD_NOT_FOUND, "Method not found", method) from None
    except RuntimeError:  # no params model for the method: the surface model decided
        pass
    meta = params.get("_meta") if params is not None else None
    if type(meta) is dict and CAPABILITIES_KEY in meta:
        remember_capabilities(meta[CAPABILITIES_KEY])


def initialize_valid(params: Any, version: str) -> bool:
    """Whether the SDK accepts ``initialize`` with ``params`` (``version``: the revision the
    connection starts with): the plain shape in a few instructions, else its models."""
    if initialize_is_plain(params):
        return True
    try:
        surface_check("initialize", version, params)
    except Exception:  # noqa: BLE001 - the models refuse: -32602
        return False
    return True


def typed(name: str, params: dict[str, Any]) -> Any:
    """``params`` as the SDK's typed params (methods off the hot path; ``mcp_types`` is what
    ``mcp.types`` re-exports)."""
    import mcp_types as types

    return getattr(types, name).model_validate(params, by_name=False)


def plain(result: Any) -> dict[str, Any]:
    if isinstance(result, dict):
        return result
    dumped: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def error_answer(rid: Any, exc: Exception, modern: bool) -> dict[str, Any]:
    """The JSON-RPC error answering a request whose handler raised ``exc``: a protocol error
    (the runtime's ``RequestError`` or the SDK's ``MCPError``, as a handler may raise: see
    ``server.errors``) as it is, invalid params as the SDK answers them, anything else
    ``-32603``."""
    from pydantic import ValidationError

    from ..server.errors import error_fields

    fields = error_fields(exc)
    if fields is not None:
        return jsonrpc.error(rid, *fields)
    if isinstance(exc, ValidationError):
        return jsonrpc.error(rid, jsonrpc.INVALID_PARAMS, "Invalid request parameters", "")
    from ..server.outcome import LOGGER

    LOGGER.error("request %r failed", rid, exc_info=exc)
    return jsonrpc.error(rid, jsonrpc.INTERNAL_ERROR, "Internal error")
