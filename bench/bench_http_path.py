#!/usr/bin/env python3
"""The 2026-07-28 HTTP path of a generated server before and after issue 26 (not a test).

One run, same machine, the ``add(a, b)`` server of ``bench/bench_server.py`` on the stateless
2026-07-28 wire (``--json-response``), driven by the raw keep-alive driver of
``bench/bench_http_workers.py`` (every answer checked):

  before   the server as it ran before: h11 (``--http-parser h11``) and the SDK's span per
           message (``MCPGEN_OTEL=1``)
  after    as users run it now: httptools (the ``[server]`` extra; uvicorn picks it) and no
           span when no tracer provider is set

Timed: calls/s and server CPU per call, medians of interleaved repeats. ``--instructions``:
instructions per call under callgrind ((I(HI) - I(LO)) / (HI - LO), one connection,
``--loop asyncio``), deterministic where the timed runs swing by +-10% on this box.
Goal (issue 26): after >= 1.3x before in calls/s.

  .venv/bin/python bench/bench_http_path.py                 # C=8, N=4000, 5 repeats
  .venv/bin/python bench/bench_http_path.py --instructions  # LO=200, HI=1000
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_http_workers as driver  # noqa: E402
from peerset import generate  # noqa: E402

CONFIGS = {
    "before": (["--http-parser", "h11"], {"MCPGEN_OTEL": "1"}),
    "after": ([], {}),
}


def timed(cmd: list[str], env: dict[str, str], config: str, conns: int, n: int) -> dict[str, float]:
    args, extra_env = CONFIGS[config]
    r = driver.timed_run([*cmd, *args], {**env, **extra_env}, conns, n)
    return {"calls_per_s": r["calls_per_s"], "cpu_us": r["server_cpu_us_per_call"]}


def counted(cmd: list[str], env: dict[str, str], config: str, calls: int, out: Path) -> int:
    args, extra_env = CONFIGS[config]
    return driver.counted_run([*cmd, *args], {**env, **extra_env}, calls, out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-c", "--connections", type=int, default=8)
    ap.add_argument("-n", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--lo", type=int, default=200)
    ap.add_argument("--hi", type=int, default=1000)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mcpgen-bench-http-path-") as t:
        srv = generate(Path(t))
        if a.instructions:
            per: dict[str, float] = {}
            for config in CONFIGS:
                lo = counted(srv.cmd, srv.env, config, a.lo, Path(t) / f"cg.{config}.lo")
                hi = counted(srv.cmd, srv.env, config, a.hi, Path(t) / f"cg.{config}.hi")
                per[config] = (hi - lo) / (a.hi - a.lo)
                print(f"{config:<7} {per[config]:12,.0f} instructions/call", flush=True)
            ratio = per["before"] / per["after"]
            print(
                f"\ncalls per instruction, after / before: {ratio:.3f}  (goal >= 1.3: "
                f"{'MET' if ratio >= 1.3 else 'MISSED'})"
            )
            return 0
        runs: dict[str, list[dict[str, float]]] = {c: [] for c in CONFIGS}
        for rep in range(a.repeat):
            for config in CONFIGS:
                r = timed(srv.cmd, srv.env, config, a.connections, a.n)
                runs[config].append(r)
                print(
                    f"repeat {rep + 1}/{a.repeat} {config:<7} calls/s={r['calls_per_s']:.0f} "
                    f"cpu_us/call={r['cpu_us']:.0f}",
                    flush=True,
                )
    med = {
        c: {k: statistics.median(r[k] for r in runs[c]) for k in ("calls_per_s", "cpu_us")}
        for c in CONFIGS
    }
    print(
        f"\nHTTP 2026-07-28 (--json-response), add(a,b), C={a.connections}, N={a.n}, "
        f"median of {a.repeat}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    for c in CONFIGS:
        print(f"{c:<7} {med[c]['calls_per_s']:8.0f} calls/s  {med[c]['cpu_us']:6.0f} us CPU/call")
    ratio = med["after"]["calls_per_s"] / med["before"]["calls_per_s"]
    print(
        f"after / before calls/s: {ratio:.2f}  (goal >= 1.3: {'MET' if ratio >= 1.3 else 'MISSED'})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
