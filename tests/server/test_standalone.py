"""The generated server runs with only its runtime dependencies (mcp, pydantic, jsonschema):
in a fresh venv that sees the dev environment's third-party packages but not mcpgen
(``codegen``) nor ``mcp_wire``, driven over stdio by the official ``mcp.Client``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import anyio
import pytest

from tests.server.helpers import WEATHER, WEATHER_HANDLERS, write_package


@pytest.mark.slow
def test_generated_server_runs_without_mcpgen(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    # A plain path line: the dev site-packages is added, but its .pth files (the editable
    # install of mcpgen, which puts codegen/ and generated/ on sys.path) are not processed.
    # (An editable install also leaves a data-only ``codegen/_data`` directory there; probing
    # ``codegen.cli`` asks for mcpgen's code, not for that directory.)
    Path(site, "dev_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    out = tmp_path / "app"
    write_package(WEATHER, out, "weather_alone", WEATHER_HANDLERS.read_text())
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}

    probe_code = (
        "import importlib.util as u, json, sys\n"
        "import weather_alone.__main__\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('codegen', 'mcp_wire', 'jinja2', 'datamodel_code_generator', 'black'))\n"
        "def has(name):\n"
        "    try:\n"
        "        return u.find_spec(name) is not None\n"
        "    except ModuleNotFoundError:\n"
        "        return False\n"
        "print(json.dumps({m.split('.')[0]: has(m) for m in ('codegen.cli', 'mcp_wire._base', 'mcp', 'jsonschema')}))\n"
        "print(json.dumps(loaded))\n"
    )
    probe = subprocess.run([str(py), "-c", probe_code], capture_output=True, text=True, cwd=out, env=clean_env)
    assert probe.returncode == 0, probe.stderr
    found, loaded = (json.loads(line) for line in probe.stdout.splitlines())
    assert found == {"codegen": False, "mcp_wire": False, "mcp": True, "jsonschema": True}
    assert loaded == []

    from mcp import Client, StdioServerParameters

    async def go() -> tuple[list[str], dict[str, object]]:
        params = StdioServerParameters(command=str(py), args=["-m", "weather_alone"], cwd=str(out), env=clean_env)
        async with Client(params, mode="legacy") as client:
            tools = await client.list_tools()
            res = await client.call_tool("get_weather", {"city": "Lima"})
            return [t.name for t in tools.tools], dict(res.structured_content or {})

    names, weather = anyio.run(go)
    assert names == ["get_weather", "get_forecast", "weather-map", "report_outage"]
    assert weather["city"] == "Lima" and weather["units"] == "metric"
