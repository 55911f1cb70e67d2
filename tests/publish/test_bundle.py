"""``mcpgen bundle``: the weather example's ``.mcpb`` is accepted by the official ``mcpb``
tool, starts from a fresh directory exactly as manifest.json says (on a Python with nothing
installed) and answers the official SDK client; it is byte-stable; a bundle whose entry point
does not start is refused with one message, exit 1, and nothing written."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from mcpgen.publish.probe import host_command

from .conftest import WEATHER, Built, mcpgen

pytestmark = [pytest.mark.interop, pytest.mark.slow]


def test_mcpb_validate_accepts_the_manifest(weather_bundle: Built, mcpb_cli: list[str]) -> None:
    proc = subprocess.run(
        [*mcpb_cli, "validate", str(weather_bundle.unpacked / "manifest.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    print(f"$ mcpb validate manifest.json  (exit {proc.returncode})\n{proc.stdout}{proc.stderr}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Manifest schema validation passes!" in proc.stdout
    info = subprocess.run(
        [*mcpb_cli, "info", str(weather_bundle.mcpb)], capture_output=True, text=True, timeout=120
    )
    assert info.returncode == 0, info.stdout + info.stderr


def test_manifest_lists_tools_and_prompts(weather_bundle: Built) -> None:
    doc = json.loads((weather_bundle.unpacked / "manifest.json").read_text())
    assert doc["manifest_version"] == "0.4"
    assert doc["server"]["type"] == "python"
    assert (weather_bundle.unpacked / doc["server"]["entry_point"]).is_file()
    assert [t["name"] for t in doc["tools"]] == [
        "get_weather",
        "get_forecast",
        "weather-map",
        "report_outage",
    ]
    assert doc["prompts"][0]["name"] == "plan-outing"
    assert "${arguments.city}" in doc["prompts"][0]["text"]
    assert doc["compatibility"]["platforms"]


async def _transcript(params: StdioServerParameters) -> dict[str, Any]:
    async with Client(params, mode="legacy", read_timeout_seconds=60) as client:
        tools = await client.list_tools()
        call = await client.call_tool("get_weather", {"city": "Paris"})
        return {
            "serverInfo": client.server_info.model_dump(mode="json", exclude_none=True)
            if client.server_info
            else None,
            "tools": [t.name for t in tools.tools],
            "call": call.model_dump(mode="json", by_alias=True, exclude_none=True),
        }


def test_unpacked_bundle_answers_as_a_host_starts_it(
    weather_bundle: Built, bare_python_bin: Path, tmp_path: Path
) -> None:
    fresh = tmp_path / "fresh"
    shutil.copytree(weather_bundle.unpacked, fresh)
    doc = json.loads((fresh / "manifest.json").read_text())
    cfg = doc["server"]["mcp_config"]  # as a host reads it: ${__dirname} substituted, no more

    def sub(text: str) -> str:
        return text.replace("${__dirname}", str(fresh))

    cmd = [sub(cfg["command"]), *(sub(a) for a in cfg["args"])]
    env = {k: sub(v) for k, v in cfg["env"].items()}
    assert host_command(doc, fresh) == (cmd, env)  # what mcpgen bundle's start check runs
    assert cmd[0] == "python"
    host_env = {"PATH": str(bare_python_bin) + os.pathsep + "/usr/bin:/bin", **env}
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=host_env, cwd=str(fresh))
    t = anyio.run(_transcript, params)
    print("transcript of the unpacked bundle:\n" + json.dumps(t, indent=2))
    assert t["tools"] == [tool["name"] for tool in doc["tools"]]
    assert t["call"].get("isError") is not True
    assert t["call"]["structuredContent"]["city"] == "Paris"


def _build(out: Path, target: Path) -> str:
    proc = mcpgen(
        "bundle",
        str(WEATHER),
        "--out",
        str(out),
        "--package",
        "weather_server",
        "-o",
        str(target),
        "--no-start-check",
    )
    assert proc.returncode == 0, proc.stderr
    return hashlib.sha256(target.read_bytes()).hexdigest()


def test_bundle_is_byte_stable(weather_bundle: Built, tmp_path: Path) -> None:
    """Two runs, back to back, give the same bytes. The runtime is vendored from the checkout
    (an editable install) that others may be editing meanwhile: one retry covers a file that
    changed between the two runs."""
    for attempt in range(2):
        first = _build(weather_bundle.out, tmp_path / f"a{attempt}.mcpb")
        second = _build(weather_bundle.out, tmp_path / f"b{attempt}.mcpb")
        if first == second:
            break
    assert first == second


def test_entry_point_that_does_not_start_writes_nothing(weather_pkg: Path, tmp_path: Path) -> None:
    broken = tmp_path / "src"
    shutil.copytree(weather_pkg / "weather_server", broken / "weather_server")
    handlers = broken / "weather_server" / "handlers.py"
    handlers.write_text(handlers.read_text() + "\nimport no_such_module_xyz\n")
    target = tmp_path / "out.mcpb"
    proc = mcpgen(
        "bundle",
        str(WEATHER),
        "--out",
        str(broken),
        "--package",
        "weather_server",
        "-o",
        str(target),
    )
    assert proc.returncode == 1, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("mcpgen")]
    assert len(lines) == 1, proc.stderr
    assert "entry point server/main.py does not start" in lines[0]
    assert "no_such_module_xyz" in proc.stderr
    assert not target.exists()
    assert list(tmp_path.glob("*.mcpb*")) == []
