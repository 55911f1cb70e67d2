"""The typed client's resources and prompts (``client.resources``, ``client.prompts``),
generated from the weather example and run against the generated weather server over stdio
with the official SDK underneath, on both wires."""

from __future__ import annotations

import inspect
import json
import shutil
from typing import Any

import anyio
import pytest

from mcpgen_runtime import ArgumentsError, ProtocolError
from tests.client.helpers import WEATHER, imported, weather_cmd, weather_env, write_client


@pytest.fixture(scope="module")
def weather_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("wcs")
    write_client(WEATHER, out, "weather_client_surface")
    with imported(out, "weather_client_surface") as module:
        yield module


def test_the_namespaces_have_typed_methods(weather_client: Any) -> None:
    resources = weather_client.WeatherClient.resources.fget.__annotations__["return"]
    assert resources.endswith("Resources")
    cls = weather_client._generated.client.WeatherClientResources
    params = inspect.signature(cls.city_forecast).parameters
    assert list(params) == ["self", "city"] and params["city"].kind is params["city"].KEYWORD_ONLY
    prompts = weather_client._generated.client.WeatherClientPrompts
    assert list(inspect.signature(prompts.plan_outing).parameters) == ["self", "city", "activity"]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_read_expand_get_and_complete(weather_client: Any, mode: str) -> None:
    async def go() -> None:
        async with weather_client.WeatherClient.stdio(
            weather_cmd(), env=weather_env(), mode=mode
        ) as c:
            stations = await c.resources.stations()
            assert "Paris-Montsouris" in stations.contents[0].text
            forecast = await c.resources.city_forecast(city="Tokyo")
            assert forecast.contents[0].uri == "weather://forecast/Tokyo"
            assert len(json.loads(forecast.contents[0].text)["days"]) == 3
            # variables are percent-encoded by the SDK's RFC 6570 expansion
            spaced = await c.resources.city_forecast(city="New York")
            assert spaced.contents[0].uri == "weather://forecast/New%20York"
            prompt = await c.prompts.plan_outing(city="Lisbon", activity="walk")
            assert prompt.messages[0].content.text.startswith("Plan a walk in Lisbon")
            done = await c.prompts.complete("plan-outing", "city", "be")
            assert done.completion.values == ["Berlin"]
            done = await c.resources.complete("weather://forecast/{city}", "city", "")
            assert done.completion.total == 4
            with pytest.raises(ArgumentsError, match="template 'weather://forecast/{city}'"):
                await c.resources.city_forecast(city="")
            with pytest.raises(ProtocolError) as missing:
                await c.resources.read("weather://nowhere")
            assert missing.value.code == (-32602 if mode == "2026-07-28" else -32002)
            with pytest.raises(ProtocolError):
                await c.prompts.get("plan-outing", {"city": "Paris"})  # activity is required

    anyio.run(go)


def test_drift_reads_every_list_and_reports_a_missing_prompt(tmp_path: Any) -> None:
    """``mcpgen drift`` compares resources, templates and prompts too (not completions, which
    a live server does not list): a prompt the manifest has and the server lacks is reported,
    located in the manifest."""
    import shlex
    import subprocess

    from tests.client.helpers import WEATHER_DIR, mcpgen, mcpgen_cmd

    target = ["--stdio", shlex.join(weather_cmd())]
    env = {**weather_env()}
    ok = subprocess.run(
        [*mcpgen_cmd(), "drift", str(WEATHER), *target],
        capture_output=True,
        text=True,
        env=env,
        cwd=WEATHER_DIR,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    text = WEATHER.read_text(encoding="utf-8")
    manifest = tmp_path / "tools.yaml"
    for folder in ("skills", "view"):  # the example's skill and view, beside it
        if (WEATHER.parent / folder).exists():
            shutil.copytree(WEATHER.parent / folder, tmp_path / folder)
    manifest.write_text(
        text.replace(
            "prompts:\n",
            "prompts:\n  - {name: not-served, messages: [{role: user, text: hi}]}\n",
            1,
        ),
        encoding="utf-8",
    )
    drifted = mcpgen("drift", str(manifest), *target, env=env, cwd=WEATHER_DIR)
    assert drifted.returncode == 1, drifted.stdout + drifted.stderr
    (line,) = [ln for ln in drifted.stdout.splitlines() if "PROMPT_NO_DELETE" in ln]
    assert line.startswith(f"{manifest}:") and "prompt 'not-served' was removed" in line
