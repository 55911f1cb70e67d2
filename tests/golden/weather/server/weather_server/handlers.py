"""Tool implementations of this server: fill in one method per tool.

mcpgen created this file once and never overwrites it. After the manifest changes, run
``mcpgen server`` again: it lists tools that are missing here and methods whose tool is gone.
Raise ``ToolError("what went wrong and how to fix it")`` for errors the model should see;
any other exception is logged (stderr) and reported as a generic internal error. Content
blocks for ``ToolResult`` (``TextContent``, ``ImageContent``, ...) come from ``mcpgen_runtime``.
"""

from __future__ import annotations

from mcpgen_runtime import ToolContext, ToolError, ToolResult

from ._generated import ToolsBase
from ._generated.models import (
    GetWeatherInput,
    GetWeatherOutput,
    GetForecastInput,
    GetForecastOutput,
    WeatherMapInput,
    ReportOutageInput,
    ReadCityForecastInput,
)

__all__ = ["Handlers", "ToolError", "ToolResult"]


class Handlers(ToolsBase):
    async def get_weather(self, args: GetWeatherInput, ctx: ToolContext) -> GetWeatherOutput:
        # tool "get_weather"
        # Get the current weather for a city.
        raise NotImplementedError

    async def get_forecast(self, args: GetForecastInput, ctx: ToolContext) -> GetForecastOutput:
        # tool "get_forecast"
        # Daily forecast for the next days.
        raise NotImplementedError

    async def weather_map(self, args: WeatherMapInput, ctx: ToolContext) -> ToolResult:
        # tool "weather-map"
        # A small weather map image of a city, plus a link to the full map.
        raise NotImplementedError

    async def report_outage(self, args: ReportOutageInput, ctx: ToolContext) -> ToolResult:
        # tool "report_outage"
        # Always fails (demonstrates tool execution errors).
        raise NotImplementedError

    async def read_city_forecast(self, params: ReadCityForecastInput, ctx: ToolContext) -> str:
        # resource template "weather://forecast/{city}"
        raise NotImplementedError
