"""A server that speaks the tasks extension's wire (``io.modelcontextprotocol/tasks``, the
extension's specification, draft), for the client tests: an SDK low-level ``Server`` that
answers ``tools/call`` with a ``CreateTaskResult`` when the request declares the extension (and
``-32021`` for a task-only tool when it does not), and serves ``tasks/get``, ``tasks/update`` and
``tasks/cancel``. Each task's life is driven by its polls, so runs are deterministic:

* ``export``: two polls ``working`` (statusMessage ``row k of n``), then ``completed`` with
  ``structuredContent`` ``{"rows": n}``;
* ``ask``: ``input_required`` (an elicitation keyed ``confirm``) until ``tasks/update``
  answers it, then ``completed`` with the answer as text;
* ``slow``: ``working`` until ``tasks/cancel``; ``broken``: ``failed`` with a JSON-RPC error;
  ``garbled``: ``completed`` with a result that is not a ``CallToolResult``.

``tasks=False`` builds the same server without the extension: it answers every call plainly.
Every request's method, task id and whether it declared the extension go to ``log``.
"""

from __future__ import annotations

import itertools
from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.shared.exceptions import MCPError
from pydantic import ConfigDict

TASKS = "io.modelcontextprotocol/tasks"
CAPS = "io.modelcontextprotocol/clientCapabilities"

MANIFEST: dict[str, Any] = {
    "server": {"name": "jobs", "version": "1"},
    "protocol": ["2025-06-18", "2026-07-28"],
    "tools": [
        {
            "name": "export",
            "description": "Exports n rows.",
            "execution": {"taskSupport": "optional"},
            "inputSchema": {
                "type": "object",
                "properties": {"n": {"type": "integer", "description": "Rows."}},
                "required": ["n"],
            },
            "outputSchema": {
                "type": "object",
                "properties": {"rows": {"type": "integer"}},
                "required": ["rows"],
            },
        },
        {
            "name": "ask",
            "description": "Asks the user, then answers.",
            "execution": {"taskSupport": "required"},
            "inputSchema": {"type": "object"},
        },
        {
            "name": "slow",
            "description": "Never ends.",
            "execution": {"taskSupport": "optional"},
            "inputSchema": {"type": "object"},
        },
        {
            "name": "broken",
            "description": "Fails.",
            "execution": {"taskSupport": "optional"},
            "inputSchema": {"type": "object"},
        },
        {
            "name": "garbled",
            "description": "Completes without a result (a broken server).",
            "execution": {"taskSupport": "optional"},
            "inputSchema": {"type": "object"},
        },
        {"name": "plain", "description": "Never a task.", "inputSchema": {"type": "object"}},
    ],
}


class _TaskParams(types.RequestParams):
    model_config = ConfigDict(extra="allow")
    task_id: str
    input_responses: dict[str, Any] | None = None


def _declared(meta: Any) -> bool:
    raw = meta.model_dump(by_alias=True) if hasattr(meta, "model_dump") else (meta or {})
    caps = raw.get(CAPS) or {}
    return TASKS in (caps.get("extensions") or {})


def _result(name: str, args: dict[str, Any], answer: Any = None) -> dict[str, Any]:
    if name == "export":
        n = int(args.get("n", 0))
        return {
            "content": [{"type": "text", "text": f"{n} rows"}],
            "structuredContent": {"rows": n},
            "isError": False,
        }
    text = f"{name}: {answer}" if answer is not None else f"{name} done"
    return {"content": [{"type": "text", "text": text}], "isError": False}


def make_server(log: list[dict[str, Any]], *, tasks: bool = True, poll_ms: int = 10) -> Server[Any]:
    ids = itertools.count(1)
    live: dict[str, dict[str, Any]] = {}

    def view(t: dict[str, Any]) -> dict[str, Any]:
        out = {
            "taskId": t["id"],
            "status": t["status"],
            "createdAt": "2026-11-27T00:00:00Z",
            "lastUpdatedAt": "2026-11-27T00:00:00Z",
            "ttlMs": 60000,
            "pollIntervalMs": poll_ms,
        }
        for key in ("statusMessage", "inputRequests", "result", "error"):
            if t.get(key) is not None:
                out[key] = t[key]
        return out

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        tools = [{k: v for k, v in t.items() if k != "execution"} for t in MANIFEST["tools"]]
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in tools])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
        declared = _declared(params.meta)
        log.append({"method": "tools/call", "name": params.name, "declared": declared})
        support = next(
            (
                t.get("execution", {}).get("taskSupport", "forbidden")
                for t in MANIFEST["tools"]
                if t["name"] == params.name
            ),
            "forbidden",
        )
        if not tasks or support == "forbidden" or (support == "optional" and not declared):
            return types.CallToolResult.model_validate(_result(params.name, params.arguments or {}))
        if not declared:
            raise MCPError(
                -32021,
                "Missing required client capability",
                {"requiredCapabilities": {"extensions": {TASKS: {}}}},
            )
        t = {
            "id": f"task-{next(ids)}",
            "tool": params.name,
            "args": params.arguments or {},
            "status": "working",
            "polls": 0,
        }
        live[t["id"]] = t
        return {"resultType": "task", **view(t)}

    def advance(t: dict[str, Any]) -> None:
        if t["status"] in ("completed", "failed", "cancelled"):
            return
        t["polls"] += 1
        if t["tool"] == "export":
            n = int(t["args"].get("n", 0))
            if t["polls"] <= 2:
                t["statusMessage"] = f"row {t['polls']} of 2"
            else:
                t.update(
                    status="completed", statusMessage=None, result=_result("export", t["args"])
                )
            del n
        elif t["tool"] == "ask" and t["status"] == "working" and "answer" not in t:
            t["status"] = "input_required"
            t["inputRequests"] = {
                "confirm": {
                    "method": "elicitation/create",
                    "params": {
                        "mode": "form",
                        "message": "Proceed?",
                        "requestedSchema": {
                            "type": "object",
                            "properties": {"ok": {"type": "boolean"}},
                            "required": ["ok"],
                        },
                    },
                }
            }
        elif t["tool"] == "ask" and "answer" in t:
            t.update(status="completed", inputRequests=None, result=_result("ask", {}, t["answer"]))
        elif t["tool"] == "garbled":
            t.update(status="completed", result={"content": "not a list"})
        elif t["tool"] == "broken":
            t.update(status="failed", error={"code": -32603, "message": "disk full"})

    def find(params: _TaskParams) -> dict[str, Any]:
        t = live.get(params.task_id)
        if t is None:
            raise MCPError(-32602, f"unknown task {params.task_id!r}")
        return t

    async def get(ctx: Any, params: _TaskParams) -> dict[str, Any]:
        log.append({"method": "tasks/get", "task": params.task_id})
        t = find(params)
        advance(t)
        return {"resultType": "complete", **view(t)}

    async def update(ctx: Any, params: _TaskParams) -> dict[str, Any]:
        log.append(
            {"method": "tasks/update", "task": params.task_id, "responses": params.input_responses}
        )
        t = find(params)
        answer = (params.input_responses or {}).get("confirm")
        if answer is not None and t["status"] == "input_required":
            t.update(status="working", inputRequests=None, answer=answer)
        return {"resultType": "complete"}

    async def cancel(ctx: Any, params: _TaskParams) -> dict[str, Any]:
        log.append({"method": "tasks/cancel", "task": params.task_id})
        t = find(params)
        if t["status"] not in ("completed", "failed", "cancelled"):
            t.update(status="cancelled", statusMessage="cancelled by the client")
        return {"resultType": "complete"}

    server: Server[Any] = Server("jobs", on_list_tools=list_tools, on_call_tool=call_tool)
    if tasks:
        server.add_request_handler("tasks/get", _TaskParams, get)
        server.add_request_handler("tasks/update", _TaskParams, update)
        server.add_request_handler("tasks/cancel", _TaskParams, cancel)
        server.extensions = {TASKS: {}}
    return server


class _FileLog(list):  # type: ignore[type-arg]
    """The log as JSON lines in a file (the stdio server runs in another process)."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def append(self, item: Any) -> None:
        import json

        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(item, default=str) + "\n")


def main() -> None:
    """``python -m tests.client.tasks_peer LOGFILE``: the server over stdio."""
    import sys

    import anyio
    from mcp.server.stdio import stdio_server

    server = make_server(_FileLog(sys.argv[1]), poll_ms=50)

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)


if __name__ == "__main__":
    main()
