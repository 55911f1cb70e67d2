#!/usr/bin/env python3
"""``mcpgen import openapi`` at scale (not a test): GitHub's REST description (npm
``@octokit/openapi``, from tests/openapi/js/package-lock.json), the whole document and
``--include-tags repos``; then import + ``mcpgen server`` of a 50-operation document (the first
50 operations of the same description, written to a temp file). Fresh processes, median of
``--repeat``; peak RSS of each (the child's own rusage).
In-process, the whole import's phases (parse, validate, convert, write) are timed once.

  .venv/bin/python bench/bench_import.py [--repeat 3]
Goals (issue 25): GitHub under 10 s; the 50-operation import and generation under 3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MCPGEN = [str(Path(sys.executable).with_name("mcpgen"))]


def run(args: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB) of one ``mcpgen`` process (its own rusage, os.wait4)."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        [*MCPGEN, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"mcpgen {' '.join(args)}: {err[-2000:]}")
    return wall, usage.ru_maxrss / 1024


def referenced(doc: dict[str, Any], paths: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with only ``paths`` and the components they reach (transitively)."""
    comps: dict[str, dict[str, Any]] = doc.get("components", {})
    keep: dict[str, dict[str, Any]] = {}
    todo = [json.dumps(paths)]
    while todo:
        for ref in set(re.findall(r'"#/components/([^/"]+)/([^"]+)"', todo.pop())):
            kind, name = ref
            if name in keep.setdefault(kind, {}) or name not in comps.get(kind, {}):
                continue
            keep[kind][name] = comps[kind][name]
            todo.append(json.dumps(comps[kind][name]))
    for kind in ("securitySchemes",):
        if kind in comps:
            keep[kind] = comps[kind]
    return {**doc, "paths": paths, "components": keep}


def phases(github: Path, tmp: Path) -> dict[str, float]:
    from mcpgen.commands.importer import _http, _server
    from mcpgen.manifest.dump import manifest_text
    from mcpgen.manifest.sourcemap import load_document
    from mcpgen.openapi.convert import convert
    from mcpgen.openapi.external import Sources
    from mcpgen.openapi.load import _validate

    out: dict[str, float] = {}
    t = time.perf_counter()
    doc = load_document(github)
    out["parse with positions"] = time.perf_counter() - t
    t = time.perf_counter()
    _validate(doc, str(github), str(doc.value["openapi"]), "")
    out["validate (openapi-spec-validator)"] = time.perf_counter() - t
    t = time.perf_counter()
    conv = convert(Sources(doc, str(github), None))
    out["convert"] = time.perf_counter() - t
    t = time.perf_counter()
    server = _server(doc.value["info"], None) | {"http": _http(doc.value, str(github))}
    manifest_text({"server": server, "tools": conv.tools, "$defs": conv.defs}, tmp / "x.yaml")
    out["write YAML (+ read back)"] = time.perf_counter() - t
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    from tests.interop.procs import NodeToolchain, ensure_js_peers

    nm = ensure_js_peers(NodeToolchain.from_wheel(), ROOT / "tests" / "openapi" / "js")
    github = nm / "@octokit" / "openapi" / "generated" / "api.github.com.json"
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        doc = json.loads(github.read_text())
        kept, paths = 0, {}
        for path, item in doc["paths"].items():
            ops = {
                m: op for m, op in item.items() if m in ("get", "post", "put", "patch", "delete")
            }
            if kept + len(ops) > 50:
                continue
            paths[path] = {**{k: v for k, v in item.items() if k not in ops}, **ops}
            kept += len(ops)
            if kept == 50:
                break
        small = tmp / "fifty.json"
        small.write_text(json.dumps(referenced(doc, paths)))
        rows: dict[str, list[tuple[float, float]]] = {
            "GitHub, whole": [],
            "GitHub, --include-tags repos": [],
            f"{kept} operations: import + server": [],
        }
        parts: list[tuple[float, float]] = []
        for i in range(a.repeat):
            rows["GitHub, whole"].append(
                run(["import", "openapi", str(github), "-o", str(tmp / "gh.yaml"), "--force"])
            )
            rows["GitHub, --include-tags repos"].append(
                run(
                    [
                        "import",
                        "openapi",
                        str(github),
                        "-o",
                        str(tmp / "r.yaml"),
                        "--force",
                        "--include-tags",
                        "repos",
                    ]
                )
            )
            w1, m1 = run(["import", "openapi", str(small), "-o", str(tmp / "f.yaml"), "--force"])
            w2, m2 = run(
                ["server", str(tmp / "f.yaml"), "--out", str(tmp / f"s{i}"), "--package", "fifty"]
            )
            rows[f"{kept} operations: import + server"].append((w1 + w2, max(m1, m2)))
            parts.append((w1, w2))
            print(f"repeat {i + 1} done", file=sys.stderr)
        from mcpgen.manifest.sourcemap import load_document

        tools = len(load_document(tmp / "gh.yaml").value["tools"])
        cores = os.cpu_count()
        print(f"\nmcpgen import openapi, median of {a.repeat} fresh processes ({cores} cores)")
        print(f"{'run':<40}{'seconds':>9}{'peak RSS MiB':>14}")
        for name, vals in rows.items():
            secs, peak = statistics.median(v[0] for v in vals), max(v[1] for v in vals)
            print(f"{name:<40}{secs:>9.2f}{peak:>14.0f}")
        imp, srv = (statistics.median(p[i] for p in parts) for i in (0, 1))
        print(f"  of which: import {imp:.2f} s, mcpgen server {srv:.2f} s")
        print(f"GitHub: {tools} tools from {len(doc['paths'])} paths")
        print("\nwhole GitHub import, in process:")
        for name, secs in phases(github, tmp).items():
            print(f"  {name:<36}{secs:>7.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
