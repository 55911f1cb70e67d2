"""A raw stdio driver for the differential tests: one server process per script, every line
written as given (bytes, so malformed input reaches the server as is), every answer collected.

``transcript`` waits for the answer to each request before writing the next line (at most
``wait`` seconds: the SDK's engine drops some input without an answer), so both engines see the
same order of events.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "diff", "version": "1"},
}


def line(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def request(
    rid: Any, method: str, params: dict[str, Any] | None = None, modern: bool = False
) -> bytes:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    p = dict(params or {})
    if modern:
        p["_meta"] = {**MODERN_META, **p.get("_meta", {})}
    if p:
        msg["params"] = p
    return line(msg)


def handshake(version: str = "2025-11-25") -> list[bytes]:
    return [
        request(
            "init",
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "d", "version": "1"},
            },
        ),
        line({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]


def transcript(
    package_dir: Path, package: str, engine: str, lines: Sequence[bytes], wait: float = 1.5
) -> list[dict[str, Any]]:
    """The server's answers to ``lines`` (in order of arrival; non-JSON output as
    ``{"raw": ...}``)."""
    env = dict(os.environ, PYTHONPATH=str(package_dir), MCPGEN_ENGINE=engine)
    proc = subprocess.Popen(
        [sys.executable, "-m", package],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=package_dir,
    )
    assert proc.stdin is not None and proc.stdout is not None
    out: list[dict[str, Any]] = []
    buf = b""
    fd = proc.stdout.fileno()

    def pump(until: float, want: Any) -> None:
        nonlocal buf
        while time.monotonic() < until:
            r, _, _ = select.select([fd], [], [], max(0.0, until - time.monotonic()))
            if not r:
                return
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            buf += chunk
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                try:
                    msg = json.loads(raw)
                except ValueError:
                    msg = {"raw": raw.decode("utf-8", "replace")}
                out.append(msg)
                if (
                    want is not None
                    and isinstance(msg, dict)
                    and msg.get("id") == want
                    and ("result" in msg or "error" in msg)
                ):
                    return

    first = True
    for data in lines:
        proc.stdin.write(data + b"\n")
        proc.stdin.flush()
        want = _request_id(data)
        # the first answer includes the server's start
        pump(time.monotonic() + (30.0 if first else wait), want if want is not None else object())
        if want is not None:
            first = False
    pump(time.monotonic() + 0.3, object())
    proc.stdin.close()
    # the answers still on their way (a busy machine): everything until the server exits
    pump(time.monotonic() + 60.0, _EOF)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return out


_EOF: Any = object()
"""``pump`` until end of output (no answer is awaited)."""


def _request_id(data: bytes) -> Any:
    try:
        msg = json.loads(data)
    except ValueError:
        return None
    if isinstance(msg, dict) and "method" in msg and "id" in msg:
        return msg["id"]
    return None
