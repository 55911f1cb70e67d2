"""The official TypeScript SDK v2 client (@modelcontextprotocol/client 2.3.1, pinned in
tests/interop/js/package-lock.json) against the generated server, via
tests/interop/js/ts_client.mjs,
over stdio and Streamable HTTP, in the legacy and 2026-07-28 eras."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .checks import assert_structured_ok, assert_tool_error, assert_tools_served_as_written
from .conftest import ServerUnderTest
from .procs import HttpServer, NodeToolchain

pytestmark = pytest.mark.interop

MODES = ("legacy", "2026-07-28")


def run_ts_client(
    tc: NodeToolchain, js_dir: Path, sut: ServerUnderTest, target: list[str], mode: str
) -> dict[str, Any]:
    calls = [
        {"name": sut.ok_call.tool, "arguments": sut.ok_call.arguments},
        {"name": sut.error_call.tool, "arguments": sut.error_call.arguments},
        {"name": "no_such_tool_xyz", "arguments": {}},
    ]
    cmd = [
        str(tc.node),
        str(js_dir / "ts_client.mjs"),
        "--mode",
        mode,
        "--calls",
        json.dumps(calls),
        *target,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=sut.env, timeout=120, cwd=js_dir)
    assert proc.returncode == 0, f"ts_client.mjs failed ({proc.returncode}):\n{proc.stderr[-3000:]}"
    return json.loads(proc.stdout)


def check(out: dict[str, Any], mode: str, sut: ServerUnderTest) -> None:
    assert out["client"] == "@modelcontextprotocol/client 2.3.1"
    assert out["protocolVersion"] == ("2025-11-25" if mode == "legacy" else mode)
    assert_tools_served_as_written(out["tools"], sut.tools)
    ok, err, unknown = out["calls"]
    assert "error" not in ok, ok
    assert ok["outputSchemaValid"] is True, ok.get(
        "outputSchemaError"
    )  # ajv, in the client process
    assert_structured_ok(ok["result"], sut.tool(sut.ok_call.tool), sut.ok_call.structured)
    assert "error" not in err, err
    assert_tool_error(err["result"], sut.error_call.message)
    assert "result" not in unknown, (
        f"unknown tool must be a JSON-RPC error, got a result: {unknown['result']}"
    )
    assert unknown["error"]["code"] == -32602, unknown["error"]


@pytest.mark.parametrize("mode", MODES)
def test_ts_client_stdio(
    node_toolchain: NodeToolchain, js_peers: Path, weather_server: ServerUnderTest, mode: str
) -> None:
    out = run_ts_client(
        node_toolchain, js_peers, weather_server, ["--", *weather_server.stdio_cmd], mode
    )
    check(out, mode, weather_server)


@pytest.mark.parametrize("mode", MODES)
def test_ts_client_http(
    node_toolchain: NodeToolchain,
    js_peers: Path,
    weather_server: ServerUnderTest,
    weather_http: HttpServer,
    mode: str,
) -> None:
    out = run_ts_client(node_toolchain, js_peers, weather_server, [weather_http.url], mode)
    check(out, mode, weather_server)
