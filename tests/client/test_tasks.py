"""Task tools (the tasks extension, ``io.modelcontextprotocol/tasks``) through a generated
client and its CLI: the typed method declares the extension and returns a ``TaskHandle``
(typed result, status, input requests answered, cancel); the same method gets the plain result
from a server without the extension. The server is ``tasks_peer`` (an SDK low-level ``Server``
speaking the extension's wire, in-process on the 2026-07-28 wire, or over stdio for the CLI)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from tests.client.helpers import REPO, imported, mcpgen, write_client
from tests.client.tasks_peer import MANIFEST, make_server


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("tasks")
    path = out / "jobs.json"
    path.write_text(json.dumps(MANIFEST))
    write_client(path, out, "jobs_client")
    with imported(out, "jobs_client") as module:
        yield module.JobsClient


def run(client_cls: Any, server: Any, body: Any, **options: Any) -> Any:
    async def go() -> Any:
        async with client_cls(server, **options) as c:
            return await body(c)

    return anyio.run(go)


def test_a_task_tool_returns_a_handle_with_the_typed_result(jobs: Any) -> None:
    log: list[dict[str, Any]] = []
    seen: list[tuple[str, str | None]] = []

    async def body(c: Any) -> Any:
        handle = await c.export(n=7)
        assert handle.task_id == "task-1" and handle.status == "working" and not handle.done
        out = await handle.result(on_update=lambda h: seen.append((h.status, h.status_message)))
        assert handle.done and handle.status == "completed"
        return out

    out = run(jobs, make_server(log), body, mode="2026-07-28")
    assert type(out).__name__ == "ExportOutput" and out.rows == 7
    assert seen == [("working", "row 1 of 2"), ("working", "row 2 of 2"), ("completed", None)]
    assert log[0] == {"method": "tools/call", "name": "export", "declared": True}
    assert [e["method"] for e in log[1:]] == ["tasks/get"] * 3
    assert {e["task"] for e in log[1:]} == {"task-1"}


def test_the_same_method_gets_the_plain_result_without_the_extension(jobs: Any) -> None:
    """A server without the extension answers plainly: the handle is complete at once, with
    the same typed result; a legacy connection does not declare the extension at all."""
    log: list[dict[str, Any]] = []

    async def body(c: Any) -> Any:
        handle = await c.export(n=3)
        assert handle.task_id is None and handle.done and handle.status == "completed"
        await handle.cancel()  # nothing to cancel: no request
        return await handle  # awaiting the handle is result()

    assert run(jobs, make_server(log, tasks=False), body, mode="2026-07-28").rows == 3
    assert [e["method"] for e in log] == ["tools/call"]

    legacy: list[dict[str, Any]] = []
    assert run(jobs, make_server(legacy), body, mode="legacy").rows == 3
    assert legacy == [{"method": "tools/call", "name": "export", "declared": False}]


def test_a_task_only_tool_on_a_client_without_the_extension_is_32021(jobs: Any) -> None:
    from mcpgen_runtime import ProtocolError

    async def body(c: Any) -> Any:
        return await c.ask()

    with pytest.raises(ProtocolError) as info:
        run(jobs, make_server([]), body, mode="legacy")
    assert info.value.code == -32021


def test_input_requests_are_answered_by_the_callbacks(jobs: Any) -> None:
    log: list[dict[str, Any]] = []
    asked: list[str] = []

    async def elicit(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"ok": True})

    async def body(c: Any) -> Any:
        return (await (await c.ask()).result()).text

    text = run(jobs, make_server(log), body, mode="2026-07-28", elicitation_callback=elicit)
    assert asked == ["Proceed?"]  # once, though polls saw the request until it was answered
    assert "'action': 'accept'" in text and "'ok': True" in text
    updates = [e for e in log if e["method"] == "tasks/update"]
    assert len(updates) == 1
    assert updates[0]["responses"] == {"confirm": {"action": "accept", "content": {"ok": True}}}


def test_input_requests_answered_by_hand(jobs: Any) -> None:
    log: list[dict[str, Any]] = []

    async def body(c: Any) -> Any:
        handle = await c.ask()

        async def on_update(h: Any) -> None:
            if h.input_requests:
                assert list(h.input_requests) == ["confirm"]
                assert h.input_requests["confirm"]["method"] == "elicitation/create"
                await h.answer({"confirm": {"action": "decline"}})
                assert h.input_requests == {}  # answered: not offered again

        return (await handle.result(on_update=on_update, answer_inputs=False)).text

    assert "decline" in run(jobs, make_server(log), body, mode="2026-07-28")


def test_cancel_and_failure_are_typed_errors(jobs: Any) -> None:
    from mcpgen_runtime import ProtocolError, TaskCancelledError

    log: list[dict[str, Any]] = []

    async def cancelled(c: Any) -> Any:
        handle = await c.slow()
        await handle.refresh()
        assert handle.status == "working"
        await handle.cancel()
        return await handle.result()

    with pytest.raises(TaskCancelledError, match="task-1 was cancelled"):
        run(jobs, make_server(log), cancelled, mode="2026-07-28")
    assert {"method": "tasks/cancel", "task": "task-1"} in log

    async def broken(c: Any) -> Any:
        return await (await c.broken()).result()

    with pytest.raises(ProtocolError, match="disk full") as info:
        run(jobs, make_server([]), broken, mode="2026-07-28")
    assert info.value.code == -32603


def test_a_malformed_task_result_is_a_typed_error(jobs: Any) -> None:
    from mcpgen_runtime import InvalidResultError

    async def body(c: Any) -> Any:
        return await (await c.garbled()).result()

    with pytest.raises(InvalidResultError, match="ended completed without a valid result"):
        run(jobs, make_server([]), body, mode="2026-07-28")


def test_an_unknown_task_is_a_typed_error(jobs: Any) -> None:
    from mcpgen_runtime import ProtocolError, TaskHandle
    from mcpgen_runtime.client.task_wire import CreateTaskResult

    async def body(c: Any) -> Any:
        handle: TaskHandle[Any] = TaskHandle(
            "export", lambda r: r, session=c.mcp.session, created=CreateTaskResult(task_id="nope")
        )
        await handle.refresh()

    with pytest.raises(ProtocolError, match="unknown task") as info:
        run(jobs, make_server([]), body, mode="2026-07-28")
    assert info.value.code == -32602


def test_the_sdk_call_path_follows_the_task_to_its_result(jobs: Any) -> None:
    """``client.mcp.call_tool`` (no handle): the extension's claim polls to the end."""
    log: list[dict[str, Any]] = []

    async def body(c: Any) -> Any:
        return await c.mcp.call_tool("export", {"n": 2})

    result = run(jobs, make_server(log), body, mode="2026-07-28")
    assert result.structured_content == {"rows": 2}
    assert [e["method"] for e in log].count("tasks/get") == 3


def test_a_plain_tool_keeps_its_plain_method(jobs: Any) -> None:
    async def body(c: Any) -> Any:
        return await c.plain()

    out = run(jobs, make_server([]), body, mode="2026-07-28")
    assert type(out).__name__ == "CallResult" and out.text == "plain done"


# -- the generated CLI ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tasks_cli")
    path = out / "jobs.json"
    path.write_text(json.dumps(MANIFEST))
    done = mcpgen("cli", str(path), "--out", str(out), "--package", "jobs_cli")
    assert done.returncode == 0, done.stderr
    return out


def _cli(out: Path, log: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": f"{out}{os.pathsep}{REPO}"}
    server = f"{sys.executable} -m tests.client.tasks_peer {log}"
    return subprocess.Popen(
        [sys.executable, "-m", "jobs_cli", "--stdio", server, *args],
        env=env,
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_the_cli_shows_the_task_status_and_prints_the_result(cli_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    p = _cli(cli_dir, log, "export", "--n", "4")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    assert json.loads(out) == {"rows": 4}
    assert err.splitlines() == [
        "task task-1: working",
        "task task-1: working: row 1 of 2",
        "task task-1: working: row 2 of 2",
        "task task-1: completed",
    ]


def test_ctrl_c_in_the_cli_cancels_the_task(cli_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    p = _cli(cli_dir, log, "slow")
    assert p.stderr is not None
    first = p.stderr.readline()  # the task exists once its first status is shown
    assert first.strip() == "task task-1: working", first
    deadline = time.monotonic() + 30
    while not any(e["method"] == "tasks/get" for e in _log(log)):
        assert time.monotonic() < deadline, "no poll"
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "task task-1: cancel requested" in err and "interrupted" in err
    assert "Traceback" not in err and out == ""
    assert {"method": "tasks/cancel", "task": "task-1"} in _log(log)
