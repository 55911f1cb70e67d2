"""MCP Apps on the wire of a generated server (the weather example's committed package), on both
engines: the extension advertised in ``initialize``, the forecast card in ``resources/list`` and
``resources/read`` (mime type, ``_meta.ui``, the built file byte for byte), ``_meta.ui`` on the
tool in ``tools/list``; read by the official ``mcp`` client over stdio."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather"
VIEW = "ui://weather/forecast-card"
MIME = "text/html;profile=mcp-app"


async def _session(engine: str) -> dict[str, object]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(WEATHER)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "weather_server", "--engine", engine], env=env
    )
    async with Client(params) as client:
        caps = client.server_capabilities
        tools = await client.list_tools()
        resources = await client.list_resources()
        read = await client.read_resource(VIEW)
        return {
            "version": client.protocol_version,
            "caps": caps,
            "tools": tools,
            "resources": resources,
            "read": read,
        }


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_view_on_the_wire(engine: str) -> None:
    got = anyio.run(_session, engine)
    # the client speaks 2026-07-28 (server/discover); `capabilities.extensions` is a field of
    # that revision only (the browser test's handshake-era host finds views by _meta.ui)
    assert got["version"] == "2026-07-28"
    assert got["caps"].extensions["io.modelcontextprotocol/ui"] == {}  # type: ignore[attr-defined]
    forecast = next(t for t in got["tools"].tools if t.name == "get_forecast")  # type: ignore[attr-defined]
    assert forecast.meta == {"ui": {"resourceUri": VIEW}}
    weather = next(t for t in got["tools"].tools if t.name == "get_weather")  # type: ignore[attr-defined]
    assert weather.meta is None
    listed = next(r for r in got["resources"].resources if r.uri == VIEW)  # type: ignore[attr-defined]
    assert listed.mime_type == MIME and listed.meta == {"ui": {"prefersBorder": False}}
    (item,) = got["read"].contents  # type: ignore[attr-defined]
    assert item.mime_type == MIME
    assert item.meta == {"ui": {"prefersBorder": False}}
    assert item.text.encode() == (WEATHER / "view" / "dist" / "index.html").read_bytes()


DISCOVER = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "server/discover",
    "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        }
    },
}


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_extension_advertised_on_discover(engine: str) -> None:
    """2026-07-28: ``server/discover`` says ``extensions: {io.modelcontextprotocol/ui: {}}``,
    byte for byte the same on both engines."""
    import httpx

    from tests.interop.procs import HttpServer, free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    env["PYTHONPATH"] = str(WEATHER)
    cmd = [sys.executable, "-m", "weather_server", "--http", "--port", str(port)]
    srv = HttpServer([*cmd, "--engine", engine], env, port)
    srv.start()
    try:
        r = httpx.post(
            srv.url,
            json=DISCOVER,
            headers={
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2026-07-28",
                "Mcp-Method": "server/discover",
            },
            timeout=30,
        )
    finally:
        srv.stop()
    caps = r.json()["result"]["capabilities"]
    assert caps["extensions"]["io.modelcontextprotocol/ui"] == {}  # next to the skills one
    assert list(caps["extensions"]) == sorted(caps["extensions"])
    assert list(caps) == sorted(caps)


PINNED = ("@modelcontextprotocol/ext-apps", "@modelcontextprotocol/client", "esbuild", "zod")


def test_views_and_the_test_host_pin_the_same_packages() -> None:
    """The starter view, the weather view and the browser tests' host: exact versions in each
    package.json, the same ones everywhere, and each lockfile resolves them."""
    import json

    seen: dict[str, set[str]] = {}
    for folder in (
        REPO / "templates" / "init" / "view",
        WEATHER / "view",
        REPO / "tests" / "apps" / "js",
    ):
        pkg = json.loads((folder / "package.json").read_text())
        deps = {**pkg.get("dependencies", {}), **pkg.get("devDependencies", {})}
        lock = json.loads((folder / "package-lock.json").read_text())["packages"]
        for name in PINNED:
            version = deps[name]
            assert version[0].isdigit(), (folder, name, version)  # no ranges
            assert lock[f"node_modules/{name}"]["version"] == version, (folder, name)
            seen.setdefault(name, set()).add(version)
    assert all(len(v) == 1 for v in seen.values()), seen
    assert seen["@modelcontextprotocol/ext-apps"] == {"2.0.4"}
