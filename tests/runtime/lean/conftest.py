"""``lean_http_app``: a generated example's HTTP app, in process, with its lean front.

The in-process HTTP tests of the lean engine (``test_http_session_front``,
``test_http_session_clock``, ``test_http_differential``) all need the same thing: import an
example's package, build ``http_app`` with the lean engine, and often see which requests the front
handed to the SDK's app. The fixture is a factory; each call gives a new server and app.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
BASE_URL = "http://127.0.0.1:8000"


@dataclass
class InProcessHttp:
    server: Any
    """the SDK server ``create_server`` made (its ``session_manager`` for handshake sessions)"""
    app: Any
    """the ASGI app ``mcpgen_runtime.server.http_app`` built, the lean front outermost"""
    passed: list[str] = field(default_factory=list)
    """``scope[counted]`` of every request the front handed to the SDK's app"""

    def client(self) -> Any:
        """An ``httpx.AsyncClient`` on the app, in process (no socket)."""
        import httpx

        return httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url=BASE_URL)


Factory = Callable[..., InProcessHttp]


@pytest.fixture
def lean_http_app() -> Factory:
    def make(example: str, *, json_response: bool, counted: str = "method") -> InProcessHttp:
        """``example``: a folder of ``examples/`` whose package is ``<example>_server``;
        ``counted``: the scope key recorded for each request the SDK's app gets."""
        root = str(EXAMPLES / example)
        sys.path.insert(0, root)
        try:
            package = f"{example}_server"
            create_server = __import__(f"{package}._generated", fromlist=["x"]).create_server
            handlers = __import__(f"{package}.handlers", fromlist=["x"]).Handlers

            from mcpgen_runtime.lean.http import LeanHttpFront
            from mcpgen_runtime.server.http_app import http_app

            server = create_server(handlers())
            spec = {
                "host": "127.0.0.1",
                "port": 8000,
                "path": "/mcp",
                "stateless": False,
                "json_response": json_response,
                "tokens": [],
                "oauth": {},
                "engine": "lean",
            }
            app = http_app(server, spec)
        finally:
            sys.path.remove(root)
        made = InProcessHttp(server=server, app=app)
        front = app
        while not isinstance(front, LeanHttpFront):
            front = front.app
        inner = front.app

        async def counting(scope: Any, receive: Any, send: Any) -> None:
            made.passed.append(scope[counted])
            await inner(scope, receive, send)

        front.app = counting
        return made

    return make
