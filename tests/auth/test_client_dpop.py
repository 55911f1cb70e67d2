"""DPoP on the client side (RFC 9449, SEP-1932): ``mcpgen_runtime.oauth(..., dpop=...)`` and
``DPoPKey``, with real keys and real signed proofs, against the test identity provider (its
token endpoint checks proofs and binds tokens to their key) and a resource server that
checks every proof on its own (``tests.auth.resource``)."""

from __future__ import annotations

import base64
import hashlib
import logging
import stat
import time
from collections.abc import AsyncGenerator, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import jwt
import pytest

from mcpgen_runtime import DPoPKey, FileTokenStorage, oauth
from mcpgen_runtime.client.dpop import ALGORITHMS, DPoPAuth, htu, thumbprint
from mcpgen_runtime.client.oauth import MemoryTokenStorage
from tests.auth.idp import IdentityProvider
from tests.auth.proofs import jwk_thumbprint
from tests.auth.resource import ProtectedResource
from tests.interop.procs import HttpServer

PRIVATE = {"d", "p", "q", "dp", "dq", "qi", "k", "oth"}


def b64_sha256(text: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()


def verified(proof: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The header and claims of a proof, its signature checked with the key in its header."""
    header = jwt.get_unverified_header(proof)
    key = jwt.PyJWK(header["jwk"], header["alg"]).key
    return header, jwt.decode(proof, key, algorithms=[header["alg"]])


# -- the key and its proofs ------------------------------------------------------------------


@pytest.mark.parametrize("alg", ALGORITHMS)
def test_proof_claims_and_header(alg: str) -> None:
    key = DPoPKey.generate(alg)
    token = "an-access-token"
    before = int(time.time())
    url = "https://mcp.example.com:8443/mcp/x?secret=1#frag"
    proof = key.proof("post", url, access_token=token)
    header, claims = verified(proof)
    assert header["typ"] == "dpop+jwt" and header["alg"] == alg
    assert not PRIVATE & set(header["jwk"]), header["jwk"]
    assert claims["htm"] == "POST"
    assert claims["htu"] == "https://mcp.example.com:8443/mcp/x"
    assert before <= claims["iat"] <= int(time.time())
    assert claims["ath"] == b64_sha256(token)
    assert "nonce" not in claims
    assert jwk_thumbprint(header["jwk"]) == key.thumbprint()


def test_jti_is_fresh_and_nonce_carried() -> None:
    key = DPoPKey.generate()
    jtis = {verified(key.proof("GET", "http://a/b"))[1]["jti"] for _ in range(200)}
    assert len(jtis) == 200
    claims = verified(key.proof("GET", "http://a/b", nonce="n-1"))[1]
    assert claims["nonce"] == "n-1" and "ath" not in claims


def test_htu_drops_query_and_fragment_only() -> None:
    assert htu("http://127.0.0.1:9000/mcp?x=1&y=2#z") == "http://127.0.0.1:9000/mcp"
    assert htu("https://h.example/a%20b/c") == "https://h.example/a%20b/c"


def test_thumbprint_is_rfc7638() -> None:
    """The example key of RFC 7638 section 3.1 and its published thumbprint."""
    n = (
        "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc"
        "_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQ"
        "R0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bF"
        "TWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
    )
    jwk = {"kty": "RSA", "n": n, "e": "AQAB", "alg": "RS256", "kid": "2011-04-29"}
    assert thumbprint(jwk) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"


def test_key_round_trips_through_pem_and_hides_itself() -> None:
    key = DPoPKey.generate("ES384")
    again = DPoPKey.from_pem(key.pem())
    assert again.alg == "ES384" and again.thumbprint() == key.thumbprint()
    assert "PRIVATE" not in repr(key) and key.thumbprint() in repr(key)
    with pytest.raises(ValueError, match="unsupported algorithm"):
        DPoPKey.generate("HS256")


# -- DPoPAuth on its own: a fixed token, a fake server --------------------------------------


class FixedToken(httpx2.Auth):
    """The inner flow of a provider that holds a token: first without it, then (after a
    401) with it, as the SDK's provider does."""

    def __init__(self, token: str) -> None:
        self.token = token

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        response = yield request
        if response.status_code == 401:
            request.headers["Authorization"] = f"Bearer {self.token}"
            yield request


def run(auth: httpx2.Auth, handler: Callable[[httpx2.Request], httpx2.Response]) -> int:
    async def go() -> int:
        transport = httpx2.MockTransport(handler)
        async with httpx2.AsyncClient(transport=transport, auth=auth) as http:
            return (await http.post("http://rs.test/mcp?q=1", json={"x": 1})).status_code

    return anyio.run(go)


def test_resource_nonce_is_retried_exactly_once() -> None:
    seen: list[dict[str, str]] = []  # the headers of each request as sent

    def never_happy(request: httpx2.Request) -> httpx2.Response:
        seen.append(dict(request.headers))
        if "authorization" not in seen[-1]:
            return httpx2.Response(401, headers={"WWW-Authenticate": "DPoP"})
        nonce = f"n{len(seen)}"
        challenge = 'DPoP error="use_dpop_nonce"'
        headers = {"WWW-Authenticate": challenge, "DPoP-Nonce": nonce}
        return httpx2.Response(401, headers=headers)

    assert run(DPoPAuth(FixedToken("tok"), always=True), never_happy) == 401
    assert "authorization" not in seen[0] and "dpop" not in seen[0]
    presented = seen[1:]
    assert len(presented) == 2  # the request, then one retry with the nonce; no more
    first, retry = (verified(h["dpop"])[1] for h in presented)
    assert "nonce" not in first and retry["nonce"] == "n2"
    assert first["jti"] != retry["jti"]
    assert all(h["authorization"] == "DPoP tok" for h in presented)


def test_auto_mode_follows_the_challenge() -> None:
    def challenge(scheme: str) -> Callable[[httpx2.Request], httpx2.Response]:
        def handler(request: httpx2.Request) -> httpx2.Response:
            if "Authorization" not in request.headers:
                return httpx2.Response(401, headers={"WWW-Authenticate": scheme})
            return httpx2.Response(200, json={"auth": request.headers["Authorization"]})

        return handler

    bearer: list[dict[str, str]] = []
    auth = DPoPAuth(FixedToken("tok"), always=False)
    handler = challenge('Bearer realm="x"')
    assert run(auth, lambda r: bearer.append(dict(r.headers)) or handler(r)) == 200
    assert bearer[-1]["authorization"] == "Bearer tok"
    assert "dpop" not in bearer[-1] and not auth.active

    dpop: list[dict[str, str]] = []
    auth = DPoPAuth(FixedToken("tok"), always=False)
    handler = challenge('Bearer realm="x", DPoP algs="ES256"')
    assert run(auth, lambda r: dpop.append(dict(r.headers)) or handler(r)) == 200
    assert dpop[-1]["authorization"] == "DPoP tok"
    assert verified(dpop[-1]["dpop"])[1]["ath"] == b64_sha256("tok")


# -- end to end: the identity provider binds, the resource server checks ----------------------


@pytest.fixture()
def servers() -> Iterator[tuple[IdentityProvider, ProtectedResource]]:
    with IdentityProvider() as idp, ProtectedResource(idp, scheme="DPoP") as rs:
        idp.add_client("svc", "svc-secret")
        yield idp, rs


def call(auth: httpx2.Auth, url: str, times: int = 1) -> list[int]:
    async def go() -> list[int]:
        async with httpx2.AsyncClient(auth=auth, timeout=30) as http:
            return [(await http.post(url, json={"n": i})).status_code for i in range(times)]

    return anyio.run(go)


def machine(url: str, issuer: str, **kw: Any) -> httpx2.Auth:
    kw.setdefault("storage", MemoryTokenStorage())
    return oauth(url, client_id="svc", client_secret="svc-secret", issuer=issuer, **kw)


def test_bound_token_end_to_end(
    servers: tuple[IdentityProvider, ProtectedResource], caplog: pytest.LogCaptureFixture
) -> None:
    idp, rs = servers
    caplog.set_level(logging.DEBUG)
    key = DPoPKey.generate()
    assert call(machine(rs.url, idp.issuer, dpop=True, dpop_key=key), rs.url, 3) == [200] * 3
    # the token request carried a valid proof, and the token is bound to the client's key
    [proof] = idp.dpop_proofs
    assert proof["error"] is None and proof["claims"]["htu"] == idp.issuer + "/token"
    assert jwk_thumbprint(proof["header"]["jwk"]) == key.thumbprint()
    accepted = [r for r in rs.requests if r["verdict"] is None]
    assert len(accepted) == 3
    tokens = {r["headers"]["Authorization"] for r in accepted}
    [presented] = tokens
    assert presented.startswith("DPoP ")
    access = presented.removeprefix("DPoP ")
    assert idp.verify(access, audience=rs.url)["cnf"] == {"jkt": key.thumbprint()}
    # never a token or a proof in the log
    logged = caplog.text
    assert access not in logged
    assert not any(r["headers"]["DPoP"] in logged for r in accepted)


def test_nonces_of_both_servers(servers: tuple[IdentityProvider, ProtectedResource]) -> None:
    idp, rs = servers
    idp.dpop_nonce, rs.nonce = "as-nonce-1", "rs-nonce-1"
    assert call(machine(rs.url, idp.issuer, dpop=True), rs.url, 3) == [200] * 3
    # the token endpoint: one refusal (use_dpop_nonce), one retry with its nonce
    assert [p["error"] for p in idp.dpop_proofs] == ["nonce", None]
    assert idp.dpop_proofs[1]["claims"]["nonce"] == "as-nonce-1"
    # the resource server: the unauthenticated request, one nonce refusal, then the nonce
    # is used from the start
    verdicts = [r["verdict"] for r in rs.requests]
    assert verdicts == ["unauthorized", "use_dpop_nonce", None, None, None]
    assert len({r["headers"]["DPoP"] for r in rs.requests[1:]}) == 4


def test_bearer_token_stays_bearer(servers: tuple[IdentityProvider, ProtectedResource]) -> None:
    """An authorization server that ignores the proof issues a Bearer token: it goes as
    ``Bearer``, with no proof (a DPoP scheme would be refused)."""
    idp, rs = servers
    idp.dpop_bind = False
    assert call(machine(rs.url, idp.issuer, dpop=True), rs.url, 2) == [200, 200]
    assert idp.dpop_proofs and idp.dpop_proofs[0]["error"] is None
    last = rs.requests[-1]["headers"]
    assert last["Authorization"].startswith("Bearer ") and "DPoP" not in last


def test_default_is_bearer_until_a_dpop_challenge(
    servers: tuple[IdentityProvider, ProtectedResource],
) -> None:
    idp, rs = servers
    rs.scheme = "Bearer"
    assert call(machine(rs.url, idp.issuer), rs.url) == [200]
    assert idp.dpop_proofs == []
    assert rs.requests[-1]["headers"]["Authorization"].startswith("Bearer ")
    rs.scheme = "DPoP"
    rs.requests.clear()
    assert call(machine(rs.url, idp.issuer), rs.url) == [200]
    assert rs.requests[-1]["headers"]["Authorization"].startswith("DPoP ")
    assert rs.requests[-1]["verdict"] is None


@pytest.mark.parametrize("dpop", [True, None])
def test_file_storage_keeps_the_key_with_its_tokens(
    servers: tuple[IdentityProvider, ProtectedResource], tmp_path: Path, dpop: bool | None
) -> None:
    """The key is kept (0600) with the tokens it binds; the next run uses both, DPoP from its
    first request even by default (a stored key says the tokens are bound)."""
    idp, rs = servers
    store = FileTokenStorage(rs.url, tmp_path)
    assert call(machine(rs.url, idp.issuer, dpop=dpop, storage=store), rs.url) == [200]
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    pem = store.dpop_key()
    assert pem is not None and pem.startswith(b"-----BEGIN PRIVATE KEY-----")
    grants = len(idp.grants)
    # a new process: the same key from the file, the stored token accepted, no new grant
    again = FileTokenStorage(rs.url, tmp_path)
    rs.requests.clear()
    assert call(machine(rs.url, idp.issuer, dpop=dpop, storage=again), rs.url) == [200]
    assert len(idp.grants) == grants
    assert [r["verdict"] for r in rs.requests] == [None]


# -- against mcpgen's own resource server ------------------------------------------------------


def test_tool_client_with_a_bound_token_on_a_generated_server(
    vault: HttpServer, idp: IdentityProvider, tmp_path: Path
) -> None:
    """``ToolClient.http`` with ``dpop=True`` against a generated server (which checks DPoP
    itself): the token is bound to the client's key, every MCP request carries a proof, and
    the tool sees the machine's identity."""
    from mcpgen_runtime import ToolClient

    idp.add_client("dpop-bot", "bot-secret", subject="dpop-bot")
    key = DPoPKey.generate()
    before = len(idp.dpop_proofs)

    async def main() -> str:
        auth = oauth(
            vault.url,
            client_id="dpop-bot",
            client_secret="bot-secret",
            scopes=["notes:read"],
            issuer=idp.issuer,
            storage=MemoryTokenStorage(),
            dpop=True,
            dpop_key=key,
        )
        async with ToolClient.http(vault.url, auth=auth) as client:
            result = await client.mcp.call_tool("whoami", {})
            return str(result.content[0].text)  # type: ignore[union-attr]

    who = anyio.run(main)
    assert '"subject": "dpop-bot"' in who
    [proof] = idp.dpop_proofs[before:]
    assert proof["error"] is None and jwk_thumbprint(proof["header"]["jwk"]) == key.thumbprint()
