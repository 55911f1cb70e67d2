"""Code mode through a generated server (stdio, its own process): ``execute`` chains the tools;
hostile code ends in one tool error within its limit (``server.discovery.code``) while the same
process answers other requests; a tool the operator's toolsets leave out cannot be called from
code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pydantic_monty")
pytestmark = pytest.mark.slow  # one generated server for the module: about 10 s in all

from tests.server.helpers import write_package  # noqa: E402

MANIFEST = """\
server:
  name: codeshop
  toolsets:
    shop: {description: The shop.}
    admin: {description: Dangerous operations., default: false}
  discovery:
    mode: code
    listed: {tools: [ping]}
    code: {timeout: 1, memory: 33554432, max_calls: 20, max_output: 100000}
tools:
  - name: find_customer
    description: Find a customer by e-mail.
    inputSchema:
      type: object
      properties: {email: {type: string}}
      required: [email]
    outputSchema: {type: object, properties: {id: {type: integer}}, required: [id]}
    x-mcpgen: {toolsets: [shop]}
  - name: list_orders
    description: A customer's orders.
    inputSchema:
      type: object
      properties: {customer: {type: integer}}
      required: [customer]
    outputSchema:
      type: object
      properties: {orders: {type: array, items: {type: integer}}}
      required: [orders]
    x-mcpgen: {toolsets: [shop]}
  - name: order_total
    description: An order's total in cents.
    inputSchema: {type: object, properties: {order: {type: integer}}, required: [order]}
    outputSchema: {type: object, properties: {cents: {type: integer}}, required: [cents]}
    x-mcpgen: {toolsets: [shop]}
  - name: wipe
    description: Delete every order.
    inputSchema: {type: object}
    x-mcpgen: {toolsets: [admin]}
  - name: ping
    description: Answers pong.
    inputSchema: {type: object}
"""

HANDLERS = """\
from __future__ import annotations

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated import models as m


class Handlers(ToolsBase):
    async def find_customer(self, args: m.FindCustomerInput, ctx: ToolContext) -> dict:
        return {"id": 7}

    async def list_orders(self, args: m.ListOrdersInput, ctx: ToolContext) -> dict:
        return {"orders": [args.customer * 10 + i for i in range(3)]}

    async def order_total(self, args: m.OrderTotalInput, ctx: ToolContext) -> dict:
        return {"cents": args.order * 100}

    async def wipe(self, args: m.WipeInput, ctx: ToolContext) -> str:
        return "wiped"

    async def ping(self, args: m.PingInput, ctx: ToolContext) -> str:
        return "pong"
"""


class Stdio:
    """The generated server over stdio, raw JSON-RPC lines (2025-11-25 handshake)."""

    def __init__(self, out: Path) -> None:
        env = dict(
            os.environ, PYTHONPATH=os.pathsep.join([str(out), os.environ.get("PYTHONPATH", "")])
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "codeshop"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.next_id = 0
        init = self.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        )
        assert init["result"]["protocolVersion"] == "2025-11-25"
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def start(self, method: str, params: dict[str, Any]) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            assert line, "the server closed stdout"
            msg = json.loads(line)
            if "id" in msg and ("result" in msg or "error" in msg):
                return dict(msg)

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        rid = self.start(method, params)
        msg = self.receive()
        assert msg["id"] == rid, msg
        return msg

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return dict(self.request("tools/call", {"name": name, "arguments": arguments})["result"])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stdio]:
    out = tmp_path_factory.mktemp("codemode")
    manifest = out / "codeshop.yaml"
    manifest.write_text(MANIFEST)
    write_package(manifest, out, "codeshop", handlers=HANDLERS)
    srv = Stdio(out)
    yield srv
    srv.close()


def _error(result: dict[str, Any]) -> str:
    assert result["isError"] is True, result
    assert len(result["content"]) == 1, result
    return str(result["content"][0]["text"])


JOB = """
customer = await find_customer(email="ada@example.com")
orders = await list_orders(customer=customer["id"])
totals = [(await order_total(order=o))["cents"] for o in orders["orders"]]
sum(totals)
"""


def test_code_mode_lists_the_meta_tools_and_runs_a_three_step_job(server: Stdio) -> None:
    listed = server.request("tools/list", {})["result"]["tools"]
    assert sorted(t["name"] for t in listed) == [
        "execute",
        "get_tool_schemas",
        "ping",
        "search_tools",
    ]
    result = server.call("execute", {"code": JOB})
    assert not result.get("isError"), result
    assert result["structuredContent"] == {"result": 7000 + 7100 + 7200}


HOSTILE = {
    "infinite loop": ("while True:\n    pass", "the code ran for more than 1 s (limit 'seconds')"),
    "allocation": (
        "x = []\nwhile True:\n    x.append('y' * 10000)",
        "the code used more than 33554432 bytes of memory (limit 'memory_bytes')",
    ),
    "recursion": ("def f():\n    return f()\nf()", "line 2: RecursionError"),
    "import os": ("import os", "line 1: import of 'os' is not allowed"),
    "import socket": ("import socket", "line 1: import of 'socket' is not allowed"),
    "open a file": ("open('/etc/hostname').read()", "line 1: PermissionError"),
    "unknown function": (
        "await drop_tables()",
        "line 1: NameError: name 'drop_tables' is not defined",
    ),
    "10,000 calls": (
        "for i in range(10000):\n    await order_total(order=1)",
        "the code made more than 20 tool calls (limit 'calls')",
    ),
    "100 MB answer": ("'x' * (100 * 1024 * 1024)", "the code used more than 33554432 bytes"),
    "1 MB answer": ("'x' * 1000000", "the code's answer is 1000000 bytes; the limit is 100000"),
    "syntax error": ("def (", "syntax error at line 1, column 5"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_code_is_one_tool_error_and_the_server_keeps_serving(
    server: Stdio, name: str
) -> None:
    code, message = HOSTILE[name]
    start = time.monotonic()
    text = _error(server.call("execute", {"code": code}))
    assert time.monotonic() - start < 5
    assert text.startswith(message), text
    assert server.call("ping", {})["content"][0]["text"] == "pong"


def test_other_requests_are_answered_while_code_runs(server: Stdio) -> None:
    looping = server.start(
        "tools/call", {"name": "execute", "arguments": {"code": "while True:\n    pass"}}
    )
    time.sleep(0.2)
    ping = server.start("tools/call", {"name": "ping", "arguments": {}})
    first, second = server.receive(), server.receive()
    assert (first["id"], second["id"]) == (ping, looping)
    assert first["result"]["content"][0]["text"] == "pong"
    assert _error(second["result"]).startswith("the code ran for more than 1 s")


def test_a_tool_the_toolsets_leave_out_is_not_callable_from_code(server: Stdio) -> None:
    text = _error(server.call("execute", {"code": "await wipe()"}))
    assert text == "line 1: RuntimeError: tool 'wipe' failed: Unknown tool: wipe"
    found = server.call("search_tools", {"query": "delete every order"})["structuredContent"][
        "tools"
    ]
    assert "wipe" not in [t["name"] for t in found]
