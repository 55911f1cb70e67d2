"""``x-mcp-header`` arguments reach a 2026-07-28 server as ``Mcp-Param-*`` headers (the SDK
mirrors them; the generated client lists the tools first so it can). The server is generated
by mcpgen and served over Streamable HTTP; the SDK server rejects a call whose header is
missing (-32020), which a raw request shows, so the client's success proves the header."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from tests.client.helpers import imported, write_client
from tests.interop.procs import HttpServer, free_port
from tests.server.helpers import write_package

MANIFEST = {
    "server": {"name": "tenants", "version": "1"},
    "protocol": ["2026-07-28"],
    "tools": [
        {
            "name": "tenant_echo",
            "description": "Echo text for a tenant.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "tenant": {"type": "string", "x-mcp-header": "Tenant"},
                    "text": {"type": "string"},
                },
                "required": ["tenant", "text"],
            },
        }
    ],
}
HANDLERS = """
from mcpgen_runtime import ToolContext
from ._generated import TenantsToolsBase
from ._generated.models import TenantEchoInput


class Handlers(TenantsToolsBase):
    async def tenant_echo(self, args: TenantEchoInput, ctx: ToolContext) -> str:
        return f"{args.tenant}:{args.text}"
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, Path]]:
    out = tmp_path_factory.mktemp("headers")
    path = out / "tenants.json"
    path.write_text(json.dumps(MANIFEST))
    write_package(path, out, "tenants_server", HANDLERS)
    write_client(path, out, "tenants_client")
    env = {**os.environ, "PYTHONPATH": str(out)}
    srv = HttpServer(cmd=[], env=env, port=free_port())
    srv.cmd = [sys.executable, "-m", "tenants_server", "--http", "--port", str(srv.port)]
    srv.start()
    try:
        yield srv, out
    finally:
        srv.stop()


def raw_call(url: str, headers: dict[str, str]) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "tenant_echo",
            "arguments": {"tenant": "acme", "text": "hi"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }
    base = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "tenant_echo",
    }
    return httpx.post(url, json=body, headers={**base, **headers}, timeout=10)


def test_server_requires_the_header(served: tuple[HttpServer, Path]) -> None:
    srv, _ = served
    missing = raw_call(srv.url, {})
    assert missing.status_code == 400 and "-32020" in missing.text
    ok = raw_call(srv.url, {"Mcp-Param-Tenant": "acme"})
    assert ok.status_code == 200 and "acme:hi" in ok.text


@pytest.mark.parametrize("tenant", ["acme", "café société", " padded "])
def test_generated_client_sends_mcp_param_headers(
    served: tuple[HttpServer, Path], tenant: str
) -> None:
    srv, out = served
    with imported(out, "tenants_client") as module:

        async def go() -> Any:
            async with module.TenantsClient.http(srv.url, mode="2026-07-28") as c:
                return (await c.tenant_echo(tenant=tenant, text="hi")).text

        assert anyio.run(go) == f"{tenant}:hi"
