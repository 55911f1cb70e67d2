"""The weather example on ``server.models: typeddict`` answers as it did on pydantic models.

Two packages from the example's manifest, one per mode, each with its own handlers (the
example's, and ``data/weather_pydantic_handlers.py``, the same logic on models); a fresh
process per engine (lean and ``--engine sdk``) answers the same script: tools (valid, refused,
nested, the map's three content blocks, the error tool), the resource template (a good and a
bad URI) and the prompt (complete and missing an argument). Every answer is equal, but the
bad URI's message: the typeddict server's is jsonschema-rs's, as for tool arguments."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import DATA, WEATHER, WEATHER_HANDLERS, write_package

SCRIPT: list[dict[str, Any]] = [
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    *(
        {"jsonrpc": "2.0", "id": i, "method": method, "params": params}
        for i, (method, params) in enumerate(
            [
                ("tools/call", {"name": "get_weather", "arguments": {"city": "Paris"}}),
                (
                    "tools/call",
                    {"name": "get_weather", "arguments": {"city": "Zürich", "units": "imperial"}},
                ),
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
                (
                    "prompts/get",
                    {"name": "plan-outing", "arguments": {"city": "Paris", "activity": "picnic"}},
                ),
                ("prompts/get", {"name": "plan-outing", "arguments": {"city": "Paris"}}),
            ],
            start=1,
        )
    ),
]
BAD_URI = 9


def _answers(root: Path, package: str, engine: str) -> list[dict[str, Any]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCPGEN_")}
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-m", package, "--engine", engine],
        input="".join(json.dumps(m) + "\n" for m in SCRIPT),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(answers) == len(SCRIPT) - 1, proc.stdout + proc.stderr
    return sorted(answers, key=lambda a: a["id"])


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
    typed = _answers(packages["typeddict"], "wx_typeddict", engine)
    model = _answers(packages["pydantic"], "wx_pydantic", engine)
    for t, m in zip(typed, model, strict=True):
        if t["id"] == BAD_URI:
            assert t["error"]["code"] == m["error"]["code"] == -32602
            assert "/city" in t["error"]["message"] and "/city" in m["error"]["message"]
            continue
        assert t == m, t["id"]
    assert typed[1]["result"]["structuredContent"]["city"] == "Paris"
    assert [b["type"] for b in typed[6]["result"]["content"]] == [
        "text",
        "image",
        "resource_link",
    ]
