"""The HTTP side of the runtime, against real server processes: ``--workers N`` with an
``InputRequiredResult`` answered on another worker, bearer-token auth, ``Mcp-Param-*`` header
checks (400 + -32020), and the limits (timeout, rate limit, argument size) from the manifest
and from start-up options. Peers are raw HTTP JSON-RPC (``tests.interop.wire.HttpPeer``)."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.interop.procs import HttpServer, free_port
from tests.interop.wire import HttpPeer, modern_meta
from tests.server.helpers import write_package

MANIFEST = {
    "server": {"name": "limits-demo", "version": "1.0.0", "limits": {"maxArgumentBytes": 4096}},
    "tools": [
        {
            "name": "ask",
            "description": "Asks the user's name; reports which process asked and answered.",
            "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
        },
        {
            "name": "sleepy",
            "description": "Sleeps.",
            "inputSchema": {
                "type": "object",
                "properties": {"seconds": {"type": "number"}},
                "required": ["seconds"],
            },
            "x-mcpgen": {"limits": {"timeoutSeconds": 0.5}},
        },
        {
            "name": "limited",
            "description": "Two calls, then one per 100 s.",
            "inputSchema": {"type": "object", "properties": {}},
            "x-mcpgen": {"limits": {"rateLimit": {"perSecond": 0.01, "burst": 2}}},
        },
        {
            "name": "echo",
            "description": "Echoes text; the region is mirrored in a header.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "region": {"type": "string", "x-mcp-header": "Region"},
                },
                "required": ["text"],
            },
        },
    ],
}

HANDLERS = textwrap.dedent(
    """
    from __future__ import annotations

    import os

    import anyio
    from mcpgen_runtime import ToolContext
    from pydantic import BaseModel

    from ._generated import LimitsDemoToolsBase
    from ._generated.models import AskInput, EchoInput, LimitedInput, SleepyInput


    class Name(BaseModel):
        name: str


    class Handlers(LimitsDemoToolsBase):
        async def ask(self, args: AskInput, ctx: ToolContext) -> str:
            await ctx.progress(0, 1, f"pid={os.getpid()}")
            answer = await ctx.elicit(Name, "Your name?", key="name")
            return f"answered-by={os.getpid()} name={answer.data.name if answer.data else '-'}"

        async def sleepy(self, args: SleepyInput, ctx: ToolContext) -> str:
            await anyio.sleep(args.seconds)
            return "awake"

        async def limited(self, args: LimitedInput, ctx: ToolContext) -> str:
            return "ok"

        async def echo(self, args: EchoInput, ctx: ToolContext) -> str:
            return f"{args.text}@{args.region}"
    """
)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("limits")
    manifest = out / "tools.json"
    manifest.write_text(json.dumps(MANIFEST))
    write_package(manifest, out, "limits_demo", HANDLERS)
    return out


def _serve(package: Path, *args: str, env: dict[str, str] | None = None) -> HttpServer:
    port = free_port()
    full_env = {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")},
        "PYTHONPATH": str(package),
        **(env or {}),
    }
    srv = HttpServer(
        cmd=[sys.executable, "-m", "limits_demo", "--http", "--port", str(port), *args],
        env=full_env,
        port=port,
    )
    return srv


@pytest.fixture(scope="module")
def server(package: Path) -> Iterator[HttpServer]:
    srv = _serve(package, "--max-argument-bytes", "300")
    srv.start()
    yield srv
    srv.stop()


def _call(url: str, name: str, args: dict[str, Any], **extra: Any) -> dict[str, Any]:
    peer = HttpPeer(url, modern=True)
    try:
        params = {"name": name, "arguments": args, "_meta": modern_meta(), **extra}
        return peer.request("tools/call", params)
    finally:
        peer.close()


ELICIT_CAPS = {
    **modern_meta(),
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    "progressToken": "p",
}


def _ask_round(url: str, **extra: Any) -> tuple[dict[str, Any], list[Any]]:
    peer = HttpPeer(url, modern=True)  # a new connection each time
    try:
        resp = peer.request(
            "tools/call", {"name": "ask", "arguments": {}, "_meta": dict(ELICIT_CAPS), **extra}
        )
        return resp, peer.received
    finally:
        peer.close()


def test_input_required_retry_on_another_worker(package: Path) -> None:
    srv = _serve(package, "--workers", "2")
    srv.start()
    try:
        askers: dict[int, str] = {}
        answered_elsewhere = None
        for _ in range(200):
            resp, frames = _ask_round(srv.url)
            assert resp["result"]["resultType"] == "input_required", resp
            pid = next(
                int(f["params"]["message"].split("=")[1])
                for f in frames
                if f.get("method") == "notifications/progress"
            )
            askers[pid] = resp["result"]["requestState"]
            done, _ = _ask_round(
                srv.url,
                requestState=resp["result"]["requestState"],
                inputResponses={"name": {"action": "accept", "content": {"name": "Ada"}}},
            )
            text = done["result"]["content"][0]["text"]
            assert text.endswith("name=Ada"), done
            answered_by = int(text.split()[0].split("=")[1])
            if answered_by != pid:
                answered_elsewhere = (pid, answered_by)
                break
        assert answered_elsewhere is not None, f"every retry landed on its asker: {askers.keys()}"
        assert len(set(answered_elsewhere)) == 2
    finally:
        srv.stop()


def test_bearer_token_required(package: Path) -> None:
    srv = _serve(package, env={"MCPGEN_AUTH_TOKENS": "s3cret-token,second-token"})
    srv.start()
    try:
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/list",
            "params": {"_meta": modern_meta()},
        }
        base = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": "tools/list",
        }
        r = httpx.post(srv.url, json=body, headers=base)
        assert r.status_code == 401
        assert "Bearer" in r.headers.get("www-authenticate", "")
        r = httpx.post(srv.url, json=body, headers={**base, "Authorization": "Bearer wrong"})
        assert r.status_code == 401
        for token in ("s3cret-token", "second-token"):
            r = httpx.post(srv.url, json=body, headers={**base, "Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text
            assert "echo" in r.text

        # requestState is bound to the caller: a state issued to one token is refused for another
        def ask(token: str, **extra: Any) -> dict[str, Any]:
            peer = HttpPeer(srv.url, modern=True)
            try:
                params = {"name": "ask", "arguments": {}, "_meta": dict(ELICIT_CAPS), **extra}
                return peer.request(
                    "tools/call", params, headers={"Authorization": f"Bearer {token}"}
                )
            finally:
                peer.close()

        first = ask("s3cret-token")["result"]
        answer = {"name": {"action": "accept", "content": {"name": "Ada"}}}
        stolen = ask("second-token", requestState=first["requestState"], inputResponses=answer)
        assert stolen["result"]["isError"] is True
        assert "another caller" in stolen["result"]["content"][0]["text"]
        own = ask("s3cret-token", requestState=first["requestState"], inputResponses=answer)
        assert own["result"]["content"][0]["text"].endswith("name=Ada")
    finally:
        srv.stop()


def test_mcp_param_header_mismatch_is_400_32020(server: HttpServer) -> None:
    peer = HttpPeer(server.url, modern=True)
    try:
        params = {
            "name": "echo",
            "arguments": {"text": "hi", "region": "eu"},
            "_meta": modern_meta(),
        }
        ok = peer.request("tools/call", params, headers={"Mcp-Param-Region": "eu"})
        assert ok["result"]["content"][0]["text"] == "hi@eu"
        bad = peer.request("tools/call", params, headers={"Mcp-Param-Region": "us"})
        assert bad["error"]["code"] == -32020
        assert peer.status[max(peer.status)] == 400
        missing = peer.request("tools/call", params)
        assert missing["error"]["code"] == -32020
        assert peer.status[max(peer.status)] == 400
        b64 = peer.request(
            "tools/call",
            {**params, "arguments": {"text": "hi", "region": "é"}},
            headers={"Mcp-Param-Region": "=?base64?w6k=?="},
        )
        assert b64["result"]["content"][0]["text"] == "hi@é"
    finally:
        peer.close()


def test_mcp_param_header_of_an_undeclared_argument_is_ignored(server: HttpServer) -> None:
    """The runtime hands the SDK only schemas that declare x-mcp-header (the check of the others
    finds nothing to compare): a stray Mcp-Param-* header on such a tool changes nothing."""
    peer = HttpPeer(server.url, modern=True)
    try:
        params = {"name": "sleepy", "arguments": {"seconds": 0}, "_meta": modern_meta()}
        res = peer.request("tools/call", params, headers={"Mcp-Param-Seconds": "9"})
        assert res["result"]["content"][0]["text"] == "awake"
        assert peer.status[max(peer.status)] == 200
    finally:
        peer.close()


def test_timeout_from_manifest(server: HttpServer) -> None:
    resp = _call(server.url, "sleepy", {"seconds": 30})
    assert resp["result"]["isError"] is True
    assert "time limit of 0.5 s" in resp["result"]["content"][0]["text"]
    assert _call(server.url, "sleepy", {"seconds": 0})["result"]["content"][0]["text"] == "awake"


def test_rate_limit_says_when_to_retry(server: HttpServer) -> None:
    results = [_call(server.url, "limited", {})["result"] for _ in range(5)]
    assert [r.get("isError", False) for r in results] == [False, False, True, True, True]
    refused = results[2]
    assert "rate limited" in refused["content"][0]["text"]
    assert "retry after" in refused["content"][0]["text"]
    assert refused["_meta"]["io.mcpgen/retryAfterSeconds"] > 0
    # other tools keep serving
    assert _call(server.url, "echo", {"text": "x"})["result"]["content"][0]["text"] == "x@None"


def test_argument_size_limit_from_start_up(server: HttpServer) -> None:
    # the manifest says 4096 bytes; --max-argument-bytes 300 at start-up wins
    resp = _call(server.url, "echo", {"text": "x" * 1000})
    assert resp["result"]["isError"] is True
    assert "the limit is 300 bytes" in resp["result"]["content"][0]["text"]
    assert _call(server.url, "echo", {"text": "y" * 100})["result"]["content"][0][
        "text"
    ].startswith("y")


def test_legacy_stateless_http_cannot_ask(package: Path) -> None:
    """Handshake revision over stateless HTTP: no channel for server-to-client requests, so
    ``ctx.elicit`` gives a tool error that says why, instead of hanging or a protocol error."""
    srv = _serve(package, "--stateless")
    srv.start()
    try:
        peer = HttpPeer(srv.url, modern=False)
        try:
            init = peer.request(
                "initialize",
                {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"elicitation": {}},
                    "clientInfo": {"name": "t", "version": "0"},
                },
            )
            assert init["result"]["protocolVersion"] == "2025-11-25"
            peer.notify("notifications/initialized")
            resp = peer.request("tools/call", {"name": "ask", "arguments": {}})
            assert resp["result"]["isError"] is True
            assert "cannot carry server-to-client requests" in resp["result"]["content"][0]["text"]
        finally:
            peer.close()
    finally:
        srv.stop()
