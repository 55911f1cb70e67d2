"""bench/bench_discovery.py runs end to end on a small manifest (the suite's first 40 tools),
mcpgen's side only (the FastMCP side needs its own venv): the generated server in each discovery
mode over stdio, the search queries, the three-step job, the table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("pydantic_monty")

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.slow
def test_bench_discovery_end_to_end(tmp_path: Path) -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import bench_discovery
    finally:
        sys.path.remove(str(BENCH))
    results = bench_discovery.run(["mini"], tmp_path, job=True, peers=False)
    mini = results["mini"]
    assert mini["tools"] == 40 and mini["queries"] >= 5
    rows = mini["rows"]
    assert set(rows) == {"mcpgen-all", "mcpgen-search", "mcpgen-code"}
    assert rows["mcpgen-all"]["listed"] == 40
    assert rows["mcpgen-search"]["listed"] == 3 and rows["mcpgen-code"]["listed"] == 3
    assert rows["mcpgen-search"]["list_bytes"] * 5 < rows["mcpgen-all"]["list_bytes"]
    assert 0 < rows["mcpgen-search"]["recall5"] <= 1
    job = mini["job"]
    assert job["mcpgen execute"]["round_trips"] == 1 and job["mcpgen direct"]["round_trips"] == 3
    assert job["mcpgen execute"]["bytes"] * 10 < job["mcpgen direct"]["bytes"]
    table = bench_discovery.table(results)
    assert "| mini (40 tools," in table and "| mcpgen execute | 1 |" in table
