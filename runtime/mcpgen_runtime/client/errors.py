"""Typed errors of generated clients. Every failure of a call or a connection is one of these
(never a bare SDK, pydantic, httpx or anyio exception), so callers can catch ``ClientError``.

========================  ================================================================
``ToolCallError``         the tool ran and answered ``isError: true`` (``content`` holds why)
``ProtocolError``         the server answered a JSON-RPC error (``code``, ``message``, ``data``)
``CallTimeoutError``      no answer within the timeout (a ``ProtocolError``, code -32001)
``ConnectionLostError``   the server went away during the call (code -32000)
``ConnectError``          the server could not be reached or did not complete the handshake
``CredentialError``       a configured credential (token file, variable, ID-JAG) is unusable
``InvalidResultError``    what came back breaks the protocol or the tool's outputSchema
``ArgumentsError``        the arguments do not fit the tool's inputSchema (nothing was sent)
``InputRequiredError``    a 2026-07-28 ``InputRequiredResult`` loop failed or hit its bound
``DriftError``            ``verify=True``: the live tools break what this client was built for
========================  ================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .drift import Change
    from .results import ContentBlock

__all__ = [
    "ArgumentsError",
    "AuthorizationError",
    "CallTimeoutError",
    "ClientError",
    "ConnectError",
    "ConnectionLostError",
    "CredentialError",
    "DriftError",
    "InputRequiredError",
    "InvalidResultError",
    "ProtocolError",
    "ToolCallError",
]

_SHOW = 500


def _clip(text: str, limit: int = _SHOW) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class ClientError(Exception):
    """Base of every error a generated client raises."""


class ToolCallError(ClientError):
    """The tool answered ``isError: true``. ``content`` holds the blocks it sent (wire types),
    ``text`` their text, ``structured`` any ``structuredContent``."""

    def __init__(self, tool: str, content: Sequence[ContentBlock], structured: Any = None) -> None:
        self.tool = tool
        self.content = list(content)
        self.structured = structured
        self.text = "\n".join(t for b in self.content if (t := getattr(b, "text", None)))
        super().__init__(f"tool {tool!r} failed: {_clip(self.text) or '(no text content)'}")


class ProtocolError(ClientError):
    """The server answered with a JSON-RPC error."""

    def __init__(
        self,
        code: int,
        message: str,
        data: Any = None,
        *,
        tool: str | None = None,
        target: str | None = None,
    ) -> None:
        """``tool``: the tool called; ``target``: what else the request named (``resource
        'about://x'``, ``prompt 'p'``), shown instead."""
        self.code = code
        self.message = message
        self.data = data
        self.tool = tool
        self.target = target
        what = target or (f"tool {tool!r}" if tool else "")
        where = f"{what}: " if what else ""
        super().__init__(f"{where}{_clip(message)} (JSON-RPC error {code})")


class CallTimeoutError(ProtocolError, TimeoutError):
    """No answer within the call's timeout (the request was cancelled)."""


class ConnectionLostError(ProtocolError, ConnectionError):
    """The connection closed (the server exited or the stream broke) while waiting."""


class ConnectError(ClientError, ConnectionError):
    """The server could not be started or reached, or the handshake failed or timed out."""


class CredentialError(ClientError):
    """A credential the client was told to use cannot be used: its file is missing,
    unreadable, not a regular file or empty, its environment variable is unset, it has
    expired, or (an ID-JAG) it was issued for another audience. The message names where the
    credential comes from, never its value."""


class AuthorizationError(ClientError, PermissionError):
    """The server refused the credentials (HTTP 401: none or invalid; 403: a scope is
    missing). ``challenge`` is its ``WWW-Authenticate`` header; ``scope`` the scopes it asks
    for; ``resource_metadata`` where its protected-resource metadata is."""

    def __init__(
        self,
        label: str,
        status: int,
        challenge: str,
        *,
        tool: str | None = None,
        authenticated: bool = False,
        hint: str | None = None,
    ) -> None:
        import re

        self.status = status
        self.challenge = challenge
        params = dict(re.findall(r'(\w+)="([^"]*)"', challenge))
        self.error = params.get("error")
        self.scope = params.get("scope")
        self.resource_metadata = params.get("resource_metadata")
        self.tool = tool
        what = f"tool {tool!r}" if tool else "connecting"
        if status == 403:
            need = f" (needs scope {self.scope})" if self.scope else ""
            hint = "sign in again with that scope (oauth() steps up by itself)"
            text = f"{label}: {what}: forbidden{need}: {hint}"
        elif authenticated:
            text = f"{label}: {what}: the server refused the credentials (HTTP 401)"
        else:
            hint = hint or "pass token=... (or $MCPGEN_TOKEN) or auth=mcpgen_runtime.oauth(url)"
            text = f"{label}: {what}: the server requires authorization (HTTP 401); {hint}"
        if self.error and status == 401:
            text += f" [{self.error}]"
        super().__init__(text)


class InvalidResultError(ClientError):
    """The result breaks the protocol or the tool's outputSchema (missing or non-conforming
    ``structuredContent``). ``problems`` lists what is wrong; ``received`` is what came back."""

    def __init__(
        self,
        tool: str,
        what: str,
        problems: Sequence[str] = (),
        received: Any = None,
        *,
        target: str | None = None,
    ) -> None:
        self.tool = tool
        self.problems = list(problems)
        self.received = received
        detail = "; ".join(p.removeprefix("- ") for p in self.problems[:3])
        shown = _clip(repr(received), 200)
        super().__init__(
            f"{target or f'tool {tool!r}'}: {what}"
            + (f": {_clip(detail)}" if detail else "")
            + f" (received: {shown})"
        )


class ArgumentsError(ClientError, ValueError):
    """The arguments do not fit the tool's inputSchema; nothing was sent."""

    def __init__(self, tool: str, problems: Sequence[str], *, target: str | None = None) -> None:
        self.tool = tool
        self.problems = list(problems)
        what = target or f"tool {tool!r}"
        super().__init__(f"{what}: invalid arguments: {_clip('; '.join(self.problems))}")


class InputRequiredError(ClientError):
    """A 2026-07-28 ``InputRequiredResult`` could not be satisfied: more rounds than the bound,
    a callback refused (``code``/``message`` from its ``ErrorData``) or raised."""

    def __init__(self, tool: str, message: str, code: int | None = None) -> None:
        self.tool = tool
        self.code = code
        super().__init__(f"tool {tool!r}: {message}")


class DriftError(ClientError):
    """``verify=True``: the server's live tools break what this client was generated from.
    ``changes`` lists each breaking change; ``str()`` is a readable report."""

    def __init__(self, server: str, changes: Sequence[Change]) -> None:
        self.changes = list(changes)
        lines = [f"  {c.rule}: {c.message}" for c in self.changes]
        super().__init__(
            f"{server}: the live tools differ from the manifest this client was generated from "
            f"({len(self.changes)} breaking change{'s' if len(self.changes) != 1 else ''}):\n"
            + "\n".join(lines)
        )
