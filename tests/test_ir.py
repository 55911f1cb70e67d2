"""The shared IR (``mcpgen.ir``) and the package IRs built on it, from a loaded manifest: no
generator run, no formatter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcpgen.client.ir import RESERVED_METHODS, build_client_ir
from mcpgen.errors import McpgenError
from mcpgen.ir.models import model_specs
from mcpgen.ir.resources_prompts import prepare_resources_and_prompts
from mcpgen.ir.tools import build_tools
from mcpgen.manifest.load import load_manifest_text, require_manifest
from mcpgen.modelview import model_view
from mcpgen.server.ir import build_server_ir

ROOT = Path(__file__).resolve().parent.parent
WEATHER = ROOT / "examples" / "weather" / "tools.yaml"


def test_tools_hold_each_fact_once() -> None:
    manifest = require_manifest(WEATHER)
    tools = build_tools(manifest, package="weather_server")
    assert [t.name for t in tools] == [
        "get_weather",
        "get_forecast",
        "weather-map",
        "report_outage",
    ]
    weather, _forecast, wmap, _outage = tools
    assert (weather.index, weather.method_name, weather.class_stem) == (
        0,
        "get_weather",
        "GetWeather",
    )
    assert (weather.input_model, weather.output_model) == ("GetWeatherInput", "GetWeatherOutput")
    assert weather.has_output and not wmap.has_output and wmap.output_model is None
    assert wmap.method_name == "weather_map" and wmap.input_model == "WeatherMapInput"
    assert json.loads(weather.raw_json)["name"] == "get_weather"
    assert weather.input_dialect == "2020-12" and wmap.output_dialect is None
    assert weather.pointer == "/tools/0" and weather.forwarded is None


def test_package_irs_share_the_tool_records() -> None:
    manifest = require_manifest(WEATHER)
    server = build_server_ir(manifest, package="weather_server", manifest_name="tools.yaml")
    client = build_client_ir(manifest, package="weather_client", manifest_name="tools.yaml")
    assert server.tools == build_tools(manifest, package="weather_server")
    assert [t.method_name for t in client.tools] == [t.method_name for t in server.tools]
    assert (server.base_class, server.legacy_base_alias) == ("ToolsBase", "WeatherToolsBase")
    assert client.client_class == "WeatherClient"
    assert [i.method_name for i in server.resource_and_prompt_methods] == ["read_city_forecast"]
    assert "ReadCityForecastInput" in server.handler_model_imports


def test_model_specs_are_the_tools_then_the_resources_and_prompts() -> None:
    manifest = require_manifest(WEATHER)
    tools = build_tools(manifest, package="p")
    resources_and_prompts = prepare_resources_and_prompts(
        manifest, [t.names for t in tools], every_prompt=True
    )
    specs = model_specs(tools, resources_and_prompts)
    stems = [stem for stem, _i, _o in specs]
    assert stems[:4] == ["GetWeather", "GetForecast", "WeatherMap", "ReportOutage"]
    assert "ReadCityForecast" in stems[4:]
    # the generator sees each tool's schemas as the model view shows them
    assert specs[0][1] == model_view(tools[0].input_schema)
    server = build_server_ir(manifest, package="p", manifest_name="tools.yaml")
    assert server.model_specs == model_specs(server.tools, server.resources_and_prompts)


def test_reserved_and_duplicate_names() -> None:
    text = (
        "server: {name: s, version: '1'}\n"
        "tools:\n"
        "  - {name: mcp, inputSchema: {type: object}, x-mcpgen: {scopes: [read]}}\n"
        "  - {name: mcp, inputSchema: {type: object}}\n"
    )
    manifest = load_manifest_text(text, "tools.yaml").manifest
    assert manifest is not None
    with pytest.raises(McpgenError, match="duplicate tool name 'mcp'"):
        build_tools(manifest, package="p")
    single = load_manifest_text(text.rsplit("  - ", 1)[0], "tools.yaml").manifest
    assert single is not None
    (tool,) = build_tools(single, package="p", reserved=RESERVED_METHODS)
    assert tool.method_name != "mcp" and tool.scopes == ("read",)
