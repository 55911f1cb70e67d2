"""Tasks and cancellation through the discovery meta-tools (issue 52, "nothing widens"): a
task-augmented ``call_tool`` call answers what the direct call answers (a task, polled to the
tool's result; a tool that requires a task refused without the extension; ``tasks/cancel``
stops it), and ``notifications/cancelled`` of a ``call_tool`` or ``execute`` request cancels
the tool it runs. Raw JSON-RPC on the lean engine (stdio, HTTP) and the SDK engine."""

from __future__ import annotations

import copy
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.interop.wire import HttpPeer, StdioPeer
from tests.runtime.tasks import common
from tests.runtime.tasks.common import EXT, Client, http_server

HOLD = {
    "name": "hold",
    "description": "Waits a long time; writes a mark when it is cancelled.",
    "inputSchema": {
        "type": "object",
        "properties": {"tag": {"type": "string"}},
        "required": ["tag"],
    },
}
HANDLERS = common.HANDLERS.replace(
    "from ._generated.models import AskInput,",
    "from ._generated.models import HoldInput, AskInput,",
) + (
    """

async def hold(self, args: HoldInput, ctx: ToolContext) -> str:
    marks = os.environ["HOLD_MARKS"]
    with open(os.path.join(marks, args.tag + ".started"), "w") as f:
        f.write("started")
    try:
        await asyncio.sleep(60)
    except asyncio.CancelledError:
        with open(os.path.join(marks, args.tag), "w") as f:
            f.write("cancelled")
        raise
    return "held"


Handlers.hold = hold
"""
)


def _write(out: Path, mode: str) -> Path:
    from tests.server.helpers import write_package

    manifest = copy.deepcopy(common.MANIFEST)
    manifest["server"]["discovery"] = {"mode": mode}
    manifest["tools"].append(HOLD)
    path = out / "tools.json"
    path.write_text(json.dumps(manifest))
    write_package(path, out, "tasked", HANDLERS)
    return out


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write(tmp_path_factory.mktemp("tasked-search"), "search")


@pytest.fixture(scope="module")
def code_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("pydantic_monty")
    return _write(tmp_path_factory.mktemp("tasked-code"), "code")


@pytest.fixture(scope="module", params=["stdio", "http", "http-sdk"])
def client(request: pytest.FixtureRequest, package: Path) -> Iterator[Client]:
    if request.param == "stdio":
        peer = common.stdio(package)
        try:
            yield Client(peer)
        finally:
            peer.close()
        return
    server = http_server(package, *(["--engine", "sdk"] if request.param == "http-sdk" else []))
    server.start()
    http = HttpPeer(server.url, modern=True)
    try:
        yield Client(http)
    finally:
        http.close()
        server.stop()


def _via(client: Client, name: str, args: dict[str, Any], *, tasks: bool = True) -> Any:
    return client.call("call_tool", {"name": name, "arguments": args}, tasks=tasks)


def _text(result: dict[str, Any]) -> str:
    return str(result["content"][0]["text"])


def test_a_task_through_call_tool_is_the_direct_calls_task(client: Client) -> None:
    direct = client.call("work", {"seconds": 0.3})["result"]
    via = _via(client, "work", {"seconds": 0.3})["result"]
    assert via["resultType"] == direct["resultType"] == "task", via
    assert via["status"] == "working"
    assert set(via) == set(direct)
    assert via["pollIntervalMs"] == direct["pollIntervalMs"] == 50
    done = client.until(via["taskId"], "completed", "failed")
    assert done["status"] == "completed", done
    assert _text(done["result"]).startswith("worked 0.3 s"), done
    # without the extension, the same call runs to its answer at once, as a direct one does
    plain = _via(client, "work", {"seconds": 0}, tasks=False)["result"]
    assert "taskId" not in plain and _text(plain).startswith("worked 0 s")


def test_a_tool_that_requires_a_task_is_refused_alike_through_call_tool(client: Client) -> None:
    direct = client.call("export", {"seconds": 0}, tasks=False)
    via = _via(client, "export", {"seconds": 0}, tasks=False)
    assert via["error"]["code"] == direct["error"]["code"] == -32021, via
    assert via["error"]["data"] == {"requiredCapabilities": {"extensions": {EXT: {}}}}


def test_tasks_cancel_stops_a_task_made_through_call_tool(client: Client) -> None:
    task_id = _via(client, "export", {"seconds": 30})["result"]["taskId"]
    ack = client.rpc("tasks/cancel", {"taskId": task_id})
    assert ack["result"]["resultType"] == "complete", ack
    assert client.until(task_id, "cancelled", "completed")["status"] == "cancelled"


# -- notifications/cancelled -------------------------------------------------------------------


def _stdio(package: Path, engine: str, marks: Path) -> StdioPeer:
    env = {
        **common.env(package),
        "MCPGEN_ENGINE": engine,
        "HOLD_MARKS": str(marks),
    }
    return StdioPeer([sys.executable, "-m", "tasked"], env=env)


def _cancel_and_see_the_tool_cancelled(peer: StdioPeer, call: dict[str, Any], mark: Path) -> None:
    init = peer.request(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    )
    assert "result" in init, init
    peer.notify("notifications/initialized")
    peer.send({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": call})
    started = mark.with_name(mark.name + ".started")
    deadline = time.monotonic() + 30
    while not started.exists():  # the tool is running (it waits 60 s)
        assert time.monotonic() < deadline, f"the tool never started: {peer.received}"
        time.sleep(0.05)
    assert not mark.exists()
    peer.notify("notifications/cancelled", {"requestId": 99, "reason": "changed my mind"})
    deadline = time.monotonic() + 15
    while not mark.exists():
        assert time.monotonic() < deadline, "the tool behind the cancelled request kept running"
        time.sleep(0.05)
    assert mark.read_text() == "cancelled"
    assert peer.request("ping")["result"] == {}  # the server goes on
    assert all(m.get("id") != 99 for m in peer.received if isinstance(m, dict))


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_cancelling_a_call_tool_request_cancels_the_tool(
    package: Path, engine: str, tmp_path: Path
) -> None:
    with _stdio(package, engine, tmp_path) as peer:
        call = {"name": "call_tool", "arguments": {"name": "hold", "arguments": {"tag": "via"}}}
        _cancel_and_see_the_tool_cancelled(peer, call, tmp_path / "via")


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_cancelling_an_execute_request_cancels_the_tool_its_code_awaits(
    code_package: Path, engine: str, tmp_path: Path
) -> None:
    with _stdio(code_package, engine, tmp_path) as peer:
        call = {"name": "execute", "arguments": {"code": 'await hold(tag="code")'}}
        _cancel_and_see_the_tool_cancelled(peer, call, tmp_path / "code")


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_cancelling_a_direct_request_cancels_the_tool(
    package: Path, engine: str, tmp_path: Path
) -> None:
    """The control: the direct call of the same tool."""
    with _stdio(package, engine, tmp_path) as peer:
        call = {"name": "hold", "arguments": {"tag": "direct"}}
        _cancel_and_see_the_tool_cancelled(peer, call, tmp_path / "direct")


@pytest.fixture(scope="module", params=["stdio", "http-sdk"])
def code_client(request: pytest.FixtureRequest, code_package: Path) -> Iterator[Client]:
    if request.param == "stdio":
        peer = common.stdio(code_package)
        try:
            yield Client(peer)
        finally:
            peer.close()
        return
    server = http_server(code_package, "--engine", "sdk")
    server.start()
    http = HttpPeer(server.url, modern=True)
    try:
        yield Client(http)
    finally:
        http.close()
        server.stop()


def test_a_tool_called_from_execute_is_never_a_task(code_client: Client) -> None:
    """The code awaits the tool's value: a task-capable tool runs to its answer even when the
    execute request declares the tasks extension, and a task-only tool is one clear error."""
    ran = code_client.call("execute", {"code": "await work(seconds=0.2)"})["result"]
    assert ran.get("isError") is not True and "taskId" not in ran, ran
    assert ran["structuredContent"]["result"].startswith("worked 0.2 s")
    refused = code_client.call("execute", {"code": "await export(seconds=0)"})["result"]
    assert refused["isError"] is True
    assert "'export' runs only as a task, which code cannot wait for" in _text(refused)
