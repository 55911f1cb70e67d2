"""A generated client narrowed to toolsets, against the weather server narrowed the same way
(``python -m weather_server --toolsets ...``), with ``verify=True`` comparing only the chosen
tools."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from mcpgen_runtime.client.errors import ClientError, DriftError
from tests.client.helpers import WEATHER, imported, weather_cmd, weather_env, write_client


@pytest.fixture(scope="module")
def weather(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    out = tmp_path_factory.mktemp("wts")
    write_client(WEATHER, out, "weather_client_ts")
    with imported(out, "weather_client_ts") as module:
        yield module.WeatherClient


def test_the_generated_client_knows_the_toolsets(weather: Any) -> None:
    assert '"forecast":' in weather.MCPGEN_TOOLSETS
    narrowed = weather.stdio(weather_cmd(), toolsets=["current"])
    assert [t.name for t in narrowed.selected_tools] == ["get_weather", "weather-map"]
    both = weather.stdio(weather_cmd(), toolsets=["forecast"], tools=["report_outage"])
    assert [t.name for t in both.selected_tools] == ["get_forecast", "report_outage"]
    assert len(weather.stdio(weather_cmd()).selected_tools) == 4


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"toolsets": ["forcast"]}, "toolsets: unknown toolset 'forcast'"),
        ({"tools": ["get_wether"]}, "tools: unknown tool 'get_wether'"),
    ],
)
def test_unknown_names_are_refused_at_once(
    weather: Any, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        weather.stdio(weather_cmd(), **options)
    with pytest.raises(TypeError, match="list of names"):
        weather.stdio(weather_cmd(), toolsets="forecast")


def test_a_narrowed_client_verifies_only_its_tools(weather: Any) -> None:
    server = [*weather_cmd(), "--toolsets", "forecast"]

    async def narrowed() -> tuple[int, str]:
        client = weather.stdio(server, env=weather_env(), toolsets=["forecast"], verify=True)
        async with client as w:
            days = len((await w.get_forecast(location={"city": "Oslo"}, days=2)).days)
            with pytest.raises(ClientError, match="not among the tools this client"):
                await w.get_weather(city="Lima")  # refused here: no round trip
            return days, w.protocol_version

    days, _ = anyio.run(narrowed)
    assert days == 2

    async def whole() -> None:
        async with weather.stdio(server, env=weather_env(), verify=True):
            pass

    with pytest.raises(DriftError) as err:
        anyio.run(whole)
    # the server left out the other toolsets' tools: the whole client sees them deleted
    assert {c.tool for c in err.value.changes} == {"get_weather", "weather-map", "report_outage"}
