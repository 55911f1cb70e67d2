"""Discovery modes on a large manifest: the size of the first ``tools/list`` answer per mode
(the precomputed answer the server sends, ``_generated/discovery.py``), the index's size, and
the CPU one search costs.

    python bench/bench_search_index.py [--tools 500] [--queries 2000]

(In process; bench/bench_discovery.py measures the served modes side by side with FastMCP.)
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.manifest_factory import dump_json, make_manifest  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", type=int, default=500)
    ap.add_argument("--queries", type=int, default=2000)
    a = ap.parse_args()
    from mcpgen.manifest.load import require_manifest
    from mcpgen.server.ir import build_server_ir
    from mcpgen_runtime.search_index import SearchIndex

    base = make_manifest(a.tools, seed=1)
    rows = []
    index_text = ""
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("all", "search", "code"):
            m = json.loads(json.dumps(base))
            m["server"]["discovery"] = {"mode": mode}
            path = Path(tmp) / f"{mode}.json"
            path.write_text(dump_json(m))
            ir = build_server_ir(require_manifest(path), package="big", manifest_name=path.name)
            answers = dict(ir.discovery_answers)
            for rev in ("2025-11-25", "2026-07-28"):
                size = len(answers[f"tools/list@{rev}"].encode())
                rows.append((mode, rev, size))
            if mode == "search":
                index_text = ir.search_index_json or ""
    all_size = {rev: s for mode, rev, s in rows if mode == "all"}
    print(f"{a.tools} tools: first tools/list answer, bytes (ratio to all)")
    for mode, rev, size in rows:
        print(f"  {mode:6} {rev}  {size:>9,}  1/{all_size[rev] / size:.1f}")
    print(f"search index: {len(index_text.encode()):,} bytes of JSON")
    index = SearchIndex(index_text)
    names = list(index.names)
    words = [
        "list invoices of a user",
        "delete the repo",
        "export weather report as csv",
        "sync tickets",
        "render the order summary",
        "fetch a file by path",
    ]
    queries = [words[i % len(words)] for i in range(a.queries)]
    start = time.process_time()
    for q in queries:
        index.top(q, names, 5)
    cpu = (time.process_time() - start) / len(queries)
    print(f"search CPU per query ({a.tools} tools, top 5, allowed-set filter): {cpu * 1e6:.1f} µs")
    meta = _meta_call_cpu(base, index_text, queries)
    print(f"search_tools meta-tool CPU per call: {meta:.1f} µs")


def _meta_call_cpu(manifest: dict[str, Any], index_text: str, queries: list[str]) -> float:
    """CPU of ``Discoverer.call("search_tools")`` (what the server runs past the dispatch:
    visibility and scope filter, ranking, the result shaped for the revision), per call."""
    import anyio

    from mcpgen_runtime.server.auth.scopes import ScopePolicy
    from mcpgen_runtime.server.discovery_modes import Discoverer, DiscoveryConfig

    class Tool:
        def __init__(self, d: dict[str, Any]) -> None:
            self.name, self.definition, self.served, self.scopes = d["name"], d, d, ()

    tools = [Tool(d) for d in manifest["tools"]]
    rt = SimpleNamespace(
        tools=tools,
        visible=lambda: tools,
        serving=SimpleNamespace(scopes=ScopePolicy(tools={})),
    )
    ctx = SimpleNamespace(protocol_version="2025-11-25")
    disc = Discoverer(DiscoveryConfig({"mode": "search"}), index_text)

    async def run() -> float:
        await disc.call(rt, ctx, "search_tools", {"query": "warm up"})  # type: ignore[arg-type]
        start = time.process_time()
        for q in queries:
            await disc.call(rt, ctx, "search_tools", {"query": q})  # type: ignore[arg-type]
        return (time.process_time() - start) / len(queries) * 1e6

    return anyio.run(run)


if __name__ == "__main__":
    main()
