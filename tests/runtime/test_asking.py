"""Asking the user (elicitation / sampling / roots) from a handler, on every revision.

The server is the generated conformance example (examples/conformance), run in process by
the SDK; the peers are the official ``mcp.Client`` (which answers server-to-client requests on
handshake revisions and retries ``InputRequiredResult`` on 2026-07-28) and a raw JSON-RPC
client for the hostile ``requestState`` cases.
"""

from __future__ import annotations

import base64
import json
import time
from types import ModuleType
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp import Client

from mcpgen_runtime import RequestStateKey
from tests.server.helpers import RawClient

KEY = b"k" * 32


def _server(example: tuple[ModuleType, Any], handlers: Any = None, **kw: Any) -> Any:
    mod, generated = example
    from mcpgen_runtime import build_server

    return build_server(handlers or mod.Handlers(), generated.BINDINGS, generated.SERVER_INFO, **kw)


async def _elicit_alice(ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    props = params.requested_schema["properties"]  # type: ignore[union-attr,index]
    content: dict[str, Any] = {"name": "Alice"}
    if "color" in props:
        content = {"color": "blue"}
    elif "response" in props:
        content = {"response": "x"}
    return types.ElicitResult(action="accept", content=content)


async def _sample(ctx: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="Paris"), model="test"
    )


def _text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_one_handler_every_revision(example: Any, mode: str) -> None:
    async def main() -> None:
        async with Client(
            _server(example),
            mode=mode,  # type: ignore[arg-type]
            elicitation_callback=_elicit_alice,
            sampling_callback=_sample,
        ) as client:
            r = await client.call_tool("test_input_required_result_elicitation", {})
            assert _text(r) == "Hello, Alice!" and not r.is_error
            r = await client.call_tool("test_input_required_result_multi_round", {})
            assert _text(r) == "Alice likes blue."
            r = await client.call_tool("test_sampling", {"prompt": "Capital of France?"})
            assert _text(r) == "LLM response: Paris"
            r = await client.call_tool("test_elicitation", {"message": "hi"})
            assert _text(r) == 'User response: action=accept, content={"response":"x"}'

    anyio.run(main)


def test_legacy_client_without_capability_gets_tool_error(example: Any) -> None:
    async def main() -> None:
        async with Client(_server(example), mode="legacy") as client:
            r = await client.call_tool("test_input_required_result_elicitation", {})
            assert r.is_error
            assert "did not declare that capability" in _text(r)
            assert "elicitation" in _text(r)

    anyio.run(main)


def test_modern_client_without_capability_gets_32021(example: Any) -> None:
    async def main() -> None:
        async with RawClient(_server(example), "2026-07-28") as raw:
            resp = await raw.request(
                "tools/call", {"name": "test_input_required_result_elicitation", "arguments": {}}
            )
            assert resp["error"]["code"] == -32021
            assert resp["error"]["data"]["requiredCapabilities"] == {"elicitation": {}}

    anyio.run(main)


CAPS = {"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}}}


async def _first_round(raw: RawClient, tool: str) -> dict[str, Any]:
    resp = await raw.request("tools/call", {"name": tool, "arguments": {}, "_meta": dict(CAPS)})
    result: dict[str, Any] = resp["result"]
    assert result["resultType"] == "input_required", resp
    return result


async def _retry(
    raw: RawClient, tool: str, state: str, responses: dict[str, Any]
) -> dict[str, Any]:
    return await raw.request(
        "tools/call",
        {
            "name": tool,
            "arguments": {},
            "_meta": dict(CAPS),
            "inputResponses": responses,
            "requestState": state,
        },
    )


ALICE = {"user_name": {"action": "accept", "content": {"name": "Alice"}}}
TOOL = "test_input_required_result_elicitation"


def test_request_state_round_trip_and_bad_states(example: Any) -> None:
    async def main() -> None:
        async with RawClient(_server(example, request_state_key=KEY), "2026-07-28") as raw:
            first = await _first_round(raw, TOOL)
            state = first["requestState"]
            assert list(first["inputRequests"]) == ["user_name"]
            ok = await _retry(raw, TOOL, state, ALICE)
            assert ok["result"]["content"][0]["text"] == "Hello, Alice!"

            # tampered: one character of the payload changed -> JSON-RPC -32602
            i = state.index(".") + 5
            bad = state[:i] + ("A" if state[i] != "A" else "B") + state[i + 1 :]
            resp = await _retry(raw, TOOL, bad, ALICE)
            assert resp["error"]["code"] == -32602
            assert "integrity check" in resp["error"]["message"]
            # truncated
            resp = await _retry(raw, TOOL, state[: len(state) // 2], ALICE)
            assert resp["error"]["code"] == -32602
            # oversized: refused before decoding
            resp = await _retry(raw, TOOL, "m1." + "A" * 70_000 + ".x", ALICE)
            assert resp["error"]["code"] == -32602 and "limit" in resp["error"]["message"]
            # replayed elsewhere: a genuine state of another tool -> tool error
            other = await _first_round(raw, "test_input_required_result_request_state")
            resp = await _retry(
                raw,
                TOOL,
                other["requestState"],
                {"confirm": {"action": "accept", "content": {"ok": True}}},
            )
            assert resp["result"]["isError"] is True
            assert "different call" in resp["result"]["content"][0]["text"]
            # expired: a genuine state sealed with this server's key, past its expiry
            expired = RequestStateKey(KEY).seal(
                TOOL,
                __import__("mcpgen_runtime.server.rounds", fromlist=["args_digest"]).args_digest(
                    {}
                ),
                {},
                {},
                expires_at=time.time() - 5,
            )
            resp = await _retry(raw, TOOL, expired, ALICE)
            assert resp["result"]["isError"] is True
            assert "expired" in resp["result"]["content"][0]["text"]
            # a state sealed by a server with another key (a replica configured apart): a
            # tool error that names both key ids
            other_key = RequestStateKey(b"z" * 32)
            foreign = other_key.seal(TOOL, "x", {}, {})
            resp = await _retry(raw, TOOL, foreign, ALICE)
            assert resp["result"]["isError"] is True, resp
            text = resp["result"]["content"][0]["text"]
            assert "does not hold" in text and other_key.kid in text
            assert RequestStateKey(KEY).kid in text
            # the same state claiming this server's key id: a forgery
            head, payload, mac = foreign.split(".")
            doc = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            doc["k"] = RequestStateKey(KEY).kid
            forged = base64.urlsafe_b64encode(json.dumps(doc).encode()).rstrip(b"=").decode()
            resp = await _retry(raw, TOOL, f"{head}.{forged}.{mac}", ALICE)
            assert resp["error"]["code"] == -32602
            # the server keeps serving after all of that
            ok = await _retry(raw, TOOL, state, ALICE)
            assert ok["result"]["content"][0]["text"] == "Hello, Alice!"

    anyio.run(main)


def test_answers_that_do_not_fit_the_question(example: Any) -> None:
    async def main() -> None:
        async with RawClient(_server(example), "2026-07-28") as raw:
            state = (await _first_round(raw, TOOL))["requestState"]
            # wrong content type for the form
            resp = await _retry(
                raw, TOOL, state, {"user_name": {"action": "accept", "content": {"name": 5}}}
            )
            assert resp["result"]["isError"] is True
            assert "does not match the question" in resp["result"]["content"][0]["text"]
            # a sampling result where a form answer was asked for
            resp = await _retry(
                raw,
                TOOL,
                state,
                {
                    "user_name": {
                        "role": "assistant",
                        "model": "m",
                        "content": {"type": "text", "text": "x"},
                    }
                },
            )
            assert resp["result"]["isError"] is True
            assert "inputResponses['user_name']" in resp["result"]["content"][0]["text"]
            # an answer under a key that was not asked: asked again
            resp = await _retry(raw, TOOL, state, {"other": {"action": "accept", "content": {}}})
            assert resp["result"]["resultType"] == "input_required"
            # declined: the handler sees the action and no data
            resp = await _retry(raw, TOOL, state, {"user_name": {"action": "decline"}})
            assert resp["result"]["content"][0]["text"] == "Hello, stranger!"

    anyio.run(main)


def test_multi_round_state_carries_earlier_answers(example: Any) -> None:
    tool = "test_input_required_result_multi_round"

    async def main() -> None:
        async with RawClient(_server(example), "2026-07-28") as raw:
            r1 = await _first_round(raw, tool)
            assert list(r1["inputRequests"]) == ["step1"]
            r2 = await _retry(raw, tool, r1["requestState"], {"step1": ALICE["user_name"]})
            assert list(r2["result"]["inputRequests"]) == ["step2"]
            assert r2["result"]["requestState"] != r1["requestState"]
            r3 = await _retry(
                raw,
                tool,
                r2["result"]["requestState"],
                {"step2": {"action": "accept", "content": {"color": "red"}}},
            )
            assert r3["result"]["content"][0]["text"] == "Alice likes red."
            # the answer to step2 cannot be smuggled in with the round-1 state
            r = await _retry(
                raw,
                tool,
                r1["requestState"],
                {
                    "step1": ALICE["user_name"],
                    "step2": {"action": "accept", "content": {"color": "x"}},
                },
            )
            assert r["result"]["resultType"] == "input_required"
            assert list(r["result"]["inputRequests"]) == ["step2"]

    anyio.run(main)


def test_cancellation_cancels_the_handler(example: Any) -> None:
    mod, _ = example
    seen: dict[str, Any] = {}

    class Slow(mod.Handlers):  # type: ignore[misc, name-defined]
        async def test_simple_text(self, args: Any, ctx: Any) -> Any:
            seen["started"].set()
            try:
                await anyio.sleep(60)
            except BaseException as exc:
                seen["exc"] = type(exc).__name__
                raise
            return "never"

    async def main() -> None:
        seen["started"] = anyio.Event()
        async with RawClient(_server(example, Slow()), "2025-11-25") as raw:
            async with anyio.create_task_group() as tg:

                async def call() -> None:
                    seen["resp"] = await raw.request(
                        "tools/call", {"name": "test_simple_text", "arguments": {}}
                    )

                tg.start_soon(call)
                with anyio.fail_after(10):
                    await seen["started"].wait()
                await raw.notify("notifications/cancelled", {"requestId": raw._next_id})
                with anyio.fail_after(10):
                    while "exc" not in seen:
                        await anyio.sleep(0.01)
                tg.cancel_scope.cancel()
        assert seen["exc"] == "CancelledError"

    anyio.run(main)


def test_list_changed_reaches_the_official_client(example: Any) -> None:
    async def main() -> None:
        got: list[str] = []
        changed = anyio.Event()

        async def on_message(message: Any) -> None:
            method = getattr(getattr(message, "root", message), "method", None)
            if method == "notifications/tools/list_changed":
                got.append(method)
                changed.set()

        async with Client(
            _server(example, list_changed=True), mode="legacy", message_handler=on_message
        ) as client:
            caps = client.server_capabilities
            assert caps is not None and caps.tools is not None
            assert caps.tools.list_changed is True
            before = [t.name for t in (await client.list_tools()).tools]
            assert "test_simple_text" in before
            r = await client.call_tool("test_trigger_tool_change", {})
            assert not r.is_error
            with anyio.fail_after(10):
                await changed.wait()
            after = [t.name for t in (await client.list_tools()).tools]
            assert after == before

    anyio.run(main)


def test_disabled_tool_is_not_listed_nor_callable(example: Any) -> None:
    mod, _ = example

    class Flags(mod.Handlers):  # type: ignore[misc, name-defined]
        async def test_simple_text(self, args: Any, ctx: Any) -> Any:
            await ctx.set_tool_enabled("test_audio_content", False)
            return "audio off"

    async def main() -> None:
        async with RawClient(_server(example, Flags()), "2025-11-25") as raw:
            await raw.request("tools/call", {"name": "test_simple_text", "arguments": {}})
            names = [t["name"] for t in (await raw.request("tools/list"))["result"]["tools"]]
            assert "test_audio_content" not in names and "test_simple_text" in names
            resp = await raw.request("tools/call", {"name": "test_audio_content", "arguments": {}})
            assert resp["error"]["code"] == -32602
            assert any(
                n.get("method") == "notifications/tools/list_changed" for n in raw.notifications
            )

    anyio.run(main)


@pytest.mark.parametrize("stateless", [True, False])
def test_closed_stream_cancels_the_handler_on_2026_http(example: Any, stateless: bool) -> None:
    """2026-07-28 over HTTP: closing the response stream is the cancellation."""
    import json
    import socket
    import threading

    import uvicorn

    mod, _ = example
    started, cancelled = threading.Event(), threading.Event()

    class Slow(mod.Handlers):  # type: ignore[misc, name-defined]
        async def test_simple_text(self, args: Any, ctx: Any) -> Any:
            started.set()
            try:
                await anyio.sleep(60)
            except BaseException:
                cancelled.set()
                raise
            return "never"

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = _server(example, Slow()).streamable_http_app(host="127.0.0.1", stateless_http=stateless)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.02)
        meta = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        payload = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "test_simple_text", "arguments": {}, "_meta": meta},
            }
        ).encode()
        headers = {
            "Host": f"127.0.0.1:{port}",
            "Content-Type": "application/json",
            "Content-Length": str(len(payload)),
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": "tools/call",
            "Mcp-Name": "test_simple_text",
        }
        head = "POST /mcp HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(head.encode() + b"\r\n" + payload)
            assert started.wait(20)
        assert cancelled.wait(20), "the handler kept running after the stream closed"
    finally:
        server.should_exit = True
        thread.join(10)


def test_list_changed_on_a_2026_listen_stream(example: Any) -> None:
    """2026-07-28: the official client's subscriptions/listen stream receives the change, and
    listing again shows the new tool list."""
    mod, _ = example

    class Flags(mod.Handlers):  # type: ignore[misc, name-defined]
        async def test_simple_text(self, args: Any, ctx: Any) -> Any:
            await ctx.set_tool_enabled("test_audio_content", False)
            return "audio off"

    async def main() -> None:
        async with Client(_server(example, Flags()), mode="2026-07-28") as client:
            assert "test_audio_content" in [t.name for t in (await client.list_tools()).tools]
            async with client.listen(tools_list_changed=True) as sub:
                r = await client.call_tool("test_simple_text", {})
                assert _text(r) == "audio off"
                with anyio.fail_after(10):
                    async for event in sub:
                        assert type(event).__name__ == "ToolsListChanged"
                        break
            names = [t.name for t in (await client.list_tools()).tools]
            assert "test_audio_content" not in names and "test_simple_text" in names

    anyio.run(main)
