"""A generated server runs with the runtime wheel alone: ``mcpgen-runtime`` is built from this
checkout, installed with its dependencies (from the package index) into a fresh venv that has
no mcpgen, datamodel-code-generator, black, ruff or jinja2, and serves a generated package there,
driven over stdio by the official ``mcp.Client``."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import anyio
import pytest

from tests.server.helpers import (
    REPO,
    WEATHER,
    WEATHER_HANDLERS,
    shared_runtime_wheel_python,
    write_package,
)

GENERATOR_ONLY = ("mcpgen", "jinja2", "datamodel_code_generator", "black", "ruff")


@pytest.fixture(scope="module")
def runtime_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_runtime_wheel_python(tmp_path_factory)


@pytest.mark.slow
def test_generated_server_runs_on_the_runtime_wheel_alone(
    runtime_venv: Path, tmp_path: Path
) -> None:
    py = runtime_venv
    listing = subprocess.run(
        [str(py), "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    )
    installed = {d["name"].lower().replace("_", "-") for d in json.loads(listing.stdout)}
    assert "mcpgen-runtime" in installed and "jsonschema-rs" in installed
    assert not installed & {"mcpgen", "datamodel-code-generator", "black", "ruff", "jinja2"}

    out = tmp_path / "app"
    write_package(WEATHER, out, "weather_alone", WEATHER_HANDLERS.read_text())
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    probe_code = (
        "import importlib.util as u, json, sys\n"
        "import weather_alone.__main__, mcp_wire, mcpgen_runtime\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {GENERATOR_ONLY!r})\n"
        f"found = [m for m in {GENERATOR_ONLY!r} if u.find_spec(m) is not None]\n"
        "print(json.dumps([loaded, found, mcpgen_runtime.__file__, mcp_wire.__file__]))\n"
    )
    probe = subprocess.run(
        [str(py), "-c", probe_code], capture_output=True, text=True, cwd=out, env=clean_env
    )
    assert probe.returncode == 0, probe.stderr
    loaded, found, runtime_file, wire_file = json.loads(probe.stdout)
    assert loaded == [] and found == []
    assert str(REPO) not in runtime_file and str(REPO) not in wire_file  # the wheel's copies

    from mcp import Client, StdioServerParameters

    async def go() -> tuple[list[str], dict[str, object], list[str]]:
        params = StdioServerParameters(
            command=str(py), args=["-m", "weather_alone"], cwd=str(out), env=clean_env
        )
        async with Client(params, mode="legacy") as client:
            tools = await client.list_tools()
            res = await client.call_tool("get_weather", {"city": "Lima"})
            bad = await client.call_tool("get_weather", {"city": ""})
            texts = [getattr(b, "text", "") for b in bad.content]
            return [t.name for t in tools.tools], dict(res.structured_content or {}), texts

    names, weather, bad_texts = anyio.run(go)
    assert names == ["get_weather", "get_forecast", "weather-map", "report_outage"]
    assert weather["city"] == "Lima" and weather["units"] == "metric"
    assert "/city" in bad_texts[0]  # validated by jsonschema-rs from the wheel
