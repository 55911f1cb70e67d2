"""The runtime's protocol errors: ``RequestError``, a JSON-RPC error answer to the request
being served (an unknown tool, a bad cursor, a resource not found, a scope refused...).

The runtime raises it without importing the SDK, so a server on the lean engine answers its
requests without ever loading ``mcp``. Each engine maps it to the wire itself: the lean engine
directly (``lean.checks.error_answer``), the SDK's engine through the middleware
``sdk_server`` installs, which turns it into the SDK's ``MCPError`` where the SDK expects one.

Handlers may raise the SDK's ``MCPError`` themselves (the guides and the conformance example
do), so ``protocol_errors`` and ``error_fields`` recognise both classes. They do it without
importing the SDK: while ``mcp`` is not loaded, no handler can have raised its class.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "RequestError",
    "client_error",
    "error_fields",
    "protocol_errors",
]

INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

_SDK_MODULE = "mcp.shared.exceptions"


class RequestError(Exception):
    """The JSON-RPC error (``code``, ``message``, ``data``) that answers this request."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(code, message, data)
        self.code = code
        self.message = message
        self.data = data

    def __str__(self) -> str:
        return self.message


def _sdk_class() -> type[Exception] | None:
    """The SDK's ``MCPError`` if the SDK is loaded (never imports it)."""
    module = sys.modules.get(_SDK_MODULE)
    cls = getattr(module, "MCPError", None) if module is not None else None
    return cls if isinstance(cls, type) and issubclass(cls, Exception) else None


def protocol_errors() -> tuple[type[Exception], ...]:
    """The classes of a protocol error, for ``except protocol_errors():`` (evaluated when an
    exception is being matched, so an SDK loaded later is seen)."""
    sdk = _sdk_class()
    return (RequestError,) if sdk is None else (RequestError, sdk)


def error_fields(exc: BaseException) -> tuple[int, str, Any] | None:
    """``(code, message, data)`` of a protocol error (``RequestError`` or the SDK's
    ``MCPError``), else None."""
    if isinstance(exc, RequestError):
        return exc.code, exc.message, exc.data
    sdk = _sdk_class()
    if sdk is not None and isinstance(exc, sdk):
        err: Any = getattr(exc, "error", None)
        if err is not None:
            return int(err.code), str(err.message), err.data
    return None


def client_error(code: int, message: str, data: Any = None) -> Exception:
    """What a handler's server-to-client request raises when the client answers with an error:
    the SDK's ``MCPError`` when the SDK is loaded (as on the SDK's engine: a handler that
    catches it has imported it), else ``RequestError``. Either answers the call with it."""
    sdk = _sdk_class()
    if sdk is None:
        return RequestError(code, message, data)
    return sdk(code, message, data)
