"""Clients of a protected generated server: the runtime's ``ToolClient`` signing in with
``mcpgen_runtime.oauth`` (the official SDK's OAuth provider: discovery from the 401 and the
protected-resource metadata, dynamic registration, authorization code + PKCE through the
loopback redirect, RFC 9207 ``iss``, step-up on 403, refresh; client credentials), tokens
kept in a 0600 file; a fixed token; and the official Python client with a bearer header."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp.shared.auth import OAuthToken

from mcpgen_runtime import AuthorizationError, FileTokenStorage, LoopbackRedirect, ToolClient, oauth
from tests.auth.conftest import DATA
from tests.auth.idp import IdentityProvider
from tests.interop.procs import HttpServer


def browser(url: str) -> None:
    """A headless browser: follow the authorization server's redirect to the loopback
    listener (in a thread, as a real browser would be another process)."""

    def visit() -> None:
        r = httpx.get(url, follow_redirects=False, timeout=10)
        assert r.status_code == 302, r.text
        httpx.get(r.headers["location"], timeout=10)

    threading.Thread(target=visit, daemon=True).start()


class Confirm:
    """Elicitation answer for write_note (accept)."""

    async def __call__(self, context: Any, params: Any) -> Any:
        from mcp_types import ElicitResult

        return ElicitResult(action="accept", content={"ok": True})


@pytest.fixture(scope="module")
def vault_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The typed client generated from the same manifest (``mcpgen client``)."""
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("vault_client")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mcpgen",
            "client",
            str(DATA / "vault.yaml"),
            "--out",
            str(out),
            "--package",
            "vault_client",
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    sys.path.insert(0, str(out))
    try:
        import vault_client

        return vault_client.VaultClient
    finally:
        sys.path.remove(str(out))


def test_sign_in_with_authorization_code_step_up_and_refresh(
    vault: HttpServer, idp: IdentityProvider, vault_client: Any, tmp_path: Path
) -> None:
    store = FileTokenStorage(vault.url, tmp_path / "tokens")
    idp.grantable = {"notes:read"}  # the user first consents to reading only
    redirect = LoopbackRedirect(open_browser=False, announce=browser)

    async def main() -> tuple[list[str], str, str]:
        auth = oauth(vault.url, storage=store, redirect=redirect)
        async with vault_client.http(
            vault.url, auth=auth, mode="2026-07-28", elicitation_callback=Confirm()
        ) as client:
            listed = [t["name"] for t in await client.list_live_tools()]
            read = await client.read_note(id="n1")
            idp.grantable = None  # the user now consents to writing
            # write_note needs notes:write: 403 insufficient_scope -> the SDK signs in again
            # with the union of scopes, then the call goes through
            wrote = await client.write_note(id="n2", text="t")
        return listed, read.text, wrote.text

    try:
        listed, read, wrote = anyio.run(main)
    finally:
        redirect.close()
    assert listed == ["whoami", "read_note"]  # what the first token's scope allows
    assert read == "note n1" and wrote == "wrote n2"
    codes = [g for g in idp.grants if g["grant"] == "authorization_code"]
    assert [g["scope"] for g in codes] == ["notes:read", "notes:read notes:write"]
    assert all(g["resource"] == vault.url for g in codes)  # RFC 8707 resource indicator
    # dynamic registration (the IdP advertises no client ID metadata documents)
    assert any(c["client_id"].startswith("dyn-") for c in idp.clients.values())
    # the authorization requests carried PKCE S256 and the resource
    assert all(a["code_challenge_method"] == "S256" for a in idp.authorizations)
    # tokens on disk, 0600
    mode = stat.S_IMODE(os.stat(store.path).st_mode)
    assert mode == 0o600, oct(mode)
    saved = anyio.run(store.get_tokens)
    assert isinstance(saved, OAuthToken) and saved.scope == "notes:read notes:write"


def test_client_credentials(
    vault: HttpServer, idp: IdentityProvider, vault_client: Any, tmp_path: Path
) -> None:
    idp.add_client("svc-reporter", "svc-secret", subject="reporter-bot")

    async def main() -> str:
        auth = oauth(
            vault.url,
            client_id="svc-reporter",
            client_secret="svc-secret",
            scopes=["notes:read"],
            issuer=idp.issuer,
            storage=FileTokenStorage(vault.url, tmp_path),
        )
        async with vault_client.http(vault.url, auth=auth) as client:
            return (await client.whoami()).text

    who = anyio.run(main)
    assert '"subject": "reporter-bot"' in who and '"client_id": "svc-reporter"' in who
    assert idp.grants[-1]["grant"] == "client_credentials"


def test_fixed_token_and_no_token(
    vault: HttpServer, idp: IdentityProvider, vault_client: Any
) -> None:
    token = idp.token(audience=vault.url, scopes="notes:read")

    async def with_token() -> str:
        async with vault_client.http(vault.url, token=token) as client:
            return (await client.read_note(id="x")).text

    assert anyio.run(with_token) == "note x"

    async def without() -> None:
        async with ToolClient.http(vault.url, connect_timeout=10) as client:
            await client.list_tools()

    with pytest.raises(AuthorizationError) as err:
        anyio.run(without)
    assert err.value.status == 401 and err.value.error == "invalid_token"
    assert "requires authorization (HTTP 401)" in str(err.value)
    assert err.value.resource_metadata == vault.url.replace(
        "/mcp", "/.well-known/oauth-protected-resource/mcp"
    )

    # a token without notes:write: the call is refused with the scope it needs
    async def forbidden() -> None:
        async with vault_client.http(vault.url, token=token) as client:
            await client.write_note(id="a", text="b")

    with pytest.raises(AuthorizationError) as err:
        anyio.run(forbidden)
    assert err.value.status == 403 and err.value.tool == "write_note"
    assert err.value.scope == "notes:read notes:write"
    assert "forbidden (needs scope notes:read notes:write)" in str(err.value)


def test_official_python_client(vault: HttpServer, idp: IdentityProvider) -> None:
    """``mcp.Client`` over the SDK's transport with a bearer header: right token, a token that
    lacks a tool's scope (the 403 surfaces as an error), and none (401)."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def run(token: str | None, tool: str) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with create_mcp_http_client(headers=headers) as http:
            async with Client(streamable_http_client(vault.url, http_client=http)) as client:
                tools = await client.list_tools()
                result = await client.call_tool(tool, {"id": "a", "text": "b"})
                return [t.name for t in tools.tools], result

    reader = idp.token(audience=vault.url, scopes="notes:read")
    names, result = anyio.run(run, reader, "read_note")
    assert names == ["whoami", "read_note"] and result.content[0].text == "note a"
    # the SDK client reports an HTTP error status as JSON-RPC -32603 "error response"
    with pytest.raises(BaseException, match="unhandled errors") as err:
        anyio.run(run, reader, "write_note")
    assert "Server returned an error response" in repr(err.value)
    with pytest.raises(BaseException) as err:
        anyio.run(run, None, "read_note")
    assert "Server returned an error response" in repr(err.value)
    writer = idp.token(audience=vault.url, scopes="notes:read notes:write")
    names, result = anyio.run(run, writer, "whoami")
    assert names == ["whoami", "read_note", "write_note"]


def _mcpgen(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG")}
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *args],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_pull_and_drift_reach_a_protected_server(
    vault: HttpServer, idp: IdentityProvider, tmp_path: Path
) -> None:
    home = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    out = tmp_path / "pulled.yaml"
    # no credentials: one line that says what to do
    proc = _mcpgen("pull", "--url", vault.url, "-o", str(out), env=home)
    assert proc.returncode == 2, proc.stderr
    assert "requires authorization (HTTP 401); set $MCPGEN_TOKEN" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not out.exists()
    # a token from the environment (CI)
    token = idp.token(audience=vault.url, scopes="notes:read notes:write")
    proc = _mcpgen("pull", "--url", vault.url, "-o", str(out), env={**home, "MCPGEN_TOKEN": token})
    assert proc.returncode == 0, proc.stderr
    assert "wrote" in proc.stderr and "write_note" in out.read_text()
    assert token not in proc.stderr + proc.stdout
    # client credentials (the secret from the environment), drift against the manifest
    idp.add_client("ci-bot", "ci-secret", subject="ci")
    proc = _mcpgen(
        "drift",
        str(DATA / "vault.yaml"),
        "--url",
        vault.url,
        "--client-id",
        "ci-bot",
        "--issuer",
        idp.issuer,
        env={**home, "MCPGEN_CLIENT_SECRET": "ci-secret"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "compatibly" in proc.stderr
    # a client the authorization server grants less: the live list lacks write_note
    idp.add_client("ci-reader", "r-secret", subject="ci", allowed_scopes=["notes:read"])
    proc = _mcpgen(
        "drift",
        str(DATA / "vault.yaml"),
        "--url",
        vault.url,
        "--client-id",
        "ci-reader",
        "--issuer",
        idp.issuer,
        env={**home, "MCPGEN_CLIENT_SECRET": "r-secret"},
    )
    assert proc.returncode == 1 and "TOOL_NO_DELETE" in proc.stdout, proc.stdout + proc.stderr
    # --client-id without a secret is a usage error, in one line
    proc = _mcpgen(
        "drift", str(DATA / "vault.yaml"), "--url", vault.url, "--client-id", "x", env=home
    )
    assert proc.returncode == 2 and "MCPGEN_CLIENT_SECRET" in proc.stderr


def test_pull_signs_in_through_the_browser(
    vault: HttpServer, idp: IdentityProvider, tmp_path: Path
) -> None:
    """``--oauth``: Python's webbrowser runs $BROWSER with the authorization URL; here that
    is a headless browser script following the redirect to mcpgen's loopback listener. The
    second pull reuses the stored token (no new authorization)."""
    browser_script = tmp_path / "browser.py"
    browser_script.write_text(
        "import sys, httpx\n"
        "r = httpx.get(sys.argv[1], follow_redirects=False)\n"
        "httpx.get(r.headers['location'])\n"
    )
    env = {
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "BROWSER": f"{sys.executable} {browser_script} %s",
    }
    before = len(idp.authorizations)
    out = tmp_path / "pulled.yaml"
    proc = _mcpgen("pull", "--url", vault.url, "--oauth", "-o", str(out), env=env)
    assert proc.returncode == 0, proc.stderr
    assert "mcpgen: sign in at http://127.0.0.1:" in proc.stderr
    assert len(idp.authorizations) == before + 1
    stored = list((tmp_path / "data" / "mcpgen" / "oauth").glob("*.json"))
    assert len(stored) == 1 and stat.S_IMODE(os.stat(stored[0]).st_mode) == 0o600
    proc = _mcpgen("pull", "--url", vault.url, "--oauth", "-o", str(out), env=env)
    assert proc.returncode == 0, proc.stderr
    assert len(idp.authorizations) == before + 1  # the stored token was used


def _ts_client(url: str, calls: list[dict[str, Any]], *headers: str) -> tuple[int, str, str]:
    from tests.interop.procs import JS_DIR, NodeToolchain, ensure_js_peers

    tc = NodeToolchain.from_wheel()
    ensure_js_peers(tc, JS_DIR)
    cmd = [
        str(tc.node),
        str(JS_DIR / "ts_client.mjs"),
        "--mode",
        "2026-07-28",
        "--calls",
        json.dumps(calls),
    ]
    for h in headers:
        cmd += ["--header", h]
    proc = subprocess.run(
        [*cmd, url], capture_output=True, text=True, env=tc.env, timeout=120, cwd=JS_DIR
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.interop
def test_typescript_sdk_client(vault: HttpServer, idp: IdentityProvider) -> None:
    """The official TypeScript SDK client (@modelcontextprotocol/client): a right token, a
    token that lacks a tool's scope (the call fails with the 403), and none (401)."""
    reader = idp.token(audience=vault.url, scopes="notes:read")
    calls = [
        {"name": "read_note", "arguments": {"id": "ts"}},
        {"name": "write_note", "arguments": {"id": "ts", "text": "t"}},
    ]
    rc, out, err = _ts_client(vault.url, calls, f"Authorization: Bearer {reader}")
    assert rc == 0, err
    doc = json.loads(out)
    assert [t["name"] for t in doc["tools"]] == ["whoami", "read_note"]
    read, write = doc["calls"]
    assert read["result"]["content"][0]["text"] == "note ts"
    # the SDK read the 403 challenge: the scopes to step up to
    assert write["error"]["name"] == "InsufficientScopeError", write
    assert 'required "notes:read notes:write"' in write["error"]["message"]
    writer = idp.token(audience=vault.url, scopes="notes:read notes:write")
    rc, out, err = _ts_client(vault.url, calls[:1], f"Authorization: Bearer {writer}")
    assert rc == 0 and len(json.loads(out)["tools"]) == 3, err
    rc, out, err = _ts_client(vault.url, calls[:1])
    assert rc == 1 and ("401" in err or "Unauthorized" in err), err


def test_refresh_token_before_a_new_sign_in(
    vault: HttpServer, idp: IdentityProvider, vault_client: Any, tmp_path: Path
) -> None:
    """An access token that expires mid-session is refreshed (refresh_token grant), without
    asking the user to authorize again."""
    store = FileTokenStorage(vault.url, tmp_path)
    redirect = LoopbackRedirect(open_browser=False, announce=browser)
    authorizations = len(idp.authorizations)
    idp.lifetime = 2

    async def main() -> str:
        auth = oauth(vault.url, storage=store, redirect=redirect)
        async with vault_client.http(vault.url, auth=auth) as client:
            await client.read_note(id="1")
            await anyio.sleep(3)  # the access token has expired (the server allows no leeway)
            return str((await client.read_note(id="2")).text)

    try:
        assert anyio.run(main) == "note 2"
    finally:
        idp.lifetime = 300
        redirect.close()
    assert len(idp.authorizations) == authorizations + 1  # one sign-in only
    assert [g["grant"] for g in idp.grants[-2:]] == ["authorization_code", "refresh_token"]
