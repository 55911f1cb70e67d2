"""The canned answers both servers of bench/bench_discovery.py give (the generated server's
handlers and the FastMCP peer's tools import this file), so bytes returned compare like for like:
a ``list_*`` tool answers ``limit`` (default 25) records, a ``get_*`` tool one record with a
1 kB body, anything else a short acknowledgement."""

from __future__ import annotations

from typing import Any


def _record(i: int, noun: str) -> dict[str, Any]:
    return {
        "id": f"{noun[:3]}-{i}",
        "title": f"{noun} number {i}",
        "status": "open" if i % 3 == 0 else "closed",
        "owner": f"user{i % 7}@example.com",
        "summary": ("lorem ipsum dolor sit amet " * 4).strip(),
    }


def answer(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    verb, _, noun = tool.partition("_")
    noun = noun or tool
    if verb == "list":
        limit = arguments.get("limit")
        n = limit if isinstance(limit, int) and 0 < limit <= 500 else 25
        return {"items": [_record(i, noun) for i in range(n)], "next": None}
    if verb == "get":
        rec = _record(int(str(arguments.get("id", "x-1")).rpartition("-")[2] or 1), noun)
        return {**rec, "body": "x" * 1000}
    return {"ok": True, "tool": tool, "id": arguments.get("id", "new-1")}
