"""A real HTTP app that records each request exactly as it arrived on the socket: the request
line (method, raw path and query), every header line in order (duplicates kept) and the body.
Forwarding tests assert on these bytes, not on what a framework decoded from them.

Every request is answered ``200`` with a JSON body, and a ``Set-Cookie`` the forwarding
client must not keep for the next call."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["RawApp", "Seen", "raw_app"]


@dataclass
class Seen:
    method: str
    target: str
    """The request target as sent: raw path and query."""
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""

    def header(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name.lower()]


class RawApp:
    def __init__(self) -> None:
        self.seen: list[Seen] = []
        app = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _any(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                app.seen.append(Seen(self.command, self.path, list(self.headers.items()), body))
                out = json.dumps({"ok": True}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.send_header("Set-Cookie", "session=from-the-api; Path=/")
                self.end_headers()
                self.wfile.write(out)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _any

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def last(self) -> Seen:
        return self.seen[-1]


@contextmanager
def raw_app() -> Iterator[RawApp]:
    app = RawApp()
    thread = threading.Thread(target=app.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app
    finally:
        app.server.shutdown()
        app.server.server_close()
