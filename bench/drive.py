"""The raw JSON-RPC driver of bench/bench_server.py: one server process, sequential checked
``tools/call add`` over stdio (newline-delimited JSON on the child's pipes) or Streamable HTTP
(one keep-alive ``http.client`` connection; JSON or SSE answers), on the handshake wire
(``initialize``, 2025-11-25) or the 2026-07-28 wire (no handshake; per-request ``_meta``; on
HTTP the ``Mcp-Method``/``Mcp-Name`` headers). No MCP library on the hot path.
"""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wire_http import WireHttp

try:  # the driver's JSON: orjson when installed (the test extras have it), else the stdlib
    from orjson import dumps as _dumps
    from orjson import loads
except ImportError:  # pragma: no cover

    def _dumps(obj: Any) -> bytes:
        return json.dumps(obj, separators=(",", ":")).encode()

    loads = json.loads

HANDSHAKE = "2025-11-25"
MODERN = "2026-07-28"
CLIENT_INFO = {"name": "mcpgen-bench", "version": "0.1.0"}
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
}
WIRES = ("handshake", "modern")
TRANSPORTS = ("stdio", "http")


# ------------------------------------------------------------------ process helpers
def tree_pids(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(d))
            except (OSError, IndexError, ValueError):
                pass
    out, stack = [], [pid]
    while stack:
        p = stack.pop()
        out.append(p)
        stack.extend(children.get(p, []))
    return out


def rss_mib(pid: int) -> float:
    total = 0
    for p in tree_pids(pid):
        try:
            with open(f"/proc/{p}/status") as f:
                total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
        except OSError:
            pass
    return total / 1024.0


def cpu_seconds(pid: int) -> float:
    """CPU time of the process tree, from each thread's ``schedstat`` (nanoseconds; robust to
    other load on the machine, unlike wall time). ``/proc/PID/stat`` counts in clock ticks of
    10 ms, too coarse for a run of a few thousand 30 µs calls."""
    total = 0
    for p in tree_pids(pid):
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{p}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
            except (OSError, IndexError, ValueError):
                pass
    return total / 1e9


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=3)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=3)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ------------------------------------------------------------------ servers
@dataclass
class Server:
    """A server under test: its stdio command, its HTTP command for a port (None: no HTTP),
    and the wires it speaks. ``runs``/``cold`` are keyed by ``"transport/wire"``."""

    label: str
    cmd: list[str]
    env: dict[str, str]
    http: Callable[[int], list[str]] | None = None
    wires: tuple[str, ...] = WIRES
    transports: tuple[str, ...] = TRANSPORTS
    runs: dict[str, list[dict[str, float]]] = field(default_factory=dict)
    cold: dict[str, list[float]] = field(default_factory=dict)

    def speaks(self, transport: str, wire: str) -> bool:
        return wire in self.wires and transport in self.transports


# CPU placement (bench_server.py --pin): None leaves it to the scheduler; else the CPUs the
# server's process tree may run on (the driver pins itself with ``pin_driver``)
SERVER_CPUS: set[int] | None = None


def pin_driver(mode: str) -> str:
    """Place the driver and (through ``SERVER_CPUS``) every server: ``none``; ``same``, both
    on CPU 0 (a sequential round trip becomes two context switches on one core, no cross-core
    wake-up); ``split``, the driver on CPU 0 and the server's whole tree (its threads too) on
    CPU 1. Returns the line the bench prints about it."""
    global SERVER_CPUS
    if mode == "none":
        SERVER_CPUS = None
        return "CPU placement: left to the scheduler"
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2 and mode == "split":
        raise SystemExit("--pin split needs two CPUs this process may use")
    driver = {cpus[0]}
    SERVER_CPUS = driver if mode == "same" else {cpus[1]}
    os.sched_setaffinity(0, driver)
    return f"CPU placement ({mode}): driver on CPU {cpus[0]}, servers on CPU {min(SERVER_CPUS)}"


def _place() -> None:  # runs in the child between fork and exec
    if SERVER_CPUS is not None:
        os.sched_setaffinity(0, SERVER_CPUS)


def _spawn(cmd: list[str], env: dict[str, str], stdio: bool) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        cmd,
        preexec_fn=_place if SERVER_CPUS is not None else None,
        stdin=subprocess.PIPE if stdio else subprocess.DEVNULL,
        stdout=subprocess.PIPE if stdio else subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        bufsize=0,
        start_new_session=True,
    )


class Conn:
    """One server process and one client connection to it."""

    def __init__(self, srv: Server, transport: str, wire: str) -> None:
        self.wire, self.transport = wire, transport
        self.next_id = 0
        self.session: str | None = None
        self.t0 = time.perf_counter()
        if transport == "stdio":
            self.proc = _spawn(srv.cmd, srv.env, True)
            assert self.proc.stdout is not None
            # stdin unbuffered (one write per message); stdout buffered: a raw pipe's readline
            # reads one byte per system call
            self.w, self.r = self.proc.stdin, io.BufferedReader(self.proc.stdout, 1 << 16)
        else:
            assert srv.http is not None, f"{srv.label} has no HTTP command"
            self.port = free_port()
            cmd = srv.http(self.port)
            self.proc = _spawn(cmd, srv.env, False)
            self.h = self._connect(600.0 if cmd[0] == "valgrind" else 60.0)  # callgrind: slow

    def _connect(self, timeout: float = 60.0) -> WireHttp:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            try:
                return WireHttp(self.port)
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.005)

    def _message(self, method: str, params: dict[str, Any] | None, rid: int | None) -> bytes:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if rid is not None:
            msg["id"] = rid
        p = dict(params or {})
        if self.wire == "modern":
            p["_meta"] = META
        if p:
            msg["params"] = p
        return _dumps(msg)

    def notify(self, method: str) -> None:
        body = self._message(method, None, None)
        if self.transport == "stdio":
            assert self.w is not None
            self.w.write(body + b"\n")
            return
        status, _ = self._post(body, method, None)
        if status != 202:
            raise RuntimeError(f"{method}: HTTP {status}")

    def rpc(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        body = self._message(method, params, self.next_id)
        if self.transport == "http":
            status, resp = self._post(body, method, (params or {}).get("name"))
            if resp is None:
                raise RuntimeError(f"{method}: HTTP {status} without a JSON-RPC answer")
            return resp
        assert self.w is not None and self.r is not None
        self.w.write(body + b"\n")
        while True:
            line = self.r.readline()
            if not line:
                raise RuntimeError(f"server closed stdout (waiting for {method} #{self.next_id})")
            resp = loads(line)
            if resp.get("id") == self.next_id and ("result" in resp or "error" in resp):
                return dict(resp)

    def _post(
        self, body: bytes, method: str, name: str | None
    ) -> tuple[int, dict[str, Any] | None]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        if self.wire == "modern":
            headers.update({"MCP-Protocol-Version": MODERN, "Mcp-Method": method})
            if name:
                headers["Mcp-Name"] = name
        elif method != "initialize":
            headers["MCP-Protocol-Version"] = HANDSHAKE
        if self.session:
            headers["Mcp-Session-Id"] = self.session
        r = self.h.post(body, headers)
        data = bytes(r.body)
        self.session = r.header("mcp-session-id") or self.session
        if not data:
            return r.status, None
        if (r.header("content-type") or "").startswith("text/event-stream"):
            for line in data.decode().splitlines():
                if line.startswith("data:") and line[5:].strip():
                    msg = loads(line[5:])
                    if "result" in msg or "error" in msg:
                        return r.status, dict(msg)
            return r.status, None
        return r.status, dict(loads(data))

    def start(self) -> float:
        """Handshake (legacy wire) + first tools/list; returns the cold start in ms."""
        if self.wire == "handshake":
            init = self.rpc(
                "initialize",
                {"protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": CLIENT_INFO},
            )
            if "error" in init or init["result"].get("protocolVersion") != HANDSHAKE:
                raise RuntimeError(f"initialize failed: {init}")
            self.notify("notifications/initialized")
        tl = self.rpc("tools/list")
        cold = (time.perf_counter() - self.t0) * 1e3
        if "error" in tl or [t["name"] for t in tl["result"]["tools"]] != ["add"]:
            raise RuntimeError(f"tools/list: {tl}")
        return cold

    def close(self) -> None:
        try:
            if self.transport == "stdio":
                assert self.w is not None
                self.w.close()
            else:
                self.h.close()
        except OSError:
            pass
        kill_group(self.proc)


def check_add(resp: dict[str, Any], a: int, b: int) -> None:
    if "error" in resp:
        raise RuntimeError(f"JSON-RPC error: {resp['error']}")
    res = resp["result"]
    want = {"sum": a + b}
    if res.get("isError") or res.get("structuredContent") != want:
        raise RuntimeError(f"bad result for add({a}, {b}): {json.dumps(res)[:300]}")
    if not any(
        c.get("type") == "text" and loads(c["text"]) == want for c in res.get("content", [])
    ):
        raise RuntimeError(f"no text mirror of {want}: {res.get('content')}")
    if resp["result"].get("resultType", "complete") != "complete":
        raise RuntimeError(f"resultType: {res}")


def call(conn: Conn, a: int, b: int) -> dict[str, Any]:
    return conn.rpc("tools/call", {"name": "add", "arguments": {"a": a, "b": b}})


def one_run(srv: Server, n: int, warmup: int, transport: str, wire: str) -> dict[str, float]:
    """Cold start, ``warmup`` then ``n`` timed sequential checked calls, server CPU and RSS."""
    conn = Conn(srv, transport, wire)
    try:
        cold = conn.start()
        for i in range(warmup):
            check_add(call(conn, i, 7), i, 7)
        lat: list[int] = []
        cpu0 = cpu_seconds(conn.proc.pid)
        own0 = time.process_time()
        t_start = time.perf_counter()
        for i in range(n):
            a, b = i, n - 2 * i
            s = time.perf_counter_ns()
            resp = call(conn, a, b)
            lat.append(time.perf_counter_ns() - s)
            check_add(resp, a, b)
        wall = time.perf_counter() - t_start
        cpu = cpu_seconds(conn.proc.pid) - cpu0
        own = time.process_time() - own0
        rss = rss_mib(conn.proc.pid)
    finally:
        conn.close()
    # throughput per block of 100 consecutive calls; the median block shrugs off bursts of
    # load from other processes on a shared machine (the plain N/wall figure does not)
    blocks = [100e9 / sum(lat[i : i + 100]) for i in range(0, len(lat) - 99, 100)]
    lat.sort()

    def q(p: float) -> float:
        return lat[min(len(lat) - 1, round(p / 100 * (len(lat) - 1)))] / 1e6

    return {
        "calls_per_s": n / wall,
        "calls_per_s_blk": statistics.median(blocks) if blocks else n / wall,
        "server_cpu_us_per_call": cpu / n * 1e6,
        "driver_cpu_us_per_call": own / n * 1e6,
        "p50_ms": q(50),
        "p99_ms": q(99),
        "cold_ms": cold,
        "rss_mib": rss,
    }


def cold_sample(srv: Server, transport: str, wire: str) -> float:
    conn = Conn(srv, transport, wire)
    try:
        return conn.start()
    finally:
        conn.close()
