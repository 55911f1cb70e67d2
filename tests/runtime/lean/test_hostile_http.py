"""Issue 49, item 3 (and the HTTP half of item 11): the HTTP body limit holds at every chunk
boundary, on both wires, with ``Content-Length`` and chunked bodies. Before, a body that went
over the limit in its last (or only) chunk was served where the SDK answers 413: with
``--max-body-bytes 2000``, 2,001- and 5,000-byte bodies; with the default 4 MiB, the limit
plus one byte. Each case is sent to the weather example with ``MCPGEN_ENGINE=lean`` and
``=sdk`` over one raw socket per request."""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.driver import MODERN_META

WEATHER = Path(__file__).resolve().parents[3] / "examples" / "weather"
DEFAULT_LIMIT = 4 * 1024 * 1024


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _request(
    port: int, headers: dict[str, str], body: bytes, chunks: list[int] | None
) -> tuple[int, dict[str, str], bytes]:
    """One POST to /mcp (``chunks``: the sizes of a chunked body's chunks, sent apart, or
    all in one write after a leading 0; None: ``Content-Length``); (status, headers, the
    body)."""
    head = ["POST /mcp HTTP/1.1", "Connection: close"]
    if "Host" not in headers:
        head.append(f"Host: 127.0.0.1:{port}")
    head += [f"{k}: {v}" for k, v in headers.items()]
    if chunks is None:
        head.append(f"Content-Length: {len(body)}")
        pieces = [body[at : at + (1 << 16)] for at in range(0, len(body), 1 << 16)]
    else:
        head.append("Transfer-Encoding: chunked")
        together = chunks[0] == 0  # [0, ...]: every chunk and the end in one write
        chunks = chunks[1:] if together else chunks
        pieces, at = [], 0
        for size in chunks:
            piece = body[at : at + size]
            at += size
            pieces.append(b"%x\r\n%s\r\n" % (len(piece), piece))
        pieces.append(b"0\r\n\r\n")
        if together:
            pieces = [b"".join(pieces)]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        for piece in pieces:
            if select.select([sock], [], [], 0)[0]:
                break  # answered (413) before the whole body was sent
            try:
                sock.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break
            if chunks is not None:
                time.sleep(0.02)  # each chunk a read of its own on the server
        data = b""
        try:
            while chunk := sock.recv(1 << 16):
                data += chunk
        except ConnectionResetError:
            pass
    top, _, rest = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {k.lower(): v for k, v in fields.items()}, rest[:100_000]


def _sized(msg: dict[str, Any], size: int) -> bytes:
    body = json.dumps(msg).encode()
    assert len(body) <= size
    return body + b" " * (size - len(body))  # JSON allows trailing whitespace


class _Server:
    def __init__(
        self, engine: str, extra: list[str], where: Path = WEATHER, name: str = "weather_server"
    ) -> None:
        self.port = _port()
        env = dict(os.environ, PYTHONPATH=str(where), MCPGEN_ENGINE=engine)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", name, "--http", "--port", str(self.port), *extra],
            env=env,
            cwd=where,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        self.session = self._initialize()

    def _initialize(self) -> str:
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "h", "version": "1"},
            },
        }
        status, headers, _ = _request(self.port, _ACCEPT, json.dumps(init).encode(), None)
        assert status == 200
        sid = headers["mcp-session-id"]
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        h = {**_ACCEPT, "Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
        assert _request(self.port, h, json.dumps(note).encode(), None)[0] == 202
        return sid

    def post(self, wire: str, size: int, chunks: list[int] | None) -> int:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        if wire == "2026-07-28":
            msg["params"] = {"_meta": MODERN_META}
            h = {**_ACCEPT, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
        else:
            h = {**_ACCEPT, "Mcp-Session-Id": self.session, "MCP-Protocol-Version": "2025-11-25"}
        return _request(self.port, h, _sized(msg, size), chunks)[0]

    def close(self) -> str:
        self.proc.terminate()
        _, err = self.proc.communicate(timeout=30)
        return err.decode("utf-8", "replace")


_ACCEPT = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module", params=[2000, DEFAULT_LIMIT], ids=["limit-2000", "default"])
def servers(request: pytest.FixtureRequest) -> Iterator[tuple[int, dict[str, _Server]]]:
    limit = request.param
    extra = ["--max-body-bytes", str(limit)] if limit != DEFAULT_LIMIT else []
    started = {engine: _Server(engine, extra) for engine in ("lean", "sdk")}
    try:
        yield limit, started
    finally:
        for s in started.values():
            s.close()


def _shapes(limit: int) -> list[tuple[int, list[int] | None]]:
    """(body size, chunks) around the limit: Content-Length; one chunk; the limit crossed in
    the last chunk; crossed in the first of two; chunks sent apart and in one write."""
    out: list[tuple[int, list[int] | None]] = []
    for size in (limit - 1, limit, limit + 1, limit + 3000):
        out += [(size, None), (size, [size]), (size, [limit - 10, size - limit + 10])]
        out += [(size, [0, size]), (size, [0, limit - 10, size - limit + 10])]
    out.append((limit + 3000, [limit + 1, 2999]))
    return out


@pytest.mark.parametrize("wire", ["2026-07-28", "handshake"])
def test_the_body_limit_holds_at_every_chunk_boundary(
    servers: tuple[int, dict[str, _Server]], wire: str
) -> None:
    limit, started = servers
    table = []
    for size, chunks in _shapes(limit):
        lean = started["lean"].post(wire, size, chunks)
        sdk = started["sdk"].post(wire, size, chunks)
        table.append((size, chunks, lean, sdk))
    for size, chunks, lean, sdk in table:
        assert lean == sdk, (size, chunks, table)
        assert (lean == 413) == (size > limit), (size, chunks, table)


def test_a_host_refusal_is_logged_once() -> None:
    """A request the SDK's DNS-rebinding protection refuses: the front asked the SDK's
    middleware (which logs the refusal), then the SDK's app asked it again (logged twice)."""
    s = _Server("lean", [])
    try:
        msg = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": MODERN_META}}
        h = {**_ACCEPT, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
        raw = json.dumps(msg).encode()
        status, _, _ = _request(s.port, {**h, "Host": "evil.example"}, raw, None)
    finally:
        err = s.close()
    assert status == 421
    assert err.count("evil.example") == 1, err


def _code_of(body: bytes) -> Any:
    """The JSON-RPC answer's error code (or "ok") in a JSON or SSE body."""
    for line in body.splitlines():
        text = line[5:] if line.startswith(b"data:") else line
        try:
            msg = json.loads(text)
        except ValueError:
            continue
        if isinstance(msg, dict) and "id" in msg:
            return msg["error"]["code"] if "error" in msg else "ok"
    return None


def test_the_session_front_checks_params_as_the_sdk_does() -> None:
    """Item 6 on the HTTP handshake wire: in a session the front serves, a progress token
    that is an object, a float or null and ``requestState: 5`` are refused as the SDK's app
    refuses them (before, the front served them)."""
    cases: list[dict[str, Any]] = [
        {"_meta": {"progressToken": {}}},
        {"_meta": {"progressToken": 1.5}},
        {"_meta": {"progressToken": None}},
        {"requestState": 5},
        {"_meta": {"progressToken": "ok"}},
    ]
    codes: dict[str, list[Any]] = {}
    for engine in ("lean", "sdk"):
        s = _Server(engine, ["--json-response"])
        try:
            h = {**_ACCEPT, "Mcp-Session-Id": s.session, "MCP-Protocol-Version": "2025-11-25"}
            for i, extra in enumerate(cases):
                params = {"name": "get_weather", "arguments": {"city": "Paris"}, **extra}
                msg = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params}
                status, _, body = _request(s.port, h, json.dumps(msg).encode(), None)
                codes.setdefault(engine, []).append((status, _code_of(body)))
        finally:
            s.close()
    assert codes["lean"] == codes["sdk"]
    assert [c for _, c in codes["lean"]] == [-32602, -32602, -32602, -32602, "ok"]


def _flood_unread(
    port: int, headers: dict[str, str], meta: dict[str, Any], count: int, size: int
) -> bytes:
    """A ``flood`` call of ``count`` progress notifications of ``size`` bytes whose SSE stream
    is not read for 3 s; then all of it, read."""
    params = {"name": "flood", "arguments": {"count": count, "size": size}, "_meta": meta}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    head = ["POST /mcp HTTP/1.1", "Connection: close", f"Host: 127.0.0.1:{port}"]
    head += [f"{k}: {v}" for k, v in headers.items()]
    head.append(f"Content-Length: {len(body)}")
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 16)
        sock.sendall(("\r\n".join(head) + "\r\n\r\n" + body).encode())
        time.sleep(3.0)  # the client does not read: the handler must wait for it
        data = bytearray()
        while chunk := sock.recv(1 << 20):
            data += chunk
    return bytes(data)


@pytest.mark.parametrize("wire", ["2026-07-28", "handshake"])
def test_a_notifying_handler_waits_for_an_sse_client_that_does_not_read(
    tmp_path: Path, wire: str
) -> None:
    """A slow SSE reader on HTTP: 10,000 progress notifications of 4 KB (40 MB) to a client
    that does not read raise the server's peak RSS by less than 20 MiB over what 1,000 did
    (the handshake wire's session front awaits each event's ``send``, which the ASGI server
    holds while the socket is full; the 2026-07-28 call with a progress token is the SDK's
    app's). Measured: no rise at all (76.3-77.5 MiB) on 3.10.13 to 3.13.0."""
    from tests.runtime.lean.hostile_package import NAME, peak_rss, write

    s = _Server("lean", [], write(tmp_path), NAME)
    try:
        if wire == "handshake":
            h = {**_ACCEPT, "Mcp-Session-Id": s.session, "MCP-Protocol-Version": "2025-11-25"}
            meta: dict[str, Any] = {"progressToken": "p"}
        else:
            h = {**_ACCEPT, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call"}
            h["Mcp-Name"] = "flood"
            meta = {**MODERN_META, "progressToken": "p"}
        small = _flood_unread(s.port, h, meta, 1_000, 4_000)
        before = peak_rss(s.proc.pid)
        large = _flood_unread(s.port, h, meta, 10_000, 4_000)
        after = peak_rss(s.proc.pid)
    finally:
        s.close()
    assert small.count(b"notifications/progress") == 1_000 and b"flooded" in small
    assert large.count(b"notifications/progress") == 10_000 and b"flooded" in large
    assert after - before < 20, f"peak RSS {before:.0f} -> {after:.0f} MiB"
