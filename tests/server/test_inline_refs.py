"""``--inline-schema-refs``: a generated server lists model-friendly inputSchemas ($refs
inlined, $defs dropped) and still checks calls against the schema as written; without it the
schemas are served byte for byte. Through the official SDK client, in a real process."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests import inprocess

from .helpers import write_package

MANIFEST = """\
server: {name: plan}
tools:
  - name: plan_trip
    description: Plan a trip.
    inputSchema:
      type: object
      properties:
        stops: {type: array, items: {$ref: "#/$defs/Stop"}, minItems: 1}
        mode: {$ref: "#/$defs/Mode", description: How to travel.}
      required: [stops]
      additionalProperties: false
      $defs:
        Stop:
          type: object
          properties: {city: {type: string}, nights: {type: integer, minimum: 1}}
          required: [city]
          additionalProperties: false
        Mode: {type: string, enum: [rail, road]}
"""

HANDLERS = """\
from __future__ import annotations

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated import models as m


class Handlers(ToolsBase):
    async def plan_trip(self, args: m.PlanTripInput, ctx: ToolContext) -> str:
        return ",".join(s.city for s in args.stops)
"""


@pytest.fixture(scope="module")
def plan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("inline")
    manifest = out / "plan.yaml"
    manifest.write_text(MANIFEST)
    write_package(manifest, out, "plan", handlers=HANDLERS)
    return out


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MCPGEN_INLINE_SCHEMA_REFS"}
    return {**env, **extra}


def _session(out: Path, *args: str, env: dict[str, str]) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "plan", *args], cwd=str(out), env=env
        )
        async with Client(params, mode="legacy") as client:
            (tool,) = (await client.list_tools()).tools
            good = await client.call_tool("plan_trip", {"stops": [{"city": "Lima"}]})
            bad = await client.call_tool("plan_trip", {"stops": [{"city": "Lima", "nights": 0}]})
            return {
                "schema": tool.input_schema,
                "good": good.content[0].text,  # type: ignore[union-attr]
                "bad": (bad.is_error, bad.content[0].text),  # type: ignore[union-attr]
            }

    return anyio.run(go)


def test_default_serves_the_schema_as_written(plan: Path) -> None:
    got = _session(plan, env=_env())
    assert (
        "$defs" in got["schema"] and got["schema"]["properties"]["mode"]["$ref"] == "#/$defs/Mode"
    )


@pytest.mark.parametrize(
    ("args", "env"), [(["--inline-schema-refs"], {}), ([], {"MCPGEN_INLINE_SCHEMA_REFS": "1"})]
)
def test_inlined_listing_and_original_validation(
    plan: Path, args: list[str], env: dict[str, str], tmp_path: Path
) -> None:
    got = _session(plan, *args, env=_env(**env))
    schema = got["schema"]
    assert "$defs" not in schema and "$ref" not in json.dumps(schema)
    assert schema["properties"]["mode"] == {
        "type": "string",
        "enum": ["rail", "road"],
        "description": "How to travel.",
    }
    assert schema["properties"]["stops"]["items"]["properties"]["nights"]["minimum"] == 1
    assert got["good"] == "Lima"
    # the nested minimum is still enforced: calls are checked against the schema as written
    assert got["bad"][0] is True and "nights" in got["bad"][1]
    # and the listing now passes the gemini profile's $ref rule
    dump = tmp_path / "listed.json"
    dump.write_text(json.dumps({"tools": [{"name": "plan_trip", "inputSchema": schema}]}))
    p = inprocess.mcpgen("check", str(dump), "--target", "gemini", "-q")
    assert "GEMINI_REF" not in p.stdout, p.stdout
