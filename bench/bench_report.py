#!/usr/bin/env python3
"""The server's standing in one command (not a test): issue 53's table, from one run.

Runs, one after the other, each peer side by side inside its step:

1. ``bench/first_call.py``: spawn -> ``initialize`` and -> first ``tools/call`` answered
   (generated, TypeScript SDK, bare loop, the weather example);
2. ``bench/bench_server.py``: stdio and HTTP calls/s and server CPU per call, both wires
   (generated, TypeScript SDK, bare loop);
3. ``bench/bench_server.py --instructions``: instructions per call under callgrind on stdio,
   both wires (generated, bare loop; ``perf stat -e instructions`` is not available on every
   virtual machine, callgrind is deterministic everywhere); ``--no-instructions`` skips it;
4. ``bench/bench_http_load.py``: 64 and 256 concurrent HTTP clients, generated
   ``--workers 2`` against the TypeScript SDK (calls/s, p50/p99, RSS).

Then prints the table (markdown) with the date, the machine and the CPU placement, and writes
every step's JSON plus ``report.json`` and ``report.md`` into ``--out``.

  .venv/bin/python bench/bench_report.py [--out bench/.report] [--pin none|same|split]
      [--quick] [--no-instructions]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent


def machine() -> str:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} CPUs, Linux {platform.release()}, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at start"
    )


def step(name: str, argv: list[str], out: Path) -> dict[str, Any]:
    target = out / f"{name}.json"
    cmd = [sys.executable, str(BENCH / argv[0]), *argv[1:], "--json", str(target)]
    print(f"\n=== {name}: {' '.join(cmd[1:])}", flush=True)
    with (out / f"{name}.txt").open("w") as log:
        proc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        print((out / f"{name}.txt").read_text()[-2000:])
        raise SystemExit(f"{name} failed ({proc.returncode})")
    print((out / f"{name}.txt").read_text().rsplit("\n\n", 1)[-1][-1500:], flush=True)
    data: dict[str, Any] = json.loads(target.read_text())
    return data


def _f(v: float | None, fmt: str = "{:,.0f}") -> str:
    return "–" if v is None else fmt.format(v)


def table(res: dict[str, Any]) -> str:
    first, server, instr, load = (res.get(k) for k in ("first", "server", "instr", "load"))
    rows: list[tuple[str, str, str, str]] = []

    def srv(combo: str, who: str, key: str) -> float | None:
        if not server:
            return None
        return server["combos"].get(combo, {}).get("rows", {}).get(who, {}).get(key)

    def fc(key: str, what: str) -> float | None:
        return (first or {}).get(key, {}).get(what)

    def ic(wire: str, who: str) -> float | None:
        if not instr:
            return None
        return instr.get(wire, {}).get("rows", {}).get(who, {}).get("instr_per_call")

    peers = ("generated", "ts-sdk", "bare-loop")
    for label, combo, key, fmt in (
        ("stdio calls/s, handshake wire", "stdio/handshake", "calls_per_s", "{:,.0f}"),
        ("stdio calls/s, 2026-07-28 wire", "stdio/modern", "calls_per_s", "{:,.0f}"),
        (
            "server CPU per call, handshake wire",
            "stdio/handshake",
            "server_cpu_us_per_call",
            "{:.0f} µs",
        ),
        (
            "server CPU per call, 2026-07-28 wire",
            "stdio/modern",
            "server_cpu_us_per_call",
            "{:.0f} µs",
        ),
    ):
        rows.append((label, *(_f(srv(combo, p, key), fmt) for p in peers)))  # type: ignore[arg-type]
    for wire, name in (("handshake", "handshake"), ("modern", "2026-07-28")):
        rows.append(
            (
                f"instructions per call, {name} wire (callgrind)",
                _f(ic(wire, "generated")),
                "–",
                _f(ic(wire, "bare-loop")),
            )
        )
    rows.append(
        (
            "HTTP calls/s, handshake / 2026-07-28",
            f"{_f(srv('http/handshake', 'generated', 'calls_per_s'))} / "
            f"{_f(srv('http/modern', 'generated', 'calls_per_s'))}",
            f"{_f(srv('http/handshake', 'ts-sdk', 'calls_per_s'))} / –",
            "–",
        )
    )
    rows.append(
        (
            "spawn → `initialize` answered",
            *(_f(fc(f"{p}@handshake", "init_ms"), "{:.0f} ms") for p in peers),
        )
    )
    rows.append(
        (
            "**spawn → first `tools/call` answered**",
            *(_f(fc(f"{p}@handshake", "call_ms"), "{:.0f} ms") for p in peers),
        )
    )
    rows.append(
        (
            "server CPU until the first `tools/call` is answered",
            *(_f(fc(f"{p}@handshake", "call_cpu_ms"), "{:.0f} ms") for p in peers),
        )
    )
    rows.append(
        (
            "first `tools/call`, 2026-07-28 wire (first line)",
            _f(fc("generated@modern", "call_ms"), "{:.0f} ms"),
            "–",
            _f(fc("bare-loop@modern", "call_ms"), "{:.0f} ms"),
        )
    )
    rows.append(
        (
            "first `tools/call`, `server.models: typeddict` (handshake / 2026-07-28)",
            _f(fc("gen-typeddict@handshake", "call_ms"), "{:.0f} ms")
            + " / "
            + _f(fc("gen-typeddict@modern", "call_ms"), "{:.0f} ms"),
            "",
            "",
        )
    )
    rows.append(
        (
            "first `tools/call`, weather example",
            _f(fc("weather@handshake", "call_ms"), "{:.0f} ms"),
            "",
            "",
        )
    )
    for key, m in (load or {}).items():
        label, wire, c = key.split("|")
        if label.startswith("generated"):
            t = (load or {}).get(f"ts-sdk|{wire}|{c}")
            rows.append(
                (
                    f"HTTP {c} clients, {wire}: calls/s, p50/p99 ms, RSS MiB ({label})",
                    f"{m['calls_per_s']:,.0f}, {m['p50_ms']:.1f}/{m['p99_ms']:.1f}, "
                    f"{m['rss_mib']:.0f}",
                    "–"
                    if t is None
                    else f"{t['calls_per_s']:,.0f}, {t['p50_ms']:.1f}/"
                    f"{t['p99_ms']:.1f}, {t['rss_mib']:.0f}",
                    "–",
                )
            )
    out = ["| | generated | TypeScript SDK | a bare Python loop |", "|---|---|---|---|"]
    out += [f"| {' | '.join(r)} |" for r in rows]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(BENCH / ".report"))
    ap.add_argument("--pin", choices=("none", "same", "split"), default="none")
    ap.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    ap.add_argument("--no-instructions", action="store_true")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = {
        "date": started,
        "machine": machine(),
        "placement": a.pin,
        "affinity": sorted(os.sched_getaffinity(0)),
    }
    quick = a.quick
    res: dict[str, Any] = {"head": head}
    res["first"] = step("first", ["first_call.py", "--repeat", "3" if quick else "11"], out)
    res["server"] = step(
        "server",
        ["bench_server.py", "--only", "generated,ts-sdk,bare-loop", "--pin", a.pin]
        + (["-n", "500", "--repeat", "1"] if quick else []),
        out,
    )
    if not a.no_instructions:
        res["instr"] = step(
            "instr", ["bench_server.py", "--instructions", "--only", "generated,bare-loop"], out
        )
    res["load"] = step(
        "load",
        ["bench_http_load.py"] + (["-n", "1000", "--repeat", "1"] if quick else []),
        out,
    )
    md = (
        f"Measured {head['date']} on {head['machine']}; CPU placement: "
        + {
            "none": "left to the scheduler",
            "same": "driver and server on one CPU (taskset)",
            "split": "driver on one CPU, the server's tree on the other (taskset)",
        }[a.pin]
        + f" (affinity {head['affinity']}).\n\n"
        + table(res)
        + "\n"
    )
    (out / "report.md").write_text(md, encoding="utf-8")
    (out / "report.json").write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
    print("\n" + md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
