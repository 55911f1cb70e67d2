"""Over HTTP, a call through ``call_tool`` (discovery mode search) that the caller's token has
no scope for gets the same 403 step-up challenge as a direct call of that tool (issue 52: the
front reads the tool a ``call_tool`` call names, ``ScopePolicy.target``), on both wires and
both engines, with tokens really signed by ``idp``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.auth.conftest import DATA, serve_vault
from tests.auth.idp import IdentityProvider
from tests.auth.test_resource_server import (
    challenge,
    handshake_session,
    post,
    resource,
    result,
)
from tests.interop.procs import HttpServer
from tests.server.helpers import write_package

SEARCH = "server:\n  discovery: {mode: search, listed: {tools: [whoami]}}\n"


@pytest.fixture(scope="module")
def search_vault_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vault-search")
    text = (DATA / "vault.yaml").read_text()
    assert text.startswith("server:\n")
    manifest = out / "vault.yaml"
    manifest.write_text(SEARCH + text[len("server:\n") :])
    write_package(manifest, out, "vault", (DATA / "vault_handlers.py").read_text())
    return out


@pytest.fixture(scope="module", params=["lean", "sdk"])
def search_vault(
    request: pytest.FixtureRequest, search_vault_package: Path, idp: IdentityProvider
) -> Iterator[HttpServer]:
    srv = serve_vault(
        search_vault_package,
        "--engine",
        request.param,
        env={"MCPGEN_AUTH_ISSUER": idp.issuer},
    )
    srv.start()
    yield srv
    srv.stop()


def _via(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"name": "call_tool", "arguments": {"name": tool, "arguments": arguments}}


def test_call_tool_gets_the_direct_calls_step_up_challenge(
    search_vault: HttpServer, idp: IdentityProvider
) -> None:
    srv = search_vault
    reader = idp.token(audience=resource(srv), scopes="notes:read")
    listed = [t["name"] for t in result(post(srv, "tools/list", token=reader))["tools"]]
    assert listed == ["whoami", "search_tools", "get_tool_schemas", "call_tool"]
    args = {"id": "a", "text": "b"}
    direct = post(
        srv,
        "tools/call",
        {"name": "write_note", "arguments": args},
        token=reader,
        name="write_note",
    )
    via = post(srv, "tools/call", _via("write_note", args), token=reader, name="call_tool")
    assert direct.status_code == via.status_code == 403
    assert challenge(via) == challenge(direct)
    assert challenge(via)["error"] == "insufficient_scope"
    assert challenge(via)["scope"] == "notes:read notes:write"  # what it needs plus what it holds
    assert via.json() == direct.json()
    # what the token allows goes through, and the stepped-up token gets past the front
    res = result(
        post(srv, "tools/call", _via("read_note", {"id": "n1"}), token=reader, name="call_tool")
    )
    assert res["content"][0]["text"] == "note n1"
    writer = idp.token(audience=resource(srv), scopes="notes:read notes:write")
    res = result(post(srv, "tools/call", _via("write_note", args), token=writer, name="call_tool"))
    assert res["resultType"] == "input_required"  # the tool's own elicitation: it ran


def test_call_tool_on_the_handshake_wire_is_gated_from_the_body(
    search_vault: HttpServer, idp: IdentityProvider
) -> None:
    srv = search_vault
    reader = idp.token(audience=resource(srv), scopes="notes:read")
    with httpx.Client(timeout=10) as http:
        session = handshake_session(http, srv.url, reader)

        def call(params: dict[str, Any]) -> httpx.Response:
            body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}
            return http.post(srv.url, json=body, headers=session)

        direct = call({"name": "write_note", "arguments": {"id": "a", "text": "b"}})
        via = call(_via("write_note", {"id": "a", "text": "b"}))
        assert direct.status_code == via.status_code == 403
        assert challenge(via) == challenge(direct)
        r = call(_via("read_note", {"id": "n1"}))
        assert r.status_code == 200 and "note n1" in r.text
        # a call_tool call naming no tool, or not a string, is the meta-tool's own error
        r = call({"name": "call_tool", "arguments": {"name": 7}})
        assert r.status_code == 200
        text = r.text if r.text.startswith("{") else r.text.split("data:", 1)[1]
        assert json.loads(text)["result"]["isError"] is True
