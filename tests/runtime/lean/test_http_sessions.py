"""The lean engine in Streamable HTTP sessions of the handshake wire, against the SDK's app,
answer for answer: the same POST sequences to the conformance example started with
``MCPGEN_ENGINE=lean`` and ``=sdk`` (the SDK's default SSE answers and ``--json-response``) get
the same status, the same headers (but the date and the session id, which differ per run) in
the same order, the same SSE framing byte for byte and the same JSON-RPC messages. The JSON of
a message is compared as a value: the SDK re-dumps results through its per-revision models,
which orders keys its own way.

Covered: the happy path (lists, calls, reads, prompts, completion, ping, setLevel), errors
(unknown tool, bad arguments, an unknown method the SDK answers), a handler that logs and one
that reports progress (events before the answer in SSE mode, nothing in JSON mode), the
refusals (unknown and deleted session ids, a protocol header of another era, a missing one,
wrong ``Accept``, wrong ``Content-Type``, bad JSON, a bool id), notifications, a handler that
elicits (the client answers with its own POST), a call cancelled mid-way, and a session
deleted while a call runs. In process, the happy path never reaches the SDK's app:
``test_http_session_front``."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "conformance"
V = "2025-11-25"
CAPS = {"elicitation": {}, "sampling": {}, "roots": {}}
SKIP_HEADERS = {"date"}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Wire:
    """One server process and the POSTs of one session to it."""

    def __init__(self, engine: str, extra: list[str]) -> None:
        self.port = _port()
        env = dict(os.environ, PYTHONPATH=str(EXAMPLE), MCPGEN_ENGINE=engine)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "conformance_server",
                "--http",
                "--port",
                str(self.port),
                *extra,
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.sid = ""
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)

    def headers(self, **over: str | None) -> dict[str, str]:
        h = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": V,
            "Mcp-Session-Id": self.sid,
        }
        h.update(over)  # type: ignore[arg-type]
        return {k: v for k, v in h.items() if v is not None}

    def send(
        self, body: Any, method: str = "POST", **over: str | None
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, "/mcp", data if method == "POST" else None, self.headers(**over))
        return conn, conn.getresponse()

    def post(self, body: Any, method: str = "POST", **over: str | None) -> tuple[Any, ...]:
        conn, r = self.send(body, method, **over)
        try:
            return answer(r, self.sid)
        finally:
            conn.close()

    def open(self) -> tuple[Any, ...]:
        self.sid = ""
        conn, r = self.send(
            rpc(
                0,
                "initialize",
                protocolVersion=V,
                capabilities=CAPS,
                clientInfo={"name": "diff", "version": "1"},
            ),
            **{"Mcp-Session-Id": None, "MCP-Protocol-Version": None},
        )
        self.sid = r.getheader("mcp-session-id") or ""
        out = answer(r, self.sid)
        conn.close()
        return out, self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})


def rpc(rid: Any, method: str, **params: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params:
        msg["params"] = params
    return msg


def answer(r: http.client.HTTPResponse, sid: str) -> tuple[Any, ...]:
    """(status, headers in order, framing, messages), the session id and dates left out."""
    data = r.read()
    headers = [
        (k.lower(), "<sid>" if sid and v == sid else v)
        for k, v in r.getheaders()
        if k.lower() not in SKIP_HEADERS
    ]
    ctype = r.getheader("content-type") or ""
    if ctype.startswith("text/event-stream"):
        messages = [_norm(json.loads(m)) for m in re.findall(rb"^data: (.*)\r$", data, re.M) if m]
        framing = re.sub(rb"(?m)^data: .*\r$", b"data: <json>\r", data)
        framing = re.sub(rb": ping - [^\r]*", b": ping", framing)
        return r.status, headers, framing, messages
    if ctype == "application/json" and data:
        return r.status, headers, b"", [json.loads(data)]
    return r.status, headers, data, []


def _norm(msg: Any) -> Any:
    """A server-to-client request's id, which each engine mints its own way."""
    if isinstance(msg, dict) and "method" in msg and "id" in msg:
        return {**msg, "id": "<asked>"}
    return msg


def _script(w: Wire, sse: bool) -> list[Any]:
    out: list[Any] = [*w.open()]
    call = "tools/call"
    steps: list[Any] = [
        rpc(1, "tools/list"),
        rpc(2, call, name="test_simple_text", arguments={}),
        rpc(3, call, name="nope", arguments={}),
        rpc(4, call, name="test_sampling", arguments={}),
        rpc(5, call, name="test_simple_text", arguments={"x": 1}),
        rpc("s6", "ping"),
        rpc(7, "resources/list"),
        rpc(8, "resources/read", uri="test://static-text"),
        rpc(9, "resources/read", uri="test://nope"),
        rpc(10, "prompts/list"),
        rpc(
            11,
            "prompts/get",
            name="test_prompt_with_arguments",
            arguments={"arg1": "a", "arg2": "b"},
        ),
        rpc(12, "prompts/get", name="test_prompt_with_arguments", arguments={}),
        rpc(
            13,
            "completion/complete",
            ref={"type": "ref/prompt", "name": "test_prompt_with_arguments"},
            argument={"name": "arg1", "value": "he"},
        ),
        rpc(14, "resources/templates/list"),
        rpc(15, "nope/method"),
        rpc(16, "logging/setLevel", level="info"),
        rpc(17, call, name="test_tool_with_logging", arguments={}),
        rpc(18, "logging/setLevel", level="debug"),
        rpc(19, call, name="test_tool_with_progress", arguments={}, _meta={"progressToken": "p1"}),
        rpc(20, call, name="test_elicitation", arguments={"message": "hi"}),  # JSON: refused
        {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
        {"jsonrpc": "2.0", "id": True, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 21, "method": "tools/list", "params": None},
        rpc(22, "tools/list", _meta={"io.modelcontextprotocol/protocolVersion": "2026-07-28"}),
    ]
    if sse:
        steps.remove(steps[19])  # test_elicitation: asked below, with the client's answer
    out += [w.post(s) for s in steps]
    out.append(w.post(rpc(30, "tools/list"), **{"MCP-Protocol-Version": None}))
    out.append(w.post(rpc(31, "tools/list"), **{"MCP-Protocol-Version": "2024-11-05"}))
    out.append(w.post(rpc(32, "tools/list"), **{"MCP-Protocol-Version": "2099-01-01"}))
    out.append(w.post(rpc(33, "tools/list"), Accept="application/json"))
    out.append(w.post(rpc(34, "tools/list"), Accept="text/event-stream"))
    out.append(w.post(rpc(35, "tools/list"), **{"Content-Type": "text/plain"}))
    out.append(w.post(rpc(36, "tools/list"), **{"Content-Type": "application/jsonx"}))
    out.append(w.post(b"{not json"))
    out.append(w.post(rpc(37, "tools/list"), **{"Mcp-Session-Id": "nope"}))
    out.append(w.post(rpc(38, "tools/list"), Host="evil.example"))
    if sse:
        out.append(_elicit(w))
        out.append(_elicit_cancelled(w))
    out.append(_cancel(w))
    out.append(_delete_mid_call(w))
    out.append(w.post(rpc(40, "tools/list")))
    out.append(w.post(b"", method="DELETE"))
    return out


def _elicit(w: Wire) -> list[Any]:
    """A handler that asks the client: its question on the call's stream, the client's answer
    in a POST of its own, then the handler's result on the same stream."""
    conn, r = w.send(rpc(50, "tools/call", name="test_elicitation", arguments={"message": "hi"}))
    try:
        head = b""
        while b"elicitation/create" not in head:
            head += r.readline()
        asked = json.loads(re.search(rb'data: (\{.*"elicitation/create".*\})', head)[1])  # type: ignore[index]
        reply = {
            "jsonrpc": "2.0",
            "id": asked["id"],
            "result": {"action": "accept", "content": {"response": "Ada"}},
        }
        accepted = w.post(reply)
        rest = r.read()
        return [
            accepted,
            re.sub(rb"(?m)^data: .*\r$", b"data: <json>\r", head + rest),
            [_norm(json.loads(m)) for m in re.findall(rb"^data: (.*)\r$", head + rest, re.M)],
        ]
    finally:
        conn.close()


def _elicit_cancelled(w: Wire) -> list[Any]:
    """A handler cancelled while it waits for the client's answer: the server's courtesy
    ``notifications/cancelled`` for its own question goes out on the call's stream."""
    conn, r = w.send(rpc(51, "tools/call", name="test_elicitation", arguments={"message": "hi"}))
    try:
        head = b""
        while b"elicitation/create" not in head:
            head += r.readline()
        asked = json.loads(re.search(rb'data: (\{.*"elicitation/create".*\})', head)[1])  # type: ignore[index]
        cancel = {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 51},
        }
        cancelled = w.post(cancel)
        data = head + r.read()
        messages = [_norm(json.loads(m)) for m in re.findall(rb"^data: (.*)\r$", data, re.M)]
        for m in messages:  # the question's id, which each engine mints its own way
            if m.get("params", {}).get("requestId") == asked["id"]:
                m["params"]["requestId"] = "<asked>"
        courtesy = {"requestId": "<asked>", "reason": "caller cancelled"}
        assert {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": courtesy} in (
            messages
        ), messages
        return [cancelled, re.sub(rb"(?m)^data: .*\r$", b"data: <json>\r", data), messages]
    finally:
        conn.close()


def _cancel(w: Wire) -> list[Any]:
    """A slow call the client cancels: 202 for the notification, -32800 on the call's POST."""
    result: list[Any] = []

    def run() -> None:
        result.append(w.post(rpc(60, "tools/call", name="slow_compute", arguments={"seconds": 5})))

    t = threading.Thread(target=run)
    t.start()
    time.sleep(1.0)
    cancelled = w.post(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 60, "reason": "enough"},
        }
    )
    t.join(30)
    return [cancelled, result]


def _delete_mid_call(w: Wire) -> list[Any]:
    """The session deleted while a call runs: the call's POST ends as the SDK ends it (an SSE
    stream without an answer, a JSON 500)."""
    result: list[Any] = []

    def run() -> None:
        result.append(w.post(rpc(70, "tools/call", name="slow_compute", arguments={"seconds": 5})))

    t = threading.Thread(target=run)
    t.start()
    time.sleep(1.0)
    deleted = w.post(b"", method="DELETE")
    t.join(30)
    return [deleted, result]


def _transcript(engine: str, extra: list[str]) -> list[Any]:
    w = Wire(engine, extra)
    try:
        return _script(w, "--json-response" not in extra)
    finally:
        w.close()


@pytest.mark.parametrize("extra", [[], ["--json-response"]], ids=["sse", "json-response"])
def test_session_posts_answer_as_the_sdk_does(extra: list[str]) -> None:
    lean, sdk = _transcript("lean", extra), _transcript("sdk", extra)
    assert len(lean) == len(sdk)
    for i, (a, b) in enumerate(zip(lean, sdk, strict=True)):
        assert a == b, (i, a, b)
    flat = json.dumps(lean, default=repr)
    # what the script must have reached, so equality means something
    assert "Request cancelled" in flat and "-32800" in flat
    assert "Session not found" in flat and "Not Acceptable" in flat
    deleted, (call,) = lean[-3]
    assert deleted[0] == 200 and call[0] == (200 if not extra else 500)
    assert call[3] == (
        []
        if not extra
        else [
            {
                "jsonrpc": "2.0",
                "id": None,
                "error": {
                    "code": -32603,
                    "message": "Session terminated before the request completed",
                },
            }
        ]
    )
    if not extra:
        assert "Tool execution started" in flat and "notifications/progress" in flat
        assert "Ada" in flat
