"""A generated server as an OAuth 2.1 resource server, against a real identity provider
(``idp``: keys generated here, a JWKS served over HTTP on 127.0.0.1, tokens really signed):
discovery (401 + protected-resource metadata), per-tool scopes (filtered lists, 403 step-up
challenges), the verified caller in handlers, requestState bound to the subject, key
rotation, and every attack of the issue: each gets 401 (or 403) quickly, with no 500 and no
token in the log, and the server keeps serving."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization

from tests.auth.conftest import serve_vault
from tests.auth.idp import IdentityProvider
from tests.interop.procs import HttpServer

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "auth-test", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
}


def post(
    srv: HttpServer,
    method: str,
    params: dict[str, Any] | None = None,
    *,
    token: str | None = None,
    name: str | None = None,
    authorization: str | None = None,
    url: str | None = None,
) -> httpx.Response:
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
    }
    if name is not None:
        headers["Mcp-Name"] = name
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if authorization is not None:
        headers["Authorization"] = authorization
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": method,
        "params": {**(params or {}), "_meta": META},
    }
    return httpx.post(url or srv.url, json=body, headers=headers, timeout=10)


def resource(srv: HttpServer) -> str:
    return srv.url  # the default resource URI on loopback: the server's own URL


def result(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, (r.status_code, r.text)
    doc = json.loads(r.text) if r.text.startswith("{") else _sse(r.text)
    return doc["result"]  # type: ignore[no-any-return]


def _sse(text: str) -> dict[str, Any]:
    datas = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    return json.loads([d for d in datas if d][-1])  # type: ignore[no-any-return]


def challenge(r: httpx.Response) -> dict[str, str]:
    header = r.headers.get("www-authenticate", "")
    assert header.startswith("Bearer "), header
    out = {}
    for part in header[7:].split('", '):
        key, _, value = part.partition("=")
        out[key.strip()] = value.strip().strip('"')
    return out


# -- discovery, scopes, caller -----------------------------------------------------------------


def test_no_token_is_401_with_discovery(vault: HttpServer, idp: IdentityProvider) -> None:
    r = post(vault, "tools/list")
    assert r.status_code == 401
    c = challenge(r)
    assert c["error"] == "invalid_token"
    meta_url = c["resource_metadata"]
    assert meta_url.endswith("/.well-known/oauth-protected-resource/mcp")
    meta = httpx.get(meta_url).json()
    assert meta["resource"] == resource(vault)
    assert meta["authorization_servers"] == [idp.issuer]
    assert meta["scopes_supported"] == ["notes:read", "notes:write"]
    # the bare well-known path serves the same document
    root = meta_url.split("/.well-known/")[0] + "/.well-known/oauth-protected-resource"
    assert httpx.get(root).json() == meta


def test_lists_show_what_the_scopes_allow(vault: HttpServer, idp: IdentityProvider) -> None:
    none = idp.token(audience=resource(vault), scopes="")
    reader = idp.token(audience=resource(vault), scopes="notes:read")
    both = idp.token(audience=resource(vault), scopes="notes:read notes:write")

    def names(token: str, method: str, key: str, field: str = "name") -> list[str]:
        res = result(post(vault, method, token=token))
        assert res["cacheScope"] == "private"
        return [item[field] for item in res[key]]

    assert names(none, "tools/list", "tools") == ["whoami"]
    assert names(reader, "tools/list", "tools") == ["whoami", "read_note"]
    assert names(both, "tools/list", "tools") == ["whoami", "read_note", "write_note"]
    assert names(none, "resources/list", "resources", "uri") == []
    assert names(reader, "resources/list", "resources", "uri") == ["vault://index"]
    assert names(none, "prompts/list", "prompts") == []
    assert names(reader, "prompts/list", "prompts") == ["summarize"]


def test_missing_scope_is_403_step_up(vault: HttpServer, idp: IdentityProvider) -> None:
    reader = idp.token(audience=resource(vault), scopes="notes:read")
    args = {"name": "write_note", "arguments": {"id": "a", "text": "b"}}
    r = post(vault, "tools/call", args, token=reader, name="write_note")
    assert r.status_code == 403
    c = challenge(r)
    assert c["error"] == "insufficient_scope"
    # what the call needs, plus what the client already holds here (a step-up keeps it)
    assert c["scope"] == "notes:read notes:write"
    assert c["resource_metadata"].endswith("/.well-known/oauth-protected-resource/mcp")
    # resources and prompts the same way
    nobody = idp.token(audience=resource(vault), scopes="")
    r = post(vault, "resources/read", {"uri": "vault://index"}, token=nobody, name="vault://index")
    assert r.status_code == 403 and challenge(r)["scope"] == "notes:read"
    r = post(vault, "prompts/get", {"name": "summarize"}, token=nobody, name="summarize")
    assert r.status_code == 403
    # the stepped-up token gets through
    writer = idp.token(audience=resource(vault), scopes="notes:read notes:write")
    res = result(post(vault, "tools/call", args, token=writer, name="write_note"))
    assert res["resultType"] == "input_required"


def handshake_session(http: httpx.Client, url: str, token: str) -> dict[str, str]:
    """``initialize`` + ``notifications/initialized`` on the 2025-11-25 wire with ``token``:
    the headers of the session's later requests (no Mcp-Method/Mcp-Name: the front reads
    the body)."""
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Authorization": f"Bearer {token}",
    }
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    r = http.post(url, json=init, headers=headers)
    assert r.status_code == 200, r.text
    session = {
        **headers,
        "Mcp-Session-Id": r.headers["mcp-session-id"],
        "MCP-Protocol-Version": "2025-11-25",
    }
    http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
    return session


def test_handshake_wire_is_gated_from_the_body(vault: HttpServer, idp: IdentityProvider) -> None:
    """Without Mcp-Method/Mcp-Name headers (2025-11-25), the front reads the JSON-RPC body."""
    reader = idp.token(audience=resource(vault), scopes="notes:read")
    with httpx.Client(timeout=10) as http:
        session = handshake_session(http, vault.url, reader)
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "write_note", "arguments": {"id": "a", "text": "b"}},
        }
        r = http.post(vault.url, json=call, headers=session)
        assert r.status_code == 403 and challenge(r)["error"] == "insufficient_scope"
        call["params"] = {"name": "read_note", "arguments": {"id": "n1"}}
        r = http.post(vault.url, json=call, headers=session)
        assert r.status_code == 200 and "note n1" in r.text


def test_handlers_see_the_verified_caller(vault: HttpServer, idp: IdentityProvider) -> None:
    token = idp.token(audience=resource(vault), scopes="notes:read", subject="bob")
    res = result(
        post(vault, "tools/call", {"name": "whoami", "arguments": {}}, token=token, name="whoami")
    )
    who = json.loads(res["content"][0]["text"])
    assert who == {
        "subject": "bob",
        "client_id": "test-client",
        "scopes": ["notes:read"],
        "issuer": idp.issuer,
        "token": None,  # never the raw token, unless --auth-expose-token
        "aud": resource(vault),
    }


def test_request_state_survives_a_token_refresh(vault: HttpServer, idp: IdentityProvider) -> None:
    """requestState is bound to (issuer, subject, client), not to the token string."""
    args = {"name": "write_note", "arguments": {"id": "a", "text": "b"}}
    first = idp.token(audience=resource(vault), scopes="notes:read notes:write")
    asked = result(post(vault, "tools/call", args, token=first, name="write_note"))
    assert asked["resultType"] == "input_required"
    retry = {
        **args,
        "requestState": asked["requestState"],
        "inputResponses": {"confirm": {"action": "accept", "content": {"ok": True}}},
    }
    # a refreshed token of the same subject (another jti, another expiry) finishes the call
    refreshed = idp.token(
        audience=resource(vault),
        scopes="notes:read notes:write",
        lifetime=600,
        jti=uuid.uuid4().hex,
    )
    assert refreshed != first
    done = result(post(vault, "tools/call", retry, token=refreshed, name="write_note"))
    assert done["content"][0]["text"] == "wrote a"
    # another subject cannot use it
    mallory = idp.token(
        audience=resource(vault), scopes="notes:read notes:write", subject="mallory"
    )
    stolen = result(post(vault, "tools/call", retry, token=mallory, name="write_note"))
    assert stolen["isError"] is True and "another caller" in stolen["content"][0]["text"]


# -- attacks ---------------------------------------------------------------------------------------


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _claims(idp: IdentityProvider, srv: HttpServer, **extra: Any) -> dict[str, Any]:
    now = int(time.time())
    return {
        "iss": idp.issuer,
        "sub": "eve",
        "aud": resource(srv),
        "exp": now + 300,
        "iat": now,
        "scope": "notes:read notes:write",
        **extra,
    }


def forged_tokens(idp: IdentityProvider, srv: HttpServer) -> dict[str, str]:
    rsa = idp.keys[0]
    claims = _claims(idp, srv)
    header_none = _b64(json.dumps({"alg": "none", "typ": "JWT", "kid": rsa.kid}).encode())
    public_pem = rsa.private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    hs_header = _b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": rsa.kid}).encode())
    hs_body = _b64(json.dumps(claims).encode())
    hs_sig = _b64(hmac.new(public_pem, f"{hs_header}.{hs_body}".encode(), hashlib.sha256).digest())
    other = IdentityProvider()  # another issuer's key, same kid
    other.keys[0].kid = rsa.kid
    return {
        "alg none": f"{header_none}.{_b64(json.dumps(claims).encode())}.",
        "HS256 keyed with the public key": f"{hs_header}.{hs_body}.{hs_sig}",
        "expired": idp.token(audience=resource(srv), scopes="notes:read", lifetime=-120),
        "not yet valid": idp.token(
            audience=resource(srv), scopes="notes:read", nbf=int(time.time()) + 600
        ),
        "wrong iss": jwt.encode(
            {**claims, "iss": "http://127.0.0.1:1/other"},
            rsa.private,
            algorithm="RS256",
            headers={"kid": rsa.kid},
        ),
        "wrong aud (another resource)": idp.token(
            audience="https://other.example/mcp", scopes="notes:read"
        ),
        "no aud": jwt.encode(
            {k: v for k, v in claims.items() if k != "aud"},
            rsa.private,
            algorithm="RS256",
            headers={"kid": rsa.kid},
        ),
        "missing kid": jwt.encode(claims, rsa.private, algorithm="RS256"),
        "signed by another key": jwt.encode(
            claims, other.keys[0].private, algorithm="RS256", headers={"kid": rsa.kid}
        ),
        "tampered payload": _tamper(idp.token(audience=resource(srv), scopes="notes:read")),
        "64 KiB token": "A" * 65536,
        "not a JWT": "opaque-token-without-introspection",
    }


def _tamper(token: str) -> str:
    head, body, sig = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    claims["scope"] = "notes:read notes:write"
    return f"{head}.{_b64(json.dumps(claims).encode())}.{sig}"


def test_attacks_get_401_fast_and_the_server_keeps_serving(
    vault: HttpServer, idp: IdentityProvider
) -> None:
    good = idp.token(audience=resource(vault), scopes="notes:read")
    assert post(vault, "tools/list", token=good).status_code == 200
    seen: dict[str, tuple[int, float]] = {}
    for label, token in forged_tokens(idp, vault).items():
        start = time.perf_counter()
        r = post(
            vault,
            "tools/call",
            {"name": "read_note", "arguments": {"id": "x"}},
            token=token,
            name="read_note",
        )
        seen[label] = (r.status_code, time.perf_counter() - start)
        assert r.status_code == 401, (label, r.status_code, r.text)
        assert challenge(r)["error"] == "invalid_token", label
        assert "resource_metadata" in challenge(r), label
    for label, header in {
        "no scheme": good,
        "Basic scheme": "Basic " + base64.b64encode(b"alice:pw").decode(),
        "bare scheme": "Bearer",
        "bearer twice": f"Bearer {good} Bearer {good}",
        "not base64url": "Bearer a.b.c",
        "JSON instead of a token": 'Bearer {"alg":"none"}',
    }.items():
        r = post(vault, "tools/list", authorization=header)
        seen[label] = (r.status_code, 0.0)
        assert r.status_code == 401, (label, r.status_code)
    # a token in the query string is ignored
    r = post(vault, "tools/list", url=f"{vault.url}?access_token={good}")
    assert r.status_code == 401
    assert all(elapsed < 2.0 for _, elapsed in seen.values()), seen
    # still serving the good caller, and the log never shows a token
    assert post(vault, "tools/list", token=good).status_code == 200
    log = vault.output()
    assert " 500 " not in log and "Traceback" not in log
    for token in [good, *forged_tokens(idp, vault).values()]:
        assert token[:40] not in log or token.startswith("A" * 40)


def test_a_flood_of_unknown_kids_is_rate_limited(
    vault_package: Path, idp: IdentityProvider
) -> None:
    srv = serve_vault(vault_package, env={"MCPGEN_AUTH_ISSUER": idp.issuer})
    srv.start()
    try:
        before = idp.jwks_fetches
        key = idp.served[0]
        for _ in range(60):
            forged = jwt.encode(
                _claims(idp, srv), key.private, algorithm="RS256", headers={"kid": uuid.uuid4().hex}
            )
            assert post(srv, "tools/list", token=forged).status_code == 401
        fetched = idp.jwks_fetches - before
        assert 1 <= fetched <= 6, fetched  # a burst of 5 refetches, then one per 12 s
        good = idp.token(audience=resource(srv), scopes="notes:read")
        assert post(srv, "tools/list", token=good).status_code == 200
    finally:
        srv.stop()


def test_key_rotation(vault_package: Path) -> None:
    with IdentityProvider() as idp:
        srv = serve_vault(vault_package, env={"MCPGEN_AUTH_ISSUER": idp.issuer})
        srv.start()
        try:
            old = idp.served[0]
            assert post(srv, "tools/list", token=idp.token(audience=srv.url)).status_code == 200
            ec_token = idp.token(audience=srv.url, key=idp.served[1])  # the EC key works too
            assert post(srv, "tools/list", token=ec_token).status_code == 200
            new = idp.rotate()
            # a token signed with the new key: its unknown kid makes the server refetch
            assert post(srv, "tools/list", token=idp.token(audience=srv.url)).status_code == 200
            # the removed key signs nothing any more (a token not seen before)
            late = idp.token(audience=srv.url, key=old, jti="late")
            assert post(srv, "tools/list", token=late).status_code == 401
            assert new.kid != old.kid
        finally:
            srv.stop()


def test_jwks_endpoint_down_fails_closed_with_one_log_line(vault_package: Path) -> None:
    with IdentityProvider() as idp:
        idp.down = True
        srv = serve_vault(vault_package, env={"MCPGEN_AUTH_ISSUER": idp.issuer})
        srv.start()
        try:
            for _ in range(5):
                token = idp.token(audience=srv.url, scopes="notes:read", jti=uuid.uuid4().hex)
                r = post(srv, "tools/list", token=token)
                assert r.status_code == 401
            log = srv.output()
            assert log.count("cannot fetch the signing keys") == 1, log
            assert "refusing tokens until it answers" in log
            assert "Traceback" not in log and token[:40] not in log
        finally:
            srv.stop()


def test_introspection_for_opaque_tokens(vault_package: Path) -> None:
    with IdentityProvider() as idp:
        srv = serve_vault(
            vault_package,
            env={
                "MCPGEN_AUTH_INTROSPECTION_URL": idp.issuer + "/introspect",
                "MCPGEN_AUTH_ISSUER": idp.issuer,
                "MCPGEN_AUTH_INTROSPECTION_CLIENT_ID": "vault-rs",
                "MCPGEN_AUTH_INTROSPECTION_CLIENT_SECRET": "rs-secret",
            },
        )
        srv.start()
        try:
            now = int(time.time())
            idp.active_opaque["opaque-good"] = {
                "scope": "notes:read",
                "sub": "carol",
                "client_id": "c1",
                "aud": srv.url,
                "iss": idp.issuer,
                "exp": now + 300,
            }
            idp.active_opaque["opaque-other-aud"] = {
                **idp.active_opaque["opaque-good"],
                "aud": "https://other.example/mcp",
            }
            listed = result(post(srv, "tools/list", token="opaque-good"))
            assert [t["name"] for t in listed["tools"]] == ["whoami", "read_note"]
            assert post(srv, "tools/list", token="opaque-good").status_code == 200
            assert len(idp.introspections) == 1  # cached by digest
            assert post(srv, "tools/list", token="opaque-other-aud").status_code == 401
            assert post(srv, "tools/list", token="opaque-unknown").status_code == 401
            assert idp.introspections[0]["token"] == "opaque-good"
        finally:
            srv.stop()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"MCPGEN_AUTH_ISSUER": "http://idp.example.com"}, "must use https"),
        ({"MCPGEN_AUTH_ISSUER": "not a url"}, "is not an http(s) URL"),
        (
            {"MCPGEN_AUTH_ISSUER": "https://idp.example.com", "MCPGEN_AUTH_TOKENS": "t"},
            "exclude each other",
        ),
    ],
)
def test_bad_auth_settings_refuse_to_start(
    vault_package: Path, env: dict[str, str], message: str
) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "vault", "--http", "--port", "1"],
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(vault_package), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
    # argparse's usage, then one error line
    assert [line for line in proc.stderr.splitlines() if "error:" in line] == [
        proc.stderr.strip().splitlines()[-1]
    ]


def test_expose_token_hands_handlers_the_raw_token(vault_package: Path) -> None:
    with IdentityProvider() as idp:
        srv = serve_vault(
            vault_package, "--auth-expose-token", env={"MCPGEN_AUTH_ISSUER": idp.issuer}
        )
        srv.start()
        try:
            token = idp.token(audience=srv.url, scopes="notes:read")
            res = result(
                post(
                    srv,
                    "tools/call",
                    {"name": "whoami", "arguments": {}},
                    token=token,
                    name="whoami",
                )
            )
            assert json.loads(res["content"][0]["text"])["token"] == token
        finally:
            srv.stop()


def test_runtime_refuses_what_the_front_did_not_gate(
    vault: HttpServer, idp: IdentityProvider
) -> None:
    """completion/complete names its prompt in the body only (no Mcp-Name on 2026-07-28): the
    runtime itself refuses a caller without the prompt's scope (JSON-RPC -32600)."""
    nobody = idp.token(audience=resource(vault), scopes="")
    params = {
        "ref": {"type": "ref/prompt", "name": "summarize"},
        "argument": {"name": "topic", "value": "x"},
    }
    r = post(vault, "completion/complete", params, token=nobody)
    doc = json.loads(r.text) if r.text.startswith("{") else _sse(r.text)
    assert doc["error"]["code"] == -32600, doc
    assert "needs the scope(s) notes:read" in doc["error"]["message"]
    reader = idp.token(audience=resource(vault), scopes="notes:read")
    r = post(vault, "completion/complete", params, token=reader)
    doc = json.loads(r.text) if r.text.startswith("{") else _sse(r.text)
    assert "has no argument 'topic'" in doc["error"]["message"]  # past the scope check
