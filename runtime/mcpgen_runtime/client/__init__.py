"""The client runtime of generated client packages (``mcpgen client``): ``ToolClient`` (the
base class of every generated client), the typed errors, ``CallResult`` and the drift check.

Each name loads its module on first use (``__getattr__``): ``ToolClient`` pulls in the official
SDK's client, so a generated CLI that only prints ``--help`` or takes the compiled stdio path
(``cli_lean``) never imports it."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import errors as _errors

if TYPE_CHECKING:
    from .base import ClientOptions, Mode, ToolClient
    from .drift import Change, breaking_changes
    from .errors import (
        ArgumentsError,
        AuthorizationError,
        CallTimeoutError,
        ClientError,
        ConnectError,
        ConnectionLostError,
        CredentialError,
        DriftError,
        InputRequiredError,
        InvalidResultError,
        ProtocolError,
        ToolCallError,
    )
    from .results import CallResult, ContentBlock
    from .sync import SyncClient
    from .tool import ClientTool

_WHERE = {
    "ClientOptions": "base",
    "Mode": "base",
    "ToolClient": "base",
    "Change": "drift",
    "breaking_changes": "drift",
    "CallResult": "results",
    "ContentBlock": "results",
    "SyncClient": "sync",
    "ClientTool": "tool",
    **dict.fromkeys(_errors.__all__, "errors"),  # stdlib only: cheap to import at once
}

__all__ = [
    "ArgumentsError",
    "AuthorizationError",
    "CallResult",
    "CallTimeoutError",
    "Change",
    "ClientError",
    "ClientOptions",
    "ClientTool",
    "ConnectError",
    "ConnectionLostError",
    "ContentBlock",
    "CredentialError",
    "DriftError",
    "InputRequiredError",
    "InvalidResultError",
    "Mode",
    "ProtocolError",
    "SyncClient",
    "ToolCallError",
    "ToolClient",
    "breaking_changes",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
