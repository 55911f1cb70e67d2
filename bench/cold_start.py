#!/usr/bin/env python3
"""Cold start of a generated server on stdio (not a test): spawn until each answer is read.

Each run spawns ``python -m weather_server`` (the weather example), writes ``initialize``,
``notifications/initialized``, ``tools/list`` and a ``tools/call`` at once (a quick client),
and records when each answer is read, measured from just before the spawn; then closes stdin
and reads the child's peak RSS (``os.wait4``). Variants run interleaved, ``--repeat`` times
each; the medians are printed. ``--import-time`` also sums ``python -X importtime`` over one
such session per variant (every module the process imported, until it exited) and says whether
the SDK (``mcp``) was among them.

  .venv/bin/python bench/cold_start.py [--repeat 9] [--against ../main] [--import-time]

``--against DIR``: the same runs with another checkout (its own ``.venv`` and examples), e.g.
the code before a change, interleaved with this one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

INIT = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "cold-start", "version": "1"},
    },
}
SESSION = [
    INIT,
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": "list", "method": "tools/list"},
    {
        "jsonrpc": "2.0",
        "id": "call",
        "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"city": "Paris"}},
    },
]
BRIDGED = {"jsonrpc": "2.0", "id": "bridged", "method": "skills/list", "params": {}}


def variants(against: Path | None) -> dict[str, tuple[Path, list[str], list[dict[str, Any]]]]:
    """name -> (checkout, extra argv, messages)."""
    out = {
        "lean": (ROOT, [], SESSION),
        "lean, then a bridged method": (ROOT, [], [*SESSION, BRIDGED]),
        "lean, no fast start (--page-size 100)": (ROOT, ["--page-size", "100"], SESSION),
        "--engine sdk": (ROOT, ["--engine", "sdk"], SESSION),
    }
    if against is not None:
        out["lean (--against)"] = (against, [], SESSION)
        out["lean, then a bridged method (--against)"] = (against, [], [*SESSION, BRIDGED])
        out["lean, no fast start (--against)"] = (against, ["--page-size", "100"], SESSION)
        out["--engine sdk (--against)"] = (against, ["--engine", "sdk"], SESSION)
    return out


def interpreter_alone(checkout: Path) -> float:
    """ms from spawn until ``python -c pass`` exits (the floor of any start)."""
    start = time.perf_counter()
    subprocess.run([str(checkout / ".venv" / "bin" / "python"), "-c", "pass"], check=True)
    return (time.perf_counter() - start) * 1000


def run_once(
    checkout: Path, argv: list[str], messages: list[dict[str, Any]], importtime: bool = False
) -> tuple[dict[str, float], float, str]:
    """(ms until each answer by id, peak RSS MiB, stderr)."""
    env = dict(os.environ, PYTHONPATH=str(checkout / "examples" / "weather"))
    env.pop("MCPGEN_ENGINE", None)
    python = str(checkout / ".venv" / "bin" / "python")
    flags = ["-X", "importtime"] if importtime else []
    data = b"".join(json.dumps(m).encode() + b"\n" for m in messages)
    want = {m["id"] for m in messages if "id" in m}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [python, *flags, "-m", "weather_server", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=checkout,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(data)
    proc.stdin.flush()
    seen: dict[str, float] = {}
    buf = b""
    err = b""
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    deadline = start + 60
    while set(seen) != want and time.perf_counter() < deadline:
        ready, _, _ = select.select([out_fd, err_fd], [], [], 1)
        if err_fd in ready:
            err += os.read(err_fd, 1 << 16)
        if out_fd in ready:
            chunk = os.read(out_fd, 1 << 16)
            if not chunk:
                break
            buf += chunk
            now = time.perf_counter()
            while b"\n" in buf:
                line, _, buf = buf.partition(b"\n")
                rid = json.loads(line).get("id")
                if rid in want and rid not in seen:
                    seen[rid] = (now - start) * 1000
    proc.stdin.close()
    err += proc.stderr.read()
    proc.stdout.read()
    _pid, _status, usage = os.wait4(proc.pid, 0)
    missing = want - set(seen)
    if missing:
        raise SystemExit(f"no answer to {sorted(missing)}: {err.decode()[-2000:]}")
    return seen, usage.ru_maxrss / 1024, err.decode()


def import_total(stderr: str) -> tuple[float, bool]:
    """(ms of every import the process made, whether ``mcp`` was imported), from
    ``-X importtime``: the sum of the top-level entries' cumulative times."""
    total = 0
    sdk = False
    for m in re.finditer(r"^import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)$", stderr, re.M):
        if not m.group(2).strip(" ") and len(m.group(2)) == 1:
            total += int(m.group(1))
        sdk = sdk or m.group(3) == "mcp"
    return total / 1000, sdk


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--against", type=Path, default=None)
    ap.add_argument("--import-time", action="store_true")
    args = ap.parse_args()
    runs = variants(args.against.resolve() if args.against else None)
    times: dict[str, list[dict[str, float]]] = {k: [] for k in runs}
    rss: dict[str, list[float]] = {k: [] for k in runs}
    alone: list[float] = []
    for _ in range(args.repeat):  # interleaved: the machine's drift spreads over all variants
        alone.append(interpreter_alone(ROOT))
        for name, (checkout, argv, messages) in runs.items():
            seen, peak, _ = run_once(checkout, argv, messages)
            times[name].append(seen)
            rss[name].append(peak)
    ids = ["init", "list", "call", "bridged"]
    print(f"median of {args.repeat} runs (ms from spawn until the answer is read; peak RSS)")
    print(f"| variant | {' | '.join(ids)} | RSS MiB |")
    print("|---|" + "---|" * (len(ids) + 1))
    print(f"| `python -c pass` (until it exits) | {statistics.median(alone):,.0f} |")
    for name in runs:
        cells = []
        for rid in ids:
            got = [t[rid] for t in times[name] if rid in t]
            cells.append(f"{statistics.median(got):,.0f}" if got else "")
        print(f"| {name} | {' | '.join(cells)} | {statistics.median(rss[name]):.1f} |")
    if args.import_time:
        print("\nimports, one session each (python -X importtime: all modules, until exit)")
        for name, (checkout, argv, messages) in runs.items():
            _, _, err = run_once(checkout, argv, messages, importtime=True)
            total, sdk = import_total(err)
            print(f"| {name} | {total:,.0f} ms | mcp imported: {sdk} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
