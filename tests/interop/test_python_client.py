"""The official Python SDK client (``mcp.Client``, mcp 2.3.0) against the generated server, in
both protocol eras (``legacy`` = initialize handshake, ``2026-07-28`` = stateless wire) and over
both transports (stdio subprocess, Streamable HTTP)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from .checks import assert_structured_ok, assert_tool_error, assert_tools_served_as_written
from .conftest import ServerUnderTest
from .procs import HttpServer

pytestmark = pytest.mark.interop

MODES = ("legacy", "2026-07-28")


def dump(model: Any) -> Any:
    return model.model_dump(by_alias=True, exclude_none=True, mode="json")


async def session_transcript(target: Any, mode: str, sut: ServerUnderTest) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with Client(target, mode=mode, read_timeout_seconds=30) as client:
        out["protocolVersion"] = client.protocol_version
        out["serverInfo"] = dump(client.server_info) if client.server_info is not None else None
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools.extend(dump(t) for t in page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
        out["tools"] = tools
        ok, err = sut.ok_call, sut.error_call
        out["ok"] = dump(await client.call_tool(ok.tool, ok.arguments))
        out["error"] = dump(await client.call_tool(err.tool, err.arguments))
        try:
            res = await client.call_tool("no_such_tool_xyz", {})
            out["unknown"] = {"result": dump(res)}
        except MCPError as e:
            out["unknown"] = {"code": e.code, "message": e.message}
    return out


def check_transcript(t: dict[str, Any], mode: str, sut: ServerUnderTest) -> None:
    if mode == "legacy":
        assert t["protocolVersion"] == "2025-11-25"
    else:
        assert t["protocolVersion"] == mode
    assert_tools_served_as_written(t["tools"], sut.tools)
    assert_structured_ok(t["ok"], sut.tool(sut.ok_call.tool), sut.ok_call.structured)
    assert_tool_error(t["error"], sut.error_call.message)
    assert t["unknown"].get("code") == -32602, (
        f"unknown tool must be JSON-RPC -32602, got {t['unknown']}"
    )


@pytest.mark.parametrize("mode", MODES)
def test_python_client_stdio(weather_server: ServerUnderTest, mode: str) -> None:
    params = StdioServerParameters(
        command=weather_server.stdio_cmd[0],
        args=weather_server.stdio_cmd[1:],
        env=weather_server.env,
    )
    t = anyio.run(session_transcript, params, mode, weather_server)
    check_transcript(t, mode, weather_server)


@pytest.mark.parametrize("mode", MODES)
def test_python_client_http(
    weather_server: ServerUnderTest, weather_http: HttpServer, mode: str
) -> None:
    t = anyio.run(session_transcript, weather_http.url, mode, weather_server)
    check_transcript(t, mode, weather_server)
