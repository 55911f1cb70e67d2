"""The loopback redirect of the authorization code grant (RFC 8252): a listener at
``http://127.0.0.1:<port>/callback`` receives the browser's authorization response."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    from mcp.shared.auth import AuthorizationCodeResult

__all__ = ["LoopbackRedirect"]


class LoopbackRedirect:
    """Receives the authorization response at ``http://127.0.0.1:<port>/callback`` (RFC 8252
    loopback redirect): ``redirect`` shows the authorization URL (and opens the browser),
    ``callback`` waits for the browser to come back."""

    def __init__(
        self,
        port: int = 0,
        *,
        open_browser: bool = True,
        timeout: float = 300.0,
        announce: Callable[[str], None] | None = None,
    ) -> None:
        self.open_browser = open_browser
        self.timeout = timeout
        self.announce = announce or (
            lambda url: print(f"mcpgen: sign in at {url}", file=sys.stderr, flush=True)
        )
        self._result: dict[str, str] | None = None
        self._done = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                parts = urlsplit(self.path)
                if parts.path != "/callback":
                    self.send_error(404)
                    return
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                ok = "code" in query
                body = (
                    b"Signed in. You can close this window."
                    if ok
                    else b"Sign-in failed: " + query.get("error", "no code").encode()[:200]
                )
                self.send_response(200 if ok else 400)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                outer._result = query
                outer._done.set()

        self._server = HTTPServer(("127.0.0.1", port), Handler)
        self._thread: threading.Thread | None = None

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/callback"

    async def redirect(self, authorization_url: str) -> None:
        self._done.clear()
        self._result = None
        if self._thread is None:
            self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
            self._thread.start()
        self.announce(authorization_url)
        if self.open_browser:
            import webbrowser

            webbrowser.open(authorization_url)

    async def callback(self) -> AuthorizationCodeResult:
        import anyio
        from mcp.shared.auth import AuthorizationCodeResult

        done = await anyio.to_thread.run_sync(self._done.wait, self.timeout)
        result = self._result
        if not done or result is None:
            raise TimeoutError(f"no authorization response within {self.timeout:.0f} s")
        if "code" not in result:
            error = result.get("error", "no code")
            raise PermissionError(f"authorization refused: {error[:200]}")
        return AuthorizationCodeResult(
            code=result["code"], state=result.get("state"), iss=result.get("iss")
        )

    def close(self) -> None:
        if self._thread is not None:
            self._server.shutdown()
        self._server.server_close()
