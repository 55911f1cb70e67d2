"""Benchmark: wire-model generation for all six MCP revisions, and CLI start-up.

Side by side in one run on this machine:
  * mcpgen: `mcpgen protocol generate` for all six revisions in one process (fresh process
    each repeat, output to a temp dir).
  * peer: the official Python SDK's approach (scripts/gen_surface_types.py): one
    `datamodel-codegen` CLI subprocess per revision with the SDK's flags and the default
    black+isort formatters.
  * start-up: `mcpgen --help` / `mcpgen --version` vs a bare `python -c pass`.

Usage: python bench/bench_protocol.py [--spec DIR] [--repeat N]
Reports medians and ratios. Not a test: timings on a shared 2-core machine are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"]
SDK_FLAGS = [
    "--input-file-type",
    "jsonschema",
    "--output-model-type",
    "pydantic_v2.BaseModel",
    "--target-python-version",
    "3.10",
    "--snake-case-field",
    "--remove-special-field-name-prefix",
    "--use-annotated",
    "--use-field-description",
    "--use-schema-description",
    "--enum-field-as-literal",
    "all",
    "--use-union-operator",
    "--use-double-quotes",
    "--extra-fields",
    "ignore",
    "--type-mappings",
    "byte=string",
    "uri=string",
    "uri-template=string",
    "--disable-timestamp",
    "--formatters",
    "black",
    "isort",
]


def wall(cmd: list[str], **kw: object) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)  # type: ignore[call-overload]
    return time.perf_counter() - t


def median_of(n: int, fn: object) -> float:
    return statistics.median(fn() for _ in range(n))  # type: ignore[operator]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--spec",
        type=Path,
        default=Path(os.environ.get("MCPGEN_SPEC_DIR", ROOT.parent / "shared" / "mcp-spec")),
    )
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    mcpgen = str(BIN / "mcpgen")
    dcg = str(BIN / "datamodel-codegen")
    results: dict[str, float] = {}

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "gen"
        results["mcpgen_all6_s"] = median_of(
            args.repeat,
            lambda: wall(
                [
                    mcpgen,
                    "protocol",
                    "generate",
                    "--from",
                    str(args.spec),
                    "--out",
                    str(out / str(time.time_ns())),
                ]
            ),
        )
        peer_total = []
        for _ in range(args.repeat):
            total = 0.0
            for rev in REVISIONS:
                total += wall(
                    [
                        dcg,
                        "--input",
                        str(args.spec / rev / "schema.json"),
                        *SDK_FLAGS,
                        "--output",
                        str(Path(tmp) / f"peer_{rev}.py"),
                    ]
                )
            peer_total.append(total)
        results["peer_all6_s"] = statistics.median(peer_total)

    py = sys.executable
    results["python_pass_ms"] = 1000 * median_of(15, lambda: wall([py, "-c", "pass"]))
    results["mcpgen_help_ms"] = 1000 * median_of(15, lambda: wall([mcpgen, "--help"]))
    results["mcpgen_version_ms"] = 1000 * median_of(15, lambda: wall([mcpgen, "--version"]))

    per_rev = results["mcpgen_all6_s"] / len(REVISIONS)
    peer_rev = results["peer_all6_s"] / len(REVISIONS)
    print(f"{'measure':40} {'median':>10}")
    print(
        f"{'mcpgen protocol generate (6 revisions)':40} {results['mcpgen_all6_s']:>9.2f}s  "
        f"({per_rev:.2f} s/revision)"
    )
    print(
        f"{'peer: SDK-style datamodel-codegen CLI x6':40} {results['peer_all6_s']:>9.2f}s  "
        f"({peer_rev:.2f} s/revision)"
    )
    print(
        f"{'ratio peer/mcpgen (>1 = mcpgen faster)':40} "
        f"{results['peer_all6_s'] / results['mcpgen_all6_s']:>10.2f}"
    )
    print(f"{'python -c pass':40} {results['python_pass_ms']:>8.0f}ms")
    print(f"{'mcpgen --help':40} {results['mcpgen_help_ms']:>8.0f}ms  (goal < 150 ms)")
    print(f"{'mcpgen --version':40} {results['mcpgen_version_ms']:>8.0f}ms")
    print(json.dumps({k: round(v, 4) for k, v in results.items()}))


if __name__ == "__main__":
    main()
