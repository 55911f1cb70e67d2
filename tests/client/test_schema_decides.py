"""The JSON Schema decides what a tool takes, not the generated model (issue 36).

A server and a typed client generated from one manifest, the server run over stdio, the calls
made through the client and, bypassing its checks, through the SDK session underneath. Each
case failed before:

* ``patternProperties`` beside ``additionalProperties``: ``{"y": "str"}`` is valid, but the
  model was ``dict[Annotated[str, pattern "^x"], int]`` and refused it (server and client);
* ``format: date-time`` is an annotation, but the model was ``AwareDatetime`` ("Input should
  be a valid datetime") and handed handlers a ``datetime``;
* ``pattern: "^\\p{L}+$"``: ``check`` refused it ("is not a 'regex'": Python's ``re``), so
  nothing could be generated, although jsonschema-rs, the runtime's validator, enforces it
  (only in the inputSchema here: the official SDK's client checks every outputSchema with
  Python's ``re``, and refuses to call a tool whose outputSchema has such a pattern);
* an explicit ``None`` on a nested optional field whose schema has no ``null`` was sent as
  ``null`` and refused by the server after a round trip (``ToolCallError``), not before
  sending (``ArgumentsError``), as the README promises.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest

from mcpgen_runtime import ArgumentsError
from tests.client.helpers import imported, mcpgen, write_client
from tests.server.helpers import write_package

MANIFEST = r"""
server: {name: agree, version: 1.0.0}
tools:
  - name: echo
    description: Echo the arguments.
    inputSchema:
      type: object
      properties:
        tags:
          type: object
          patternProperties: {"^x": {type: integer}}
          additionalProperties: {type: string}
        when: {type: string, format: date-time}
        name: {type: string, pattern: "^\\p{L}+$"}
        place:
          type: object
          properties:
            city: {type: string}
            country: {type: string}
          required: [city]
    outputSchema:
      type: object
      properties:
        tags:
          type: object
          patternProperties: {"^x": {type: integer}}
          additionalProperties: {type: string}
        when: {type: string, format: date-time}
        when_type: {type: string}
        name: {type: string}
        place:
          type: object
          properties:
            city: {type: string}
            country: {type: string}
          required: [city]
"""
HANDLERS = """
from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated.models import EchoInput, EchoOutput


class Handlers(ToolsBase):
    async def echo(self, args: EchoInput, ctx: ToolContext) -> EchoOutput:
        echoed = args.model_dump(mode="json", exclude_unset=True)
        echoed["when_type"] = type(args.when).__name__
        return EchoOutput.model_validate(echoed)
"""


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, ModuleType]]:
    out = tmp_path_factory.mktemp("agree")
    manifest = out / "tools.yaml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    write_package(manifest, out, "agree_server", HANDLERS)
    write_client(manifest, out, "agree_client")
    with imported(out, "agree_client") as module:
        yield out, module


def test_check_accepts_what_jsonschema_rs_accepts(generated: tuple[Path, ModuleType]) -> None:
    out, _ = generated
    env = {k: v for k, v in os.environ.items() if k != "MCPGEN_DEBUG"}
    done = mcpgen("check", "tools.yaml", "--fail-on", "warning", cwd=out, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "regex" not in done.stdout


def test_the_models_leave_what_they_cannot_say_to_the_schema(
    generated: tuple[Path, ModuleType],
) -> None:
    out, _ = generated
    models = (out / "agree_server" / "_generated" / "models.py").read_text(encoding="utf-8")
    for say in ("tags: dict[str, Any]", "when: str", "name: str"):
        assert say in models
    for gone in ("datetime", "pattern", "AwareDatetime"):
        assert gone not in models


def _session(out: Path, module: ModuleType, body: Any) -> Any:
    env = {"PYTHONPATH": str(out), "PATH": os.environ.get("PATH", "")}

    async def go() -> Any:
        async with module.AgreeClient.stdio([sys.executable, "-m", "agree_server"], env=env) as c:
            return await body(c)

    return anyio.run(go)


def test_schema_valid_arguments_reach_the_handler_as_sent(
    generated: tuple[Path, ModuleType],
) -> None:
    out, module = generated
    models = module._generated.models
    place = models.EchoInputPlace(city="Zürich")

    async def body(c: Any) -> Any:
        return await c.echo(tags={"y": "str", "x1": 5}, when="not a date", name="été", place=place)

    result = _session(out, module, body)
    assert result.tags == {"y": "str", "x1": 5}
    assert result.when == "not a date" and result.when_type == "str"
    assert result.name == "été"
    assert result.place.model_dump(exclude_unset=True) == {"city": "Zürich"}  # unset: not sent


@pytest.mark.parametrize(
    ("arguments", "place"),
    [
        ({"tags": {"x1": "not an integer"}}, "/tags/x1"),
        ({"name": "abc1"}, "/name"),
        ({"place": {"city": "Paris", "country": None}}, "/place/country"),
    ],
)
def test_the_schema_refuses_before_sending_and_the_server_refuses_too(
    generated: tuple[Path, ModuleType], arguments: dict[str, Any], place: str
) -> None:
    out, module = generated
    models = module._generated.models
    typed = dict(arguments)
    if "place" in typed:
        typed["place"] = models.EchoInputPlace(**typed["place"])

    async def body(c: Any) -> Any:
        with pytest.raises(ArgumentsError) as refused:
            await c.echo(**typed)
        raw = await c.mcp.call_tool("echo", arguments)  # the server's own verdict
        return refused.value, raw

    refused, raw = _session(out, module, body)
    assert any(p.startswith(f"- {place}: ") for p in refused.problems), refused.problems
    assert raw.is_error and place in raw.content[0].text
