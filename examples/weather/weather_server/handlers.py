"""Tool and resource implementations of the weather example (demo data; no network).

mcpgen created this file once and never overwrites it. After the manifest changes, run
``mcpgen server`` again: it lists tools that are missing here and methods whose tool is gone.
Raise ``ToolError("what went wrong and how to fix it")`` for errors the model should see;
any other exception is logged (stderr) and reported as a generic internal error.

The manifest says ``server.models: typeddict``: each method gets the arguments as sent and
validated against the tool's inputSchema, a dict typed by its generated ``TypedDict`` (JSON
names as keys; an optional argument may be absent: ``args.get("units", "metric")``), and
returns JSON data. Content blocks are written as their JSON (``{"type": "text", ...}``).
"""

from __future__ import annotations

import datetime
import hashlib
import json
from typing import Any, Literal

from mcpgen_runtime import ToolContext, ToolError, ToolResult

from ._generated import ToolsBase
from ._generated.models import (
    GetForecastInput,
    GetForecastOutput,
    GetForecastOutputDay,
    GetForecastOutputLocation,
    GetWeatherInput,
    GetWeatherOutput,
    ReadCityForecastInput,
    ReportOutageInput,
    WeatherMapInput,
)

__all__ = ["Handlers", "ToolError", "ToolResult"]

Condition = Literal["sunny", "cloudy", "rain", "snow"]
_CONDITIONS: tuple[Condition, ...] = ("sunny", "cloudy", "rain", "snow")
# A 1x1 PNG (base64): stands in for a rendered map.
_MAP_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9"
    "awAAAABJRU5ErkJggg=="
)


def _seed(text: str) -> int:
    """Deterministic demo numbers per city."""
    return int.from_bytes(hashlib.sha256(text.lower().encode()).digest()[:4], "big")


def _forecast(city: str, country: str | None, days: int) -> GetForecastOutput:
    today = datetime.date(2026, 7, 28)
    seed = _seed(city)
    location: GetForecastOutputLocation = {"city": city}
    if country is not None:
        location["country"] = country
    out: list[GetForecastOutputDay] = []
    for i in range(days):
        high = 10 + (seed >> i) % 20
        out.append(
            {
                "date": (today + datetime.timedelta(days=i)).isoformat(),
                "high": float(high),
                "low": float(high - 8),
                "condition": _CONDITIONS[(seed >> i) % 4],
            }
        )
    return {"location": location, "days": out}


class Handlers(ToolsBase):
    async def get_weather(self, args: GetWeatherInput, ctx: ToolContext) -> GetWeatherOutput:
        # tool 'get_weather'
        city, units = args["city"], args.get("units") or "metric"
        celsius = 5 + _seed(city) % 25
        temperature = float(celsius) if units == "metric" else round(celsius * 9 / 5 + 32, 1)
        ctx.logger.info("get_weather %r (protocol %s)", city, ctx.protocol_version)
        return {
            "city": city,
            "temperature": temperature,
            "units": units,
            "condition": _CONDITIONS[_seed(city) % 2],
            "humidity": 40 + _seed(city) % 50,
        }

    async def get_forecast(self, args: GetForecastInput, ctx: ToolContext) -> GetForecastOutput:
        # tool 'get_forecast'
        days = args.get("days") or 3
        for i in range(days):
            await ctx.progress(i, days, f"day {i + 1} of {days}")
        location = args["location"]
        return _forecast(location["city"], location.get("country"), days)

    async def weather_map(self, args: WeatherMapInput, ctx: ToolContext) -> ToolResult:
        # tool 'weather-map': an image block plus a resource link (older clients get text)
        city = args["city"]
        slug = "".join(c for c in city.lower() if c.isalnum()) or "city"
        blocks: list[dict[str, Any]] = [
            {"type": "text", "text": f"Weather map of {city}"},
            {
                "type": "image",
                "data": _MAP_PNG,
                "mimeType": "image/png",
                "annotations": {"audience": ["user"], "priority": 0.5},
            },
            {
                "type": "resource_link",
                "uri": f"https://maps.example.com/weather/{slug}.png",
                "name": f"{slug}-map",
                "mimeType": "image/png",
                "description": f"Full-size weather map of {city}",
            },
        ]
        return ToolResult(content=blocks)

    async def report_outage(self, args: ReportOutageInput, ctx: ToolContext) -> ToolResult:
        # tool 'report_outage': always a tool execution error the model can read
        raise ToolError(
            f"Station {args['station']!r} is offline; try again later or use get_weather instead."
        )

    async def read_city_forecast(self, params: ReadCityForecastInput, ctx: ToolContext) -> str:
        # resource template 'weather://forecast/{city}': the same demo forecast, as JSON
        forecast = _forecast(params["city"], None, 3)
        return json.dumps(forecast, ensure_ascii=False, separators=(",", ":"))
