"""``mcpgen export summary``: the static capability summary says what the live server lists."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from tests.inprocess import mcpgen

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather"


def _mcpgen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return mcpgen(*args, cwd=cwd)


def _dump(items: list[Any]) -> list[dict[str, Any]]:
    return [i.model_dump(mode="json", by_alias=True, exclude_none=True) for i in items]


def test_the_summary_is_what_the_server_lists() -> None:
    done = _mcpgen("export", "summary", str(WEATHER / "tools.yaml"))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)

    async def live() -> dict[str, Any]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "weather_server"],
            env={**os.environ, "PYTHONPATH": str(WEATHER)},
        )
        async with Client(params, mode="legacy") as c:
            return {
                "server": c.server_info,
                "tools": _dump((await c.list_tools()).tools),
                "resources": _dump((await c.list_resources()).resources),
                "resourceTemplates": _dump((await c.list_resource_templates()).resource_templates),
                "prompts": _dump((await c.list_prompts()).prompts),
            }

    got = anyio.run(live)
    assert summary["server"]["name"] == got["server"].name
    assert summary["server"]["version"] == got["server"].version
    for key in ("tools", "resources", "resourceTemplates", "prompts"):
        assert [i.get("name") for i in summary[key]] == [i.get("name") for i in got[key]], key
        for mine, served in zip(summary[key], got[key], strict=True):
            for field, value in mine.items():
                assert served.get(field) == value, (key, mine.get("name"), field)
    assert all("x-mcpgen" not in t for t in summary["tools"])
    assert summary["toolsets"]["current"]["tools"] == ["get_weather", "weather-map"]
    assert summary["protocolVersions"][-1] == "2026-07-28"
    # byte-stable
    assert _mcpgen("export", "summary", str(WEATHER / "tools.yaml")).stdout == done.stdout


def test_scopes_and_file_output(tmp_path: Path) -> None:
    manifest = tmp_path / "notes.yaml"
    manifest.write_text(
        "server:\n"
        "  name: notes\n"
        "  auth: {issuer: 'https://login.example.com', scopes: [notes:read, notes:write]}\n"
        "tools:\n"
        "  - name: read_note\n"
        "    description: Read a note.\n"
        "    inputSchema: {type: object}\n"
        "    x-mcpgen: {scopes: [notes:read]}\n"
        "  - name: write_note\n"
        "    description: Write a note.\n"
        "    inputSchema: {type: object}\n"
        "    x-mcpgen: {scopes: [notes:write]}\n"
    )
    out = tmp_path / "out" / "summary.json"
    done = _mcpgen("export", "summary", str(manifest), "-o", str(out))
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    assert doc["authorization"] == {
        "issuer": "https://login.example.com",
        "scopes": ["notes:read", "notes:write"],
        "itemScopes": {"tool:read_note": ["notes:read"], "tool:write_note": ["notes:write"]},
    }


def test_a_manifest_check_rejects_writes_nothing(tmp_path: Path) -> None:
    manifest = tmp_path / "bad.yaml"
    manifest.write_text("tools:\n  - name: 'bad name!'\n    inputSchema: {type: object}\n")
    out = tmp_path / "summary.json"
    done = _mcpgen("export", "summary", str(manifest), "-o", str(out))
    assert done.returncode == 2, done.stderr
    assert "bad.yaml:2:" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()
    missing = _mcpgen("export", "summary", str(tmp_path / "nope.yaml"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
