#!/usr/bin/env python3
"""Streamable HTTP under load: many concurrent clients, the generated server (``--workers 2``)
against the TypeScript SDK, in one run (not a test).

Each client is one keep-alive connection (asyncio, raw HTTP/1.1, pre-built bodies; no MCP or
HTTP library on the hot path) that sends checked sequential ``tools/call add`` requests. On the
handshake wire every client opens its own session first (``initialize``, the
``Mcp-Session-Id`` it gets, ``notifications/initialized``), as real clients do; on the
2026-07-28 wire (generated only: the TypeScript SDK 1.32.2 does not speak it) each request
carries its envelope and no session. Per run: calls/s, latency p50/p99 (send -> whole answer
read), server CPU per call over the whole process tree (uvicorn's supervisor and workers), and
the tree's RSS after the calls. Servers are interleaved within each repeat; medians printed.

  .venv/bin/python bench/bench_http_load.py                       # C=64,256, N=6000, 3 repeats
  .venv/bin/python bench/bench_http_load.py -c 64 -n 3000 --repeat 1 --json out.json
  .venv/bin/python bench/bench_http_load.py --spy 10 -c 64     # where a worker's time goes

``--spy S``: instead, load the generated server (handshake wire) and sample each worker with
py-spy for S seconds (``--idle``, native frames off); prints the share of samples per
innermost Python frame and per module, summed over the workers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive import HANDSHAKE, META, cpu_seconds, free_port, kill_group, rss_mib  # noqa: E402
from peerset import generate, peers  # noqa: E402


def _body(rid: Any, method: str, params: dict[str, Any] | None) -> bytes:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if rid is not None:
        msg["id"] = rid
    if params is not None:
        msg["params"] = params
    return json.dumps(msg, separators=(",", ":")).encode()


def _post(port: int, body: bytes, headers: dict[str, str]) -> bytes:
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\n"
        + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        + f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class Client(asyncio.Protocol):
    """One connection: (handshake wire) a session, then calls until the shared counter ends."""

    def __init__(self, port: int, wire: str, counter: Any, lat: list[int]) -> None:
        self.port, self.wire, self.counter, self.lat = port, wire, counter, lat
        self.buf = b""
        self.session: str | None = None
        self.waiting: asyncio.Future[tuple[bytes, bytes]] | None = None
        self.transport: asyncio.Transport | None = None
        self.done = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    async def exchange(self, body: bytes, headers: dict[str, str]) -> tuple[bytes, bytes]:
        self.waiting = asyncio.get_running_loop().create_future()
        assert self.transport is not None
        self.transport.write(_post(self.port, body, headers))
        return await self.waiting

    def data_received(self, data: bytes) -> None:
        self.buf += data
        end = self.buf.find(b"\r\n\r\n")
        if end < 0:
            return
        head = self.buf[:end].lower()
        rest = self.buf[end + 4 :]
        k = head.find(b"content-length:")
        if k >= 0:
            n = int(head[k + 15 : head.find(b"\r\n", k) if head.find(b"\r\n", k) > 0 else None])
            if len(rest) < n:
                return
            body, self.buf = rest[:n], rest[n:]
        elif b"chunked" in head:
            stop = rest.find(b"0\r\n\r\n")
            if stop < 0:
                return
            body, self.buf = _unchunk(rest[:stop]), rest[stop + 5 :]
        else:
            body, self.buf = b"", rest
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_result((head, body))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(ConnectionError(f"connection lost: {exc}"))

    async def run(self) -> None:
        base: dict[str, str] = {}
        if self.wire == "handshake":
            init = {
                "protocolVersion": HANDSHAKE,
                "capabilities": {},
                "clientInfo": {"name": "load", "version": "1"},
            }
            head, body = await self.exchange(_body(0, "initialize", init), {})
            sid = _header(head, b"mcp-session-id")
            if not head.startswith(b"http/1.1 200") or sid is None:
                raise AssertionError(f"initialize: {head[:60]!r} {body[:200]!r}")
            base = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": HANDSHAKE}
            await self.exchange(_body(None, "notifications/initialized", None), base)
        else:
            base = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call"}
            base["Mcp-Name"] = "add"
        for i in self.counter:
            a, b = i, 7
            params: dict[str, Any] = {"name": "add", "arguments": {"a": a, "b": b}}
            if self.wire == "modern":
                params["_meta"] = META
            t = time.perf_counter_ns()
            head, body = await self.exchange(_body(i + 1, "tools/call", params), base)
            self.lat.append(time.perf_counter_ns() - t)
            if not head.startswith(b"http/1.1 200") or b'"sum":%d}' % (a + b) not in body:
                raise AssertionError(f"bad answer: {head[:60]!r} {body[:200]!r}")


def _header(head: bytes, name: bytes) -> str | None:
    for line in head.split(b"\r\n"):
        if line.startswith(name + b":"):
            return line.split(b":", 1)[1].strip().decode()
    return None


def _unchunk(data: bytes) -> bytes:
    out, i = b"", 0
    while i < len(data):
        j = data.find(b"\r\n", i)
        n = int(data[i:j], 16)
        out += data[j + 2 : j + 2 + n]
        i = j + 2 + n + 2
    return out


async def drive(port: int, wire: str, conns: int, total: int) -> tuple[float, list[int]]:
    loop = asyncio.get_running_loop()
    counter = iter(range(total))
    lat: list[int] = []
    clients = []
    for _ in range(conns):
        _, c = await loop.create_connection(
            lambda: Client(port, wire, counter, lat), "127.0.0.1", port
        )
        clients.append(c)
    t0 = time.perf_counter()
    await asyncio.gather(*(c.run() for c in clients))
    wall = time.perf_counter() - t0
    for c in clients:
        if c.transport is not None:
            c.transport.close()
    return wall, lat


def ready(port: int, proc: subprocess.Popen[bytes], wire: str) -> None:
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        try:
            asyncio.run(drive(port, wire, 1, 2))
            return
        except (OSError, AssertionError, ValueError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def one_run(argv: list[str], env: dict[str, str], wire: str, conns: int, n: int) -> dict[str, Any]:
    port = free_port()
    proc = subprocess.Popen(
        _with_port(argv, port),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        ready(port, proc, wire)
        asyncio.run(drive(port, wire, conns, max(conns * 2, n // 10)))  # warm every worker
        cpu0 = cpu_seconds(proc.pid)
        wall, lat = asyncio.run(drive(port, wire, conns, n))
        cpu = cpu_seconds(proc.pid) - cpu0
        rss = rss_mib(proc.pid)
    finally:
        kill_group(proc)
    lat.sort()

    def q(p: float) -> float:
        return lat[min(len(lat) - 1, round(p / 100 * (len(lat) - 1)))] / 1e6

    return {
        "calls_per_s": n / wall,
        "p50_ms": q(50),
        "p99_ms": q(99),
        "server_cpu_us_per_call": cpu / n * 1e6,
        "rss_mib": rss,
    }


def _with_port(argv: list[str], port: int) -> list[str]:
    return [str(port) if a == "{port}" else a for a in argv]


def spy(argv: list[str], env: dict[str, str], conns: int, seconds: float) -> None:
    """py-spy profile of every worker under ``conns`` clients (handshake wire)."""
    import collections
    import threading

    from drive import tree_pids

    port = free_port()
    proc = subprocess.Popen(
        _with_port(argv, port),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        ready(port, proc, "handshake")
        stop = time.monotonic() + seconds + 3
        errors: list[BaseException] = []

        def load() -> None:
            try:
                while time.monotonic() < stop:
                    asyncio.run(drive(port, "handshake", conns, conns * 40))
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        t = threading.Thread(target=load, daemon=True)
        t.start()
        time.sleep(1)
        workers = [p for p in tree_pids(proc.pid) if p != proc.pid] or [proc.pid]
        outs = []
        spies = []
        for w in workers:
            out = Path(tempfile.mkstemp(suffix=".txt")[1])
            outs.append(out)
            spies.append(
                subprocess.Popen(
                    [
                        "py-spy",
                        "record",
                        "--pid",
                        str(w),
                        "--duration",
                        str(int(seconds)),
                        "--format",
                        "raw",
                        "--output",
                        str(out),
                        "--rate",
                        "200",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        for sp in spies:
            sp.wait()
        t.join()
        if errors:
            raise errors[0]
    finally:
        kill_group(proc)
    leaf: collections.Counter[str] = collections.Counter()
    module: collections.Counter[str] = collections.Counter()
    total = 0
    for out in outs:
        for line in out.read_text().splitlines():
            stack, _, n = line.rpartition(" ")
            if not stack:
                continue
            frames = stack.split(";")
            count = int(n)
            total += count
            top = frames[-1]
            leaf[top] += count
            where = top.rsplit("(", 1)[-1].rstrip(")").split(":")[0]
            module[_package(where)] += count
        out.unlink()
    print(f"\npy-spy, {len(workers)} worker(s), {conns} clients, {seconds:.0f} s, {total} samples")
    print("by package/module of the innermost frame:")
    for name, n in module.most_common(15):
        print(f"  {n / total:6.1%}  {name}")
    print("innermost frames:")
    for name, n in leaf.most_common(25):
        print(f"  {n / total:6.1%}  {name}")


def _package(path: str) -> str:
    parts = path.split("/")
    if "site-packages" in parts:
        rest = parts[parts.index("site-packages") + 1 :]
        return "/".join(rest[:2])
    for anchor in ("mcpgen_runtime", "asyncio", "lib"):
        if anchor in parts:
            return "/".join(parts[parts.index(anchor) : parts.index(anchor) + 2])
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-c", "--clients", default="64,256", help="comma-separated client counts")
    ap.add_argument("-n", type=int, default=6000, help="timed calls per run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2, help="the generated server's --workers")
    ap.add_argument("--json", help="write the medians (and raw runs) to this file")
    ap.add_argument("--spy", type=float, help="seconds of py-spy sampling instead (see above)")
    a = ap.parse_args()
    clients = [int(c) for c in a.clients.split(",")]
    if a.spy:
        with tempfile.TemporaryDirectory(prefix="mcpgen-http-load-") as tmp:
            gen = generate(Path(tmp))
            argv = [*gen.cmd, "--http", "--port", "{port}", "--json-response"]
            spy([*argv, "--workers", str(a.workers)], gen.env, clients[0], a.spy)
        return 0
    with tempfile.TemporaryDirectory(prefix="mcpgen-http-load-") as tmp:
        gen = generate(Path(tmp))
        http = [*gen.cmd, "--http", "--port", "{port}", "--json-response"]
        servers: list[tuple[str, list[str], dict[str, str], tuple[str, ...]]] = [
            (
                f"generated --workers {a.workers}",
                [*http, "--workers", str(a.workers)],
                gen.env,
                ("handshake", "modern"),
            )
        ]
        ts = [s for s in peers(gen, {"ts-sdk"}) if s.label == "ts-sdk"]
        if ts:
            cmd = [*ts[0].cmd, "--http", "--port", "{port}"]
            servers.append(("ts-sdk", cmd, ts[0].env, ("handshake",)))
        raw: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
        for rep in range(a.repeat):
            for c in clients:
                for label, argv, env, wires in servers:
                    for wire in wires:
                        r = one_run(argv, env, wire, c, a.n)
                        raw.setdefault((label, wire, c), []).append(r)
                        print(
                            f"repeat {rep + 1}/{a.repeat} C={c} {label} {wire}: "
                            + "  ".join(f"{k}={v:.2f}" for k, v in r.items()),
                            flush=True,
                        )
    med = {
        key: {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        for key, runs in raw.items()
    }
    print(f"\nHTTP under load, add(a,b), N={a.n} calls per run, medians of {a.repeat}")
    print(
        f"{'server':24} {'wire':10} {'C':>4} {'calls/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'cpu us':>7} {'RSS MiB':>8}"
    )
    for (label, wire, c), m in med.items():
        print(
            f"{label:24} {wire:10} {c:>4} {m['calls_per_s']:8.0f} {m['p50_ms']:7.2f} "
            f"{m['p99_ms']:7.2f} {m['server_cpu_us_per_call']:7.0f} {m['rss_mib']:8.1f}"
        )
    for c in clients:
        g = med.get((servers[0][0], "handshake", c))
        t = med.get(("ts-sdk", "handshake", c))
        if g and t:
            print(
                f"  C={c}: calls/s generated / ts-sdk (handshake) "
                f"{g['calls_per_s'] / t['calls_per_s']:.2f}"
            )
    if a.json:
        out = {"|".join(map(str, k)): v for k, v in med.items()}
        Path(a.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
