"""The lean engine on stdio serves without the SDK: a session of every method the engine takes
(discovery, calls, resources, prompts, completion, ping, logging, subscriptions, cancellation,
and a handler that elicits on the handshake wire) never imports ``mcp``; the first method the
engine bridges to the SDK imports it then, and is answered as before.

A generated package (``MANIFEST``, ``HANDLERS``) is spawned over stdio (``python -m``, the
fast boot included) and driven line by line; its ``modules`` tool reports, in band, the SDK
modules the process has imported. On the code before this change the SDK was imported at
start (the bridge needed a built SDK ``Server``), so the first test failed there.

The protocol errors a handler raises, the runtime's ``RequestError`` and the SDK's
``MCPError``, are answered alike by both engines.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.driver import MODERN_META
from tests.server.helpers import write_package

REPO = Path(__file__).resolve().parents[3]
WEATHER = REPO / "examples" / "weather"

MANIFEST = """\
server:
  name: lazy
  version: 1.0.0

tools:
  - name: add
    description: Adds two numbers.
    inputSchema:
      type: object
      properties:
        a: {type: number}
        b: {type: number}
      required: [a, b]
  - name: ask_name
    description: Asks the user for a name.
    inputSchema: {type: object}
  - name: slow
    description: Waits until cancelled.
    inputSchema: {type: object}
  - name: refuse
    description: Answers with a JSON-RPC error (the runtime's RequestError).
    inputSchema: {type: object}
  - name: refuse_sdk
    description: Answers with a JSON-RPC error (the SDK's MCPError).
    inputSchema: {type: object}
  - name: modules
    description: The SDK modules this process has imported.
    inputSchema: {type: object}

resources:
  - uri: lazy://notes
    name: notes
    mimeType: text/plain
    text: "a note"

resourceTemplates:
  - uriTemplate: lazy://items/{item}
    name: item
    mimeType: text/plain
    variables:
      item: {type: string, minLength: 1, completions: [apple, apricot, banana]}

prompts:
  - name: greet
    description: Greets someone.
    arguments:
      - {name: who, required: true, completions: [Ada, Alan]}
    messages:
      - role: user
        text: "Say hello to {who}."
"""

HANDLERS = """\
from __future__ import annotations

import asyncio
import sys

from pydantic import BaseModel

from mcpgen_runtime import RequestError, ToolContext

from ._generated import ToolsBase
from ._generated.models import (
    AddInput,
    AskNameInput,
    ModulesInput,
    ReadItemInput,
    RefuseInput,
    RefuseSdkInput,
    SlowInput,
)


class Name(BaseModel):
    name: str


class Handlers(ToolsBase):
    async def add(self, args: AddInput, ctx: ToolContext) -> str:
        return f"{args.a + args.b:g}"

    async def ask_name(self, args: AskNameInput, ctx: ToolContext) -> str:
        answer = await ctx.elicit(Name, "Your name?")
        return f"hello {answer.data.name}" if answer.data is not None else answer.action

    async def slow(self, args: SlowInput, ctx: ToolContext) -> str:
        await asyncio.sleep(60)
        return "late"

    async def refuse(self, args: RefuseInput, ctx: ToolContext) -> str:
        raise RequestError(-32042, "refused by the handler", {"why": "runtime"})

    async def refuse_sdk(self, args: RefuseSdkInput, ctx: ToolContext) -> str:
        from mcp.shared.exceptions import MCPError

        raise MCPError(code=-32042, message="refused by the handler", data={"why": "runtime"})

    async def modules(self, args: ModulesInput, ctx: ToolContext) -> str:
        return " ".join(sorted(m for m in sys.modules if m == "mcp" or m.startswith("mcp.")))

    async def read_item(self, params: ReadItemInput, ctx: ToolContext) -> str:
        return f"item {params.item}"
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lazy")
    manifest = out / "lazy.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    write_package(manifest, out, "lazy_server", handlers=HANDLERS)
    return out


class Session:
    """One server process over stdio, driven a line at a time."""

    def __init__(self, package_dir: Path, package: str, engine: str = "lean") -> None:
        env = dict(os.environ, PYTHONPATH=str(package_dir), MCPGEN_ENGINE=engine)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", package],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=package_dir,
        )
        self.buf = b""
        self.early: list[dict[str, Any]] = []
        """Messages read while waiting for another (kept for ``next``)."""

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def next(self, timeout: float = 30.0) -> dict[str, Any]:
        """The next message from the server."""
        if self.early:
            return self.early.pop(0)
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            assert left > 0, "no answer in time"
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                assert chunk, "the server closed its output"
                self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        out: dict[str, Any] = json.loads(line)
        return out

    def answer(self, rid: Any, timeout: float = 30.0) -> dict[str, Any]:
        """The answer to request ``rid`` (other messages are kept for ``next``)."""
        skipped: list[dict[str, Any]] = []
        while True:
            msg = self.next(timeout)
            if msg.get("id") == rid and "method" not in msg:
                self.early = skipped + self.early
                return msg
            skipped.append(msg)

    def call(self, rid: Any, method: str, params: dict[str, Any] | None = None) -> Any:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.answer(rid)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def session(package: Path) -> Iterator[Session]:
    s = Session(package, "lazy_server")
    yield s
    s.close()


def _initialize(s: Session, capabilities: dict[str, Any] | None = None) -> None:
    init = s.call(
        "init",
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities or {},
            "clientInfo": {"name": "lazy-test", "version": "1"},
        },
    )
    assert "serverInfo" in init["result"], init
    s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})


def _sdk_modules(s: Session, rid: Any, meta: dict[str, Any] | None = None) -> str:
    params: dict[str, Any] = {"name": "modules", "arguments": {}}
    if meta is not None:
        params["_meta"] = meta
    result = s.call(rid, "tools/call", params)["result"]
    text: str = result["content"][0]["text"]
    return text


def _text(answer: dict[str, Any]) -> str:
    text: str = answer["result"]["content"][0]["text"]
    return text


def test_a_handshake_session_of_lean_methods_never_imports_the_sdk(session: Session) -> None:
    s = session
    _initialize(s, {"elicitation": {}})
    for rid, method in enumerate(
        ("tools/list", "resources/list", "resources/templates/list", "prompts/list", "ping")
    ):
        assert "result" in s.call(f"list-{rid}", method), method
    assert _text(s.call(1, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})) == "3"
    read = s.call(2, "resources/read", {"uri": "lazy://notes"})
    assert read["result"]["contents"][0]["text"] == "a note"
    read = s.call(3, "resources/read", {"uri": "lazy://items/pear"})
    assert read["result"]["contents"][0]["text"] == "item pear"
    got = s.call(4, "prompts/get", {"name": "greet", "arguments": {"who": "Ada"}})
    assert got["result"]["messages"][0]["content"]["text"] == "Say hello to Ada."
    completed = s.call(
        5,
        "completion/complete",
        {
            "ref": {"type": "ref/resource", "uri": "lazy://items/{item}"},
            "argument": {"name": "item", "value": "ap"},
        },
    )
    assert completed["result"]["completion"]["values"] == ["apple", "apricot"]
    assert s.call(6, "logging/setLevel", {"level": "info"})["result"] == {}
    assert s.call(7, "resources/subscribe", {"uri": "lazy://notes"})["result"] == {}
    assert s.call(8, "resources/unsubscribe", {"uri": "lazy://notes"})["result"] == {}
    unknown = s.call(9, "tools/call", {"name": "nope", "arguments": {}})
    assert unknown["error"]["code"] == -32602
    refused = s.call(10, "tools/call", {"name": "refuse", "arguments": {}})
    assert refused["error"] == {
        "code": -32042,
        "message": "refused by the handler",
        "data": {"why": "runtime"},
    }
    # cancellation: the slow call is never answered, the connection goes on
    s.send({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "slow"}})
    time.sleep(0.2)
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 11}})
    assert s.call(12, "ping")["result"] == {}
    # a server-to-client request from a handler (the lean engine's own, no SDK)
    s.send({"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {"name": "ask_name"}})
    ask = s.next()
    assert ask["method"] == "elicitation/create", ask
    s.send(
        {
            "jsonrpc": "2.0",
            "id": ask["id"],
            "result": {"action": "accept", "content": {"name": "Ada"}},
        }
    )
    assert _text(s.answer(13)) == "hello Ada"
    # the client answers the question with an error: the call gets that error
    s.send({"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": {"name": "ask_name"}})
    ask = s.next()
    s.send({"jsonrpc": "2.0", "id": ask["id"], "error": {"code": -32001, "message": "no user"}})
    assert s.answer(14)["error"] == {"code": -32001, "message": "no user"}
    assert _sdk_modules(s, 15) == ""
    assert all(m.get("id") != 11 for m in s.early), "a cancelled request was answered"


def test_a_2026_session_of_lean_methods_never_imports_the_sdk(session: Session) -> None:
    s = session
    meta = dict(MODERN_META)
    assert "result" in s.call(1, "server/discover", {"_meta": meta})
    assert "result" in s.call(2, "tools/list", {"_meta": meta})
    added = s.call(3, "tools/call", {"name": "add", "arguments": {"a": 2, "b": 2}, "_meta": meta})
    assert _text(added) == "4"
    read = s.call(4, "resources/read", {"uri": "lazy://items/fig", "_meta": meta})
    assert read["result"]["contents"][0]["text"] == "item fig"
    got = s.call(5, "prompts/get", {"name": "greet", "arguments": {"who": "Al"}, "_meta": meta})
    assert "result" in got
    refused = s.call(6, "tools/call", {"name": "refuse", "arguments": {}, "_meta": meta})
    assert refused["error"]["code"] == -32042
    assert _sdk_modules(s, 7, meta) == ""


def test_the_sdk_engine_imports_the_sdk(package: Path) -> None:
    """The probe sees the SDK where it is loaded (so an empty answer above means something)."""
    s = Session(package, "lazy_server", engine="sdk")
    try:
        _initialize(s)
        assert "mcp.server.lowlevel" in _sdk_modules(s, 1).split()
    finally:
        s.close()


@pytest.mark.parametrize("wire", ["handshake", "2026-07-28"])
def test_the_first_bridged_method_imports_the_sdk(package: Path, wire: str) -> None:
    """A method the engine does not serve goes to the SDK, which is imported then (and
    answers ``-32601`` for a method nobody serves, as it does alone)."""
    s = Session(package, "lazy_server")
    try:
        meta: dict[str, Any] | None = None
        if wire == "handshake":
            _initialize(s)
        else:
            meta = dict(MODERN_META)
        assert _sdk_modules(s, 1, meta) == ""
        unknown = s.call(2, "custom/method", {"_meta": meta} if meta is not None else {})
        assert unknown["error"]["code"] == -32601, unknown
        assert "mcp.server.lowlevel" in _sdk_modules(s, 3, meta).split()
        added = {"name": "add", "arguments": {"a": 1, "b": 1}}
        if meta is not None:
            added["_meta"] = meta
        assert _text(s.call(4, "tools/call", added)) == "2"  # the engine goes on
    finally:
        s.close()


@pytest.mark.parametrize("wire", ["handshake", "2026-07-28"])
def test_a_bridged_method_starts_the_sdk_and_is_answered(wire: str) -> None:
    """skills/list (the skills extension: registered on the SDK's server, bridged by the lean
    engine) on the weather example: the SDK is imported when it comes, not before, and it is
    answered as the SDK engine answers it."""
    answers = {}
    for engine in ("lean", "sdk"):
        s = Session(WEATHER, "weather_server", engine=engine)
        try:
            meta: dict[str, Any] | None = None
            if wire == "handshake":
                _initialize(s)
            else:
                meta = {
                    **MODERN_META,
                    "io.modelcontextprotocol/clientCapabilities": {
                        "extensions": {"io.modelcontextprotocol/skills": {}}
                    },
                }
            params: dict[str, Any] = {"name": "get_weather", "arguments": {"city": "Paris"}}
            if meta is not None:
                params["_meta"] = meta
            assert "result" in s.call(1, "tools/call", params)
            listed = s.call(2, "skills/list", {"_meta": meta} if meta is not None else {})
            answers[engine] = listed
            again = s.call(3, "skills/list", {"_meta": meta} if meta is not None else {})
            assert again == {**listed, "id": 3}
        finally:
            s.close()
    assert answers["lean"] == answers["sdk"]
    assert "result" in answers["lean"], answers["lean"]
    assert "reading-forecasts" in json.dumps(answers["lean"]["result"]["skills"])


@pytest.mark.parametrize("wire", ["handshake", "2026-07-28"])
def test_protocol_errors_from_handlers_are_answered_alike_by_both_engines(
    package: Path, wire: str
) -> None:
    """A handler's ``RequestError`` (the runtime's) and ``MCPError`` (the SDK's): the same
    JSON-RPC error on both engines and from both classes."""
    answers: dict[str, list[Any]] = {}
    for engine in ("lean", "sdk"):
        s = Session(package, "lazy_server", engine=engine)
        try:
            meta: dict[str, Any] | None = None
            if wire == "handshake":
                _initialize(s)
            else:
                meta = dict(MODERN_META)
            got = []
            for rid, tool in enumerate(("refuse", "refuse_sdk", "nope")):
                params: dict[str, Any] = {"name": tool, "arguments": {}}
                if meta is not None:
                    params["_meta"] = meta
                got.append(s.call(rid, "tools/call", params))
            answers[engine] = got
        finally:
            s.close()
    assert answers["lean"] == answers["sdk"]
    runtime, sdk, unknown = answers["lean"]
    assert (
        runtime["error"]
        == {**sdk["error"]}
        == {
            "code": -32042,
            "message": "refused by the handler",
            "data": {"why": "runtime"},
        }
    )
    assert unknown["error"] == {"code": -32602, "message": "Unknown tool: nope"}


def test_a_bridged_request_written_before_end_of_input_is_answered() -> None:
    """A client that writes its requests and closes its end gets every answer, the bridged
    ones too (the bridge waits for them before it stops the SDK, as the engine waits for its
    own; before, the SDK was stopped with the request unanswered)."""
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "lazy-test", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
    ]
    env = dict(os.environ, PYTHONPATH=str(WEATHER), MCPGEN_ENGINE="lean")
    out = subprocess.run(
        [sys.executable, "-m", "weather_server"],
        input=b"".join(json.dumps(m).encode() + b"\n" for m in lines),
        capture_output=True,
        env=env,
        cwd=WEATHER,
        timeout=60,
        check=True,
    )
    answered = {json.loads(line)["id"] for line in out.stdout.splitlines()}
    assert answered == {0, 1, 2}
