"""Benchmark: `mcpgen check` vs `check-jsonschema` on the same 100-tool manifest.

Side by side in one run (commands interleaved, each repeat a fresh process, as pre-commit runs
them):
  * mcpgen: `mcpgen check FILE` (every lint rule, including meta-schema validation of each tool
    schema, x-mcp-header, names, annotations...).
  * peer: `check-jsonschema --schemafile schema/manifest.schema.json FILE`, which checks only
    the manifest's structure.
  * floor: `python -c pass` (interpreter start-up).
Both YAML and JSON forms of the manifest (bench/manifest_factory.py, seed 0) are measured, plus
an in-process breakdown (load vs rules) of a warm `mcpgen check`.

Usage: python bench/bench_check.py [--tools 100] [--repeat 7]
Prints medians and the mcpgen/check-jsonschema ratio. Not a test: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT / "bench"))
from manifest_factory import dump_json, dump_yaml, make_manifest  # noqa: E402

# As installed: bytecode cached. With PYTHONDONTWRITEBYTECODE set (some shells and CI images set
# it), every module edited since its .pyc was written would be compiled on every run, which
# `pip install` never leaves a user with; the warm-up run below writes the caches.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(cmd: list[str], expect: int = 0) -> float:
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    dt = time.perf_counter() - t
    if p.returncode != expect:
        raise SystemExit(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout[:2000]}")
    return dt


def in_process(path: Path, n: int) -> tuple[float, float]:
    """(median load seconds, median rules seconds) for a warm process."""
    from mcpgen.check.config import RuleConfig
    from mcpgen.check.runner import check_manifest
    from mcpgen.manifest.load import load_manifest

    cfg = RuleConfig()
    loads, rules = [], []
    for _ in range(n):
        t0 = time.perf_counter()
        res = load_manifest(path)
        t1 = time.perf_counter()
        assert res.manifest is not None
        check_manifest(res.manifest, cfg)
        rules.append(time.perf_counter() - t1)
        loads.append(t1 - t0)
    return statistics.median(loads), statistics.median(rules)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    mcpgen = str(BIN / "mcpgen")
    cjs = str(BIN / "check-jsonschema")
    schema = str(ROOT / "schema" / "manifest.schema.json")
    manifest = make_manifest(args.tools, seed=0)
    with tempfile.TemporaryDirectory() as tmp:
        files = {"yaml": Path(tmp) / "mcp.yaml", "json": Path(tmp) / "mcp.json"}
        files["yaml"].write_text(dump_yaml(manifest))
        files["json"].write_text(dump_json(manifest))
        cmds = {"python -c pass": [sys.executable, "-c", "pass"]}
        for kind, f in files.items():
            cmds[f"mcpgen check ({kind})"] = [mcpgen, "check", str(f)]
            cmds[f"check-jsonschema ({kind})"] = [cjs, "--schemafile", schema, str(f)]
        # the model-API profiles on (their findings make the exit code 1)
        cmds["mcpgen check --target all4 (json)"] = [
            mcpgen,
            "check",
            str(files["json"]),
            "--target",
            "openai-strict,anthropic,anthropic-strict,gemini",
            "--fail-on",
            "none",
        ]
        for cmd in cmds.values():  # warm the OS and bytecode caches; both must accept the file
            wall(cmd)
        times: dict[str, list[float]] = {k: [] for k in cmds}
        for _ in range(args.repeat):
            for name, cmd in cmds.items():
                times[name].append(wall(cmd))
        load_s, rules_s = in_process(files["yaml"], args.repeat)
        size = files["yaml"].stat().st_size
        lines = files["yaml"].read_text().count("\n")

    med = {k: statistics.median(v) for k, v in times.items()}
    print(
        f"manifest: {args.tools} tools, {lines} YAML lines ({size / 1024:.0f} KiB); "
        f"{args.repeat} interleaved repeats, fresh process each"
    )
    print(f"{'command':<28} {'median':>9} {'min':>9}")
    for k, v in times.items():
        print(f"{k:<28} {med[k] * 1000:8.0f}ms {min(v) * 1000:8.0f}ms")
    for kind in ("yaml", "json"):
        a, b = med[f"mcpgen check ({kind})"], med[f"check-jsonschema ({kind})"]
        print(
            f"ratio mcpgen/check-jsonschema ({kind}): {a / b:.2f}  "
            f"({'faster' if a < b else 'slower'} by {abs(b - a) * 1000:.0f} ms)"
        )
    a = med["mcpgen check --target all4 (json)"]
    print(f"ratio with every profile on (json): {a / med['check-jsonschema (json)']:.2f}")
    print(
        f"in-process, warm (yaml): load+bundle {load_s * 1000:.1f} ms, all lint rules "
        f"{rules_s * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
