"""The weather example on ``server.models: typeddict`` answers as it did on pydantic models.

Two packages from the example's manifest, one per mode, each with its own handlers (the
example's, and ``data/weather_pydantic_handlers.py``, the same logic on models); a fresh
process per engine (lean and ``--engine sdk``) answers the same script: tools (valid, refused,
nested, the map's three content blocks, the error tool), the resource template (a good and a
bad URI) and the prompt (complete and missing an argument). Every answer is equal, but the
bad URI's message: the typeddict server's is jsonschema-rs's, as for tool arguments."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import DATA, WEATHER, WEATHER_HANDLERS, stdio_answers, write_package

REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("tools/call", {"name": "get_weather", "arguments": {"city": "Paris"}}),
    ("tools/call", {"name": "get_weather", "arguments": {"city": "Zürich", "units": "imperial"}}),
    ("tools/call", {"name": "get_weather", "arguments": {"city": ""}}),
    ("tools/call", {"name": "get_forecast", "arguments": {"location": {"city": "B"}}}),
    (
        "tools/call",
        {
            "name": "get_forecast",
            "arguments": {"location": {"city": "Lyon", "country": "FR"}, "days": 5},
        },
    ),
    ("tools/call", {"name": "weather-map", "arguments": {"city": "São Paulo"}}),
    ("tools/call", {"name": "report_outage", "arguments": {"station": "ORY"}}),
    ("resources/read", {"uri": "weather://forecast/Paris"}),
    ("resources/read", {"uri": "weather://forecast/"}),
    ("prompts/get", {"name": "plan-outing", "arguments": {"city": "Paris", "activity": "picnic"}}),
    ("prompts/get", {"name": "plan-outing", "arguments": {"city": "Paris"}}),
]
BAD_URI = 9


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    text = WEATHER.read_text(encoding="utf-8")
    assert "\n  models: typeddict\n" in text  # the example runs on typeddict
    roots: dict[str, Path] = {}
    for models, handlers in (
        ("typeddict", WEATHER_HANDLERS),
        ("pydantic", DATA / "weather_pydantic_handlers.py"),
    ):
        root = tmp_path_factory.mktemp(models)
        manifest = root / "tools.yaml"
        manifest.write_text(
            text.replace("\n  models: typeddict\n", f"\n  models: {models}\n"), encoding="utf-8"
        )
        # what the manifest refers to, beside it (copied: a link out of the folder is refused)
        shutil.copytree(WEATHER.parent / "skills", root / "skills")
        shutil.copytree(WEATHER.parent / "view" / "dist", root / "view" / "dist")
        write_package(manifest, root, f"wx_{models}", handlers.read_text(encoding="utf-8"))
        roots[models] = root
    return roots


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_the_weather_example_answers_alike_in_both_modes(
    packages: dict[str, Path], engine: str
) -> None:
    typed = stdio_answers(packages["typeddict"], "wx_typeddict", engine, REQUESTS)
    model = stdio_answers(packages["pydantic"], "wx_pydantic", engine, REQUESTS)
    for t, m in zip(typed, model, strict=True):
        if t["id"] == BAD_URI:
            assert t["error"]["code"] == m["error"]["code"] == -32602
            assert "/city" in t["error"]["message"] and "/city" in m["error"]["message"]
            continue
        assert t == m, t["id"]
    assert typed[0]["result"]["structuredContent"]["city"] == "Paris"
    assert [b["type"] for b in typed[5]["result"]["content"]] == [
        "text",
        "image",
        "resource_link",
    ]
