#!/usr/bin/env python3
"""The cost of one Streamable HTTP POST in process (not a test): ``tools/call get_weather`` of
the weather example, N times in one handshake-wire session (or on the 2026-07-28 wire), driven
straight into the generated server's ASGI app (no uvicorn, no socket), timed, and with
``--prof`` profiled with cProfile (where docs/lean-engine.md's HTTP cuts were found).

  .venv/bin/python bench/lean_http_profile.py                      # lean engine, SSE answers
  .venv/bin/python bench/lean_http_profile.py --engine sdk --json  # the SDK's, JSON answers
  .venv/bin/python bench/lean_http_profile.py --wire modern --prof cumulative
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", type=int, default=3000)
    ap.add_argument("--engine", default="lean", choices=("lean", "sdk"))
    ap.add_argument("--wire", default="handshake", choices=("handshake", "modern"))
    ap.add_argument("--json", action="store_true", help="--json-response (default: SSE)")
    ap.add_argument("--prof", nargs="?", const="tottime", help="cProfile, sorted by this")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT / "examples" / "weather"))
    from weather_server._generated import create_server
    from weather_server.handlers import Handlers

    from mcpgen_runtime.server.http_app import http_app

    server = create_server(Handlers())
    spec = {
        "host": "127.0.0.1",
        "port": 8000,
        "path": "/mcp",
        "stateless": False,
        "json_response": a.json,
        "tokens": [],
        "oauth": {},
        "engine": a.engine,
    }
    app = http_app(server, spec)
    base = [
        (b"host", b"127.0.0.1:8000"),
        (b"accept", b"application/json, text/event-stream"),
        (b"content-type", b"application/json"),
    ]

    async def post(body: bytes, headers: list[tuple[bytes, bytes]]) -> list[Any]:
        sent: list[Any] = []
        given = False

        async def receive() -> Any:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()

        async def send(message: Any) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/mcp",
            "raw_path": b"/mcp",
            "query_string": b"",
            "root_path": "",
            "headers": [*headers, (b"content-length", str(len(body)).encode())],
            "client": ("127.0.0.1", 5555),
            "server": ("127.0.0.1", 8000),
            "state": {},
        }
        await app(scope, receive, send)
        return sent

    def call(i: int) -> bytes:
        params: dict[str, Any] = {"name": "get_weather", "arguments": {"city": "Paris"}}
        if a.wire == "modern":
            params["_meta"] = MODERN_META
        msg = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params}
        return json.dumps(msg).encode()

    async def run() -> None:
        async with server.session_manager.run():
            if a.wire == "modern":
                headers = [
                    *base,
                    (b"mcp-protocol-version", b"2026-07-28"),
                    (b"mcp-method", b"tools/call"),
                    (b"mcp-name", b"get_weather"),
                ]
            else:
                init = {
                    "jsonrpc": "2.0",
                    "id": 0,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": {"name": "profile", "version": "1"},
                    },
                }
                sent = await post(json.dumps(init).encode(), base)
                sid = dict(sent[0]["headers"])[b"mcp-session-id"]
                headers = [
                    *base,
                    (b"mcp-session-id", sid),
                    (b"mcp-protocol-version", b"2025-11-25"),
                ]
                await post(b'{"jsonrpc":"2.0","method":"notifications/initialized"}', headers)
            bodies = [call(i + 1) for i in range(a.n)]
            for body in bodies[:200]:
                await post(body, headers)
            prof = cProfile.Profile() if a.prof else None
            t0 = time.perf_counter()
            if prof is not None:
                prof.enable()
            for body in bodies:
                sent = await post(body, headers)
            if prof is not None:
                prof.disable()
            took = time.perf_counter() - t0
            assert b"Paris" in b"".join(m.get("body", b"") for m in sent), sent
            what = f"{a.engine}, {a.wire}, {'JSON' if a.json else 'SSE'}"
            print(f"{what}: {took / a.n * 1e6:.1f} us per POST in process (n={a.n})")
            if prof is not None:
                pstats.Stats(prof).sort_stats(a.prof).print_stats(30)

    asyncio.run(run())


if __name__ == "__main__":
    main()
