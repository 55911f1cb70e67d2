"""Task tools through a generated client and CLI against a real generated server: the committed
conformance example (``examples/conformance``, whose manifest holds the tasks extension's
fixture tools), over stdio, on the 2026-07-28 wire and on a legacy one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from tests.client.helpers import PY, REPO, imported, mcpgen, write_client

CONFORMANCE = REPO / "examples" / "conformance"
MANIFEST = CONFORMANCE / "tools.yaml"
SERVER = [PY, "-m", "conformance_server"]


def server_env() -> dict[str, str]:
    return {"PYTHONPATH": str(CONFORMANCE), "PATH": os.environ.get("PATH", "")}


@pytest.fixture(scope="module")
def conf(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("tasks_server")
    write_client(MANIFEST, out, "conf_client")
    with imported(out, "conf_client") as module:
        yield next(getattr(module, n) for n in module.__all__ if n.endswith("Client"))


async def answer(context: Any, params: Any) -> types.ElicitResult:
    if "Delete" in params.message:
        return types.ElicitResult(action="accept", content={"confirm": True})
    return types.ElicitResult(action="accept", content={"name": "Ada"})


def run(cls: Any, body: Any, **options: Any) -> Any:
    async def go() -> Any:
        async with cls.stdio(SERVER, env=server_env(), **options) as c:
            return await body(c)

    return anyio.run(go)


def test_tasks_on_the_2026_wire(conf: Any) -> None:
    from mcpgen_runtime import ProtocolError, TaskCancelledError, ToolCallError

    async def body(c: Any) -> dict[str, Any]:
        assert c.protocol_version == "2026-07-28"
        seen: list[tuple[str, str | None]] = []
        handle = await c.slow_compute(seconds=0.5, label="x")
        assert handle.task_id and handle.status == "working"
        assert handle.poll_interval == 0.2  # server.tasks.pollIntervalMs of the manifest
        text = (await handle.result(on_update=lambda h: seen.append(h.status_message))).text
        confirm = await (await c.confirm_delete(filename="a.txt")).result()
        before = await (await c.test_tool_with_task()).result()  # elicits before the task
        errors: dict[str, Exception] = {}
        for name, call in (("tool", c.failing_job), ("protocol", c.protocol_error_job)):
            try:
                await (await call()).result()
            except Exception as exc:  # noqa: BLE001 - compared below
                errors[name] = exc
        slow = await c.slow_compute(seconds=30)
        await slow.cancel()
        try:
            await slow.result()
        except Exception as exc:  # noqa: BLE001
            errors["cancel"] = exc
        return {
            "text": text,
            "seen": seen,
            "confirm": confirm.text,
            "before": before.text,
            "errors": errors,
        }

    got = run(conf, body, elicitation_callback=answer)
    assert got["text"] == "Computed x in 0.5 s"
    assert got["seen"][-1] is None and any(m and m.endswith("/5") for m in got["seen"])
    assert got["confirm"] == "Deleted a.txt"
    assert got["before"] == "Hello, Ada! Your task is done."
    assert isinstance(got["errors"]["tool"], ToolCallError)
    assert "input data is invalid" in str(got["errors"]["tool"])
    assert isinstance(got["errors"]["protocol"], ProtocolError)
    assert got["errors"]["protocol"].code == -32603
    assert isinstance(got["errors"]["cancel"], TaskCancelledError)


def test_the_same_methods_on_a_legacy_wire(conf: Any) -> None:
    """No extension on 2025-11-25: an optional tool answers plainly through the same method; a
    task-only tool is refused as the runtime says (-32601)."""
    from mcpgen_runtime import ProtocolError

    async def body(c: Any) -> Any:
        assert c.protocol_version == "2025-11-25"
        handle = await c.slow_compute(seconds=0.1)
        assert handle.task_id is None and handle.done
        text = (await handle).text
        with pytest.raises(ProtocolError) as info:
            await c.failing_job()
        assert info.value.code == -32601 and "only as a task" in str(info.value)
        return text

    assert run(conf, body, mode="legacy") == "Computed result in 0.1 s"


def test_the_sdk_call_path_gets_the_final_result(conf: Any) -> None:
    async def body(c: Any) -> Any:
        return await c.mcp.call_tool("slow_compute", {"seconds": 0.2, "label": "sdk"})

    result = run(conf, body)
    assert not result.is_error and result.content[0].text == "Computed sdk in 0.2 s"


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tasks_server_cli")
    done = mcpgen("cli", str(MANIFEST), "--out", str(out), "--package", "conf_cli")
    assert done.returncode == 0, done.stderr
    return out


def _cli(out: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": f"{out}{os.pathsep}{CONFORMANCE}"}
    return subprocess.Popen(
        [sys.executable, "-m", "conf_cli", "--stdio", " ".join(SERVER), *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_the_cli_shows_progress_and_ctrl_c_cancels(cli_dir: Path) -> None:
    p = _cli(cli_dir, "slow-compute", "--seconds", "0.6", "--label", "cli")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    assert json.loads(out)["content"][0]["text"] == "Computed cli in 0.6 s"
    lines = [x for x in err.splitlines() if x.startswith("task ")]
    assert lines[0].endswith(": working") and lines[-1].endswith(": completed")
    assert any(x.endswith("/6") for x in lines), lines  # ctx.progress as the status message

    p = _cli(cli_dir, "slow-compute", "--seconds", "60")
    assert p.stderr is not None
    line = p.stderr.readline()
    while not line.startswith("task "):
        assert line, "no task status"
        line = p.stderr.readline()
    task_id = line.split()[1].rstrip(":")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert f"task {task_id}: cancel requested" in err and "Traceback" not in err
