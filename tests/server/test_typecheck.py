"""Generated packages pass ``mypy --strict`` (the weather example with its handlers, and a
hostile manifest with its stub handlers)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.mypy_cache import strict_args
from tests.server.helpers import (
    DATA,
    WEATHER,
    WEATHER_HANDLERS,
    RawClient,
    imported,
    write_package,
)


@pytest.mark.slow
def test_mypy_strict_on_generated_packages(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    write_package(WEATHER, tmp_path, "weather_typed", WEATHER_HANDLERS.read_text())
    write_package(DATA / "hostile.json", tmp_path, "hostile_typed")
    write_package(
        DATA / "behaviours.yaml",
        tmp_path,
        "behaviours_typed",
        (DATA / "behaviours_handlers.py").read_text(),
    )
    proc = subprocess.run(
        [
            sys.executable,
            *strict_args(tmp_path_factory, tmp_path),
            "-p",
            "weather_typed",
            "-p",
            "hostile_typed",
            "-p",
            "behaviours_typed",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


WRAPPED = """\
server: {name: wrapped}
tools:
  - name: paint
    description: Paint.
    inputSchema:
      type: object
      properties:
        color: {$ref: "#/$defs/Color", default: red}
        shade: {$ref: "#/$defs/Shade"}
        size: {type: integer, minimum: 1, default: 3}
      $defs:
        Color: {type: string, enum: [red, blue]}
        Shade: {type: string, enum: [light, dark], default: dark}
  - name: stats
    description: A map as output, so the models are generated with wrapper classes.
    inputSchema: {type: object}
    outputSchema: {type: object, additionalProperties: {type: integer}}
"""

WRAPPED_HANDLERS = """\
from __future__ import annotations

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated import models as m


class Handlers(ToolsBase):
    async def paint(self, args: m.PaintInput, ctx: ToolContext) -> str:
        color: str | None = args.color
        return f"{color} {args.shade} {args.size}"

    async def stats(self, args: m.StatsInput, ctx: ToolContext) -> m.StatsOutput:
        return m.StatsOutput({"calls": 1})
"""


@pytest.mark.slow
def test_wrapper_models_with_defaults_type_check_and_run(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A manifest whose models need wrapper classes (a map output) and has `$ref` enums with
    defaults: the fields are the enums' literals (mypy --strict clean), and the defaults
    arrive as plain values."""
    manifest = tmp_path / "wrapped.yaml"
    manifest.write_text(WRAPPED)
    write_package(manifest, tmp_path, "wrapped_typed", WRAPPED_HANDLERS)
    proc = subprocess.run(
        [sys.executable, *strict_args(tmp_path_factory, tmp_path), "-p", "wrapped_typed"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "from wrapped_typed._generated import models as m; "
            "a = m.PaintInput.model_validate({}); print(a.color, a.shade, a.size); "
            "print(m.StatsOutput.model_validate({'x': 2}).root)",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["red dark 3", "{'x': 2}"]


MAP_ONLY = """\
server: {name: tally}
tools:
  - name: total
    description: Add up the counts.
    inputSchema:
      type: object
      additionalProperties: {type: integer}
"""

MAP_ONLY_HANDLERS = """\
from __future__ import annotations

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated import models as m


class Handlers(ToolsBase):
    async def total(self, args: m.TotalInput, ctx: ToolContext) -> str:
        return str(sum(args.root.values()))
"""


@pytest.mark.slow
def test_a_manifest_whose_only_model_is_a_map(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No model derives from the runtime's base class (the only root is a map, a RootModel):
    generation used to stop with "unexpected base-class import layout" (found by fuzzing
    ``mcpgen pull`` with hostile servers). Now it type-checks and serves."""
    manifest = tmp_path / "tally.yaml"
    manifest.write_text(MAP_ONLY)
    write_package(manifest, tmp_path, "tally_typed", MAP_ONLY_HANDLERS)
    proc = subprocess.run(
        [sys.executable, *strict_args(tmp_path_factory, tmp_path), "-p", "tally_typed"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with imported(tmp_path, "tally_typed") as handlers:
        gen = __import__("tally_typed._generated", fromlist=["create_server"])
        server = gen.create_server(handlers.Handlers())

        async def call() -> dict[str, Any]:
            async with RawClient(server, "2025-11-25") as c:
                return await c.request(
                    "tools/call", {"name": "total", "arguments": {"a": 2, "b": 40}}
                )

        got = anyio.run(call)
    assert got["result"]["content"][0]["text"] == "42", got
