"""A raw stdio driver for the differential tests: one server process per script, every line
written as given (bytes, so malformed input reaches the server as is), every answer collected.

``transcript`` writes the next line only once the server has dealt with the previous one, so
both engines see the same order of events: after each line it writes a ``ping`` (the barrier,
with the 2026-07-28 envelope when the script's first request has one) and waits for its answer
and for the line's own answer (a request's answer may come after the ping's; at most ``wait``
seconds for it: the SDK's engine drops some input without an answer). Lines are read and
dispatched in order, so the ping's answer says the line before it was read (before, every line
without an answer cost the whole ``wait``). The barriers' answers are not in the transcript.
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
        """Read until ``want``'s answer (or ``until``, or the end of output). The lines
        already read come first: several answers can arrive in one read, and one left in
        ``buf`` when ``pump`` returned would wait there for more output that may never come
        (at load 40 the barrier's answer and the line's own arrived together, and the
        line's answer was never read)."""
        nonlocal buf
        while True:
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                try:
                    msg = json.loads(raw)
                except ValueError:
                    msg = {"raw": raw.decode("utf-8", "replace")}
                answer = isinstance(msg, dict) and ("result" in msg or "error" in msg)
                rid = msg.get("id") if answer else None
                if isinstance(rid, str) and rid.startswith(BARRIER):
                    seen.add(rid)
                    if rid == want:
                        return
                    continue
                out.append(msg)
                if answer:
                    seen.add(json.dumps(rid))
                if want is not None and answer and rid == want:
                    return
            left = until - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                return
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            buf += chunk

    seen: set[str] = set()
    barrier: bytes | None = None
    """The barrier ping (``@``: its id), once the first request opened the connection (before
    it, a ping would open it instead)."""
    for n, data in enumerate(lines):
        want = _request_id(data)
        ping = None if barrier is None else BARRIER + str(n)
        proc.stdin.write(data + b"\n")
        if barrier is not None:
            proc.stdin.write(barrier.replace(b"@", f"{BARRIER}{n}".encode()) + b"\n")
        proc.stdin.flush()
        if ping is None:
            # before the first request: the time it may take (the server's start included)
            pump(time.monotonic() + 30.0, want if want is not None else object())
            if want is not None:
                barrier = _barrier(data)
            continue
        pump(time.monotonic() + 30.0, ping)  # the line was read: its answer is on its way
        assert ping in seen, f"no answer to the barrier ping after {data[:200]!r}"
        if want is not None and json.dumps(want) not in seen:
            pump(time.monotonic() + wait, want)  # a slow answer, or none (the SDK's drops)
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


BARRIER = "driver-barrier-"
"""The ids of the barrier pings (their answers are left out of the transcript)."""


def _barrier(first: bytes) -> bytes:
    """The barrier ping of a connection whose first request is ``first`` (``@``: its id)."""
    msg = json.loads(first)
    params = msg.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    modern = isinstance(meta, dict) and "io.modelcontextprotocol/protocolVersion" in meta
    return request("@", "ping", modern=modern)


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
