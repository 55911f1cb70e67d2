"""A server process over stdio, driven a line at a time (``Session``), and the handshake a
test opens it with: the lean engine's stdio tests (``test_lazy_sdk``, ``test_bridge_stdio``)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["Session", "initialize", "text"]


class Session:
    """One server process over stdio, driven a line at a time."""

    def __init__(self, package_dir: Path, package: str, engine: str = "lean") -> None:
        env = dict(os.environ, PYTHONPATH=str(package_dir), MCPGEN_ENGINE=engine)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", package],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=package_dir,
        )
        self.buf = b""
        self.early: list[dict[str, Any]] = []
        """Messages read while waiting for another (kept for ``next``)."""

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def next(self, timeout: float = 30.0) -> dict[str, Any]:
        """The next message from the server."""
        if self.early:
            return self.early.pop(0)
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            assert left > 0, "no answer in time"
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                assert chunk, "the server closed its output"
                self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        out: dict[str, Any] = json.loads(line)
        return out

    def answer(self, rid: Any, timeout: float = 30.0) -> dict[str, Any]:
        """The answer to request ``rid`` (other messages are kept for ``next``)."""
        skipped: list[dict[str, Any]] = []
        while True:
            msg = self.next(timeout)
            if msg.get("id") == rid and "method" not in msg:
                self.early = skipped + self.early
                return msg
            skipped.append(msg)

    def call(self, rid: Any, method: str, params: dict[str, Any] | None = None) -> Any:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.answer(rid)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def initialize(s: Session, capabilities: dict[str, Any] | None = None) -> None:
    init = s.call(
        "init",
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities or {},
            "clientInfo": {"name": "lazy-test", "version": "1"},
        },
    )
    assert "serverInfo" in init["result"], init
    s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})


def text(answer: dict[str, Any]) -> str:
    text: str = answer["result"]["content"][0]["text"]
    return text
