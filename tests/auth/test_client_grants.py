"""The grants of ``mcpgen_runtime.oauth`` for services, against the test identity provider
(real signed JWTs, real HTTP): workload identity federation (SEP-1933: the jwt-bearer grant
with a token from a file or a variable) and enterprise-managed authorization (SEP-990: an
ID-JAG from the enterprise identity provider by token exchange, then jwt-bearer at the MCP
server's authorization server). A credential that cannot be used is one ``CredentialError``
that names where it comes from; an ID-JAG for another audience is never sent on."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from mcpgen_runtime import ClientError, CredentialError, EnterpriseIdP, ToolClient, oauth
from mcpgen_runtime.client.grants import check_id_jag
from mcpgen_runtime.client.oauth import MemoryTokenStorage
from tests.auth.idp import ID_JAG, ID_TOKEN, JWT_BEARER, TOKEN_EXCHANGE, IdentityProvider
from tests.auth.resource import ProtectedResource
from tests.interop.procs import HttpServer


def call(auth: httpx2.Auth, url: str) -> int:
    async def go() -> int:
        async with httpx2.AsyncClient(auth=auth, timeout=30) as http:
            return (await http.post(url, json={})).status_code

    return anyio.run(go)


# -- workload identity federation ------------------------------------------------------------


class Platform:
    """The workload's platform: a key the authorization server trusts, and its tokens."""

    def __init__(self, idp: IdentityProvider) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        idp.workload_keys.append(self.key.public_key())
        self.idp = idp

    def token(self, audience: str | None = None, lifetime: int = 300) -> str:
        now = int(time.time())
        claims = {
            "iss": "https://kubernetes.default.svc",
            "sub": "system:serviceaccount:prod:notes-bot",
            "aud": audience or self.idp.issuer,
            "iat": now,
            "exp": now + lifetime,
        }
        return jwt.encode(claims, self.key, algorithm="ES256")


@pytest.fixture()
def world() -> Iterator[tuple[IdentityProvider, ProtectedResource, Platform]]:
    with IdentityProvider() as idp, ProtectedResource(idp) as rs:
        yield idp, rs, Platform(idp)


def test_workload_token_from_a_file(
    world: tuple[IdentityProvider, ProtectedResource, Platform], tmp_path: Path
) -> None:
    idp, rs, platform = world
    token_file = tmp_path / "token"
    token = platform.token()
    token_file.write_text(token + "\n")
    auth = oauth(rs.url, workload_token_file=token_file, storage=MemoryTokenStorage())
    assert call(auth, rs.url) == 200
    [request] = idp.token_requests
    assert request["grant_type"] == JWT_BEARER and request["assertion"] == token
    assert request["resource"] == rs.url
    presented = rs.requests[-1]["headers"]["Authorization"].removeprefix("Bearer ")
    sub = idp.verify(presented, audience=rs.url)["sub"]
    assert sub == "system:serviceaccount:prod:notes-bot"


def test_workload_token_from_the_environment_with_dpop(
    world: tuple[IdentityProvider, ProtectedResource, Platform], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The variable is read at the token request; a server that challenges with DPoP gets a
    token bound to the client's key (the grants and DPoP compose)."""
    idp, rs, platform = world
    rs.scheme = "DPoP"
    monkeypatch.setenv("WORKLOAD_TOKEN", platform.token())
    auth = oauth(rs.url, workload_token_env="WORKLOAD_TOKEN", storage=MemoryTokenStorage())
    assert call(auth, rs.url) == 200
    assert idp.token_requests[-1]["grant_type"] == JWT_BEARER
    assert [p["error"] for p in idp.dpop_proofs] == [None]
    assert rs.requests[-1]["headers"]["Authorization"].startswith("DPoP ")
    assert rs.requests[-1]["verdict"] is None


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda d: d / "missing", "does not exist"),
        (lambda d: d, "not a regular file"),
        (lambda d: _fifo(d / "fifo"), "not a regular file"),
        (lambda d: (d / "empty").write_text("  \n") and d / "empty", "is empty"),
        (lambda d: (d / "f").write_text("x") and d / "f" / "below", "cannot be read"),
    ],
    ids=["missing", "directory", "fifo", "empty", "not-a-directory"],
)
def test_unusable_workload_token_file_is_one_clear_error(
    make: Any, says: str, tmp_path: Path
) -> None:
    path = make(tmp_path)
    with pytest.raises(CredentialError) as caught:
        oauth("http://127.0.0.1:1/mcp", workload_token_file=path, storage=MemoryTokenStorage())
    assert str(path) in str(caught.value) and says in str(caught.value)
    assert isinstance(caught.value, ClientError)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_workload_token_file(tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_text("secret")
    path.chmod(0)
    with pytest.raises(CredentialError, match="cannot be read"):
        oauth("http://127.0.0.1:1/mcp", workload_token_file=path, storage=MemoryTokenStorage())


def test_unset_workload_token_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_SUCH_TOKEN", raising=False)
    with pytest.raises(CredentialError, match=r"\$NO_SUCH_TOKEN is not set"):
        oauth("http://127.0.0.1:1/mcp", workload_token_env="NO_SUCH_TOKEN")


def test_token_file_gone_at_connect_is_the_clients_error(
    vault: HttpServer, idp: IdentityProvider, tmp_path: Path
) -> None:
    """Through ``ToolClient.http``: the file went away after ``oauth(...)``; connecting
    raises that ``CredentialError`` (not the server's 401 it led to)."""
    platform = Platform(idp)
    token_file = tmp_path / "token"
    token_file.write_text(platform.token())
    auth = oauth(vault.url, workload_token_file=token_file, storage=MemoryTokenStorage())
    token_file.unlink()

    async def connect() -> None:
        async with ToolClient.http(vault.url, auth=auth):
            pass

    with pytest.raises(CredentialError, match=f"{token_file} does not exist"):
        anyio.run(connect)


@pytest.mark.parametrize("why", ["audience", "expired"])
def test_workload_token_is_only_sent_to_its_audience(
    world: tuple[IdentityProvider, ProtectedResource, Platform], tmp_path: Path, why: str
) -> None:
    idp, rs, platform = world
    token_file = tmp_path / "token"
    if why == "audience":
        token_file.write_text(platform.token(audience="https://other-as.example"))
    else:
        token_file.write_text(platform.token(lifetime=-120))
    auth = oauth(rs.url, workload_token_file=token_file, storage=MemoryTokenStorage())
    with pytest.raises(CredentialError) as caught:
        call(auth, rs.url)
    said = str(caught.value)
    assert str(token_file) in said
    assert ("https://other-as.example" in said) if why == "audience" else ("expired" in said)
    assert idp.token_requests == []  # nothing reached the authorization server


# -- enterprise-managed authorization ------------------------------------------------------


@pytest.fixture()
def enterprise() -> Iterator[tuple[IdentityProvider, IdentityProvider, ProtectedResource]]:
    """The enterprise identity provider, the MCP server's authorization server (trusting its
    ID-JAGs, with the client ``mcp-client``) and the MCP server's place."""
    with IdentityProvider() as corp, IdentityProvider() as auth_server:
        auth_server.trusted_idps.append(corp)
        auth_server.add_client("mcp-client", "mcp-secret")
        with ProtectedResource(auth_server) as rs:
            yield corp, auth_server, rs


def enterprise_auth(
    rs: ProtectedResource, auth_server: IdentityProvider, idp: EnterpriseIdP
) -> httpx2.Auth:
    return oauth(
        rs.url,
        client_id="mcp-client",
        client_secret="mcp-secret",
        issuer=auth_server.issuer,
        idp=idp,
        storage=MemoryTokenStorage(),
    )


def test_id_jag_exchanged_then_presented(
    enterprise: tuple[IdentityProvider, IdentityProvider, ProtectedResource], tmp_path: Path
) -> None:
    corp, auth_server, rs = enterprise
    id_token = tmp_path / "id_token"
    id_token.write_text(corp.token(audience="enterprise-client", subject="alice@corp"))
    idp = EnterpriseIdP(issuer=corp.issuer, client_id="enterprise-client", id_token_file=id_token)
    assert call(enterprise_auth(rs, auth_server, idp), rs.url) == 200
    [exchange] = corp.exchanges
    assert exchange["grant_type"] == TOKEN_EXCHANGE
    assert exchange["requested_token_type"] == ID_JAG
    assert exchange["subject_token_type"] == ID_TOKEN
    assert exchange["audience"] == auth_server.issuer and exchange["resource"] == rs.url
    [grant] = auth_server.token_requests
    assert grant["grant_type"] == JWT_BEARER
    assert jwt.get_unverified_header(grant["assertion"])["typ"] == "oauth-id-jag+jwt"
    presented = rs.requests[-1]["headers"]["Authorization"].removeprefix("Bearer ")
    assert auth_server.verify(presented, audience=rs.url)["sub"] == "alice@corp"


def test_id_jag_for_another_audience_is_refused(
    enterprise: tuple[IdentityProvider, IdentityProvider, ProtectedResource],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    corp, auth_server, rs = enterprise
    corp.id_jag_audience = "https://attacker-as.example"
    monkeypatch.setenv("CORP_ID_TOKEN", corp.token(audience="enterprise-client"))
    idp = EnterpriseIdP(
        token_endpoint=corp.issuer + "/token",
        client_id="enterprise-client",
        id_token_env="CORP_ID_TOKEN",
    )
    with pytest.raises(CredentialError, match="https://attacker-as.example") as caught:
        call(enterprise_auth(rs, auth_server, idp), rs.url)
    assert auth_server.issuer in str(caught.value)
    assert len(corp.exchanges) == 1
    assert auth_server.token_requests == []  # never sent on


def test_enterprise_settings_are_checked_at_once(tmp_path: Path) -> None:
    idp = EnterpriseIdP(token_endpoint="http://127.0.0.1:1/token", id_token_file=tmp_path / "x")
    with pytest.raises(CredentialError, match="ID token: file .* does not exist"):
        oauth(
            "http://127.0.0.1:1/mcp", client_id="c", client_secret="s", issuer="http://a", idp=idp
        )
    with pytest.raises(ValueError, match="client_secret"):
        oauth("http://127.0.0.1:1/mcp", client_id="c", issuer="http://a", idp=idp)


def _jag(**over: Any) -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    now = int(time.time())
    claims = {"aud": "https://as.example", "resource": "https://mcp.example/mcp"}
    claims |= {"client_id": "mcp-client", "sub": "alice", "iat": now, "exp": now + 300}
    headers = {"typ": over.pop("typ", "oauth-id-jag+jwt")}
    claims |= over
    return jwt.encode(claims, key, algorithm="ES256", headers=headers)


@pytest.mark.parametrize(
    ("over", "says"),
    [
        ({"aud": "https://evil.example"}, "https://evil.example"),
        ({"aud": ["https://x.example", "https://y.example"]}, "https://x.example"),
        ({"typ": "JWT"}, "typ"),
        ({"resource": "https://other.example/mcp"}, "resource"),
        ({"client_id": "someone-else"}, "client"),
        ({"exp": int(time.time()) - 600}, "expired"),
    ],
    ids=["audience", "audiences", "typ", "resource", "client", "expired"],
)
def test_check_id_jag_refuses(over: dict[str, Any], says: str) -> None:
    with pytest.raises(CredentialError, match=says):
        check_id_jag(
            _jag(**over),
            audience="https://as.example",
            resource="https://mcp.example/mcp",
            client_id="mcp-client",
        )


def test_check_id_jag_accepts_its_own() -> None:
    check_id_jag(
        _jag(aud=["https://as.example/"]),
        audience="https://as.example",
        resource="https://mcp.example/mcp/",
        client_id="mcp-client",
    )


# -- mcpgen pull / drift ------------------------------------------------------------------


def test_pull_and_drift_with_a_workload_token(
    vault: HttpServer, idp: IdentityProvider, tmp_path: Path
) -> None:
    from tests.auth.test_clients import _mcpgen

    home = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    token_file = tmp_path / "token"
    token_file.write_text(Platform(idp).token())
    out = tmp_path / "pulled.yaml"
    sign_in = ["--url", vault.url, "--workload-token-file", str(token_file)]
    proc = _mcpgen("pull", *sign_in, "-o", str(out), env=home)
    assert proc.returncode == 0, proc.stderr
    assert "whoami" in out.read_text()
    assert idp.token_requests[-1]["grant_type"] == JWT_BEARER
    # the server's challenge names DPoP too: by default the token is bound
    assert idp.dpop_proofs and idp.dpop_proofs[-1]["error"] is None
    proofs = len(idp.dpop_proofs)
    fresh = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data2")}  # no token yet
    proc = _mcpgen("drift", str(out), *sign_in, "--dpop", env=fresh)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [p["error"] for p in idp.dpop_proofs[proofs:]] == [None]  # a bound token
    # the token file gone: one line that names it, exit 2, no traceback
    token_file.unlink()
    proc = _mcpgen("pull", *sign_in, "-o", str(out), env=home)
    assert proc.returncode == 2
    assert f"{token_file} does not exist" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    proc = _mcpgen("pull", *sign_in[:2], "--idp", idp.issuer, "-o", str(out), env=home)
    assert proc.returncode == 2 and "--id-token-file" in proc.stderr
