"""A package with task tools (the tasks extension) on the lean engine's stdio starts without
the SDK too: discovery, plain calls and the extension's per-call decision (a task tool called
without the extension, a required one refused) never import ``mcp``, nor does a task-augmented
``tools/call`` (the engine creates and runs the task itself); the first ``tasks/*`` request
goes to the SDK through the bridge, which imports it then. Every answer is the one ``--engine
sdk`` gives, once the task's id and clock fields are set aside.

On the code before this change such a package built the SDK's server at start (the tasks
extension was joined to the runtime where its methods were registered on it), so the first
test failed there.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.driver import MODERN_META
from tests.runtime.lean.stdio_session import Session, initialize
from tests.server.helpers import write_package

EXT = "io.modelcontextprotocol/tasks"

MANIFEST = """\
server:
  name: lazytasks
  version: 1.0.0
  tasks: {keepSeconds: 60, pollIntervalMs: 50}

tools:
  - name: add
    description: Adds two numbers (a plain tool).
    inputSchema:
      type: object
      properties:
        a: {type: number}
        b: {type: number}
      required: [a, b]
  - name: work
    description: Works a little, reporting progress (an optional task).
    execution: {taskSupport: optional}
    inputSchema:
      type: object
      properties:
        seconds: {type: number}
      required: [seconds]
  - name: export
    description: Runs only as a task; waits until cancelled.
    execution: {taskSupport: required}
    inputSchema: {type: object}
  - name: ask
    description: Asks a number (an optional task).
    execution: {taskSupport: optional}
    inputSchema: {type: object}
  - name: modules
    description: The SDK modules this process has imported.
    inputSchema: {type: object}
"""

HANDLERS = """\
from __future__ import annotations

import asyncio
import sys

from pydantic import BaseModel

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated.models import AddInput, AskInput, ExportInput, ModulesInput, WorkInput


class Number(BaseModel):
    n: int


class Handlers(ToolsBase):
    async def add(self, args: AddInput, ctx: ToolContext) -> str:
        return f"{args.a + args.b:g}"

    async def work(self, args: WorkInput, ctx: ToolContext) -> str:
        await asyncio.sleep(args.seconds)
        await ctx.progress(1, 1, "done")
        return f"worked {args.seconds:g} s"

    async def export(self, args: ExportInput, ctx: ToolContext) -> str:
        await asyncio.sleep(60)
        return "exported"

    async def ask(self, args: AskInput, ctx: ToolContext) -> str:
        answer = await ctx.elicit(Number, "Which number?", key="n")
        return f"n={answer.data.n if answer.data else None}"

    async def modules(self, args: ModulesInput, ctx: ToolContext) -> str:
        return " ".join(sorted(m for m in sys.modules if m == "mcp" or m.startswith("mcp.")))
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lazytasks")
    manifest = out / "lazytasks.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    write_package(manifest, out, "lazytasks_server", handlers=HANDLERS)
    return out


def _meta(tasks: bool) -> dict[str, Any]:
    caps: dict[str, Any] = {"elicitation": {}}
    if tasks:
        caps["extensions"] = {EXT: {}}
    return {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": caps}


class _Client:
    """2026-07-28 requests (each with its envelope) on one ``Session``."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self.rid = 0

    def rpc(self, method: str, params: dict[str, Any], *, tasks: bool = True) -> dict[str, Any]:
        self.rid += 1
        answer: dict[str, Any] = self.s.call(self.rid, method, {**params, "_meta": _meta(tasks)})
        return answer

    def call(self, name: str, arguments: dict[str, Any], *, tasks: bool = True) -> dict[str, Any]:
        return self.rpc("tools/call", {"name": name, "arguments": arguments}, tasks=tasks)

    def sdk_modules(self) -> str:
        text: str = self.call("modules", {}, tasks=False)["result"]["content"][0]["text"]
        return text

    def until(self, task_id: str, *statuses: str) -> dict[str, Any]:
        deadline = time.monotonic() + 30
        while True:
            got = self.rpc("tasks/get", {"taskId": task_id})
            if got["result"]["status"] in statuses:
                return got
            assert time.monotonic() < deadline, got
            time.sleep(0.05)


def _plain_session(c: _Client) -> list[dict[str, Any]]:
    """Discovery, plain calls and the extension's per-call decision on 2026-07-28."""
    return [
        c.rpc("server/discover", {}),
        c.rpc("tools/list", {}),
        c.call("add", {"a": 1, "b": 2}),
        c.call("work", {"seconds": 0}, tasks=False),  # optional, not declared: a plain call
        c.call("add", {"a": 1, "b": 2}, tasks=True),  # forbidden: never a task
        c.call("export", {}, tasks=False),  # required, not declared: -32021
    ]


def test_a_tasks_package_serves_without_the_sdk_until_a_tasks_method(package: Path) -> None:
    s = Session(package, "lazytasks_server")
    try:
        c = _Client(s)
        discover, _listed, added, plain, forbidden, refused = _plain_session(c)
        assert EXT in discover["result"]["capabilities"]["extensions"], discover
        assert added["result"]["content"][0]["text"] == "3"
        assert plain["result"]["content"][0]["text"] == "worked 0 s", plain
        assert "taskId" not in forbidden["result"], forbidden
        assert refused["error"]["code"] == -32021, refused
        assert c.sdk_modules() == ""
        created = c.call("work", {"seconds": 0.2})["result"]
        assert created["resultType"] == "task" and created["status"] == "working", created
        assert c.sdk_modules() == ""  # the engine created and runs the task itself
        got = c.until(created["taskId"], "completed")["result"]  # bridged: the SDK now
        assert got["result"]["content"][0]["text"] == "worked 0.2 s", got
        assert "mcp.server.lowlevel" in c.sdk_modules().split()
    finally:
        s.close()


def test_a_handshake_session_of_a_tasks_package_never_imports_the_sdk(package: Path) -> None:
    s = Session(package, "lazytasks_server")
    try:
        initialize(s)
        listed = s.call(1, "tools/list")
        assert [t["name"] for t in listed["result"]["tools"]][:2] == ["add", "work"]
        assert s.call(2, "tools/call", {"name": "add", "arguments": {"a": 2, "b": 2}})["result"]
        plain = s.call(3, "tools/call", {"name": "work", "arguments": {"seconds": 0}})
        assert plain["result"]["content"][0]["text"] == "worked 0 s", plain
        refused = s.call(4, "tools/call", {"name": "export", "arguments": {}})
        assert refused["error"]["code"] == -32601, refused  # no tasks on the handshake wire
        modules = s.call(5, "tools/call", {"name": "modules", "arguments": {}})
        assert modules["result"]["content"][0]["text"] == ""
    finally:
        s.close()


def _same(value: Any) -> Any:
    """``value`` with what differs between two runs of the same session set aside: a task's
    id and its clock fields, and request ids (how often a task is polled varies)."""
    if isinstance(value, dict):
        return {
            k: "<varies>" if k in ("taskId", "createdAt", "lastUpdatedAt", "ttlMs") else _same(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_same(v) for v in value]
    return value


def _task_session(c: _Client) -> list[dict[str, Any]]:
    """Task-augmented calls and every ``tasks/*`` outcome, in order."""
    out = _plain_session(c)
    created = c.call("work", {"seconds": 0.1})
    out += [created, c.until(created["result"]["taskId"], "completed")]
    asked = c.call("ask", {})
    task_id = asked["result"]["taskId"]
    parked = c.until(task_id, "input_required")
    out += [asked, parked]
    out.append(c.rpc("tasks/update", {"taskId": task_id, "inputResponses": {"n": {"x": 1}}}))
    answer = {"n": {"action": "accept", "content": {"n": 7}}}
    out.append(c.rpc("tasks/update", {"taskId": task_id, "inputResponses": answer}))
    out.append(c.until(task_id, "completed"))
    exported = c.call("export", {})
    export_id = exported["result"]["taskId"]
    out += [exported, c.rpc("tasks/cancel", {"taskId": export_id})]
    out.append(c.until(export_id, "cancelled"))
    out.append(c.rpc("tasks/cancel", {"taskId": export_id}))  # already ended
    out.append(c.rpc("tasks/get", {"taskId": "no-such-task"}))
    out.append(c.rpc("tasks/get", {"taskId": export_id}, tasks=False))  # -32021
    out.append(c.rpc("tasks/get", {}))  # no taskId
    out.append(c.rpc("tasks/list", {}))  # not a method of this extension: the SDK's -32601
    out.append(c.rpc("tasks/result", {"taskId": export_id}))
    return out


def test_tasks_are_answered_as_the_sdk_engine_answers_them(package: Path) -> None:
    answers: dict[str, list[Any]] = {}
    for engine in ("lean", "sdk"):
        s = Session(package, "lazytasks_server", engine=engine)
        try:
            answers[engine] = [_same({**a, "id": None}) for a in _task_session(_Client(s))]
        finally:
            s.close()
    lean, sdk = answers["lean"], answers["sdk"]
    assert len(lean) == len(sdk)
    for got, expected in zip(lean, sdk, strict=True):
        assert got == expected
    done = lean[7]["result"]
    assert done["status"] == "completed" and done["result"]["content"][0]["text"] == "worked 0.1 s"
    assert lean[9]["result"]["inputRequests"]["n"]["method"] == "elicitation/create"
    assert lean[10]["error"]["code"] == -32602  # the wrong answer to the question
    assert lean[12]["result"]["result"]["content"][0]["text"] == "n=7"
    assert lean[15]["result"]["status"] == "cancelled"
    codes = [a["error"]["code"] for a in lean[17:]]
    assert codes == [-32602, -32021, -32602, -32601, -32601]


def test_a_tasks_method_on_the_handshake_wire_is_answered_as_by_the_sdk_engine(
    package: Path,
) -> None:
    answers = {}
    for engine in ("lean", "sdk"):
        s = Session(package, "lazytasks_server", engine=engine)
        try:
            initialize(s)
            answers[engine] = s.call(1, "tasks/get", {"taskId": "x"})
        finally:
            s.close()
    assert answers["lean"] == answers["sdk"]
    assert answers["lean"]["error"]["code"] == -32601, answers
