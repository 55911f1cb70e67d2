"""DPoP on a generated server (RFC 9449, SEP-1932), over real HTTP, with tokens signed by the
test identity provider (``idp``) and proofs signed by real keys made here: a valid proof gets
through; each attack of the issue gets 401 with the right challenge (``DPoP`` scheme, its
``error``), nonces work when the operator turns them on, a proof replayed on another replica
sharing Redis is refused, and no token or proof reaches the server's log."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from mcpgen_runtime.server.auth.config import ASYMMETRIC_ALGORITHMS
from mcpgen_runtime.server.auth.dpop import access_token_hash, thumbprint
from tests.auth.conftest import serve_vault
from tests.auth.idp import IdentityProvider
from tests.interop.procs import HttpServer, free_port
from tests.state.conftest import RedisServer, redis_server_binary

HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/list",
}
BODY: dict[str, Any] = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/list",
    "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "dpop-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    },
}
MANIFEST = {"issuer": "https://idp.example.com", "resource": "https://mcp.example.com/mcp"}
SENT: list[str] = []
"""Every token and proof sent: none may show in a server's log."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Key:
    """A client's DPoP key (EC P-256) and its proofs."""

    def __init__(self) -> None:
        self.private = ec.generate_private_key(ec.SECP256R1())
        algorithm = jwt.algorithms.get_default_algorithms()["ES256"]
        self.jwk: dict[str, Any] = json.loads(algorithm.to_jwk(self.private.public_key()))
        self.private_jwk: dict[str, Any] = json.loads(algorithm.to_jwk(self.private))
        self.jkt = thumbprint(self.jwk)

    def proof(
        self,
        url: str,
        token: str | None,
        *,
        method: str = "POST",
        header: dict[str, Any] | None = None,
        **claims: Any,
    ) -> str:
        payload = {"jti": uuid.uuid4().hex, "htm": method, "htu": url, "iat": int(time.time())}
        if token is not None:
            payload["ath"] = access_token_hash(token)
        payload.update(claims)
        payload = {k: v for k, v in payload.items() if v is not None}
        head = {"typ": "dpop+jwt", "jwk": self.jwk, **(header or {})}
        return jwt.encode(payload, self.private, algorithm="ES256", headers=head)


def call(
    srv: HttpServer | str, token: str | None, proof: str | list[str] | None, scheme: str = "DPoP"
) -> httpx.Response:
    url = srv if isinstance(srv, str) else srv.url
    headers = dict(HEADERS)
    if token is not None:
        headers["Authorization"] = f"{scheme} {token}"
        SENT.append(token)
    proofs = [proof] if isinstance(proof, str) else proof or []
    SENT.extend(proofs)
    pairs = list(headers.items()) + [("DPoP", p) for p in proofs]
    return httpx.post(url, json=BODY, headers=pairs, timeout=10)


def challenges(r: httpx.Response) -> dict[str, dict[str, str]]:
    """Each ``WWW-Authenticate`` challenge by scheme: its parameters."""
    out: dict[str, dict[str, str]] = {}
    for header in r.headers.get_list("www-authenticate"):
        scheme, _, rest = header.partition(" ")
        params = {}
        for part in rest.split('", '):
            key, _, value = part.partition("=")
            params[key.strip()] = value.strip().strip('"')
        out[scheme] = params
    return out


def full_log(srv: HttpServer) -> str:
    srv.log.seek(0)
    return str(srv.log.read().decode("utf-8", "replace"))


def assert_clean_log(srv: HttpServer) -> None:
    log = full_log(srv)
    assert "Traceback" not in log and " 500 " not in log, log[-3000:]
    for text in SENT:
        for part in [text, *text.split(".")]:
            if len(part) >= 16:
                assert part not in log, "a token or proof in the log"


@pytest.fixture(scope="module")
def srv(vault_package: Path, idp: IdentityProvider) -> Iterator[HttpServer]:
    server = serve_vault(vault_package, env={"MCPGEN_AUTH_ISSUER": idp.issuer})
    server.start()
    yield server
    assert_clean_log(server)
    server.stop()


def bound(idp: IdentityProvider, srv: HttpServer, key: Key, **claims: Any) -> str:
    return idp.token(audience=srv.url, scopes="notes:read", cnf={"jkt": key.jkt}, **claims)


def test_thumbprint_is_rfc_7638() -> None:
    """The example of RFC 7638 section 3.1."""
    n = (
        "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_"
        "BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_"
        "FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI"
        "4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
    )
    jwk = {"kty": "RSA", "n": n, "e": "AQAB", "alg": "RS256", "kid": "2011-04-29"}
    assert thumbprint(jwk) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"


def test_valid_proofs_get_through(srv: HttpServer, idp: IdentityProvider) -> None:
    key = Key()
    token = bound(idp, srv, key)
    for _ in range(3):  # the token's verification is cached, each proof is checked
        r = call(srv, token, key.proof(srv.url, token))
        assert r.status_code == 200, r.text
    meta = httpx.get(challenges(call(srv, None, None))["Bearer"]["resource_metadata"]).json()
    algs = meta["dpop_signing_alg_values_supported"]
    assert algs[0] == "ES256" and {"EdDSA", "PS256", "RS256"} <= set(algs)
    assert set(algs) == set(ASYMMETRIC_ALGORITHMS)  # never none, never an HMAC
    assert "dpop_bound_access_tokens_required" not in meta
    # bearer tokens as before, and localhost names the same loopback endpoint
    plain = idp.token(audience=srv.url, scopes="notes:read")
    assert call(srv, plain, None, "Bearer").status_code == 200
    local = srv.url.replace("127.0.0.1", "localhost")
    assert call(srv, token, key.proof(local, token)).status_code == 200
    # the query is not part of htu (RFC 9449 section 4.3)
    assert call(srv, token, key.proof(srv.url + "?x=1", token)).status_code == 200


def test_no_credentials_get_both_challenges(srv: HttpServer) -> None:
    r = call(srv, None, None)
    assert r.status_code == 401
    assert r.headers.get_list("www-authenticate")[0].startswith('Bearer error="invalid_token"')
    c = challenges(r)
    assert "error" not in c["DPoP"] and "ES256" in c["DPoP"]["algs"].split()
    assert c["DPoP"]["resource_metadata"] == c["Bearer"]["resource_metadata"]


def _forged(key: Key, srv: HttpServer, token: str) -> dict[str, str]:
    """Malformed and forged proofs, each otherwise right for ``token`` at ``srv``."""
    now = int(time.time())
    claims = {"jti": uuid.uuid4().hex, "htm": "POST", "htu": srv.url, "iat": now}
    claims["ath"] = access_token_hash(token)
    body = _b64(json.dumps(claims).encode())
    hs_head = _b64(json.dumps({"typ": "dpop+jwt", "alg": "HS256", "jwk": key.jwk}).encode())
    mac = hmac.new(b"k" * 32, f"{hs_head}.{body}".encode(), hashlib.sha256).digest()
    none_head = _b64(json.dumps({"typ": "dpop+jwt", "alg": "none", "jwk": key.jwk}).encode())
    other = Key()
    small = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    small_jwk = json.loads(jwt.algorithms.get_default_algorithms()["RS256"].to_jwk(small))
    small_jwk = {m: small_jwk[m] for m in ("kty", "n", "e")}
    small_head = {"typ": "dpop+jwt", "jwk": small_jwk}
    return {
        "RSA key of 1024 bits": jwt.encode(claims, small, algorithm="RS256", headers=small_head),
        "bad JSON header": f"{_b64(b'{not json')}.{body}.{_b64(b'sig')}",
        "not a JWT": "not-a-jwt",
        "wrong typ (JWT)": key.proof(srv.url, token, header={"typ": "JWT"}),
        "symmetric alg HS256": f"{hs_head}.{body}.{_b64(mac)}",
        "alg none": f"{none_head}.{body}.",
        "private key in the jwk header": key.proof(srv.url, token, header={"jwk": key.private_jwk}),
        "no jwk header": key.proof(srv.url, token, header={"jwk": None}),
        "signed by another key than its jwk": other.proof(srv.url, token, header={"jwk": key.jwk}),
        "oversized (9 KiB)": key.proof(srv.url, token, pad="x" * 9000),
        "another URL": key.proof(srv.url.replace("/mcp", "/other"), token),
        "another host": key.proof("https://mcp.example.com/mcp", token),
        "another method": key.proof(srv.url, token, method="GET"),
        "old iat (10 min)": key.proof(srv.url, token, iat=now - 600),
        "future iat (10 min)": key.proof(srv.url, token, iat=now + 600),
        "no jti": key.proof(srv.url, token, jti=None),
        "missing ath": key.proof(srv.url, None),
        "wrong ath": key.proof(srv.url, token, ath=access_token_hash(token + "x")),
        "ath a lone surrogate": key.proof(srv.url, token, ath="\ud800"),
        "htu a lone surrogate": key.proof(srv.url + "\ud800", token),
        "ath a number": key.proof(srv.url, token, ath=1),
    }


@pytest.mark.filterwarnings("ignore:The RSA key is 1024 bits")  # the attacker's own signing
def test_attacks_are_refused_with_a_dpop_challenge(
    srv: HttpServer, idp: IdentityProvider, capsys: pytest.CaptureFixture[str]
) -> None:
    key, other = Key(), Key()
    token = bound(idp, srv, key)
    seen: dict[str, tuple[int, str]] = {}

    def expect(label: str, r: httpx.Response, scheme: str, error: str) -> None:
        c = challenges(r)
        seen[label] = (r.status_code, r.headers.get("www-authenticate", ""))
        assert r.status_code == 401, (label, r.status_code, r.text)
        assert c[scheme]["error"] == error, (label, c)
        assert c[scheme]["resource_metadata"].endswith("/.well-known/oauth-protected-resource/mcp")
        assert r.json()["error"] == error, label

    for label, proof in _forged(key, srv, token).items():
        expect(label, call(srv, token, proof), "DPoP", "invalid_dpop_proof")
    replayed = key.proof(srv.url, token)
    assert call(srv, token, replayed).status_code == 200
    expect("replayed jti", call(srv, token, replayed), "DPoP", "invalid_dpop_proof")
    expect("missing proof", call(srv, token, None), "DPoP", "invalid_dpop_proof")
    two = [key.proof(srv.url, token), key.proof(srv.url, token)]
    expect("two proofs", call(srv, token, two), "DPoP", "invalid_dpop_proof")
    elsewhere = bound(idp, srv, other)
    expect(
        "token bound to another key",
        call(srv, elsewhere, key.proof(srv.url, elsewhere)),
        "DPoP",
        "invalid_token",
    )
    unbound = idp.token(audience=srv.url, scopes="notes:read")
    expect(
        "unbound token, DPoP scheme",
        call(srv, unbound, key.proof(srv.url, unbound)),
        "DPoP",
        "invalid_token",
    )
    expired = bound(idp, srv, key, lifetime=-120)
    expect(
        "expired token", call(srv, expired, key.proof(srv.url, expired)), "DPoP", "invalid_token"
    )
    r = call(srv, token, key.proof(srv.url, token), "Bearer")
    expect("bound token as Bearer", r, "Bearer", "invalid_token")
    assert "DPoP-bound" in challenges(r)["Bearer"]["error_description"]
    assert "algs" in challenges(r)["DPoP"]  # and how to present it
    # a proof far over any limit: refused by the HTTP layer or by the front, never a 500
    r = call(srv, token, key.proof(srv.url, token, pad="x" * 60000))
    seen["oversized (60 KiB)"] = (r.status_code, r.headers.get("www-authenticate", ""))
    assert 400 <= r.status_code < 500
    # still serving
    assert call(srv, token, key.proof(srv.url, token)).status_code == 200
    with capsys.disabled():
        print("\nDPoP attacks (status, WWW-Authenticate):")
        for label, (status, header) in seen.items():
            print(f"  {label:36} {status} {header[:150]}")


@pytest.fixture(scope="module")
def nonce_srv(vault_package: Path, idp: IdentityProvider) -> Iterator[HttpServer]:
    server = serve_vault(
        vault_package,
        "--auth-dpop",
        "required",
        "--auth-dpop-nonce",
        env={"MCPGEN_AUTH_ISSUER": idp.issuer},
    )
    server.start()
    yield server
    assert_clean_log(server)
    server.stop()


def test_required_with_nonces(nonce_srv: HttpServer, idp: IdentityProvider) -> None:
    srv, key = nonce_srv, Key()
    meta = httpx.get(challenges(call(srv, None, None))["DPoP"]["resource_metadata"]).json()
    assert meta["dpop_bound_access_tokens_required"] is True
    r = call(srv, None, None)
    assert r.status_code == 401 and list(challenges(r)) == ["DPoP"]  # no Bearer offered
    plain = idp.token(audience=srv.url, scopes="notes:read")
    r = call(srv, plain, None, "Bearer")
    assert r.status_code == 401 and challenges(r)["DPoP"]["error"] == "invalid_token"
    token = bound(idp, srv, key)
    r = call(srv, token, key.proof(srv.url, token))  # no nonce yet
    assert r.status_code == 401, r.text
    assert challenges(r)["DPoP"]["error"] == "use_dpop_nonce"
    nonce = r.headers["dpop-nonce"]
    r = call(srv, token, key.proof(srv.url, token, nonce=nonce))
    assert r.status_code == 200, r.text
    assert r.headers["dpop-nonce"] == nonce  # the same window: the same nonce
    forged = nonce[:-4] + ("AAAA" if not nonce.endswith("AAAA") else "BBBB")
    r = call(srv, token, key.proof(srv.url, token, nonce=forged))
    assert r.status_code == 401 and challenges(r)["DPoP"]["error"] == "use_dpop_nonce"


@pytest.fixture(scope="module")
def redis() -> Iterator[RedisServer]:
    with tempfile.TemporaryDirectory(prefix="mcpgen-redis-") as tmp:
        server = RedisServer(free_port(), redis_server_binary(), Path(tmp))
        server.start()
        yield server
        server.stop()


def test_state_remembers_once(redis: RedisServer) -> None:
    from mcpgen_runtime.server.state.memory import MemoryState
    from mcpgen_runtime.server.state.redis_backend import RedisState

    async def run() -> None:
        for state in (MemoryState(), RedisState(redis.url, namespace="once-test")):
            assert await state.remember_once("a", 0.3) is True
            assert await state.remember_once("a", 0.3) is False
            assert await state.remember_once("b", 0.3) is True
            await asyncio.sleep(0.5)
            assert await state.remember_once("a", 0.3) is True  # expired: new again
            await state.close()

    asyncio.run(run())


def test_a_proof_replayed_on_another_replica_is_refused(
    vault_package: Path, idp: IdentityProvider, redis: RedisServer
) -> None:
    """Two replicas behind one public URL (the resource), sharing Redis and the requestState
    key (from which each derives the nonce key): a nonce from one is good on the other, a
    proof used on one is refused on the other."""
    public = f"http://127.0.0.1:{free_port()}/mcp"
    env = {
        "MCPGEN_AUTH_ISSUER": idp.issuer,
        "MCPGEN_AUTH_RESOURCE": public,
        "MCPGEN_REQUEST_STATE_KEY": "hex:" + "ab" * 32,
        "MCPGEN_AUTH_DPOP_NONCE": "1",
    }
    replicas = [serve_vault(vault_package, "--state", redis.url, env=env) for _ in range(2)]
    for replica in replicas:
        replica.start()
    try:
        key = Key()
        token = idp.token(audience=public, scopes="notes:read", cnf={"jkt": key.jkt})
        a, b = replicas
        r = call(a.url, token, key.proof(public, token))
        assert r.status_code == 401 and challenges(r)["DPoP"]["error"] == "use_dpop_nonce"
        nonce = r.headers["dpop-nonce"]
        proof = key.proof(public, token, nonce=nonce)
        assert call(a.url, token, proof).status_code == 200
        r = call(b.url, token, proof)
        assert r.status_code == 401
        assert challenges(r)["DPoP"]["error"] == "invalid_dpop_proof"
        assert "used before" in challenges(r)["DPoP"]["error_description"]
        assert call(b.url, token, key.proof(public, token, nonce=nonce)).status_code == 200
    finally:
        for replica in replicas:
            assert_clean_log(replica)
            replica.stop()


def test_scope_step_up_names_the_dpop_scheme(srv: HttpServer, idp: IdentityProvider) -> None:
    key = Key()
    token = bound(idp, srv, key)  # notes:read only
    body = {**BODY, "method": "tools/call"}
    body["params"] = {**BODY["params"], "name": "write_note", "arguments": {"id": "a", "text": "b"}}
    headers = {
        **HEADERS,
        "Mcp-Method": "tools/call",
        "Mcp-Name": "write_note",
        "Authorization": f"DPoP {token}",
        "DPoP": key.proof(srv.url, token),
    }
    SENT.extend([token, headers["DPoP"]])
    r = httpx.post(srv.url, json=body, headers=headers, timeout=10)
    assert r.status_code == 403, r.text
    c = challenges(r)
    assert list(c) == ["DPoP"] and c["DPoP"]["error"] == "insufficient_scope"
    assert c["DPoP"]["scope"] == "notes:read notes:write"


def test_dpop_off_is_bearer_only(vault_package: Path, idp: IdentityProvider) -> None:
    server = serve_vault(
        vault_package, "--auth-dpop", "off", env={"MCPGEN_AUTH_ISSUER": idp.issuer}
    )
    server.start()
    try:
        r = call(server, None, None)
        assert r.status_code == 401 and list(challenges(r)) == ["Bearer"]
        meta = httpx.get(challenges(r)["Bearer"]["resource_metadata"]).json()
        assert not [k for k in meta if k.startswith("dpop")]
        key = Key()
        token = bound(idp, server, key)
        r = call(server, token, key.proof(server.url, token))  # DPoP scheme: not understood
        assert r.status_code == 401 and list(challenges(r)) == ["Bearer"]
        r = call(server, token, None, "Bearer")  # still bound: never a bearer token
        assert r.status_code == 401 and "DPoP-bound" in r.text
        plain = idp.token(audience=server.url, scopes="notes:read")
        assert call(server, plain, None, "Bearer").status_code == 200
    finally:
        assert_clean_log(server)
        server.stop()


@pytest.mark.parametrize(
    ("operator", "env", "message"),
    [
        ({"dpop": "sometimes"}, {}, "auth dpop: expected one of allowed, required, off"),
        ({}, {"MCPGEN_AUTH_DPOP_WINDOW": "1"}, "expected 5 to 3600 seconds"),
        ({}, {"MCPGEN_AUTH_DPOP_WINDOW": "soon"}, "expected 5 to 3600 seconds"),
        ({}, {"MCPGEN_AUTH_DPOP_NONCE_KEY": "short"}, "at least 32 bytes"),
        ({}, {"MCPGEN_AUTH_DPOP_NONCE_KEY": "hex:zz"}, "hex digits"),
    ],
)
def test_bad_dpop_settings(operator: dict[str, Any], env: dict[str, str], message: str) -> None:
    from mcpgen_runtime.server.auth.config import AuthConfigError, resolve

    with pytest.raises(AuthConfigError, match=message):
        resolve(MANIFEST, operator, environ=env)


def test_dpop_settings_from_the_operator() -> None:
    from mcpgen_runtime.server.auth.config import resolve

    s = resolve(MANIFEST, None, environ={})
    assert s is not None and (s.dpop, s.dpop_window, s.dpop_nonce) == ("allowed", 300.0, False)
    s = resolve(MANIFEST, {"dpop": "required", "dpop_window": 60}, environ={})
    assert s is not None and (s.dpop, s.dpop_window, s.dpop_nonce) == ("required", 60.0, False)
    secret = "n" * 40
    env = {
        "MCPGEN_AUTH_DPOP": "required",
        "MCPGEN_AUTH_DPOP_NONCE": "1",
        "MCPGEN_AUTH_DPOP_NONCE_KEY": secret,
    }
    s = resolve(MANIFEST, None, environ=env)
    assert s is not None and s.dpop_nonce and s.dpop_nonce_key == secret.encode()
    assert secret not in repr(s)


@pytest.mark.parametrize("alg", ["ES256", "ES384", "ES512", "EdDSA", "PS256", "RS256"])
def test_proofs_of_the_runtime_client(srv: HttpServer, idp: IdentityProvider, alg: str) -> None:
    """The proofs of ``mcpgen_runtime.client.dpop`` (written apart from the server's checks)
    get through, for every algorithm it signs with."""
    from mcpgen_runtime.client.dpop import DPoPKey

    key = DPoPKey.generate(alg)
    token = idp.token(audience=srv.url, scopes="notes:read", cnf={"jkt": key.thumbprint()})
    r = call(srv, token, key.proof("POST", srv.url, access_token=token))
    assert r.status_code == 200, r.text


def test_runtime_client_follows_the_nonce(nonce_srv: HttpServer, idp: IdentityProvider) -> None:
    """``DPoPAuth`` against a server that requires DPoP and nonces: one 401
    ``use_dpop_nonce``, one retry with the nonce, then every call passes."""
    import httpx2

    from mcpgen_runtime.client.dpop import DPoPAuth, DPoPKey

    key = DPoPKey.generate()
    token = idp.token(audience=nonce_srv.url, scopes="notes:read", cnf={"jkt": key.thumbprint()})
    SENT.append(token)

    class Fixed(httpx2.Auth):
        def auth_flow(self, request: httpx2.Request) -> Any:
            request.headers["Authorization"] = f"Bearer {token}"
            yield request

    async def run() -> list[int]:
        async with httpx2.AsyncClient(auth=DPoPAuth(Fixed(), key), timeout=10) as http:
            return [
                (await http.post(nonce_srv.url, json=BODY, headers=HEADERS)).status_code
                for _ in range(3)
            ]

    asked = "DPoP request: a DPoP nonce of this server is required"
    before = full_log(nonce_srv).count(asked)
    assert asyncio.run(run()) == [200, 200, 200]
    assert full_log(nonce_srv).count(asked) == before + 1  # one challenge, then the nonce


@pytest.mark.parametrize("dpop", [True, None])
def test_runtime_oauth_client_end_to_end(
    nonce_srv: HttpServer, idp: IdentityProvider, dpop: bool | None
) -> None:
    """The runtime's OAuth client (client credentials) against the server that requires DPoP
    and nonces: a bound token from the identity provider, then proofs with the server's
    nonce. ``dpop=None``: the client turns DPoP on from the server's challenge."""
    import httpx2

    from mcpgen_runtime.client.oauth import MemoryTokenStorage, oauth

    idp.add_client("svc-dpop", "svc-dpop-secret", subject="bot")
    auth = oauth(
        nonce_srv.url,
        client_id="svc-dpop",
        client_secret="svc-dpop-secret",
        issuer=idp.issuer,
        storage=MemoryTokenStorage(),
        dpop=dpop,
    )

    async def run() -> list[int]:
        async with httpx2.AsyncClient(auth=auth, timeout=30) as http:
            return [
                (await http.post(nonce_srv.url, json=BODY, headers=HEADERS)).status_code
                for _ in range(3)
            ]

    assert asyncio.run(run()) == [200, 200, 200]
    assert idp.grants[-1]["client"] == "svc-dpop"
