"""JSON-RPC 2.0 framing for the lean engine: one decoded message per line, and for input that is
not a usable message the one error answer JSON-RPC prescribes (``-32700`` for what is not JSON,
``-32600`` for what is not a request; the id when one can be read, else null).

With orjson installed (the runtime's ``[server]`` extra), lines are read and answers written by
orjson: about 3 µs less per message each way (``bench/lean_breakdown.py``). It never decides
alone: what it refuses (lone surrogates, ``NaN``, numbers out of range, non-string keys) goes to
the standard library, which answers as it does without orjson, and so does a line with a run of
19 or more digits (orjson reads integers past 64 bits as floats; ``json`` keeps them exact).
Without orjson, output is ASCII JSON (``ensure_ascii``); either way a lone surrogate in a
handler's text is escaped, never an encoding error that loses the answer.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "CONNECTION_CLOSED",
    "ID_IN_USE",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "Invalid",
    "connection_closed",
    "courtesy_cancel",
    "decode",
    "dumps",
    "encode",
    "encode_body",
    "error",
    "other_spelling",
    "parse",
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
CONNECTION_CLOSED = -32000

_loads = json.loads
_encoder = json.JSONEncoder(separators=(",", ":"), check_circular=False, allow_nan=False).encode
# Every digit read as "0", so a run of 19 digits is one substring search (a regex is 7x slower).
_DIGITS_AS_ZERO = bytes(48 if 48 <= i <= 57 else i for i in range(256))
_LONG_RUN = b"0" * 19

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - the [server] extra is not installed
    _orjson = None  # type: ignore[assignment]
_fast_loads = _orjson.loads if _orjson is not None else None
_fast_dumps = _orjson.dumps if _orjson is not None else None
_NEWLINE = _orjson.OPT_APPEND_NEWLINE if _orjson is not None else 0


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


def connection_closed(rid: Any) -> bytes:
    """The answer to a request still running when the connection ends, as the SDK's engine
    answers it."""
    return encode(error(rid, CONNECTION_CLOSED, "Connection closed"))


def other_spelling(rid: Any) -> Any:
    """The id ``rid`` names too, as the SDK correlates ids (``coerce_request_id``: ``"7"``
    and ``7`` are one id), or None."""
    if type(rid) is int:
        return str(rid)
    try:
        return int(rid)
    except ValueError:
        return None


def courtesy_cancel(asked: str) -> dict[str, Any]:
    """What the server sends when a handler waiting for the client's answer to its own request
    ``asked`` is cancelled: the spec's ``notifications/cancelled``, so the client stops working
    on it; the SDK's dispatcher sends the same (its reason too)."""
    params = {"requestId": asked, "reason": "caller cancelled"}
    return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}


def dumps(value: Any) -> str:
    """Compact ASCII JSON text (what ``encode`` writes without orjson, minus the line end).
    A float that is not finite is written ``null``, as orjson and pydantic write it (``NaN``
    and ``Infinity`` are not JSON)."""
    try:
        return _encoder(value)
    except ValueError:
        return _encoder(_finite(value))


def _finite(value: Any) -> Any:
    t = type(value)
    if t is float or isinstance(value, float):
        return value if value - value == 0 else None
    if t is dict or isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if t is list or t is tuple or isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def encode(message: dict[str, Any]) -> bytes:
    """One line of JSON (UTF-8 with orjson, else ASCII), newline included."""
    if _fast_dumps is not None:
        try:
            return _fast_dumps(message, option=_NEWLINE)
        except TypeError:  # orjson.JSONEncodeError: the standard library decides
            pass
    return (dumps(message) + "\n").encode("ascii")


def encode_body(message: dict[str, Any]) -> bytes:
    """``message`` as an HTTP body or SSE ``data`` (``encode`` without the line end)."""
    if _fast_dumps is not None:
        try:
            return _fast_dumps(message)
        except TypeError:  # orjson.JSONEncodeError: the standard library decides
            pass
    return dumps(message).encode("ascii")


def parse(data: bytes) -> Any:
    """The JSON value of ``data`` (orjson where it agrees with ``json.loads``, see the module
    docstring). Raises what ``json.loads`` raises."""
    if _fast_loads is not None and _LONG_RUN not in data.translate(_DIGITS_AS_ZERO):
        try:
            return _fast_loads(data)
        except ValueError:  # orjson.JSONDecodeError: the standard library decides
            pass
    return _loads(data)


def decode(line: bytes) -> dict[str, Any]:
    """The message on ``line``: a dict with ``method`` (a request when it has an ``id``) or a
    response (``result``/``error`` with an ``id``). Raises ``Invalid`` with the answer to send."""
    try:
        # orjson where it agrees with ``json.loads`` (``parse``); bytes that are not UTF-8
        # (encoded surrogates included) read as U+FFFD, as the SDK's stdio transport decodes
        # them (``errors="replace"``). Inline, not a function: every message's path.
        if _fast_loads is not None and _LONG_RUN not in line.translate(_DIGITS_AS_ZERO):
            try:
                msg = _fast_loads(line)
            except ValueError:  # orjson.JSONDecodeError: the standard library decides
                msg = _loads(line.decode("utf-8", "replace"))
        else:
            msg = _loads(line.decode("utf-8", "replace"))
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
        if method is _MISSING and ("result" in msg or "error" in msg):
            raise Invalid(None)  # a malformed response: never answered (JSON-RPC 2.0 §5)
        raise Invalid(_invalid(rid, "'jsonrpc' must be \"2.0\""))
    if method is _MISSING:
        if "result" in msg or "error" in msg:
            if valid_id(rid) or rid is None:
                return msg
            raise Invalid(None)  # a malformed response: never answered (JSON-RPC 2.0 §5)
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
ID_IN_USE = encode(error(None, INVALID_REQUEST, "Invalid Request: this id is already in use"))
"""The refusal of a request whose id is in flight: id null, since an answer carrying the id
would be read as the answer to the request in flight under it (which then answers too)."""


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
        return _loads(line.decode("utf-8", "replace"), parse_int=parse_int)
    except (ValueError, RecursionError):
        raise Invalid(error(None, PARSE_ERROR, "Parse error: not valid JSON")) from None
