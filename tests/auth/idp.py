"""A real (small) identity provider for the auth tests: RSA and EC keys generated here, a JWKS
and RFC 8414 metadata served over HTTP on 127.0.0.1 (a thread), and tokens really signed by
PyJWT. Keys rotate (``rotate``), the endpoint can go down (``down``), and every JWKS fetch is
counted, so tests can see the server's refetch rate limit.

It is also an authorization server, enough for real OAuth clients (the SDK's provider, the
runtime's): dynamic registration, ``/authorize`` (approves at once and redirects with a code,
``state`` and ``iss``), and ``/token`` (authorization code with PKCE S256, refresh tokens,
client credentials), issuing JWTs for the requested ``resource`` and scopes.

DPoP (RFC 9449) at the token endpoint: a request with a ``DPoP`` proof has it checked (typ,
asymmetric alg, public ``jwk``, signature, ``htm``, ``htu``, ``iat``, unique ``jti``, and
``dpop_nonce`` when set: else a 400 ``use_dpop_nonce`` with a ``DPoP-Nonce`` header) and gets a
token bound to the proof's key (``cnf.jkt``, ``token_type: DPoP``) unless ``dpop_bind`` is
off. Grants for services: jwt-bearer (RFC 7523) with a workload token signed by a key in
``workload_keys`` or an ID-JAG of a trusted ``IdentityProvider``, and token exchange
(RFC 8693) of an ID token this provider signed for an ID-JAG (SEP-990)."""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from tests.auth.proofs import check_proof, jwk_thumbprint

__all__ = ["IdentityProvider"]

JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"
ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token"


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
        self.clients: dict[str, dict[str, Any]] = {}
        self.codes: dict[str, dict[str, Any]] = {}
        self.refresh: dict[str, dict[str, Any]] = {}
        self.grants: list[dict[str, Any]] = []
        """Every token issued: grant type, client, scope, resource."""
        self.authorizations: list[dict[str, str]] = []
        self.lifetime = 300
        """Seconds the tokens of the token endpoint live."""
        self.grantable: set[str] | None = None
        """What the user consents to: a code grants the requested scopes within these (None:
        all requested)."""
        self.dpop_nonce: str | None = None
        """A nonce the token endpoint requires in DPoP proofs (None: none)."""
        self.dpop_bind = True
        """Bind the tokens of requests with a DPoP proof to its key (False: plain Bearer)."""
        self.dpop_proofs: list[dict[str, Any]] = []
        """Every DPoP proof the token endpoint saw: header, claims, verdict (error or None)."""
        self.dpop_jtis: set[str] = set()
        self.workload_keys: list[Any] = []
        """Public keys whose JWTs (aud: this issuer) the jwt-bearer grant accepts."""
        self.trusted_idps: list[IdentityProvider] = []
        """Enterprise identity providers whose ID-JAGs (aud: this issuer) it accepts."""
        self.id_jag_audience: str | None = None
        """Token exchange: the audience of the ID-JAGs issued (None: the one asked for)."""
        self.id_jag_client_id = "mcp-client"
        """Token exchange: the client (at the MCP authorization server) the ID-JAGs name."""
        self.exchanges: list[dict[str, str]] = []
        """Every token-exchange request (the form)."""
        self.token_requests: list[dict[str, str]] = []
        """Every request to the token endpoint (the form)."""
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, status: int, doc: Any, headers: dict[str, str] | None = None) -> None:
                body = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                if provider.down:
                    self._json(503, {"error": "down"})
                    return
                if self.path.startswith("/authorize?"):
                    from urllib.parse import parse_qs, urlencode, urlsplit

                    q = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
                    provider.authorizations.append(q)
                    code = uuid.uuid4().hex
                    granted = dict(q)
                    if provider.grantable is not None:
                        asked = q.get("scope", "").split()
                        granted["scope"] = " ".join(s for s in asked if s in provider.grantable)
                    provider.codes[code] = granted
                    back = {"code": code, "iss": provider.issuer}
                    if "state" in q:
                        back["state"] = q["state"]
                    self.send_response(302)
                    self.send_header("Location", q["redirect_uri"] + "?" + urlencode(back))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
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
                raw = self.rfile.read(length).decode()
                if provider.down:
                    self._json(503, {"error": "down"})
                    return
                if self.path == "/register":
                    self._json(*provider.register(json.loads(raw or "{}")))
                    return
                form = {k: v[0] for k, v in parse_qs(raw).items()}
                if self.path == "/token":
                    status, doc = provider.token_endpoint(
                        form, self.headers.get("Authorization"), self.headers.get("DPoP")
                    )
                    nonce = {"DPoP-Nonce": provider.dpop_nonce} if provider.dpop_nonce else {}
                    self._json(status, doc, nonce)
                    return
                if self.path != "/introspect":
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
            "registration_endpoint": self.issuer + "/register",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "token_endpoint_auth_methods_supported": [
                "none",
                "client_secret_basic",
                "client_secret_post",
            ],
            "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": True,
        }
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> IdentityProvider:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    # -- authorization server --------------------------------------------------------------

    def register(self, meta: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        client_id = "dyn-" + uuid.uuid4().hex[:10]
        info = {**meta, "client_id": client_id, "client_id_issued_at": int(time.time())}
        if meta.get("token_endpoint_auth_method", "client_secret_basic") != "none":
            info["client_secret"] = uuid.uuid4().hex
        self.clients[client_id] = info
        return 201, info

    def add_client(self, client_id: str, secret: str | None = None, **meta: Any) -> None:
        """A pre-registered client (client credentials, or a known public client)."""
        self.clients[client_id] = {"client_id": client_id, "client_secret": secret, **meta}

    def _client(self, form: dict[str, str], authorization: str | None) -> dict[str, Any] | None:
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if authorization and authorization.startswith("Basic "):
            import base64
            from urllib.parse import unquote

            pair = base64.b64decode(authorization[6:]).decode()
            client_id, _, secret = (unquote(p) for p in pair.partition(":"))
        client = self.clients.get(client_id or "")
        if client is None:
            return None
        if client.get("client_secret") and client["client_secret"] != secret:
            return None
        return client

    def check_dpop(self, proof: str) -> tuple[str | None, dict[str, Any] | None]:
        """The thumbprint of a valid token-request proof, or the error to answer."""
        record: dict[str, Any] = {"proof": proof, "error": None}
        self.dpop_proofs.append(record)

        token_url = self.issuer + "/token"
        why = check_proof(proof, record, method="POST", url=token_url, jtis=self.dpop_jtis)
        if why is None and self.dpop_nonce is not None:
            why = "nonce" if record["claims"].get("nonce") != self.dpop_nonce else None
        if why is not None:
            record["error"] = why
            error = "use_dpop_nonce" if why == "nonce" else "invalid_dpop_proof"
            return None, {"error": error, "error_description": why}
        return jwk_thumbprint(record["header"]["jwk"]), None

    def id_jag(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        """Token exchange (RFC 8693): an ID token this provider signed, for an ID-JAG."""
        self.exchanges.append(dict(form))
        if form.get("requested_token_type") != ID_JAG or form.get("subject_token_type") != ID_TOKEN:
            return 400, {"error": "invalid_request"}
        try:
            subject = self.verify(form.get("subject_token", ""), audience="enterprise-client")
        except jwt.PyJWTError:
            return 400, {"error": "invalid_grant"}
        jag = self.token(
            audience=self.id_jag_audience or form.get("audience", ""),
            subject=subject["sub"],
            client_id=self.id_jag_client_id,
            resource=form.get("resource"),
            scope=None,
            headers={"typ": "oauth-id-jag+jwt"},
        )
        return 200, {"access_token": jag, "issued_token_type": ID_JAG, "token_type": "N_A"}

    def verify(self, token: str, *, audience: str) -> dict[str, Any]:
        """The claims of a JWT this provider signed for ``audience``."""
        kid = jwt.get_unverified_header(token).get("kid")
        key = next(k for k in self.keys if k.kid == kid)
        claims: dict[str, Any] = jwt.decode(
            token, key.private.public_key(), algorithms=[key.kind], audience=audience
        )
        return claims

    def jwt_bearer(
        self, form: dict[str, str], authorization: str | None
    ) -> tuple[dict[str, Any] | None, str]:
        """The client a jwt-bearer assertion stands for: a workload's (the assertion alone),
        or an ID-JAG's (which must name the client that authenticates)."""
        assertion = form.get("assertion", "")
        for key in self.workload_keys:
            try:
                claims = jwt.decode(
                    assertion, key, algorithms=["ES256", "RS256"], audience=self.issuer
                )
            except jwt.PyJWTError:
                continue
            return {"client_id": claims["sub"], "subject": claims["sub"]}, "workload"
        for idp in self.trusted_idps:
            try:
                claims = idp.verify(assertion, audience=self.issuer)
            except (jwt.PyJWTError, StopIteration):
                continue
            client = self._client(form, authorization)
            typ = jwt.get_unverified_header(assertion).get("typ")
            if typ == "oauth-id-jag+jwt" and client and client["client_id"] == claims["client_id"]:
                return {"client_id": claims["client_id"], "subject": claims["sub"]}, "id-jag"
        return None, ""

    def token_endpoint(
        self, form: dict[str, str], authorization: str | None, dpop: str | None = None
    ) -> tuple[int, dict[str, Any]]:
        self.token_requests.append(dict(form))
        jkt: str | None = None
        if dpop is not None:
            jkt, refused = self.check_dpop(dpop)
            if refused is not None:
                return 400, refused
        grant = form.get("grant_type")
        if grant == TOKEN_EXCHANGE:
            return self.id_jag(form)
        if grant == JWT_BEARER:
            client, _kind = self.jwt_bearer(form, authorization)
            if client is None:
                return 400, {"error": "invalid_grant"}
        else:
            client = self._client(form, authorization)
        if client is None:
            return 401, {"error": "invalid_client"}
        if grant == "authorization_code":
            code = self.codes.pop(form.get("code", ""), None)
            if code is None or code["client_id"] != client["client_id"]:
                return 400, {"error": "invalid_grant"}
            verifier = form.get("code_verifier", "")
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
            if challenge.decode().rstrip("=") != code.get("code_challenge"):
                return 400, {"error": "invalid_grant", "error_description": "PKCE"}
            scope, resource = code.get("scope", ""), code.get("resource") or form.get("resource")
        elif grant == "refresh_token":
            old = self.refresh.get(form.get("refresh_token", ""))
            if old is None:
                return 400, {"error": "invalid_grant"}
            scope, resource = old["scope"], form.get("resource") or old["resource"]
        elif grant in ("client_credentials", JWT_BEARER):
            scope, resource = form.get("scope", ""), form.get("resource")
            allowed = client.get("allowed_scopes")
            if allowed is not None:
                scope = " ".join(s for s in scope.split() if s in allowed)
        else:
            return 400, {"error": "unsupported_grant_type"}
        if not resource:
            return 400, {"error": "invalid_target", "error_description": "resource is required"}
        bound = jkt if self.dpop_bind else None
        access = self.token(
            lifetime=self.lifetime,
            audience=resource,
            scopes=scope,
            subject=str(client.get("subject", "alice")),
            client_id=client["client_id"],
            cnf={"jkt": bound} if bound else None,
        )
        self.grants.append(
            {"grant": grant, "client": client["client_id"], "scope": scope, "resource": resource}
        )
        out = {
            "access_token": access,
            "token_type": "DPoP" if bound else "Bearer",
            "expires_in": self.lifetime,
            "scope": scope,
        }
        if grant not in ("client_credentials", JWT_BEARER):
            refresh = uuid.uuid4().hex
            self.refresh[refresh] = {"scope": scope, "resource": resource}
            out["refresh_token"] = refresh
        return 200, out

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
