"""A real (small) identity provider for the auth tests: RSA and EC keys generated here, a JWKS
and RFC 8414 metadata served over HTTP on 127.0.0.1 (a thread), and tokens really signed by
PyJWT. Keys rotate (``rotate``), the endpoint can go down (``down``), and every JWKS fetch is
counted, so tests can see the server's refetch rate limit."""

from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa

__all__ = ["IdentityProvider"]


class _Key:
    def __init__(self, kind: str) -> None:
        self.kid = f"{kind}-{uuid.uuid4().hex[:8]}"
        self.kind = kind
        if kind == "RS256":
            self.private: Any = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        else:
            self.private = ec.generate_private_key(ec.SECP256R1())
        algorithm = jwt.algorithms.get_default_algorithms()[kind]
        jwk = json.loads(algorithm.to_jwk(self.private.public_key()))
        self.jwk = {**jwk, "kid": self.kid, "use": "sig", "alg": kind}


class IdentityProvider:
    def __init__(self) -> None:
        self.keys = [_Key("RS256"), _Key("ES256")]
        self.served = list(self.keys)
        self.down = False
        self.jwks_fetches = 0
        self.introspections: list[dict[str, str]] = []
        self.active_opaque: dict[str, dict[str, Any]] = {}
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, status: int, doc: Any) -> None:
                body = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                if provider.down:
                    self._json(503, {"error": "down"})
                    return
                if self.path == "/.well-known/oauth-authorization-server":
                    self._json(200, provider.metadata)
                elif self.path == "/jwks":
                    provider.jwks_fetches += 1
                    self._json(200, {"keys": [k.jwk for k in provider.served]})
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self) -> None:  # noqa: N802
                from urllib.parse import parse_qs

                length = int(self.headers.get("Content-Length") or 0)
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                if self.path != "/introspect" or provider.down:
                    self._json(404, {"error": "not found"})
                    return
                provider.introspections.append(form)
                found = provider.active_opaque.get(form.get("token", ""))
                self._json(200, {"active": True, **found} if found else {"active": False})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.metadata = {
            "issuer": self.issuer,
            "authorization_endpoint": self.issuer + "/authorize",
            "token_endpoint": self.issuer + "/token",
            "jwks_uri": self.issuer + "/jwks",
            "introspection_endpoint": self.issuer + "/introspect",
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
        }
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> IdentityProvider:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def rotate(self) -> _Key:
        """A new RSA key replaces every served key (the old ones are no longer published)."""
        key = _Key("RS256")
        self.keys.append(key)
        self.served = [key]
        return key

    def token(
        self,
        *,
        audience: str | list[str],
        scopes: str = "",
        subject: str = "alice",
        key: _Key | None = None,
        lifetime: float = 300,
        headers: dict[str, Any] | None = None,
        **claims: Any,
    ) -> str:
        key = key or self.served[0]
        now = time.time()
        payload = {
            "iss": self.issuer,
            "sub": subject,
            "aud": audience,
            "client_id": "test-client",
            "iat": int(now),
            "exp": int(now + lifetime),
            "scope": scopes,
            **claims,
        }
        payload = {k: v for k, v in payload.items() if v is not None}
        return jwt.encode(
            payload, key.private, algorithm=key.kind, headers={"kid": key.kid, **(headers or {})}
        )
