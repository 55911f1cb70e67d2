"""The client runtime on its own: the sync facade, the drift rules agreeing with
``mcpgen breaking``, and a generated client importing and calling in a venv that holds only the
runtime wheel."""

from __future__ import annotations

import copy
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcpgen.check import catalog
from mcpgen.check.breaking import compare
from mcpgen.check.config import load_config
from mcpgen.check.registry import BREAKING
from mcpgen.check.runner import active_rules
from mcpgen.manifest.load import load_manifest_text
from mcpgen.manifest.model import KNOWN_REVISIONS
from tests.client.helpers import (
    WEATHER,
    WEATHER_DIR,
    imported,
    weather_cmd,
    weather_env,
    write_client,
)


@pytest.fixture(scope="module")
def weather_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("wc")
    write_client(WEATHER, out, "weather_client_rt")
    with imported(out, "weather_client_rt") as module:
        yield module


def test_sync_facade(weather_client: Any) -> None:
    client = weather_client.WeatherClient.stdio(weather_cmd(), env=weather_env())
    with client.sync() as w:
        typed = w.call(w.client.get_weather, city="Lima")
        plain = w.get_forecast(location={"city": "Oslo"}, days=1)
    assert typed.city == "Lima" and len(plain.days) == 1
    assert client._client is None  # closed


@pytest.mark.parametrize(
    "mode, revision",
    [("auto", "2026-07-28"), ("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")],
)
def test_protocol_modes(weather_client: Any, mode: str, revision: str) -> None:
    import anyio

    async def go() -> tuple[str, str]:
        async with weather_client.WeatherClient.stdio(
            weather_cmd(), env=weather_env(), mode=mode
        ) as c:
            return c.protocol_version, (await c.get_weather(city="Oslo")).city

    assert anyio.run(go) == (revision, "Oslo")


def _weather_tools() -> list[dict[str, Any]]:
    from mcpgen.manifest.load import require_manifest

    return [dict(t.raw) for t in require_manifest(WEATHER).tools]


def _mutations() -> list[tuple[str, Any]]:
    def drop_tool(ts: list[dict[str, Any]]) -> None:
        del ts[0]

    def require_units(ts: list[dict[str, Any]]) -> None:
        ts[0]["inputSchema"]["required"].append("units")

    def remove_enum_value(ts: list[dict[str, Any]]) -> None:
        ts[0]["inputSchema"]["properties"]["units"]["enum"] = ["metric"]

    def narrow_type(ts: list[dict[str, Any]]) -> None:
        ts[1]["inputSchema"]["properties"]["days"]["type"] = "string"

    def drop_output_prop(ts: list[dict[str, Any]]) -> None:
        del ts[0]["outputSchema"]["properties"]["humidity"]

    def drop_output(ts: list[dict[str, Any]]) -> None:
        del ts[1]["outputSchema"]

    def not_read_only(ts: list[dict[str, Any]]) -> None:
        ts[0]["annotations"]["readOnlyHint"] = False

    def close_input(ts: list[dict[str, Any]]) -> None:
        ts[2]["inputSchema"]["additionalProperties"] = False

    def nested_output(ts: list[dict[str, Any]]) -> None:
        ts[1]["outputSchema"]["properties"]["days"]["items"]["properties"]["high"]["type"] = (
            "string"
        )

    def harmless(ts: list[dict[str, Any]]) -> None:
        ts.append({"name": "new_tool", "inputSchema": {"type": "object"}})
        ts[0]["description"] = "changed"

    return [
        (f.__name__, f)
        for f in (
            drop_tool,
            require_units,
            remove_enum_value,
            narrow_type,
            drop_output_prop,
            drop_output,
            not_read_only,
            close_input,
            nested_output,
            harmless,
        )
    ]


@pytest.mark.parametrize("name, mutate", _mutations())
def test_runtime_drift_rules_agree_with_mcpgen_breaking(
    name: str, mutate: Any, tmp_path: Path
) -> None:
    from mcpgen_runtime.client import breaking_changes

    old = _weather_tools()
    new = copy.deepcopy(old)
    mutate(new)
    runtime_rules = sorted(c.rule for c in breaking_changes(old, new))
    rules = catalog.load_all()
    active = active_rules((BREAKING,), KNOWN_REVISIONS, load_config(rules).breaking)
    om = load_manifest_text(json.dumps({"tools": old}), "old.json").manifest
    nm = load_manifest_text(json.dumps({"tools": new}), "new.json").manifest
    assert om is not None and nm is not None
    cli_rules = sorted(d.rule_id for d in compare(om, nm, active))
    assert runtime_rules == cli_rules
    assert bool(runtime_rules) == (name != "harmless")


@pytest.mark.slow
def test_generated_client_runs_on_the_runtime_wheel_alone(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from tests.server.helpers import shared_runtime_wheel_python
    from tests.server.test_standalone import GENERATOR_ONLY

    py = shared_runtime_wheel_python(tmp_path_factory)
    write_client(WEATHER, tmp_path, "weather_alone_client")
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    code = (
        "import anyio, json, sys, importlib.util as u\n"
        "from weather_alone_client import WeatherClient\n"
        "async def go():\n"
        f"    env = {{'PYTHONPATH': {str(WEATHER_DIR)!r}}}\n"
        "    cmd = [sys.executable, '-m', 'weather_server']\n"
        "    async with WeatherClient.stdio(cmd, env=env, verify=True) as c:\n"
        "        r = await c.get_weather(city='Lima')\n"
        "        return r.city, c.protocol_version\n"
        "city, proto = anyio.run(go)\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {GENERATOR_ONLY!r})\n"
        f"found = [m for m in {GENERATOR_ONLY!r} if u.find_spec(m) is not None]\n"
        "print(json.dumps([city, proto, loaded, found]))\n"
    )
    proc = subprocess.run(
        [str(py), "-c", code], capture_output=True, text=True, cwd=tmp_path, env=clean, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    city, proto, loaded, found = json.loads(proc.stdout)
    assert city == "Lima" and proto == "2026-07-28" and loaded == [] and found == []


def test_yaml_dump_of_pulled_manifest_round_trips(tmp_path: Path) -> None:
    """What `mcpgen pull` writes reads back (mcpgen's YAML 1.2 loader) as exactly the tools."""
    from mcpgen.client.live import LiveServer
    from mcpgen.client.pull import manifest_text

    tools = _weather_tools() + [
        {
            "name": "yes",
            "description": 'on\noff 2024-01-01 \'"""\\ 0x1F',
            "inputSchema": {"type": "object", "properties": {"no": {"enum": ["y", "n", "1e3"]}}},
        }
    ]
    live = LiveServer(tools, {"name": "w", "version": "1"}, "2025-11-25", "test:\nlabel")
    path = tmp_path / "m.yaml"
    path.write_text(manifest_text(live, path))
    res = load_manifest_text(path.read_text(), str(path))
    assert res.manifest is not None
    assert [dict(t.raw) for t in res.manifest.tools] == tools
    assert yaml.safe_load(path.read_text())["protocol"] == ["2025-11-25"]


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(
        [
            "1e3",
            "0o17",
            "0x1F",
            ".inf",
            "-.5",
            "~",
            "null",
            "True",
            "yes",
            "2024-01-01",
            "1_000",
            "",
            " ",
            "#",
            "- x",
            "@",
            "!tag",
            "&a",
            "*a",
        ]
    ),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=12,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=_json)
def test_pulled_yaml_round_trips_any_json(value: Any, tmp_path: Path) -> None:
    from mcpgen.client.live import LiveServer
    from mcpgen.client.pull import manifest_text
    from mcpgen.manifest.sourcemap import parse_text

    tools = [{"name": "t", "inputSchema": {"type": "object", "default": value}}]
    live = LiveServer(tools, {"name": "w", "version": "1"}, "2025-11-25", "x")
    text = manifest_text(live, tmp_path / "m.yaml")
    doc = parse_text(text, "m.yaml").value
    assert doc["tools"] == tools
