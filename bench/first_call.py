#!/usr/bin/env python3
"""Spawn -> first ``tools/call`` answered, side by side (not a test).

What a client that starts a server per session feels: each sample spawns a server on stdio and
records, from just before the spawn, when ``initialize`` is answered (handshake wire) and when
the first ``tools/call`` is answered. The client is a polite one: it waits for ``initialize``'s
answer, writes ``notifications/initialized`` and the call; on the 2026-07-28 wire the call is
the first line. Every answer is checked (the add server's sum and text mirror; the weather
example's structured result). Servers run interleaved round-robin, ``--repeat`` samples each;
the medians are printed, and the ratios the issue asks for.

Servers (bench/peerset.py for the add peers): ``generated`` (lean engine), ``gen-sdk-engine``
(``--engine sdk``), ``gen-typeddict`` (lean engine, ``server.models: typeddict``: the first
call imports no pydantic), ``ts-sdk``, ``bare-loop``; ``weather`` and ``weather-sdk``
(examples/weather, lean and ``--engine sdk``).

  .venv/bin/python bench/first_call.py [--repeat 15] [--only generated,ts-sdk] [--json out]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drive import CLIENT_INFO, HANDSHAKE, Conn, Server, check_add, tree_pids  # noqa: E402
from peerset import ROOT, generate, peers  # noqa: E402

ADD = ("add", {"a": 2, "b": 40})
WEATHER = ("get_weather", {"city": "Paris"})


def weather(label: str, extra: list[str]) -> Server:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "examples" / "weather"))
    env.pop("MCPGEN_ENGINE", None)
    return Server(label, [sys.executable, "-m", "weather_server", *extra], env)


def check_weather(resp: dict[str, Any]) -> None:
    res = resp.get("result")
    if res is None or res.get("isError") or not isinstance(res.get("structuredContent"), dict):
        raise RuntimeError(f"bad get_weather answer: {json.dumps(resp)[:300]}")


def cpu_ms(pid: int) -> float:
    """utime + stime of the process tree so far, exited threads included (the fast boot's
    build thread has ended by the first call; ``drive.cpu_seconds`` reads live threads only),
    in clock ticks: 10 ms resolution, enough for a start-up."""
    total = 0
    for p in tree_pids(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total * 1000 / os.sysconf("SC_CLK_TCK")


def sample(srv: Server, wire: str) -> tuple[float | None, float, float]:
    """(ms to ``initialize`` answered or None on 2026-07-28, ms to the first call answered,
    the server's CPU ms by then: on a loaded machine the wall times wait for a CPU, the CPU
    time much less)."""
    conn = Conn(srv, "stdio", wire)
    try:
        t_init = None
        if wire == "handshake":
            init = conn.rpc(
                "initialize",
                {"protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": CLIENT_INFO},
            )
            t_init = (time.perf_counter() - conn.t0) * 1e3
            if "error" in init:
                raise RuntimeError(f"{srv.label}: initialize: {init}")
            conn.notify("notifications/initialized")
        name, args = WEATHER if srv.label.startswith("weather") else ADD
        resp = conn.rpc("tools/call", {"name": name, "arguments": args})
        t_call = (time.perf_counter() - conn.t0) * 1e3
        cpu = cpu_ms(conn.proc.pid)
        if name == "add":
            check_add(resp, 2, 40)
        else:
            check_weather(resp)
        return t_init, t_call, cpu
    finally:
        conn.close()


def servers(tmp: Path, only: set[str] | None) -> list[Server]:
    gen = generate(tmp)
    add = peers(gen, {"generated", "gen-sdk-engine", "ts-sdk", "bare-loop"})
    typed = generate(tmp, name="gen-td", models="typeddict")
    out = [
        *add,
        typed,
        weather("weather", []),
        weather("weather-sdk", ["--engine", "sdk"]),
    ]
    return [s for s in out if only is None or s.label in only]


def run(srvs: list[Server], repeat: int) -> dict[str, dict[str, float]]:
    raw: dict[tuple[str, str], list[tuple[float | None, float, float]]] = {}
    for srv in srvs:  # one untimed start each: page cache, bytecode
        sample(srv, "handshake")
    for _ in range(repeat):
        for srv in srvs:
            for wire in srv.wires:
                raw.setdefault((srv.label, wire), []).append(sample(srv, wire))
    out: dict[str, dict[str, float]] = {}
    for (label, wire), rows in raw.items():
        row = {
            "call_ms": statistics.median(r[1] for r in rows),
            "call_cpu_ms": statistics.median(r[2] for r in rows),
        }
        inits = [r[0] for r in rows if r[0] is not None]
        if inits:
            row["init_ms"] = statistics.median(inits)
        out[f"{label}@{wire}"] = row
    return out


def report(res: dict[str, dict[str, float]]) -> None:
    print(f"\n{'server@wire':32} {'initialize ms':>14} {'first call ms':>14} {'its CPU ms':>11}")
    for key, row in res.items():
        init = f"{row['init_ms']:.1f}" if "init_ms" in row else "-"
        print(f"{key:32} {init:>14} {row['call_ms']:>14.1f} {row['call_cpu_ms']:>11.1f}")
    ts = res.get("ts-sdk@handshake")
    for label in ("generated", "gen-typeddict"):
        gen = res.get(f"{label}@handshake")
        if gen and ts:
            r = gen["call_ms"] / ts["call_ms"]
            c = gen["call_cpu_ms"] / ts["call_cpu_ms"]
            print(f"{label} / ts-sdk, first call: {r:.2f}x wall, {c:.2f}x CPU (target <= 0.5x)")
    w = res.get("weather@handshake")
    if w:
        print(f"weather first call: {w['call_ms']:.1f} ms (target <= 120 ms)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--only", help="comma-separated server labels")
    ap.add_argument("--json", help="write the medians to this file")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    with tempfile.TemporaryDirectory(prefix="mcpgen-first-") as tmp:
        res = run(servers(Path(tmp), only), args.repeat)
    report(res)
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
