#!/usr/bin/env python3
"""Runtime benchmark of the server mcpgen generates, against every peer (not a test).

One run, same machine, same tool ``add(a, b) -> {sum}`` (with outputSchema), on stdio and
Streamable HTTP, on the handshake wire (2025-11-25) and the 2026-07-28 wire. The servers are
listed in bench/peerset.py: the generated server, the SDK's low-level ``Server`` and
``MCPServer``, FastMCP 4.1.6 (installed into bench/.peers/fastmcp on first use) and the
TypeScript SDK 1.32.2 (``npm ci`` in bench/peers/js on first use; handshake wire only), plus
same-loop controls.

A raw driver (bench/drive.py: newline-delimited JSON-RPC on the child's pipes, or one keep-alive
HTTP connection; no MCP library on the hot path) measures per run: cold start (spawn -> first
tools/list answer, including ``initialize`` on the handshake wire), then W warm-up and N timed
sequential ``tools/call add`` (calls/s, p50/p99 latency, server CPU per call), then the RSS of
the server's process tree. Every response is checked: matching id, no JSON-RPC error, not
isError, structuredContent == {"sum": a+b} for that call's (a, b) and a text block mirroring
it. Servers are interleaved round-robin within each repeat (the machine is noisy), extra
spawn->tools/list samples tighten the stdio cold-start median, and the tables show medians.

  .venv/bin/python bench/bench_server.py                  # everything: N=2000, W=200, 3 repeats
  .venv/bin/python bench/bench_server.py --transport stdio --wire modern --only generated,lowlevel
  .venv/bin/python bench/bench_server.py -n 5000 --repeat 5 --json out.json
  .venv/bin/python bench/bench_server.py --pin same       # driver and servers on one CPU

Where the driver and the server run decides a sequential round trip on a small virtual machine:
a wake-up across cores costs tens of microseconds there, more than the servers' own work.
``--pin same`` puts both on one CPU (calls/s then follows the CPU both spend per call, plus two
context switches), ``--pin split`` the driver on one CPU and the server's whole process tree on
the other (every call pays two cross-core wake-ups); the default leaves it to the scheduler.

Printed per transport and wire: the table, then the generated server's calls/s and server CPU per
call against every peer, as ratios, and the targets: generated >= 0.9x lowlevel calls/s, >= 1.2x
MCPServer, on stdio a cold start within 10 ms of lowlevel's, and the runtime's stdio transport
>= 1.8x (handshake) / 1.4x (2026-07-28) the SDK's (gen-sdk-stdio). At the end, one summary table
(calls/s per wire, cold start, RSS) with every server.

``--instructions`` swaps the timed runs for a deterministic count under callgrind (stdio, or
``--transport http``), for per-call CPU differences smaller than wall-clock noise
(bench/server_instructions.py; the
ratio "calls/instr" = peer's instr/call / generated's reads like a throughput ratio). About 70 s
per server and repeat (2 cores).

  .venv/bin/python bench/bench_server.py --instructions                  # LO=100, HI=400
  .venv/bin/python bench/bench_server.py --instructions --wire modern --only gen-asyncio,lowlevel
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive import TRANSPORTS, WIRES, Server, cold_sample, one_run, pin_driver  # noqa: E402
from peerset import HANDLERS_PY, generate, peers  # noqa: E402
from server_instructions import IC_SERVERS, Check, ic_runs, med, print_checks  # noqa: E402

__all__ = ["HANDLERS_PY", "generate"]

KEYS = (
    "calls_per_s",
    "calls_per_s_blk",
    "server_cpu_us_per_call",
    "driver_cpu_us_per_call",
    "p50_ms",
    "p99_ms",
    "rss_mib",
)
ALL = (
    "generated,lowlevel,mcpserver,fastmcp,ts-sdk,gen-asyncio,lowlevel-uv,bare-loop,"
    "gen-sdk-engine,gen-sdk-stdio,gen-sse,gen-sdk-sse,gen-typeddict"
)
WIRE_NAME = {"handshake": "handshake (2025-11-25)", "modern": "2026-07-28"}


def summarize(s: Server, key: str) -> dict[str, float]:
    out = {k: med([r[k] for r in s.runs[key]]) for k in KEYS}
    out["cold_ms"] = med(s.cold[key])
    return out


def table(rows: dict[str, dict[str, float]], transport: str, wire: str) -> list[dict[str, Any]]:
    print(f"\n{transport}, {WIRE_NAME[wire]} wire: MEDIAN of the repeats")
    print(
        f"{'server':<14} {'calls/s':>8} {'blk c/s':>8} {'cpu us/call':>11} {'drv us':>7} "
        f"{'p50 ms':>7} "
        f"{'p99 ms':>7} {'cold ms':>8} {'RSS MiB':>8}"
    )
    for label, m in rows.items():
        print(
            f"{label:<14} {m['calls_per_s']:>8.0f} {m['calls_per_s_blk']:>8.0f} "
            f"{m['server_cpu_us_per_call']:>11.0f} {m['driver_cpu_us_per_call']:>7.0f} "
            f"{m['p50_ms']:>7.3f} {m['p99_ms']:>7.3f} {m['cold_ms']:>8.0f} {m['rss_mib']:>8.1f}"
        )
    g = rows.get("generated")
    if g is None:
        return []
    checks: list[Check] = []
    for label, p in rows.items():
        if label == "generated":
            continue
        ratio = g["calls_per_s"] / p["calls_per_s"]
        target, met = {
            "lowlevel": (">= 0.90", ratio >= 0.9),
            "mcpserver": (">= 1.20", ratio >= 1.2),
            "gen-sdk-stdio": (
                (">= 1.80", ratio >= 1.8) if wire == "handshake" else (">= 1.40", ratio >= 1.4)
            ),
            "lowlevel-uv": (">= 1.00", ratio >= 1.0),
        }.get(label, ("(info)", None))
        checks.append((f"calls/s generated / {label}", ratio, target, met))
        checks.append(
            (
                f"server CPU/call {label} / generated",
                p["server_cpu_us_per_call"] / g["server_cpu_us_per_call"],
                "(info)",
                None,
            )
        )
    if "gen-asyncio" in rows and "lowlevel" in rows:
        ga, ll = rows["gen-asyncio"], rows["lowlevel"]
        ok = ga["calls_per_s"] >= ll["calls_per_s"]
        checks.append(
            (
                "same loop: gen-asyncio / lowlevel",
                ga["calls_per_s"] / ll["calls_per_s"],
                ">= 1.00",
                ok,
            )
        )
    if transport == "stdio" and "lowlevel" in rows:
        gap = g["cold_ms"] - rows["lowlevel"]["cold_ms"]
        checks.append(("cold start generated - lowlevel (ms)", gap, "<= 10", gap <= 10))
    return print_checks(checks)


def summary_table(servers: list[Server], combos: list[tuple[str, str]]) -> None:
    """The README's table: calls/s per transport and wire, stdio cold start, RSS."""
    labels = [s.label for s in servers if not s.label.startswith(("gen-", "lowlevel-"))]
    by = {s.label: s for s in servers}
    print(
        "\nSUMMARY (medians; calls/s, then cold start spawn -> first tools/list, RSS after calls)"
    )
    print(f"{'':<32}" + "".join(f"{x:>12}" for x in labels))
    for transport, wire in combos:
        key = f"{transport}/{wire}"
        cells = [
            f"{med([r['calls_per_s'] for r in by[x].runs[key]]):>12,.0f}"
            if key in by[x].runs
            else f"{'-':>12}"
            for x in labels
        ]
        print(f"{transport + ', ' + WIRE_NAME[wire]:<32}" + "".join(cells))
    for what, k, fmt in (
        ("cold start ms", "cold", "{:>12.0f}"),
        ("RSS MiB", "rss_mib", "{:>12.1f}"),
    ):
        for transport, wire in combos:
            key = f"{transport}/{wire}"
            if what == "cold start ms" and transport != "stdio":
                continue
            cells = []
            for x in labels:
                s = by[x]
                if key not in s.runs:
                    cells.append(f"{'-':>12}")
                elif k == "cold":
                    cells.append(fmt.format(med(s.cold[key])))
                else:
                    cells.append(fmt.format(med([r[k] for r in s.runs[key]])))
            print(f"{what + ', ' + transport + ' ' + wire:<32}" + "".join(cells))


def ts_targets(servers: list[Server], combos: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Issue 37's targets: the generated server's calls/s on every wire >= 1.3x the TypeScript
    SDK's on the same transport (its handshake wire: it does not speak 2026-07-28), with the
    server CPU per call beside it (the driver's share of a round trip is the same for both)."""
    by = {s.label: s for s in servers}
    g, ts = by.get("generated"), by.get("ts-sdk")
    if g is None or ts is None:
        return []
    checks: list[Check] = []
    for transport, wire in combos:
        key, ts_key = f"{transport}/{wire}", f"{transport}/handshake"
        if key not in g.runs or ts_key not in ts.runs:
            continue
        mine, theirs = summarize(g, key), summarize(ts, ts_key)
        ratio = mine["calls_per_s"] / theirs["calls_per_s"]
        checks.append(
            (f"calls/s generated {key} / ts-sdk {ts_key}", ratio, ">= 1.30", ratio >= 1.3)
        )
        cpu = theirs["server_cpu_us_per_call"] / mine["server_cpu_us_per_call"]
        checks.append((f"server CPU/call ts-sdk {ts_key} / generated {key}", cpu, "(info)", None))
    print("\nTARGETS (issue 37)")
    return print_checks(checks)


def timed_runs(
    servers: list[Server], combos: list[tuple[str, str]], a: argparse.Namespace
) -> dict[str, Any]:
    summary: dict[str, Any] = {"combos": {}}
    for transport, wire in combos:
        key = f"{transport}/{wire}"
        todo = [
            s for s in servers if s.speaks(transport, wire) and (transport == "stdio" or s.http)
        ]
        for s in todo:  # prime the OS file cache once, unmeasured
            cold_sample(s, transport, wire)
        for rep in range(a.repeat):
            order = todo[rep % len(todo) :] + todo[: rep % len(todo)]
            for s in order:
                r = one_run(s, a.n, a.warmup, transport, wire)
                s.runs.setdefault(key, []).append(r)
                s.cold.setdefault(key, []).append(r["cold_ms"])
                for _ in range(a.cold_extra if transport == "stdio" else 0):
                    s.cold[key].append(cold_sample(s, transport, wire))
                print(
                    f"{key} repeat {rep + 1}/{a.repeat} {s.label:<13} "
                    + "  ".join(f"{k}={v:.2f}" for k, v in r.items()),
                    file=sys.stderr,
                )
        rows = {s.label: summarize(s, key) for s in todo}
        summary["combos"][key] = {"rows": rows, "checks": table(rows, transport, wire)}
    summary_table(servers, combos)
    summary["targets"] = ts_targets(servers, combos)
    summary["runs"] = {s.label: {"runs": s.runs, "cold": s.cold} for s in servers}
    return summary


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("-n", type=int, default=2000, help="timed calls per run")
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--repeat", type=int, help="default 3, or 1 with --instructions")
    ap.add_argument(
        "--cold-extra", type=int, default=4, help="extra stdio spawn->tools/list samples per run"
    )
    ap.add_argument(
        "--transport",
        help="stdio, http or both (comma list; default both, stdio with --instructions)",
    )
    ap.add_argument(
        "--wire", default="handshake,modern", help="handshake, modern, or both: handshake,modern"
    )
    ap.add_argument("--only", help=f"comma-separated subset of {ALL}")
    ap.add_argument("--json", help="write the summary (and raw runs) to this file")
    ap.add_argument(
        "--instructions",
        action="store_true",
        help=f"count instructions per call under callgrind instead (default --only {IC_SERVERS})",
    )
    ap.add_argument(
        "--pin",
        choices=("none", "same", "split"),
        default="none",
        help="CPU placement of driver and server: none (the scheduler's), same (both on one "
        "CPU), split (driver on one CPU, the server's process tree on the other)",
    )
    ap.add_argument("--lo", type=int, default=100, help="--instructions: calls in the short run")
    ap.add_argument("--hi", type=int, default=400, help="--instructions: calls in the long run")
    a = ap.parse_args()
    a.transport = a.transport or ("stdio" if a.instructions else "stdio,http")
    transports, wires = a.transport.split(","), a.wire.split(",")
    if set(transports) - set(TRANSPORTS) or set(wires) - set(WIRES):
        ap.error(f"--transport takes {','.join(TRANSPORTS)}; --wire takes {','.join(WIRES)}")
    if a.repeat is None:
        a.repeat = 1 if a.instructions else 3
    if a.instructions:
        if not shutil.which("valgrind"):
            sys.exit("--instructions needs valgrind (callgrind) on PATH; it is not installed")
        if not 0 <= a.lo < a.hi:
            ap.error("--instructions needs 0 <= --lo < --hi")
        if len(transports) != 1:
            ap.error("--instructions counts one transport: --transport stdio or http")
        a.only = a.only or IC_SERVERS
    want = set((a.only or ALL).split(","))
    if want - set(ALL.split(",")):
        ap.error(f"--only: unknown server(s) {','.join(sorted(want - set(ALL.split(','))))}")

    tmp = Path(tempfile.mkdtemp(prefix="mcpgen-bench-"))
    try:
        servers = peers(generate(tmp), want)
        if "gen-typeddict" in want:  # the add server with server.models: typeddict
            servers.append(generate(tmp, name="gen-td", models="typeddict"))
        if a.instructions:
            summary: dict[str, Any] = {}
            for wire in wires:
                one = argparse.Namespace(**{**vars(a), "wire": wire, "transport": transports[0]})
                summary[wire] = ic_runs(
                    [s for s in servers if s.speaks(transports[0], wire)], one, tmp
                )
        else:
            combos = [(t, w) for t in transports for w in wires]
            print(pin_driver(a.pin))
            print(
                f"add(a,b), N={a.n} timed calls after {a.warmup} warm-up, {a.repeat} repeats, "
                f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
                f"load average {os.getloadavg()[0]:.1f}"
            )
            summary = timed_runs(servers, combos, a)
        if a.json:
            Path(a.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
