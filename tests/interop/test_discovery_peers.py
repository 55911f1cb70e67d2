"""Real peers drive a search-mode server (``server.discovery.mode: search``): search_tools ->
get_tool_schemas -> call_tool, and a hidden tool stays uncallable through call_tool. The official
Python SDK client (stdio on both engines, Streamable HTTP) and the TypeScript SDK v2 client
(stdio and HTTP), each on the handshake wire and on 2026-07-28 (issue 52, item 6)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.server.helpers import write_package
from tests.server.test_discovery_modes import HANDLERS, MANIFEST

from .procs import HttpServer, NodeToolchain, free_port

pytestmark = pytest.mark.interop

MODES = ("legacy", "2026-07-28")
LISTED = ["ping", "search_tools", "get_tool_schemas", "call_tool"]
CALLS = [
    {"name": "search_tools", "arguments": {"query": "put in an order for an item"}},
    {"name": "get_tool_schemas", "arguments": {"names": ["place_order"]}},
    {"name": "call_tool", "arguments": {"name": "place_order", "arguments": {"item": "tea"}}},
    {"name": "call_tool", "arguments": {"name": "wipe", "arguments": {}}},
]


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    out = tmp_path_factory.mktemp("discovery-peers")
    manifest = out / "shop.yaml"
    # one HTTP server serves every test here: without place_order's rate limit
    manifest.write_text(MANIFEST.replace(", limits: {rateLimit: {perSecond: 0.001, burst: 1}}", ""))
    write_package(manifest, out, "shop", handlers=HANDLERS)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCPGEN_TOOL")}
    env["PYTHONPATH"] = os.pathsep.join([str(out), *filter(None, [env.get("PYTHONPATH")])])
    return out, env


@pytest.fixture(scope="module")
def shop_http(shop: tuple[Path, dict[str, str]]) -> Iterator[HttpServer]:
    srv = HttpServer(cmd=[], env=shop[1], port=free_port())
    srv.cmd = [sys.executable, "-m", "shop", "--http", "--port", str(srv.port)]
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _check(listed: list[str], answers: list[dict[str, Any]]) -> None:
    """``answers``: per CALLS, ``{"result": ...}`` or ``{"error": {"code": ...}}``."""
    assert listed == LISTED
    found, schemas, called, hidden = answers
    assert found["result"]["structuredContent"]["tools"][0]["name"] == "place_order"
    tools = schemas["result"]["structuredContent"]["tools"]
    assert tools[0]["inputSchema"]["required"] == ["item"]
    assert called["result"]["content"][0]["text"] == "placed tea"
    assert not called["result"].get("isError")
    assert hidden["error"]["code"] == -32602, hidden


async def _python(target: Any, mode: str) -> tuple[list[str], list[dict[str, Any]]]:
    async with Client(target, mode=mode) as client:
        listed = [t.name for t in (await client.list_tools()).tools]
        answers: list[dict[str, Any]] = []
        for c in CALLS:
            try:
                r = await client.call_tool(c["name"], c["arguments"])
                answers.append({"result": r.model_dump(by_alias=True, exclude_none=True)})
            except MCPError as exc:
                answers.append({"error": {"code": exc.error.code}})
        return listed, answers


@pytest.mark.parametrize("engine", ["lean", "sdk"])
@pytest.mark.parametrize("mode", MODES)
def test_python_sdk_client_stdio(shop: tuple[Path, dict[str, str]], mode: str, engine: str) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "shop", "--engine", engine], env=shop[1]
    )
    _check(*anyio.run(_python, params, mode))


@pytest.mark.parametrize("mode", MODES)
def test_python_sdk_client_http(shop_http: HttpServer, mode: str) -> None:
    _check(*anyio.run(_python, shop_http.url, mode))


def _ts(tc: NodeToolchain, js: Path, env: dict[str, str], target: list[str], mode: str) -> Any:
    cmd = [str(tc.node), str(js / "ts_client.mjs"), "--mode", mode, "--calls", json.dumps(CALLS)]
    proc = subprocess.run(
        [*cmd, *target], capture_output=True, text=True, env=env, timeout=120, cwd=js
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    return [t["name"] for t in out["tools"]], out["calls"]


@pytest.mark.parametrize("mode", MODES)
def test_ts_client_stdio(
    node_toolchain: NodeToolchain, js_peers: Path, shop: tuple[Path, dict[str, str]], mode: str
) -> None:
    target = ["--", sys.executable, "-m", "shop"]
    _check(*_ts(node_toolchain, js_peers, shop[1], target, mode))


@pytest.mark.parametrize("mode", MODES)
def test_ts_client_http(
    node_toolchain: NodeToolchain,
    js_peers: Path,
    shop: tuple[Path, dict[str, str]],
    shop_http: HttpServer,
    mode: str,
) -> None:
    _check(*_ts(node_toolchain, js_peers, shop[1], [shop_http.url], mode))


def test_the_typed_client_verifies_calls_and_searches_a_search_mode_server(
    shop: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """The generated client's methods call tools by name (each stays callable), ``verify=True``
    reads the unlisted tools through get_tool_schemas (no false drift), and ``search_tools``
    asks the server's search. The server is started with ``--toolsets all``: with the defaults
    ``wipe`` is not served, which verify reports as deleted."""
    from tests.client.helpers import imported, write_client

    out, env = shop
    write_client(out / "shop.yaml", tmp_path, "shop_client")
    server = [sys.executable, "-m", "shop", "--toolsets", "all"]

    async def go(client_cls: Any) -> tuple[str, list[str]]:
        async with client_cls.stdio(server, env=env, verify=True) as c:
            placed = await c.place_order(item="tea")
            found = await c.search_tools("give the money back", limit=2)
            return str(placed), [t["name"] for t in found]

    with imported(tmp_path, "shop_client") as module:
        placed, found = anyio.run(go, module.ShopClient)
    assert "placed tea" in placed
    assert found[0] == "refund"

    async def defaults(client_cls: Any) -> None:
        async with client_cls.stdio([sys.executable, "-m", "shop"], env=env, verify=True):
            pass

    from mcpgen_runtime.client.errors import DriftError

    with imported(tmp_path, "shop_client") as module, pytest.raises(DriftError) as err:
        anyio.run(defaults, module.ShopClient)
    assert {c.tool for c in err.value.changes} == {"wipe"}


def test_the_generated_cli_keeps_its_tool_commands_and_adds_search_tools(
    shop: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    from tests.client.helpers import mcpgen_cmd

    out, env = shop
    made = subprocess.run(
        [
            *mcpgen_cmd(),
            "cli",
            str(out / "shop.yaml"),
            "--out",
            str(tmp_path),
            "--package",
            "shop_cli",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    full = {**env, "PYTHONPATH": f"{tmp_path}{os.pathsep}{env['PYTHONPATH']}"}
    server = f"{sys.executable} -m shop"

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "shop_cli", "--stdio", server, *args],
            env=full,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )

    found = cli("search-tools", "give the money back", "--limit", "1")
    assert found.returncode == 0, found.stderr
    assert [t["name"] for t in json.loads(found.stdout)["tools"]] == ["refund"]
    placed = cli("place-order", "--item", "tea")  # not listed: called by name all the same
    assert placed.returncode == 0, placed.stderr
    assert "placed tea" in placed.stdout


def test_mcpgen_drift_reads_the_unlisted_tools_of_a_search_mode_server(
    shop: tuple[Path, dict[str, str]],
) -> None:
    from tests.client.helpers import mcpgen_cmd

    out, env = shop

    def drift(*server_args: str) -> subprocess.CompletedProcess[str]:
        server = " ".join([sys.executable, "-m", "shop", *server_args])
        return subprocess.run(
            [*mcpgen_cmd(), "drift", str(out / "shop.yaml"), "--stdio", server],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )

    every = drift("--toolsets", "all")
    assert every.returncode == 0, every.stdout + every.stderr
    defaults = drift()  # wipe is not served by default: the only tool drift reports
    assert defaults.returncode == 1
    assert "TOOL_NO_DELETE tool 'wipe' was removed" in defaults.stdout
    assert defaults.stdout.count("TOOL_NO_DELETE") == 1
