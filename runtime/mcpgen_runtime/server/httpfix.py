"""The HTTP edge of generated servers: what goes into the log, and header values as parsed.

``quiet_access_log``: uvicorn's access log without query strings (a client that puts a token
there, ``?access_token=...``, which the server ignores, must not get it written to the log).

``TrimHeaderValues``: header values as RFC 9110 defines them (section 5.5: leading and
trailing whitespace is not part of a field value), whichever HTTP parser uvicorn uses: h11
strips it, httptools (the C parser the ``[server]`` extra installs) hands it on, and the SDK
compares ``Mcp-Name`` and ``Mcp-Param-*`` values with the body as they come (the conformance suite's
``sep-2243-server-accepts-whitespace-header-value`` sends ``"  name  "``)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["TrimHeaderValues", "quiet_access_log"]

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
_WS = (32, 9)  # SP, HTAB


class TrimHeaderValues:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = scope.get("headers") or ()
            for _, v in headers:  # a loop, not any(<genexpr>): this runs on every request
                if v and (v[0] in _WS or v[-1] in _WS):
                    scope["headers"] = [(k, v.strip(b" \t")) for k, v in headers]
                    break
        await self.app(scope, receive, send)


class _NoQueryStrings(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            path, sep, _ = args[2].partition("?")
            if sep:
                record.args = (*args[:2], path + "?[redacted]", *args[3:])
        return True


def quiet_access_log() -> None:
    logging.getLogger("uvicorn.access").addFilter(_NoQueryStrings())
