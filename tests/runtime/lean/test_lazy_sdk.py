"""The lean engine on stdio serves without the SDK: a session of every method the engine takes
(discovery, calls, resources, prompts, completion, ping, logging, subscriptions, cancellation,
and a handler that elicits on the handshake wire) never imports ``mcp``; the first method the
engine bridges to the SDK imports it then, and is answered as before.

A generated package (``MANIFEST``, ``HANDLERS``) is spawned over stdio (``python -m``, the
fast boot included) and driven line by line; its ``modules`` tool reports, in band, the SDK
modules the process has imported. On the code before this change the SDK was imported at
start (the bridge needed a built SDK ``Server``), so the first test failed there.

The protocol errors a handler raises, the runtime's ``RequestError`` and the SDK's
``MCPError``, are answered alike by both engines. Bridged methods on the weather example:
``test_bridge_stdio``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.driver import MODERN_META
from tests.runtime.lean.stdio_session import Session, initialize, text
from tests.server.helpers import write_package

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


@pytest.fixture
def session(package: Path) -> Iterator[Session]:
    s = Session(package, "lazy_server")
    yield s
    s.close()


def _sdk_modules(s: Session, rid: Any, meta: dict[str, Any] | None = None) -> str:
    params: dict[str, Any] = {"name": "modules", "arguments": {}}
    if meta is not None:
        params["_meta"] = meta
    result = s.call(rid, "tools/call", params)["result"]
    text: str = result["content"][0]["text"]
    return text


def test_a_handshake_session_of_lean_methods_never_imports_the_sdk(session: Session) -> None:
    s = session
    initialize(s, {"elicitation": {}})
    for rid, method in enumerate(
        ("tools/list", "resources/list", "resources/templates/list", "prompts/list", "ping")
    ):
        assert "result" in s.call(f"list-{rid}", method), method
    assert text(s.call(1, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})) == "3"
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
    assert text(s.answer(13)) == "hello Ada"
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
    assert text(added) == "4"
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
        initialize(s)
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
            initialize(s)
        else:
            meta = dict(MODERN_META)
        assert _sdk_modules(s, 1, meta) == ""
        unknown = s.call(2, "custom/method", {"_meta": meta} if meta is not None else {})
        assert unknown["error"]["code"] == -32601, unknown
        assert "mcp.server.lowlevel" in _sdk_modules(s, 3, meta).split()
        added = {"name": "add", "arguments": {"a": 1, "b": 1}}
        if meta is not None:
            added["_meta"] = meta
        assert text(s.call(4, "tools/call", added)) == "2"  # the engine goes on
    finally:
        s.close()


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
                initialize(s)
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
