"""The Streamable HTTP transport of ``ToolClient.http``: the SDK's transport on the SDK's HTTP
client (headers, an ``httpx2.Auth``), with a note of the last authorization refusal (401 or
403 and its ``WWW-Authenticate`` challenge) so a refused connection or call says why, instead
of the SDK's generic "error response"."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from .errors import AuthorizationError

__all__ = ["Refusals", "http_transport"]


class Refusals:
    """The last 401/403 the server answered (None: none yet)."""

    __slots__ = ("status", "challenge", "url", "hint")

    def __init__(self, hint: str | None = None) -> None:
        self.hint = hint
        """What to do about a 401, in the caller's terms (default: the library's)."""
        self.status: int | None = None
        self.challenge = ""
        self.url = ""

    async def hook(self, response: Any) -> None:
        if response.status_code in (401, 403):
            self.status = response.status_code
            self.challenge = response.headers.get("www-authenticate", "")
            self.url = str(response.url)

    def error(self, label: str, tool: str | None, authenticated: bool) -> AuthorizationError | None:
        """The typed error for the refusal seen, if any (and forget it)."""
        status, challenge = self.status, self.challenge
        if status is None:
            return None
        self.status = None
        return AuthorizationError(
            label, status, challenge, tool=tool, authenticated=authenticated, hint=self.hint
        )


@asynccontextmanager
async def http_transport(
    url: str, headers: Mapping[str, str], auth: Any, refusals: Refusals
) -> AsyncIterator[Any]:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers=dict(headers), auth=auth) as http:
        http.event_hooks["response"].append(refusals.hook)
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams
