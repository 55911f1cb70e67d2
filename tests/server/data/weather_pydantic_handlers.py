"""The weather example's handlers as written for ``server.models: pydantic`` (the example
now runs on typeddict): tests/server/test_weather_models.py runs both and compares answers.

mcpgen created this file once and never overwrites it. After the manifest changes, run
``mcpgen server`` again: it lists tools that are missing here and methods whose tool is gone.
Raise ``ToolError("what went wrong and how to fix it")`` for errors the model should see;
any other exception is logged (stderr) and reported as a generic internal error.
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Literal

from mcpgen_runtime import (
    Annotations,
    ImageContent,
    ResourceLink,
    Role,
    TextContent,
    ToolContext,
    ToolError,
    ToolResult,
)

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


class Handlers(ToolsBase):
    async def get_weather(self, args: GetWeatherInput, ctx: ToolContext) -> GetWeatherOutput:
        # tool 'get_weather'
        units = args.units or "metric"
        celsius = 5 + _seed(args.city) % 25
        temperature = float(celsius) if units == "metric" else round(celsius * 9 / 5 + 32, 1)
        ctx.logger.info("get_weather %r (protocol %s)", args.city, ctx.protocol_version)
        return GetWeatherOutput(
            city=args.city,
            temperature=temperature,
            units=units,
            condition=_CONDITIONS[_seed(args.city) % 2],
            humidity=40 + _seed(args.city) % 50,
        )

    async def get_forecast(self, args: GetForecastInput, ctx: ToolContext) -> GetForecastOutput:
        # tool 'get_forecast'
        days = args.days or 3
        today = datetime.date(2026, 7, 28)
        seed = _seed(args.location.city)
        out = []
        for i in range(days):
            await ctx.progress(i, days, f"day {i + 1} of {days}")
            high = 10 + (seed >> i) % 20
            out.append(
                GetForecastOutputDay(
                    date=(today + datetime.timedelta(days=i)).isoformat(),
                    high=float(high),
                    low=float(high - 8),
                    condition=_CONDITIONS[(seed >> i) % 4],
                )
            )
        return GetForecastOutput(
            location=GetForecastOutputLocation(
                city=args.location.city, country=args.location.country
            ),
            days=out,
        )

    async def weather_map(self, args: WeatherMapInput, ctx: ToolContext) -> ToolResult:
        # tool 'weather-map': an image block plus a resource link (older clients get text)
        slug = "".join(c for c in args.city.lower() if c.isalnum()) or "city"
        return ToolResult(
            content=[
                TextContent(type="text", text=f"Weather map of {args.city}"),
                ImageContent(
                    type="image",
                    data=_MAP_PNG,
                    mime_type="image/png",
                    annotations=Annotations(audience=[Role("user")], priority=0.5),
                ),
                ResourceLink(
                    type="resource_link",
                    uri=f"https://maps.example.com/weather/{slug}.png",
                    name=f"{slug}-map",
                    mime_type="image/png",
                    description=f"Full-size weather map of {args.city}",
                ),
            ]
        )

    async def report_outage(self, args: ReportOutageInput, ctx: ToolContext) -> ToolResult:
        # tool 'report_outage': always a tool execution error the model can read
        raise ToolError(
            f"Station {args.station!r} is offline; try again later or use get_weather instead."
        )

    async def read_city_forecast(self, params: ReadCityForecastInput, ctx: ToolContext) -> str:
        # resource template 'weather://forecast/{city}': the same demo forecast, as JSON
        forecast = await self.get_forecast(
            GetForecastInput.model_validate({"location": {"city": params.city}, "days": 3}), ctx
        )
        return forecast.model_dump_json(exclude_none=True)
