"""The test host's origin: serves the host page and its bundle, and relays ``/mcp`` to the
generated server's Streamable HTTP endpoint, so the page's MCP client talks to the server from
the same origin (the generated server sends no CORS headers; hosts proxy the same way)."""

from __future__ import annotations

import http.client
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "upgrade", "host", "content-length"}
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


def start_relay(
    root: Path, upstream_port: int, seen: list[dict[str, Any]]
) -> tuple[ThreadingHTTPServer, str]:
    """A relay on 127.0.0.1 (a free port), serving ``root`` and ``/mcp``; its base URL. Every
    JSON-RPC request relayed is appended to ``seen``."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/mcp":  # no standalone SSE stream through the relay
                self._reply(405, b"", "text/plain", {"Allow": "POST, DELETE"})
                return
            file = root / path.lstrip("/")
            if file.suffix not in _TYPES or not file.is_file() or file.parent != root:
                self._reply(404, b"not found", "text/plain")
                return
            self._reply(200, file.read_bytes(), _TYPES[file.suffix])

        def do_POST(self) -> None:
            self._forward()

        def do_DELETE(self) -> None:
            self._forward()

        def _reply(
            self, code: int, body: bytes, ctype: str, extra: dict[str, str] | None = None
        ) -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def _forward(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                message = json.loads(body) if body else None
            except ValueError:
                message = None
            if isinstance(message, dict) and "method" in message:
                seen.append(message)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
            conn = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=60)
            try:
                conn.request(self.command, "/mcp", body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()  # the server ends each POST's stream after its response
                self.send_response(resp.status)
                for k, v in resp.getheaders():
                    if k.lower() not in _HOP:
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            finally:
                conn.close()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
