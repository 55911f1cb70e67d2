#!/usr/bin/env python3
"""HTTP throughput of a generated server with ``--workers 2`` against ``--workers 1`` (not a test).

One run, same machine: the ``add(a, b)`` server of ``bench/bench_server.py`` is generated into a
temp dir and served over Streamable HTTP on the stateless 2026-07-28 wire (``--json-response``),
once with one worker and once with two (uvicorn's process manager). A light raw HTTP/1.1 driver
(asyncio, keep-alive connections, pre-built requests; no MCP or HTTP library on the hot path)
keeps C connections busy for a fixed number of calls and checks every answer.

Per run: calls/s (wall) and server CPU time per call, summed over the server's whole process
tree (uvicorn's supervisor and every worker; /proc utime+stime). Configurations are interleaved
within each repeat (the machine is noisy); the table shows medians and the best run.

  .venv/bin/python bench/bench_http_workers.py                 # C=32, N=6000, 3 repeats
  .venv/bin/python bench/bench_http_workers.py -c 64 -n 10000 --repeat 5 --json out.json

Goals printed with the ratios: throughput(2 workers) >= 1.4x throughput(1 worker) (the driver
shares the two cores), and CPU per call with 2 workers within 10% of 1 worker (no coordination
cost between workers).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive import cpu_seconds, free_port, kill_group  # noqa: E402
from peerset import generate  # noqa: E402

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "mcpgen-bench-http", "version": "0.1.0"},
}


def request_bytes(port: int, rid: int, a: int, b: int, extra: bytes = b"") -> bytes:
    """One pre-built ``tools/call add`` POST; ``extra``: more header lines (CRLF-terminated)."""
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": a, "b": b}, "_meta": META},
        },
        separators=(",", ":"),
    ).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
        f"Mcp-Method: tools/call\r\nMcp-Name: add\r\nContent-Length: {len(body)}\r\n"
    )
    return head.encode() + extra + b"\r\n" + body


class _Conn(asyncio.Protocol):
    """One keep-alive connection: send a pre-built request, read the whole response (JSON body
    with Content-Length), check the sum by a byte search, send the next; no parsing library."""

    def __init__(self, port: int, pairs: list[tuple[bytes, bytes]], counter: Any) -> None:
        self.pairs, self.counter = pairs, counter
        self.buf = b""
        self.expected = b""
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is not a subclass
        self._next()

    def _next(self) -> None:
        i = next(self.counter, None)
        if i is None:
            if not self.done.done():
                self.done.set_result(None)
            return
        request, self.expected = self.pairs[i % len(self.pairs)]
        assert self.transport is not None
        self.transport.write(request)

    def data_received(self, data: bytes) -> None:
        self.buf += data
        while True:
            head_end = self.buf.find(b"\r\n\r\n")
            if head_end < 0:
                return
            head = self.buf[:head_end].lower()
            k = head.find(b"content-length:")
            if k < 0:
                self._fail(f"no content-length: {self.buf[:300]!r}")
                return
            length = int(head[k + 15 : head.find(b"\r\n", k)].strip())
            total = head_end + 4 + length
            if len(self.buf) < total:
                return
            body = self.buf[head_end + 4 : total]
            self.buf = self.buf[total:]
            if not head.startswith(b"http/1.1 200") or self.expected not in body:
                self._fail(f"bad answer: {head[:40]!r} {body[:300]!r}")
                return
            self._next()

    def _fail(self, why: str) -> None:
        if not self.done.done():
            self.done.set_exception(AssertionError(why))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_exception(ConnectionError(f"connection lost: {exc}"))


def _pairs(port: int, extra: bytes = b"") -> list[tuple[bytes, bytes]]:
    """Pre-built requests with the answer each must contain (distinct a, b per request)."""
    return [
        (
            request_bytes(port, 1000 + i, i, 3 * i + 1, extra),
            f'"structuredContent":{{"sum":{i + 3 * i + 1}}}'.encode(),
        )
        for i in range(256)
    ]


async def drive(port: int, conns: int, total: int, extra: bytes = b"") -> float:
    """``total`` calls over ``conns`` keep-alive connections; returns wall seconds.
    ``extra``: header lines every request carries (e.g. ``Authorization``)."""
    loop = asyncio.get_running_loop()
    counter = iter(range(total))
    pairs = _pairs(port, extra)
    t0 = time.perf_counter()
    protocols = []
    for _ in range(conns):
        _, proto = await loop.create_connection(
            lambda: _Conn(port, pairs, counter), "127.0.0.1", port
        )
        protocols.append(proto)
    await asyncio.gather(*(p.done for p in protocols))
    wall = time.perf_counter() - t0
    for p in protocols:
        if p.transport is not None:
            p.transport.close()
    return wall


def wait_ready(
    port: int, proc: subprocess.Popen[bytes], timeout: float = 60.0, extra: bytes = b""
) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        try:
            asyncio.run(drive(port, 1, 4, extra))
            return
        except (OSError, AssertionError, ValueError, IndexError, asyncio.IncompleteReadError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def timed_run(
    argv: list[str], env: dict[str, str], conns: int, n: int, extra: bytes = b""
) -> dict[str, Any]:
    """Serve ``argv --http --port P --json-response``, warm it up, then time ``n`` checked
    calls over ``conns`` connections: calls/s and CPU per call of the server and the driver."""
    port = free_port()
    proc = subprocess.Popen(
        [*argv, "--http", "--port", str(port), "--json-response"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_ready(port, proc, extra=extra)
        asyncio.run(drive(port, conns, max(200, n // 10), extra))  # every worker, every conn
        cpu0, drv0 = cpu_seconds(proc.pid), time.process_time()
        wall = asyncio.run(drive(port, conns, n, extra))
        cpu, drv = cpu_seconds(proc.pid) - cpu0, time.process_time() - drv0
        return {
            "calls_per_s": n / wall,
            "server_cpu_us_per_call": cpu / n * 1e6,
            "driver_cpu_us_per_call": drv / n * 1e6,
            "wall_s": wall,
        }
    finally:
        kill_group(proc)


def counted_run(
    argv: list[str],
    env: dict[str, str],
    calls: int,
    out: Path,
    extra: bytes = b"",
    loop: str = "asyncio",
) -> int:
    """Instructions the server executes over its life (start, ``calls`` checked calls on one
    connection, exit on SIGINT), counted by callgrind (PYTHONHASHSEED=0, ``--loop LOOP``)."""
    import re
    import signal

    port = free_port()
    proc = subprocess.Popen(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--dump-instr=no",
            *argv,
            "--http",
            "--port",
            str(port),
            "--json-response",
            "--loop",
            loop,
        ],
        env={**env, "PYTHONHASHSEED": "0"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_ready(port, proc, timeout=600, extra=extra)
        asyncio.run(drive(port, 1, calls, extra))
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=600)  # callgrind writes its counts at exit
    finally:
        if proc.poll() is None:
            proc.kill()
    m = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(errors="replace"), re.M)
    if not m:
        raise SystemExit(f"no instruction total in {out}")
    return int(m.group(1))


def one_run(
    cmd: list[str], env: dict[str, str], workers: int, conns: int, n: int
) -> dict[str, Any]:
    return {"workers": workers, **timed_run([*cmd, "--workers", str(workers)], env, conns, n)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-c", "--connections", type=int, default=32)
    ap.add_argument("-n", type=int, default=6000, help="timed calls per run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="write the summary (and raw runs) to this file")
    a = ap.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with tempfile.TemporaryDirectory(prefix="mcpgen-bench-http-") as tmp:
        srv = generate(Path(tmp))
        runs: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
        for rep in range(a.repeat):
            for workers in (1, 2):
                r = one_run(srv.cmd, srv.env, workers, a.connections, a.n)
                runs[workers].append(r)
                print(
                    f"repeat {rep + 1}/{a.repeat} workers={workers} "
                    f"calls_per_s={r['calls_per_s']:.0f} "
                    f"cpu_us_per_call={r['server_cpu_us_per_call']:.0f} "
                    f"driver_cpu_us_per_call={r['driver_cpu_us_per_call']:.0f}",
                    flush=True,
                )
    load = os.getloadavg()[0]
    print(
        f"\nHTTP 2026-07-28 wire (--json-response), add(a,b), C={a.connections} keep-alive "
        f"connections, N={a.n} calls per run, {a.repeat} repeats, {os.cpu_count()} CPUs, "
        f"load average {load:.1f}"
    )
    summary: dict[str, Any] = {}
    for how, pick in (("MEDIAN", statistics.median), ("BEST", max)):
        print(f"\n{how} of the repeats\nworkers  calls/s  server cpu us/call (all processes)")
        row = {}
        for w in (1, 2):
            cps = pick([r["calls_per_s"] for r in runs[w]])
            cpu = (statistics.median if how == "MEDIAN" else min)(
                [r["server_cpu_us_per_call"] for r in runs[w]]
            )
            row[w] = (cps, cpu)
            print(f"{w:>7}  {cps:7.0f}  {cpu:8.0f}")
        ratio = row[2][0] / row[1][0]
        cpu_ratio = row[2][1] / row[1][1]
        print(
            f"  throughput 2 workers / 1 worker   {ratio:.2f}  target >= 1.40  "
            f"{'MET' if ratio >= 1.4 else 'MISSED'}"
        )
        print(
            f"  CPU/call 2 workers / 1 worker     {cpu_ratio:.2f}  target <= 1.10  "
            f"{'MET' if cpu_ratio <= 1.10 else 'MISSED'}"
        )
        summary[how.lower()] = {
            "calls_per_s": {str(w): row[w][0] for w in row},
            "server_cpu_us_per_call": {str(w): row[w][1] for w in row},
            "throughput_ratio": ratio,
            "cpu_per_call_ratio": cpu_ratio,
        }
    if a.json:
        Path(a.json).write_text(json.dumps({"summary": summary, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
