"""Three replicas of one generated server on one real Redis (``--state redis://...``) behave as
one server: a rate limit holds for all of them together, and a tool disabled through one
vanishes from the others' lists and is announced to their listeners, on both wires."""

from __future__ import annotations

import json
import os
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.interop.procs import HttpServer, free_port
from tests.interop.wire import HttpPeer, modern_meta
from tests.server.helpers import write_package
from tests.state.conftest import RedisServer

MANIFEST = {
    "server": {"name": "replicated", "version": "1.0.0"},
    "resources": [
        {"uri": "test://status", "name": "status", "mimeType": "text/plain", "text": "ok"}
    ],
    "tools": [
        {
            "name": "touch",
            "description": "Announces an update of a resource, or enables or disables it.",
            "inputSchema": {
                "type": "object",
                "properties": {"uri": {"type": "string"}, "enabled": {"type": "boolean"}},
                "required": ["uri"],
            },
        },
        {
            "name": "limited",
            "description": "One call per second, bursts of five, for all replicas together.",
            "inputSchema": {"type": "object", "properties": {}},
            "x-mcpgen": {"limits": {"rateLimit": {"perSecond": 1, "burst": 5}}},
        },
        {
            "name": "toggle",
            "description": "Enables or disables a tool.",
            "inputSchema": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "enabled": {"type": "boolean"}},
                "required": ["name", "enabled"],
            },
        },
        {
            "name": "ask",
            "description": "Asks the user's name; says which replica answered.",
            "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
        },
        {
            "name": "count",
            "description": "Reports n steps of progress, then says it counted.",
            "inputSchema": {
                "type": "object",
                "properties": {"n": {"type": "integer"}},
                "required": ["n"],
            },
        },
        {
            "name": "echo",
            "description": "Echoes text with the replica's pid.",
            "inputSchema": {
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"],
            },
        },
    ],
}

HANDLERS = textwrap.dedent(
    """
    from __future__ import annotations

    import os

    from mcpgen_runtime import ToolContext

    from pydantic import BaseModel

    from ._generated import ReplicatedToolsBase
    from ._generated.models import (
        AskInput,
        CountInput,
        EchoInput,
        LimitedInput,
        ToggleInput,
        TouchInput,
    )


    class Name(BaseModel):
        name: str


    class Handlers(ReplicatedToolsBase):
        async def ask(self, args: AskInput, ctx: ToolContext) -> str:
            answer = await ctx.elicit(Name, "Your name?", key="name")
            return f"name={answer.data.name if answer.data else '-'} pid={os.getpid()}"

        async def limited(self, args: LimitedInput, ctx: ToolContext) -> str:
            return f"ok pid={os.getpid()}"

        async def count(self, args: CountInput, ctx: ToolContext) -> str:
            for i in range(args.n):
                await ctx.progress(i + 1, args.n, f"step {i + 1}")
            return f"counted {args.n} pid={os.getpid()}"

        async def touch(self, args: TouchInput, ctx: ToolContext) -> str:
            if args.enabled is None:
                await ctx.resource_updated(args.uri)
                return "updated"
            return f"changed={await ctx.set_resource_enabled(args.uri, args.enabled)}"

        async def toggle(self, args: ToggleInput, ctx: ToolContext) -> str:
            changed = await ctx.set_tool_enabled(args.name, args.enabled)
            return f"changed={changed} pid={os.getpid()}"

        async def echo(self, args: EchoInput, ctx: ToolContext) -> str:
            return f"{args.text} pid={os.getpid()}"
    """
)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("replicated")
    manifest = out / "tools.json"
    manifest.write_text(json.dumps(MANIFEST))
    write_package(manifest, out, "replicated", HANDLERS)
    return out


def replica(package: Path, *args: str, env: dict[str, str] | None = None) -> HttpServer:
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")},
        "PYTHONPATH": str(package),
        **(env or {}),
    }
    return HttpServer(
        cmd=[sys.executable, "-m", "replicated", "--http", "--port", str(port), *args],
        env=env,
        port=port,
    )


@pytest.fixture(scope="module")
def replicas(package: Path, redis_server: RedisServer) -> Iterator[list[HttpServer]]:
    servers = [replica(package, "--state", redis_server.url) for _ in range(3)]
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.stop()


def call(url: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    peer = HttpPeer(url, modern=True)
    try:
        res = peer.request("tools/call", {"name": name, "arguments": args, "_meta": modern_meta()})
    finally:
        peer.close()
    assert "result" in res, res
    return dict(res["result"])


def tool_names(url: str) -> list[str]:
    peer = HttpPeer(url, modern=True)
    try:
        res = peer.request("tools/list", {"_meta": modern_meta()})
    finally:
        peer.close()
    return [t["name"] for t in res["result"]["tools"]]


def test_a_rate_limit_holds_for_all_replicas_together(replicas: list[HttpServer]) -> None:
    """1/s with bursts of 5 (on Redis: 5 calls per 5 s window), 30 calls spread round-robin
    over 3 replicas inside one window: 5 admitted in all (15 or more if each replica kept its
    own)."""
    started = time.monotonic()
    results = [call(replicas[i % 3].url, "limited", {}) for i in range(30)]
    elapsed = time.monotonic() - started
    assert elapsed < 5.0, f"the calls took {elapsed:.2f} s: not inside one window"
    admitted = [r for r in results if not r.get("isError")]
    assert len(admitted) == 5, [r["content"][0]["text"] for r in results]
    pids = {r["content"][0]["text"].split("pid=")[1] for r in admitted}
    assert len(pids) >= 2, "the admitted calls should come from several replicas"
    refused = [r for r in results if r.get("isError")]
    assert all("rate limited" in r["content"][0]["text"] for r in refused)
    assert all(r["_meta"]["io.mcpgen/retryAfterSeconds"] > 0 for r in refused)


def test_without_shared_state_each_replica_keeps_its_own_limit(package: Path) -> None:
    """The control: the same 30 calls on 3 replicas without ``--state`` admit at least 15
    (each replica's own burst of 5, plus what its bucket refills meanwhile)."""
    servers = [replica(package) for _ in range(3)]
    try:
        for s in servers:
            s.start()
        results = [call(servers[i % 3].url, "limited", {}) for i in range(30)]
    finally:
        for s in servers:
            s.stop()
    assert len([r for r in results if not r.get("isError")]) >= 15


class SseReader(threading.Thread):
    """Reads one SSE response in the background, keeping each JSON-RPC message."""

    def __init__(self, client: httpx.Client, method: str, url: str, **kw: Any) -> None:
        super().__init__(daemon=True)
        self.client, self.method, self.url, self.kw = client, method, url, kw
        self.messages: list[dict[str, Any]] = []
        self.open = threading.Event()

    def run(self) -> None:
        try:
            with self.client.stream(self.method, self.url, **self.kw) as resp:
                self.open.set()
                for line in resp.iter_lines():
                    if line.startswith("data:") and line[5:].strip():
                        self.messages.append(json.loads(line[5:]))
        except httpx.HTTPError:
            pass

    def saw(self, method: str, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(m.get("method") == method for m in self.messages):
                return True
            time.sleep(0.05)
        return False


def handshake_session(client: httpx.Client, url: str) -> str:
    init = client.post(
        url,
        json={
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "replica-test", "version": "1"},
            },
        },
        headers={"Accept": "application/json, text/event-stream"},
    )
    session = init.headers["mcp-session-id"]
    done = client.post(
        url,
        json={"jsonrpc": "2.0", "method": "notifications/initialized"},
        headers={
            "Accept": "application/json, text/event-stream",
            "Mcp-Session-Id": session,
            "MCP-Protocol-Version": "2025-11-25",
        },
    )
    assert done.status_code == 202
    return session


def test_a_tool_disabled_through_one_replica_vanishes_everywhere(
    replicas: list[HttpServer],
) -> None:
    a, b, c = replicas
    with httpx.Client(timeout=30) as legacy_client, httpx.Client(timeout=30) as modern_client:
        # a handshake-wire session on C with its standalone SSE stream
        session = handshake_session(legacy_client, c.url)
        legacy = SseReader(
            legacy_client,
            "GET",
            c.url,
            headers={
                "Accept": "text/event-stream",
                "Mcp-Session-Id": session,
                "MCP-Protocol-Version": "2025-11-25",
            },
        )
        # a 2026-07-28 subscriptions/listen stream on C
        modern = SseReader(
            modern_client,
            "POST",
            c.url,
            json={
                "jsonrpc": "2.0",
                "id": 7,
                "method": "subscriptions/listen",
                "params": {"notifications": {"toolsListChanged": True}, "_meta": modern_meta()},
            },
            headers={
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2026-07-28",
                "Mcp-Method": "subscriptions/listen",
            },
        )
        legacy.start()
        modern.start()
        assert legacy.open.wait(10) and modern.open.wait(10)
        time.sleep(0.3)  # both streams registered on C
        try:
            assert "echo" in tool_names(b.url) and "echo" in tool_names(c.url)
            res = call(a.url, "toggle", {"name": "echo", "enabled": False})
            assert res["content"][0]["text"].startswith("changed=True"), res
            for r in (a, b, c):
                deadline = time.monotonic() + 5
                while "echo" in tool_names(r.url):
                    assert time.monotonic() < deadline, f"echo still listed on {r.url}"
                    time.sleep(0.05)
            assert legacy.saw("notifications/tools/list_changed"), legacy.messages
            assert modern.saw("notifications/tools/list_changed"), modern.messages
            gone = HttpPeer(b.url, modern=True)
            try:
                err = gone.request(
                    "tools/call",
                    {"name": "echo", "arguments": {"text": "x"}, "_meta": modern_meta()},
                )
            finally:
                gone.close()
            assert "error" in err and "Unknown tool" in err["error"]["message"]
        finally:
            call(b.url, "toggle", {"name": "echo", "enabled": True})
        deadline = time.monotonic() + 5
        while "echo" not in tool_names(a.url):
            assert time.monotonic() < deadline, "echo not back on A"
            time.sleep(0.05)


def test_replicas_without_a_configured_key_are_warned(replicas: list[HttpServer]) -> None:
    """Shared state without a shared requestState key: each replica would seal with a key of
    its own; each says so as it starts."""
    for r in replicas:
        assert "no requestState key is configured" in r.output()


def test_a_replica_started_later_sees_the_shared_switches(
    package: Path, replicas: list[HttpServer], redis_server: RedisServer
) -> None:
    call(replicas[0].url, "toggle", {"name": "echo", "enabled": False})
    late = replica(package, "--state", redis_server.url)
    late.start()
    try:
        assert "echo" not in tool_names(late.url)
    finally:
        late.stop()
        call(replicas[0].url, "toggle", {"name": "echo", "enabled": True})


def test_resource_updates_and_switches_reach_every_replica(replicas: list[HttpServer]) -> None:
    a, b, c = replicas
    with httpx.Client(timeout=30) as client:
        listener = SseReader(
            client,
            "POST",
            c.url,
            json={
                "jsonrpc": "2.0",
                "id": 3,
                "method": "subscriptions/listen",
                "params": {
                    "notifications": {
                        "resourcesListChanged": True,
                        "resourceSubscriptions": ["test://status"],
                    },
                    "_meta": modern_meta(),
                },
            },
            headers={
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2026-07-28",
                "Mcp-Method": "subscriptions/listen",
            },
        )
        listener.start()
        assert listener.open.wait(10)
        time.sleep(0.3)
        assert call(a.url, "touch", {"uri": "test://status"})["content"][0]["text"] == "updated"
        assert listener.saw("notifications/resources/updated"), listener.messages
        try:
            assert call(a.url, "touch", {"uri": "test://status", "enabled": False})
            assert listener.saw("notifications/resources/list_changed"), listener.messages
            deadline = time.monotonic() + 5
            while True:
                peer = HttpPeer(b.url, modern=True)
                try:
                    listed = peer.request("resources/list", {"_meta": modern_meta()})
                finally:
                    peer.close()
                if listed["result"]["resources"] == []:
                    break
                assert time.monotonic() < deadline, listed
                time.sleep(0.05)
        finally:
            call(a.url, "touch", {"uri": "test://status", "enabled": True})
