"""Benchmark: ``mcpgen server`` on realistic manifests (issue 4, item 8).

Side by side, fresh process each repeat (medians):
  * generate: ``mcpgen server M --out tmp --package big`` on a manifest from
    ``bench/manifest_factory.py`` with 200 tools, 100 resources, 20 resource templates and 50
    prompts (YAML and JSON), wall time and peak RSS (ru_maxrss of the child);
  * no-op re-run on unchanged inputs and ``--check`` (inputs digest, no generator import);
  * floor: ``python -c pass`` and ``mcpgen --version``;
  * split: in one fresh ``mcpgen server`` process, the time spent inside
    datamodel-code-generator's ``generate()`` vs everything else (mcpgen's own share).
Targets: generate < 5 s and < 300 MB; mcpgen's own share < 1 s; no-op and --check < 0.5 s.

Usage: python bench/bench_generate.py [--tools N] [--repeat R] [--seed S]
Not a test: timings on a shared 2-core machine are noisy (the load average is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from manifest_factory import dump_json, dump_yaml, make_manifest  # noqa: E402

MCPGEN = [sys.executable, "-m", "mcpgen"]


def run(cmd: list[str]) -> tuple[float, int, int]:
    """(wall seconds, peak RSS MB of this child alone, exit code)."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{cmd} failed:\n{err.decode()}")
    return wall, usage.ru_maxrss // 1024, code


SPLIT = """
import json, sys, time
import datamodel_code_generator as dcg
spent = [0.0]
real = dcg.generate
def timed(*a, **k):
    t = time.perf_counter()
    try:
        return real(*a, **k)
    finally:
        spent[0] += time.perf_counter() - t
dcg.generate = timed
from mcpgen.cli import main
t = time.perf_counter()
try:
    main(sys.argv[1:])
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps({"wall": time.perf_counter() - t, "dcg": spent[0]}))
"""


def split(manifest: Path, out: Path) -> tuple[float, float]:
    """(seconds inside datamodel-code-generator's generate(), seconds in everything else of the
    ``mcpgen server`` run, imports included; the interpreter's own start-up excluded)."""
    if out.exists():
        shutil.rmtree(out)
    cmd = [
        sys.executable,
        "-c",
        SPLIT,
        "server",
        str(manifest),
        "--out",
        str(out),
        "--package",
        "big",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True)
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return data["dcg"], data["wall"] - data["dcg"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", type=int, default=200)
    ap.add_argument("--resources", type=int, default=100)
    ap.add_argument("--templates", type=int, default=20)
    ap.add_argument("--prompts", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mcpgen-bench-gen-"))
    manifest = make_manifest(
        a.tools, a.seed, resources=a.resources, templates=a.templates, prompts=a.prompts
    )
    paths = {"yaml": tmp / "tools.yaml", "json": tmp / "tools.json"}
    paths["yaml"].write_text(dump_yaml(manifest))
    paths["json"].write_text(dump_json(manifest))
    rows: list[tuple[str, float, int, str]] = []

    def measure(label: str, make_cmd, fresh: bool, target: str) -> None:  # type: ignore[no-untyped-def]
        walls, rss = [], 0
        for _ in range(a.repeat):
            out = tmp / "out"
            if fresh and out.exists():
                shutil.rmtree(out)
            wall, mb, _rc = run(make_cmd(out))
            walls.append(wall)
            rss = max(rss, mb)
        rows.append((label, statistics.median(walls), rss, target))

    measure("python -c pass", lambda out: [sys.executable, "-c", "pass"], False, "")
    measure("mcpgen --version", lambda out: [*MCPGEN, "--version"], False, "")
    for fmt, path in paths.items():
        gen = lambda out, p=path: [*MCPGEN, "server", str(p), "--out", str(out), "--package", "big"]  # noqa: E731
        label = f"generate {a.tools}t/{a.resources}r/{a.templates}rt/{a.prompts}p ({fmt})"
        measure(label, gen, True, "< 5 s, < 300 MB")
        measure(f"no-op re-run ({fmt})", gen, False, "< 0.5 s")
        measure(
            f"--check, up to date ({fmt})",
            lambda out, p=path: [
                *MCPGEN,
                "server",
                str(p),
                "--out",
                str(out),
                "--package",
                "big",
                "--check",
            ],
            False,
            "< 0.5 s",
        )
    splits = [split(paths["yaml"], tmp / "split") for _ in range(a.repeat)]
    dcg_s = statistics.median(x[0] for x in splits)
    own_s = statistics.median(x[1] for x in splits)
    print(f"load average: {os.getloadavg()[0]:.2f} (2 cores); median of {a.repeat}")
    print(f"{'step':<34} {'wall s':>8} {'peak MB':>8}  target")
    floor = rows[0][1]
    for label, wall, mb, target in rows:
        print(f"{label:<34} {wall:8.2f} {mb:8d}  {target}  (x{wall / floor:.1f} of python -c pass)")
    print(
        f"split (yaml): datamodel-code-generator generate() {dcg_s:.2f} s; "
        f"mcpgen's own share {own_s:.2f} s (target < 1 s)"
    )
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
