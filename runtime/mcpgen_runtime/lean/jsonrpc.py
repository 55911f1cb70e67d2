"""JSON-RPC 2.0 framing for the lean engine: one decoded message per line, and for input that is
not a usable message the one error answer JSON-RPC prescribes (``-32700`` for what is not JSON,
``-32600`` for what is not a request; the id when one can be read, else null).

Output is ASCII JSON (``ensure_ascii``): a lone surrogate in a handler's text is escaped, never
an encoding error that loses the answer.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "Invalid",
    "decode",
    "dumps",
    "encode",
    "error",
    "valid_id",
]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
HEADER_MISMATCH = -32020
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022

_loads = json.loads
_dumps = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


class Invalid(Exception):
    """A line that is not a usable message: ``answer`` is the error to send (None: nothing,
    for a malformed notification or response)."""

    def __init__(self, answer: dict[str, Any] | None) -> None:
        super().__init__()
        self.answer = answer


def valid_id(value: object) -> bool:
    """A JSON-RPC id MCP accepts: a string or an integer (not a bool, not null)."""
    t = type(value)
    return t is str or t is int


def error(rid: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    err: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": err}


def dumps(value: Any) -> str:
    """Compact ASCII JSON text (what ``encode`` writes, without the line end)."""
    return _dumps(value)


def encode(message: dict[str, Any]) -> bytes:
    """One line of ASCII JSON, newline included."""
    return (_dumps(message) + "\n").encode("ascii")


def decode(line: bytes) -> dict[str, Any]:
    """The message on ``line``: a dict with ``method`` (a request when it has an ``id``) or a
    response (``result``/``error`` with an ``id``). Raises ``Invalid`` with the answer to send."""
    try:
        msg = _loads(line)
    except RecursionError:
        raise Invalid(
            error(None, PARSE_ERROR, "Parse error: the message nests too deeply")
        ) from None
    except ValueError as exc:
        msg = _retry_huge_numbers(line, exc)
    if type(msg) is not dict:
        if type(msg) is list:
            what = "an empty batch" if not msg else "a batch (MCP does not use JSON-RPC batches)"
            raise Invalid(error(None, INVALID_REQUEST, f"Invalid Request: {what}"))
        raise Invalid(error(None, INVALID_REQUEST, "Invalid Request: not a JSON object"))
    rid = msg.get("id", _MISSING)
    method = msg.get("method", _MISSING)
    if msg.get("jsonrpc") != "2.0":
        raise Invalid(_invalid(rid, "'jsonrpc' must be \"2.0\""))
    if method is _MISSING:
        if "result" in msg or "error" in msg:
            if valid_id(rid) or rid is None:
                return msg
        raise Invalid(_invalid(rid, "a request needs a 'method'"))
    if type(method) is not str:
        raise Invalid(_invalid(rid, "'method' must be a string"))
    if rid is not _MISSING and not valid_id(rid):
        raise Invalid(
            error(None, INVALID_REQUEST, "Invalid Request: 'id' must be a string or an integer")
        )
    params = msg.get("params")
    if params is not None and type(params) is not dict:
        if rid is _MISSING:
            raise Invalid(None)
        raise Invalid(error(rid, INVALID_PARAMS, "Invalid params: 'params' must be an object"))
    return msg


_MISSING: Any = object()


def _invalid(rid: Any, why: str) -> dict[str, Any] | None:
    if rid is _MISSING:
        return error(None, INVALID_REQUEST, f"Invalid Request: {why}")
    return error(rid if valid_id(rid) else None, INVALID_REQUEST, f"Invalid Request: {why}")


class _HugeNumber(float):
    """An integer literal longer than Python's int conversion limit (4,300 digits)."""


def _retry_huge_numbers(line: bytes, exc: ValueError) -> Any:
    """Valid JSON whose integer literal is over Python's digit limit parses again with that
    literal read as a float (``inf`` beyond range): the request keeps its id, and validation
    refuses the number where a schema bounds it. Anything else is ``-32700``."""
    if "digits" not in str(exc):
        raise Invalid(error(None, PARSE_ERROR, "Parse error: not valid JSON")) from None

    def parse_int(text: str) -> Any:
        return int(text) if len(text) < 4000 else _HugeNumber(text)

    try:
        return _loads(line, parse_int=parse_int)
    except (ValueError, RecursionError):
        raise Invalid(error(None, PARSE_ERROR, "Parse error: not valid JSON")) from None
