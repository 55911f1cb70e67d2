"""A small real resource server for the client auth tests: the place of an MCP server, without
MCP. ``/mcp`` answers 200 to a token of the test ``IdentityProvider`` (issued for this
resource) and 401 with a challenge otherwise; its protected-resource metadata names the
provider. A DPoP-bound token (``cnf.jkt``) must come as ``Authorization: DPoP`` with a proof
that is checked here with PyJWT, independently of the runtime: ``typ``, a public ``jwk``, the
signature, ``htm``, ``htu``, ``iat``, a ``jti`` never seen before, ``ath`` and the key's
thumbprint against ``cnf.jkt``; and ``nonce`` when one is required (else a 401
``use_dpop_nonce`` with a ``DPoP-Nonce`` header). Every request is recorded."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt

from tests.auth.idp import IdentityProvider
from tests.auth.proofs import check_proof, jwk_thumbprint

__all__ = ["ProtectedResource"]


class ProtectedResource:
    def __init__(self, idp: IdentityProvider, *, scheme: str = "Bearer") -> None:
        self.idp = idp
        self.scheme = scheme
        """The scheme the 401 challenge names (``DPoP``, ``Bearer`` or both, comma-separated)."""
        self.nonce: str | None = None
        """The nonce DPoP proofs must carry (None: none)."""
        self.requests: list[dict[str, Any]] = []
        """Every request to /mcp: method, headers, and the verdict (None: accepted)."""
        self.jtis: set[str] = set()
        resource = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, doc: Any, headers: dict[str, str]) -> None:
                body = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                if self.path.startswith("/.well-known/oauth-protected-resource"):
                    self._send(200, resource.metadata, {})
                    return
                if self.path != "/mcp":
                    self._send(404, {"error": "not found"}, {})
                    return
                self._send(*resource.answer(self.command, dict(self.headers.items())))

            do_GET = do_POST = _serve  # noqa: N815

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.url = self.base + "/mcp"
        self.metadata = {
            "resource": self.url,
            "authorization_servers": [idp.issuer],
            "dpop_signing_alg_values_supported": ["ES256"],
        }
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ProtectedResource:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def challenge(self, error: str | None = None) -> dict[str, str]:
        meta = f'resource_metadata="{self.base}/.well-known/oauth-protected-resource/mcp"'
        schemes = [s.strip() for s in self.scheme.split(",")]
        extra = f', error="{error}"' if error else ""
        return {"WWW-Authenticate": ", ".join(f"{s} {meta}{extra}" for s in schemes)}

    def answer(self, method: str, headers: dict[str, str]) -> tuple[int, Any, dict[str, str]]:
        record: dict[str, Any] = {"method": method, "headers": headers, "verdict": None}
        self.requests.append(record)
        status, doc, extra = self._check(method, headers)
        record["verdict"] = None if status == 200 else doc.get("error")
        return status, doc, extra

    def _check(self, method: str, headers: dict[str, str]) -> tuple[int, Any, dict[str, str]]:
        lower = {k.lower(): v for k, v in headers.items()}
        scheme, _, token = lower.get("authorization", "").partition(" ")
        if not token:
            return 401, {"error": "unauthorized"}, self.challenge()
        try:
            claims = self.idp.verify(token, audience=self.url)
        except (jwt.PyJWTError, StopIteration):
            return 401, {"error": "invalid_token"}, self.challenge("invalid_token")
        jkt = (claims.get("cnf") or {}).get("jkt")
        if jkt is None:
            ok = scheme.lower() == "bearer" and "dpop" not in lower
            return (200, {"ok": True}, {}) if ok else (401, {"error": "scheme"}, self.challenge())
        if scheme != "DPoP":
            return 401, {"error": "bound token sent as Bearer"}, self.challenge("invalid_token")
        why = self._proof(lower.get("dpop", ""), method, token, jkt)
        if why == "nonce":
            assert self.nonce is not None
            headers_out = {**self.challenge("use_dpop_nonce"), "DPoP-Nonce": self.nonce}
            return 401, {"error": "use_dpop_nonce"}, headers_out
        if why is not None:
            return 401, {"error": why}, self.challenge("invalid_dpop_proof")
        return 200, {"ok": True, "sub": claims["sub"]}, {}

    def _proof(self, proof: str, method: str, token: str, jkt: str) -> str | None:
        record: dict[str, Any] = {}
        why = check_proof(proof, record, method=method, url=self.url, jtis=self.jtis, token=token)
        if why is not None:
            return why
        if jwk_thumbprint(record["header"]["jwk"]) != jkt:
            return "key is not the token's"
        if self.nonce is not None and record["claims"].get("nonce") != self.nonce:
            return "nonce"
        return None
