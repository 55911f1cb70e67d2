"""Toolsets: a generated server serves the subset its operator chooses (``--toolsets``,
``--tools``, ``$MCPGEN_TOOLSETS``/``$MCPGEN_TOOLS``), checked through the official SDK client
over stdio and HTTP, in a real ``python -m <package>`` process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from .helpers import shop_handlers, shop_package

MANIFEST = """\
server:
  name: shop
  toolsets:
    catalog: {description: Browse the catalog.}
    orders: {description: Place and change orders.}
    admin: {description: Dangerous operations., default: false}
tools:
  - name: list_items
    description: List the items.
    inputSchema: {type: object}
    x-mcpgen: {toolsets: [catalog]}
  - name: place_order
    description: Place an order.
    inputSchema: {type: object, properties: {item: {type: string}}, required: [item]}
    x-mcpgen: {toolsets: [orders]}
  - name: refund
    description: Refund an order.
    inputSchema: {type: object, properties: {order: {type: string}}, required: [order]}
    x-mcpgen: {toolsets: [orders, admin]}
  - name: wipe
    description: Delete everything.
    inputSchema: {type: object}
    x-mcpgen: {toolsets: [admin]}
  - name: ping
    description: Answers pong.
    inputSchema: {type: object}
"""

HANDLERS = shop_handlers(
    """
    async def ping(self, args: m.PingInput, ctx: ToolContext) -> str:
        # switching a tool this process does not serve is not an error (another replica
        # may serve it); it changes nothing here
        changed = await ctx.set_tool_enabled("wipe", False)
        return f"pong {changed}"
"""
)

ALL = ["list_items", "place_order", "refund", "wipe", "ping"]


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shop_package(tmp_path_factory, MANIFEST, HANDLERS)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCPGEN_TOOL")}
    return {**env, **extra}


def _served(out: Path, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """tools/list of ``python -m shop ARGS`` over stdio, and what calling each tool gave."""

    async def go() -> dict[str, Any]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "shop", *args], cwd=str(out), env=env or _env()
        )
        async with Client(params, mode="legacy") as client:
            listed = [t.name for t in (await client.list_tools()).tools]
            calls: dict[str, Any] = {}
            for name in ALL:
                try:
                    res = await client.call_tool(name, {"item": "x", "order": "o1"})
                    calls[name] = res.content[0].text  # type: ignore[union-attr]
                except MCPError as exc:
                    calls[name] = exc.error.code
            return {"listed": listed, "calls": calls}

    return anyio.run(go)


def test_defaults_leave_out_toolsets_marked_default_false(shop: Path) -> None:
    got = _served(shop)
    assert got["listed"] == ["list_items", "place_order", "refund", "ping"]
    # refund is also in orders (a default toolset); wipe only in admin
    assert got["calls"]["wipe"] == -32602
    assert got["calls"]["refund"] == "refunded o1"
    assert got["calls"]["ping"] == "pong False"


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (["--toolsets", "catalog"], {}, ["list_items"]),
        (["--toolsets", "admin"], {}, ["refund", "wipe"]),
        (["--toolsets", "catalog", "--tools", "ping"], {}, ["list_items", "ping"]),
        (["--tools", "wipe"], {}, ["wipe"]),
        (["--toolsets", "all"], {}, ALL),
        (["--toolsets", "default,admin"], {}, ALL),
        ([], {"MCPGEN_TOOLSETS": "orders"}, ["place_order", "refund"]),
        ([], {"MCPGEN_TOOLSETS": " orders , catalog ", "MCPGEN_TOOLS": "ping"}, ALL[:3] + ["ping"]),
        # the command line wins over the environment
        (["--toolsets", "catalog"], {"MCPGEN_TOOLSETS": "admin"}, ["list_items"]),
    ],
)
def test_the_operator_chooses(
    shop: Path, args: list[str], env: dict[str, str], expected: list[str]
) -> None:
    got = _served(shop, *args, env=_env(**env))
    assert got["listed"] == expected
    for name in ALL:
        if name in expected:
            assert isinstance(got["calls"][name], str), (name, got["calls"][name])
        else:
            assert got["calls"][name] == -32602, (name, got["calls"][name])


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["--toolsets", "catalgo"], {}, "--toolsets: unknown toolset 'catalgo' (known: all,"),
        (["--tools", "wype"], {}, "--tools: unknown tool 'wype' (known: list_items,"),
        ([], {"MCPGEN_TOOLSETS": "nope"}, "--toolsets: unknown toolset 'nope'"),
    ],
)
def test_an_unknown_name_stops_the_start_in_one_line(
    shop: Path, args: list[str], env: dict[str, str], message: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "shop", *args],
        cwd=shop,
        env=_env(**env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert message in proc.stderr.splitlines()[-1]


def test_list_toolsets(shop: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "shop", "--list-toolsets"],
        cwd=shop,
        env=_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == textwrap.dedent(
        """\
        catalog: Browse the catalog.
          list_items
        orders: Place and change orders.
          place_order, refund
        admin (not served by default): Dangerous operations.
          refund, wipe
        in no toolset (served unless --toolsets/--tools choose otherwise)
          ping
        """
    )


def test_the_start_line_says_how_many_tools_are_served(shop: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "shop", "--toolsets", "catalog"],
        cwd=shop,
        env=_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        proc.terminate()
    assert "1 of 5 tools (--list-toolsets)" in line, line


def test_http_workers_serve_the_same_subset(shop: Path) -> None:
    """``--workers 2`` hands the choice to each worker process (through its spec)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "shop", "--http", "--port", str(port), "--stateless"]
        + ["--workers", "2", "--toolsets", "admin"],
        cwd=shop,
        env=_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )

    async def go() -> list[list[str]]:
        seen = []
        for _ in range(4):
            async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as client:
                seen.append([t.name for t in (await client.list_tools()).tools])
        return seen

    try:
        for _ in range(300):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        assert all(names == ["refund", "wipe"] for names in anyio.run(go))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        assert proc.stderr is not None
        proc.stderr.close()
