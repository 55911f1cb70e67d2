"""The client runtime of generated client packages (``mcpgen client``): ``ToolClient`` (the
base class of every generated client), the typed errors, ``CallResult`` and the drift check."""

from __future__ import annotations

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
