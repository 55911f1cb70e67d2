"""Random, often hostile JSON-RPC over stdio against the generated example servers: every
request gets exactly one answer (a result, or an error with an integer code that is never
-32603), the server stays up, and nothing reaches stderr but its start-up line.

Seeded, so a failure replays; the messages mix valid calls with wrong types, unknown names,
huge and NUL-bearing strings, bad URIs and cursors, and lines that are not JSON-RPC at all."""

from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.interop.wire import modern_meta

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
WEIRD: list[Any] = [
    None,
    True,
    0,
    -1,
    2**70,
    1.5,
    1e308,
    "",
    "a\x00b",
    "\u2028",
    "x" * 10_000,
    [],
    {},
    [1],
    {"a": {"b": [None]}},
    "Paris",
    "metric",
    "../../etc/passwd",
    "{city}",
]
NOT_JSON_RPC = [
    b"{",
    b"[]",
    b"null",
    b'{"jsonrpc":"2.0"}',
    b"\xff\xfe",
    b'{"jsonrpc":"2.0","id":7}',
]


class Peer:
    def __init__(self, example: str, package: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(EXAMPLES / example))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", package],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        assert self.proc.stdout is not None
        out = self.proc.stdout
        threading.Thread(target=lambda: [self.lines.put(x) for x in out], daemon=True).start()

    def send(self, message: dict[str, Any] | bytes) -> None:
        assert self.proc.stdin is not None
        raw = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def answer(self, request_id: int) -> dict[str, Any]:
        """The response to ``request_id`` (notifications and answers to earlier garbage are
        skipped); fails after 20 s."""
        while True:
            msg = json.loads(self.lines.get(timeout=20))
            if msg.get("id") == request_id and "method" not in msg:
                return msg  # type: ignore[no-any-return]


RAISES_32603 = frozenset({"protocol_error_job"})
"""Tools of the examples that answer ``-32603`` on purpose (their handler raises it)."""


def _params(rnd: random.Random, tools: list[dict[str, Any]], uris: list[str]) -> tuple[str, Any]:
    method = rnd.choice(
        [
            "tools/call",
            "tools/call",
            "resources/read",
            "prompts/get",
            "completion/complete",
            "resources/list",
            "resources/templates/list",
            "prompts/list",
            "tools/list",
            "logging/setLevel",
            "ping",
            "no/such/method",
        ]
    )
    if method == "tools/call":
        tool = rnd.choice(tools)
        props = list((tool.get("inputSchema") or {}).get("properties", {}))
        args: Any = {k: rnd.choice(WEIRD) for k in rnd.sample(props, rnd.randint(0, len(props)))}
        if rnd.random() < 0.1:
            args = rnd.choice(WEIRD)
        name = tool["name"] if rnd.random() < 0.9 else rnd.choice(WEIRD)
        return method, {"name": name, "arguments": args}
    if method == "resources/read":
        return method, {"uri": rnd.choice([*uris, *WEIRD])}
    if method == "prompts/get":
        return method, {"name": rnd.choice(WEIRD), "arguments": rnd.choice([{}, None, "x"])}
    if method == "completion/complete":
        ref = rnd.choice([{"type": "ref/prompt", "name": "x"}, {"type": "nope"}, None])
        return method, {"ref": ref, "argument": {"name": "city", "value": rnd.choice(WEIRD)}}
    return method, rnd.choice([None, {}, {"cursor": rnd.choice(WEIRD)}, {"level": "nope"}])


def _meta(rnd: random.Random) -> Any:
    """2026-07-28: the per-request ``_meta``; now and then a wrong one."""
    if rnd.random() < 0.9:
        return modern_meta()
    return rnd.choice(
        [None, {}, modern_meta("1999-01-01"), {"io.modelcontextprotocol/protocolVersion": 5}]
    )


@pytest.mark.parametrize(
    ("example", "package", "seed", "modern"),
    [
        ("weather", "weather_server", 1, False),
        ("conformance", "conformance_server", 2, False),
        ("weather", "weather_server", 3, True),
        ("conformance", "conformance_server", 4, True),
    ],
)
def test_every_request_gets_one_answer_and_no_internal_error(
    example: str, package: str, seed: int, modern: bool
) -> None:
    rnd = random.Random(seed)
    peer = Peer(example, package)
    meta = {"_meta": modern_meta()} if modern else {}
    try:
        if not modern:
            peer.send(
                {
                    "jsonrpc": "2.0",
                    "id": 0,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": {"name": "fuzz", "version": "0"},
                    },
                }
            )
            assert "result" in peer.answer(0)
            peer.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        peer.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": meta})
        # a tool whose documented answer is -32603 (the tasks conformance fixture
        # protocol_error_job: "a JSON-RPC error raised by the handler") is not fuzzed
        tools = [t for t in peer.answer(1)["result"]["tools"] if t["name"] not in RAISES_32603]
        peer.send({"jsonrpc": "2.0", "id": 2, "method": "resources/list", "params": meta})
        uris = [r["uri"] for r in peer.answer(2)["result"]["resources"]]
        answered = results = 0
        for i in range(3, 303):
            if rnd.random() < 0.05:
                peer.send(rnd.choice(NOT_JSON_RPC))
                continue
            method, params = _params(rnd, tools, uris)
            message: dict[str, Any] = {"jsonrpc": "2.0", "id": i, "method": method}
            if modern:
                params = dict(params) if isinstance(params, dict) else {}
                params["_meta"] = _meta(rnd)
            if params is not None:
                message["params"] = params
            peer.send(message)
            got = peer.answer(i)
            assert ("result" in got) != ("error" in got), (message, got)
            if "error" in got:
                assert isinstance(got["error"].get("code"), int), got
                assert got["error"]["code"] != -32603, (message, got)
            else:
                results += 1
            answered += 1
        assert answered > 250 and results > 50, (answered, results)  # many calls got through
        assert peer.proc.poll() is None  # still serving
    finally:
        assert peer.proc.stdin is not None and peer.proc.stderr is not None
        peer.proc.stdin.close()
        err = peer.proc.stderr.read().decode()
        peer.proc.wait(timeout=30)
    assert "Traceback" not in err and err.count("\n") <= 1, err
