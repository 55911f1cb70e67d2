"""``bench/bench_server.py --instructions``: instructions per call under callgrind (stdio, or
Streamable HTTP with ``--transport http``).

Each server runs under ``valgrind --tool=callgrind`` (PYTHONHASHSEED=0) twice, for LO and HI
checked ``tools/call add`` calls (identical calls, only their number differs: handshake or
tools/list, the calls, then stdin EOF, or on HTTP SIGINT (a graceful stop), and exit).
Callgrind counts the whole process, so instructions/call = (I(HI) - I(LO)) / (HI - LO) cancels
start-up and exit; start-up = I(LO) - LO * per-call. On HTTP one keep-alive connection carries
the calls (SSE answers, the servers' default).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from drive import Conn, Server, call, check_add

Check = tuple[str, float, str, "bool | None"]  # name, value, target, met (None: info)


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def print_checks(checks: list[Check]) -> list[dict[str, Any]]:
    width = max([38, *(len(c[0]) for c in checks)])
    for name, value, target, ok in checks:
        verdict = "" if ok is None else ("MET" if ok else "MISSED")
        print(f"  {name:<{width}} {value:>8.2f}  target {target:<8} {verdict}")
    return [{"name": c[0], "value": c[1], "target": c[2], "met": c[3]} for c in checks]


# ------------------------------------------------------------------ instructions per call
IC_SERVERS = "generated,lowlevel,gen-asyncio,lowlevel-uv"
SAME_LOOP = (("gen-asyncio", "lowlevel"), ("generated", "lowlevel-uv"))


def instructions(srv: Server, calls: int, wire: str, out: Path, transport: str = "stdio") -> int:
    """Instructions executed by the server process over its whole life (start, handshake or
    tools/list, ``calls`` checked tools/call add, exit on stdin EOF or SIGINT), counted by
    callgrind."""
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=no"]
    env = dict(srv.env, PYTHONHASHSEED="0")
    if transport == "http":
        assert srv.http is not None
        http = srv.http
        under = dataclasses.replace(srv, env=env, http=lambda port: [*cmd, *http(port)], runs={})
    else:
        under = Server(srv.label, [*cmd, *srv.cmd], env)
    conn = Conn(under, transport, wire)
    try:
        conn.start()
        for i in range(calls):
            check_add(call(conn, i, 7), i, 7)
        if transport == "http":
            conn.h.close()
            os.kill(conn.proc.pid, signal.SIGINT)  # valgrind passes it on; uvicorn stops
        else:
            assert conn.w is not None
            conn.w.close()
        conn.proc.wait(timeout=600)  # callgrind writes its counts at exit
    finally:
        conn.close()
    text = out.read_text(errors="replace") if out.is_file() else ""
    m = re.search(r"^(?:summary|totals):\s*(\d+)", text, re.M)
    if not m:
        raise RuntimeError(f"{srv.label}: no instruction total in {out}")
    return int(m.group(1))


def ic_run(srv: Server, a: argparse.Namespace, tmp: Path) -> dict[str, float]:
    t0 = time.perf_counter()
    t = a.transport
    lo = instructions(srv, a.lo, a.wire, tmp / f"callgrind.{srv.label}.lo", t)
    hi = instructions(srv, a.hi, a.wire, tmp / f"callgrind.{srv.label}.hi", t)
    per_call = (hi - lo) / (a.hi - a.lo)
    return {
        "instr_lo": lo,
        "instr_hi": hi,
        "instr_per_call": per_call,
        "startup_instr": lo - a.lo * per_call,
        "wall_s": time.perf_counter() - t0,
    }


def ic_report(servers: list[Server], a: argparse.Namespace) -> dict[str, Any]:
    print(
        f"\n{a.transport}, {a.wire} wire, add(a,b), instructions under callgrind "
        "(PYTHONHASHSEED=0): "
        f"per call = (I({a.hi}) - I({a.lo})) / {a.hi - a.lo}, {a.repeat} repeat(s), "
        f"python {sys.version.split()[0]}"
    )
    print(
        f"{'server':<12} {'instr/call':>11} {'min..max over repeats':>23} {'spread':>7} "
        f"{'start-up instr':>15} {'wall s':>7}"
    )
    rows: dict[str, dict[str, float]] = {}
    for s in servers:
        pc = [r["instr_per_call"] for r in _runs(s, a)]
        m = rows[s.label] = {
            "instr_per_call": med(pc),
            "instr_per_call_min": min(pc),
            "instr_per_call_max": max(pc),
            "startup_instr": med([r["startup_instr"] for r in _runs(s, a)]),
            "wall_s": med([r["wall_s"] for r in _runs(s, a)]),
        }
        spread = (max(pc) - min(pc)) / m["instr_per_call"] * 100
        print(
            f"{s.label:<12} {m['instr_per_call']:>11,.0f} "
            f"{f'{min(pc):,.0f}..{max(pc):,.0f}':>23} {spread:>6.2f}% "
            f"{m['startup_instr']:>15,.0f} {m['wall_s']:>7.0f}"
        )
    print("instr/call ratio: lower is better; calls/instr = its inverse, read like calls/s")
    checks: list[Check] = []
    for gen, peer in SAME_LOOP:
        if gen in rows and peer in rows:
            g, p = rows[gen]["instr_per_call"], rows[peer]["instr_per_call"]
            checks += [
                (f"same loop: instr/call {gen} / {peer}", g / p, "(info)", None),
                (f"same loop: calls/instr {gen} / {peer}", p / g, ">= 1.00", p >= g),
            ]
    return {
        "mode": "instructions",
        "wire": a.wire,
        "lo": a.lo,
        "hi": a.hi,
        "runs": {s.label: _runs(s, a) for s in servers},
        "rows": rows,
        "checks": print_checks(checks),
    }


def ic_runs(servers: list[Server], a: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    for rep in range(a.repeat):
        for s in servers:
            r = ic_run(s, a, tmp)
            _runs(s, a).append(r)
            print(
                f"repeat {rep + 1}/{a.repeat} {s.label:<11} {r['instr_per_call']:,.0f} instr/call,"
                f" start-up {r['startup_instr']:,.0f}, {r['wall_s']:.0f} s",
                file=sys.stderr,
            )
    return ic_report(servers, a)


def _runs(s: Server, a: argparse.Namespace) -> list[dict[str, float]]:
    return s.runs.setdefault(f"instructions/{a.transport}/{a.wire}", [])
