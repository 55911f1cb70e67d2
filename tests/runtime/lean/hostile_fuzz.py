"""The hostile differential fuzzer's grammar and driver (issue 49): seeded scripts of
JSON-RPC lines as a hostile client writes them, and one run of a script against one engine
over stdio. ``test_hostile_fuzz`` compares the two engines' answers.

Each request line carries a ``kind`` (kept beside the bytes, never sent) that says how its
answer is judged: ``same`` (one answer from each engine, with the same error code or both
results), ``lean-only`` (the SDK is silent: a difference listed in docs/lean-engine.md's
referee table), ``none`` (no answer from either: cancelled requests, responses),
``closed`` (still running at end of input: its answer or ``-32000``) and ``dup`` (a second
request under an id in flight: never a second answer under that id).
"""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.runtime.lean.hostile_package import peak_rss, spawn

__all__ = ["Line", "Run", "run_stdio", "script"]

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
CAPS = "io.modelcontextprotocol/clientCapabilities"
LEVEL = "io.modelcontextprotocol/logLevel"


@dataclass
class Line:
    data: bytes
    rid: Any = None
    kind: str = "same"


@dataclass
class Run:
    answers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    null: list[dict[str, Any]] = field(default_factory=list)
    peak_mib: float = 0.0
    stderr: str = ""


def _dump(msg: Any) -> bytes:
    return json.dumps(msg, separators=(",", ":")).encode()


class _Grammar:
    def __init__(self, rnd: random.Random, modern: bool) -> None:
        self.rnd = rnd
        self.modern = modern
        self.next_id = 0
        self.running: list[Any] = []

    def rid(self) -> Any:
        self.next_id += 1
        n = self.next_id
        return self.rnd.choice([n, f"r{n}", str(n + 100_000), -n, n + 2**40])

    def meta(self) -> Any:
        r = self.rnd
        base: dict[str, Any] = dict(META) if self.modern else {}
        roll = r.random()
        if roll < 0.15:
            base["progressToken"] = r.choice([{}, 1.5, None, [], "t", 7, True])
        elif roll < 0.25 and self.modern:
            base[CAPS] = r.choice([5, [], None, {"sampling": 5}, {"sampling": {}}, {"x": {}}])
        elif roll < 0.32 and self.modern:
            base[LEVEL] = r.choice(["info", "nope", 5, "debug"])
        elif roll < 0.38:
            return r.choice([5, [], "x", None])
        return base

    def request(self, method: str, params: dict[str, Any] | None, kind: str = "same") -> Line:
        rid = self.rid()
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        return Line(_dump(msg), rid, kind)

    def with_meta(self, params: dict[str, Any]) -> dict[str, Any]:
        meta = self.meta()
        if meta != {} or self.modern:
            params["_meta"] = meta
        return params

    def call(self) -> Line:
        r = self.rnd
        arguments = r.choice(
            [{"a": 1, "b": 2}, {"a": "x", "b": 2}, {"a": 1}, {}, None, [1], {"a": 1e308, "b": 1}]
        )
        params: dict[str, Any] = {"name": r.choice(["add", "add", "nope", 5])}
        if arguments is not None:
            params["arguments"] = arguments
        if r.random() < 0.1:
            params["requestState"] = r.choice([5, "s", None])
        return self.request("tools/call", self.with_meta(params))

    def listing(self) -> Line:
        r = self.rnd
        params: dict[str, Any] = {}
        if r.random() < 0.2:
            params["cursor"] = r.choice([None, 3, "bogus"])
        method = r.choice(["tools/list", "ping", "prompts/list", "resources/list"])
        if self.modern and method == "ping":
            method = "server/discover"
        return self.request(method, self.with_meta(params))

    def hostile(self) -> list[Line]:
        r = self.rnd
        roll = r.random()
        if roll < 0.12:  # a lone surrogate in the method: the SDK is silent
            rid = self.rid()
            text = b'{"jsonrpc":"2.0","id":%s,"method":"x\\ud800"%s}' % (
                _dump(rid),
                b',"params":{"_meta":%s}' % _dump(META) if self.modern else b"",
            )
            return [Line(text, rid, "lean-only")]
        if roll < 0.24:  # a lone surrogate in an argument: the SDK is silent
            params = self.with_meta({"name": "add", "arguments": {"a": 1, "b": 2}})
            line = self.request("tools/call", params)
            data = line.data.replace(b'"b":2', b'"b":2,"c":"\\udc00"')
            return [Line(data, line.rid, "lean-only")]
        if roll < 0.34:  # bytes that are not UTF-8, inside a string
            line = self.request("tools/list", self.with_meta({}))
            blob = r.choice([b"\xed\xa0\x80", b"\xff", b"\xc3"])
            return [
                Line(
                    line.data.replace(b'"method"', b'"x":"' + blob + b'","method"'),
                    line.rid,
                    "same",
                )
            ]
        if roll < 0.44:  # a bridged method
            return [self.request(r.choice(["custom/x", "skills/list"]), self.with_meta({}))]
        if roll < 0.54:  # a slow call, cancelled by either spelling of its id
            slow = self.request(
                "tools/call",
                self.with_meta({"name": "slow", "arguments": {"seconds": 30}}),
                "none",
            )
            target = slow.rid
            if type(target) is int and target >= 0 and r.random() < 0.5:
                target = str(target)
            cancel = {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": target},
            }
            if self.modern:
                cancel["params"]["_meta"] = META
            return [slow, Line(_dump(cancel))]
        if roll < 0.60:  # a duplicate id while the first runs, then cancelled
            slow = self.request(
                "tools/call",
                self.with_meta({"name": "slow", "arguments": {"seconds": 30}}),
                "none",
            )
            dup = json.loads(slow.data)
            dup["params"]["arguments"]["seconds"] = 0
            cancel = {
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": slow.rid},
            }
            return [slow, Line(_dump(dup), slow.rid, "dup"), Line(_dump(cancel))]
        if roll < 0.68:  # malformed cancels, responses and notifications: never answered
            return [
                Line(
                    r.choice(
                        [
                            b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}',
                            b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":5}',
                            b'{"jsonrpc":"1.0","id":4,"result":{}}',
                            b'{"jsonrpc":"2.0","id":[1],"result":{}}',
                            b'{"jsonrpc":"2.0","id":"zz","error":{"code":1,"message":"x"}}',
                            b'{"jsonrpc":"2.0","method":"notifications/whatever"}',
                        ]
                    )
                )
            ]
        if roll < 0.74:  # not a message: null-id answers from the engine only
            return [
                Line(
                    r.choice(
                        [
                            b"not json",
                            b"[]",
                            b"{}",
                            b'{"jsonrpc":"2.0","id":1}',
                            b"\xff\xfe",
                            b"[" * 300 + b"]" * 300,
                        ]
                    )
                )
            ]
        if roll < 0.80:  # a flood of quick requests
            return [self.listing() for _ in range(r.randint(20, 80))]
        if roll < 0.86:  # still running at end of input: its answer or -32000
            return [
                self.request(
                    "tools/call",
                    self.with_meta({"name": "slow", "arguments": {"seconds": 30}}),
                    "closed",
                )
            ]
        return [self.call()]


def script(seed: int, modern: bool, size: int = 120) -> list[Line]:
    rnd = random.Random(seed)
    g = _Grammar(rnd, modern)
    lines: list[Line] = []
    if not modern:
        params: dict[str, Any] = {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "fuzz", "version": "1"},
        }
        key, value = rnd.choice(  # a refused initialize first (the SDK's models refuse it)
            [
                ("capabilities", {"sampling": 5}),
                ("capabilities", {"elicitation": {"form": True}}),
                ("_meta", 5),
                ("clientInfo", {"name": "x", "version": "1", "icons": 5}),
            ]
        )
        lines.append(g.request("initialize", {**params, key: value}))
        lines.append(g.request("initialize", params))
        lines.append(Line(b'{"jsonrpc":"2.0","method":"notifications/initialized"}'))
    while len(lines) < size:
        lines.extend(g.hostile() if rnd.random() < 0.5 else [rnd.choice([g.call, g.listing])()])
    return lines


def run_stdio(package: Path, engine: str, lines: list[Line], seed: int) -> Run:
    """Write ``lines`` in random-sized pieces (split writes), read until every quick request
    is answered (at most 30 s), then close stdin (half-close) and read to the end."""
    rnd = random.Random(seed)
    stream = b"".join(line.data + b"\n" for line in lines)
    proc = spawn(package, engine)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    err: list[bytes] = []
    threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True).start()

    def write() -> None:
        assert proc.stdin is not None
        at = 0
        while at < len(stream):
            n = rnd.choice([1, 7, 64, 1000, 1 << 16])
            proc.stdin.write(stream[at : at + n])
            proc.stdin.flush()
            at += n

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    kinds = ("same", "lean-only") if engine == "lean" else ("same",)
    want = {json.dumps(x.rid) for x in lines if x.kind in kinds}
    run = Run()
    buf = b""
    fd = proc.stdout.fileno()

    def take(chunk: bytes) -> None:
        nonlocal buf
        buf += chunk
        while b"\n" in buf:
            raw, buf = buf.split(b"\n", 1)
            msg = json.loads(raw)
            if "method" in msg:
                continue
            if msg.get("id") is None:
                run.null.append(msg)
            else:
                run.answers.setdefault(json.dumps(msg["id"]), []).append(msg)

    deadline = time.monotonic() + 30
    quiet = 0.0  # seconds without output once everything is written
    while time.monotonic() < deadline and not want <= run.answers.keys() and quiet < 2:
        if select.select([fd], [], [], 0.5)[0]:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            take(chunk)
            quiet = 0.0
        elif not writer.is_alive():
            quiet += 0.5
    time.sleep(0.3)  # what is answered late (the SDK drops some input silently)
    while select.select([fd], [], [], 0)[0] and (chunk := os.read(fd, 1 << 16)):
        take(chunk)
    run.peak_mib = peak_rss(proc.pid)
    writer.join(30)
    proc.stdin.close()  # the half-close: what still runs is answered or -32000
    while chunk := os.read(fd, 1 << 16):
        take(chunk)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    run.stderr = b"".join(err).decode("utf-8", "replace")
    return run
