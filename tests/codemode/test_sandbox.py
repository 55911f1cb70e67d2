"""Code mode's sandbox (``mcpgen_runtime.codemode.run_code``): the happy path chains tool calls
and returns only the final answer; hostile code ends within its limit with one clear tool error,
and the same process (and pool) then serves the next run."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

pytest.importorskip("pydantic_monty")

from mcpgen.codemode import compile_api  # noqa: E402
from mcpgen_runtime.codemode import run_code  # noqa: E402

DEFINITIONS = [
    {
        "name": "find-user",
        "description": "Look a user up by e-mail.",
        "inputSchema": {
            "type": "object",
            "properties": {"email": {"type": "string"}},
            "required": ["email"],
        },
        "outputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}},
    },
    {
        "name": "list_orders",
        "description": "A user's orders.",
        "inputSchema": {
            "type": "object",
            "properties": {"user_id": {"type": "integer"}, "limit": {"type": "integer"}},
            "required": ["user_id"],
        },
        "outputSchema": {"type": "object", "properties": {"orders": {"type": "array"}}},
    },
    {
        "name": "order_total",
        "description": "An order's total in cents.",
        "inputSchema": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    },
    {
        "name": "hidden_admin",
        "description": "Hidden from this caller by the call hook.",
        "inputSchema": {"type": "object", "properties": {}},
    },
]
API = compile_api(DEFINITIONS).table
LIMITS = {"seconds": 1.0, "memory_bytes": 32 * 1024 * 1024, "calls": 50}


class Server:
    """A fake server's call hook: answers three tools, hides the fourth, records calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.calls.append((tool, arguments))
        if tool == "find-user":
            return _ok({"id": 7, "email": arguments["email"]})
        if tool == "list_orders":
            orders = [{"id": f"o{i}"} for i in range(arguments.get("limit", 3))]
            return _ok({"orders": orders})
        if tool == "order_total":
            total = 100 * int(arguments["order_id"][1:]) + 50
            return {"content": [{"type": "text", "text": str(total)}], "isError": False}
        return {"content": [{"type": "text", "text": f"Unknown tool: {tool}"}], "isError": True}


def _ok(value: dict[str, Any]) -> dict[str, Any]:
    text = json.dumps(value)
    return {"content": [{"type": "text", "text": text}], "structuredContent": value}


def run(code: str, server: Server | None = None, **limits: Any) -> dict[str, Any]:
    server = server or Server()
    return asyncio.run(run_code(code, call=server.call, api=API, limits={**LIMITS, **limits}))


def error_text(result: dict[str, Any]) -> str:
    assert result["isError"] is True, result
    assert len(result["content"]) == 1
    return str(result["content"][0]["text"])


THREE_STEPS = """
user = await find_user(email="ada@example.com")
orders = await list_orders(user_id=user["id"], limit=3)
totals = [int(await order_total(order_id=o["id"])) for o in orders["orders"]]
sum(totals)
"""


def test_three_step_job_returns_only_the_final_answer() -> None:
    server = Server()
    result = run(THREE_STEPS, server)
    assert result["isError"] is False
    assert result["structuredContent"] == {"result": 0 + 50 + 150 + 250 - 0}
    assert [c["text"] for c in result["content"]] == ["450"]
    assert [t for t, _a in server.calls] == [
        "find-user",
        "list_orders",
        "order_total",
        "order_total",
        "order_total",
    ]
    assert server.calls[1] == ("list_orders", {"user_id": 7, "limit": 3})


def test_none_arguments_are_not_sent_and_printing_is_returned() -> None:
    server = Server()
    result = run('print("hello")\nawait list_orders(user_id=1, limit=None)', server)
    assert server.calls == [("list_orders", {"user_id": 1})]
    assert result["content"][1]["text"] == "hello\n"


def test_a_tool_error_raises_in_the_code_and_can_be_caught() -> None:
    code = "try:\n    await hidden_admin()\nexcept RuntimeError as e:\n    r = str(e)\nr"
    result = run(code)
    assert result["structuredContent"] == {
        "result": "tool 'hidden_admin' failed: Unknown tool: hidden_admin"
    }


def test_hidden_tool_uncaught_is_one_tool_error() -> None:
    assert error_text(run("await hidden_admin()")) == (
        "line 1: RuntimeError: tool 'hidden_admin' failed: Unknown tool: hidden_admin"
    )


HOSTILE = {
    "infinite loop": ("while True:\n    pass", "the code ran for more than 1 s (limit 'seconds')"),
    "unbounded allocation": (
        "x = []\nwhile True:\n    x.append('y' * 10000)",
        "the code used more than 33554432 bytes of memory (limit 'memory_bytes')",
    ),
    "unbounded recursion": (
        "def f(n):\n    return f(n + 1)\nf(0)",
        "line 2: RecursionError: maximum recursion depth exceeded",
    ),
    "import os": ("import os\nos.listdir('/')", "line 1: import of 'os' is not allowed"),
    "import socket": ("import socket", "line 1: import of 'socket' is not allowed"),
    "from import": ("from pathlib import Path", "line 1: import of 'pathlib' is not allowed"),
    "open a file": ("open('/etc/passwd').read()", "line 1: PermissionError: Permission denied"),
    "exec import then a file": (
        "exec('import os')\nos.listdir('/')",
        "line 2: PermissionError: Permission denied",
    ),
    "unknown function": (
        "await delete_everything()",
        "line 1: NameError: name 'delete_everything' is not defined (the tool functions are: "
        "find_user, hidden_admin, list_orders, order_total)",
    ),
    "10,000 calls": (
        "for i in range(10000):\n    await order_total(order_id='o1')",
        "the code made more than 50 tool calls (limit 'calls')",
    ),
    "10,000 calls, errors caught": (
        "for i in range(10000):\n    try:\n        await order_total(order_id='o1')\n"
        "    except Exception:\n        pass\n1",
        "the code made more than 50 tool calls (limit 'calls')",
    ),
    "return 100 MB": (
        "'x' * (100 * 1024 * 1024)",
        "the code used more than 33554432 bytes of memory (limit 'memory_bytes')",
    ),
    "syntax error": ("def (:\n", "syntax error at line 1, column 5: invalid syntax"),
    "positional arguments": (
        "await order_total('o1')",
        "line 1: TypeError: order_total() takes keyword arguments only",
    ),
    "empty": ("   \n", "the code is empty"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_code_ends_in_one_tool_error(name: str) -> None:
    code, message = HOSTILE[name]
    start = time.monotonic()
    result = run(code)
    assert time.monotonic() - start < 1.0 + 2.0  # its limit plus the pool's start
    assert error_text(result).startswith(message)


def test_hostile_runs_then_the_next_run_is_served() -> None:
    async def scenario() -> list[dict[str, Any]]:
        server = Server()
        out = []
        for code in ("while True:\n    pass", "'x' * (100 * 1024 * 1024)", THREE_STEPS):
            out.append(await run_code(code, call=server.call, api=API, limits=LIMITS))
        return out

    loop_result, memory_result, ok = asyncio.run(scenario())
    assert loop_result["isError"] and memory_result["isError"]
    assert ok["structuredContent"] == {"result": 450}


def test_a_big_answer_is_refused_by_output_bytes() -> None:
    text = error_text(run("'x' * 5000", output_bytes=4000))
    assert text.startswith(
        "the code's answer is 5000 bytes; the limit is 4000 (limit 'output_bytes')"
    )


def test_printing_too_much_is_refused_by_output_bytes() -> None:
    code = "for i in range(100000):\n    print('x' * 100)\n1"
    assert error_text(run(code, output_bytes=100_000)) == (
        "the code printed more than 100000 bytes (limit 'output_bytes')"
    )


def test_code_longer_than_code_bytes_is_refused_unparsed() -> None:
    assert error_text(run("1 + " * 50_000 + "1")) == (
        "the code is 200001 bytes; the limit is 100000 (code_bytes)"
    )


def test_wall_seconds_bounds_time_spent_in_tool_calls() -> None:
    class Slow(Server):
        async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            await asyncio.sleep(10)
            raise AssertionError("not reached")

    text = error_text(run("await order_total(order_id='o1')", Slow(), wall_seconds=0.3))
    assert (
        text == "the code did not finish within 0.3 s, tool calls included (limit 'wall_seconds')"
    )


def test_a_tool_call_still_running_when_the_run_ends_is_cancelled() -> None:
    """The wall time is up (or the execute request is cancelled) while the code awaits a tool:
    that tool is cancelled with the run, not left running behind the answer."""
    cancelled: list[str] = []

    class Slow(Server):
        async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                cancelled.append(tool)
                raise
            raise AssertionError("not reached")

    async def go() -> dict[str, Any]:
        code = "await order_total(order_id='o1')"
        limits = {**LIMITS, "wall_seconds": 0.5}
        result = await run_code(code, call=Slow().call, api=API, limits=limits)
        for _ in range(3):  # the cancelled call unwinds on the loop's next turns
            await asyncio.sleep(0)
        assert cancelled == ["order_total"]  # before the loop closes (which cancels the rest)
        return result

    assert "limit 'wall_seconds'" in error_text(asyncio.run(go()))


@pytest.mark.parametrize(
    ("limits", "message"),
    [({"cpu": 1}, "unknown code mode limit 'cpu'"), ({"calls": 0}, "must be a positive number")],
)
def test_a_bad_limit_is_the_servers_mistake(limits: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        asyncio.run(run_code("1", call=Server().call, api=API, limits=limits))
