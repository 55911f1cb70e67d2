"""``server.models: typeddict``: handlers get the validated JSON as a ``TypedDict``-typed dict,
and a tool call imports no pydantic.

The manifest option is checked (file:line:col), the package holds ``TypedDict``s and binds no
model, it type-checks with ``mypy --strict``, and a generated server answers as the pydantic
one does: a differential on the first calls of fresh processes, on the lean engine and on the
SDK's, for valid, invalid and over-the-schema calls."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.inprocess import mcpgen
from tests.mypy_cache import strict_args
from tests.server.helpers import render_package, stdio_answers, write_package

MANIFEST = """\
server:
  name: calc
  models: {models}
tools:
  - name: add
    description: Add two integers.
    inputSchema:
      type: object
      properties:
        a: {{type: integer}}
        b: {{type: integer, default: 1}}
      required: [a]
    outputSchema:
      type: object
      properties:
        sum: {{type: integer}}
      required: [sum]
  - name: keys
    description: The names of the arguments it was sent.
    inputSchema:
      type: object
      properties:
        first-name: {{type: string}}
        class: {{type: integer}}
        where: {{$ref: "#/$defs/Place"}}
      required: [first-name]
      $defs:
        Place:
          type: object
          properties:
            city: {{type: string, minLength: 1}}
          required: [city]
    outputSchema:
      type: object
      properties:
        names: {{type: array, items: {{type: string}}}}
        pydantic: {{type: boolean}}
        gc: {{type: boolean}}
      required: [names, pydantic, gc]
      additionalProperties: false
  - name: broken
    description: Returns a sum that is not an integer.
    inputSchema: {{type: object}}
    outputSchema:
      type: object
      properties:
        sum: {{type: integer}}
      required: [sum]
"""

HANDLERS = {
    "typeddict": """\
from __future__ import annotations

import gc
import sys
from typing import Any

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated.models import AddInput, AddOutput, BrokenInput, KeysInput, KeysOutput


class Handlers(ToolsBase):
    async def add(self, args: AddInput, ctx: ToolContext) -> AddOutput:
        return {"sum": args["a"] + args.get("b", 1)}

    async def keys(self, args: KeysInput, ctx: ToolContext) -> KeysOutput:
        return {
            "names": sorted(args),
            "pydantic": "pydantic" in sys.modules,
            "gc": gc.isenabled(),
        }

    async def broken(self, args: BrokenInput, ctx: ToolContext) -> Any:
        return {"sum": "many"}
""",
    "pydantic": """\
from __future__ import annotations

from typing import Any

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated.models import AddInput, AddOutput, KeysInput, KeysOutput


class Handlers(ToolsBase):
    async def add(self, args: AddInput, ctx: ToolContext) -> AddOutput:
        return AddOutput(sum=args.a + (args.b if args.b is not None else 1))

    async def keys(self, args: KeysInput, ctx: ToolContext) -> KeysOutput:
        names = sorted(args.model_dump(by_alias=True, exclude_unset=True))
        return KeysOutput(names=names, pydantic=True, gc=True)

    async def broken(self, args: Any, ctx: ToolContext) -> Any:
        return {"sum": "many"}
""",
}


def _manifest(tmp: Path, models: str, extra: str = "") -> Path:
    path = tmp / f"calc_{models}.yaml"
    path.write_text(MANIFEST.format(models=models) + extra, encoding="utf-8")
    return path


# -- the manifest option ---------------------------------------------------------------------


def test_an_unknown_models_value_is_one_finding_at_its_place(tmp_path: Path) -> None:
    path = _manifest(tmp_path, "dataclasses")
    proc = mcpgen("check", path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"{path}:3:" in proc.stdout + proc.stderr
    assert "models" in proc.stdout + proc.stderr


def test_a_typeddict_template_gets_its_variables_checked_by_their_schema(tmp_path: Path) -> None:
    """A resource template of a typeddict package binds no model: its variables' JSON Schema
    travels in the binding, jsonschema-rs checks it (``-32602`` naming the place), and the
    handler gets the variables as a dict."""
    extra = """\
resourceTemplates:
  - uriTemplate: "calc://double/{n}"
    name: double
    variables:
      n: {type: string, pattern: "^[0-9]+$"}
"""
    files = render_package(_manifest(tmp_path, "typeddict", extra), "calc_server")
    server = str(files.owned["server.py"])
    assert "params_model=None," in server and "params_schema=" in server
    assert "from . import models" not in server
    assert "class ReadDoubleInput(TypedDict):" in str(files.owned["models.py"])

    from mcpgen_runtime.server.errors import RequestError
    from mcpgen_runtime.server.resources import TemplateBinding, checked_variables

    namespace: dict[str, Any] = {"TemplateBinding": TemplateBinding}
    start = server.index("TemplateBinding(\n")
    binding = eval(server[start : server.index("\n    ),\n", start) + 6], namespace)  # noqa: S307
    assert checked_variables(binding, {"n": "21"}, "bad") == {"n": "21"}
    try:
        checked_variables(binding, {"n": "x1"}, "Invalid URI")
    except RequestError as exc:
        assert exc.code == -32602 and "Invalid URI" in exc.message and "/n" in exc.message
    else:
        raise AssertionError("a variable the schema refuses was accepted")


# -- the package -----------------------------------------------------------------------------


def test_the_package_holds_typeddicts_and_binds_no_model(tmp_path: Path) -> None:
    files = render_package(_manifest(tmp_path, "typeddict"), "calc_server")
    models = str(files.owned["models.py"])
    server = str(files.owned["server.py"])
    assert "class AddInput(TypedDict):" in models
    assert '"first-name": str' in models and '"class": NotRequired[int]' in models
    assert "class KeysInputPlace(TypedDict):" in models
    assert "class KeysOutput(TypedDict, closed=True):" in models
    assert "import pydantic" not in models and "from pydantic" not in models
    assert "OpenModel" not in models and "BaseModel" not in models
    assert server.count("input_model=None,") == 3
    assert "output_model" not in server
    assert "from . import models" not in server
    assert "server.models: typeddict" in str(files.owned["base.py"])
    again = render_package(_manifest(tmp_path, "typeddict"), "calc_server")
    assert again.owned == files.owned


@pytest.mark.slow
def test_a_typeddict_package_passes_mypy_strict(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    write_package(_manifest(tmp_path, "typeddict"), tmp_path, "calc_td", HANDLERS["typeddict"])
    proc = subprocess.run(
        [sys.executable, *strict_args(tmp_path_factory, tmp_path), "-p", "calc_td"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


# -- the server, both modes, both engines ------------------------------------------------------

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("add", {"a": 2, "b": 40}),  # the first call of the process
    ("add", {"a": 2}),
    ("add", {"a": "2"}),
    ("add", {"b": 3}),
    ("add", {"a": 1, "extra": [1, 2]}),
    ("keys", {"first-name": "Ada", "where": {"city": ""}}),
    ("broken", {}),
]


def _session(
    pkg_dir: Path, package: str, engine: str, calls: list[tuple[str, dict[str, Any]]] = CALLS
) -> list[dict[str, Any]]:
    """The answers of one fresh process on stdio to every call of ``calls``."""
    requests = [("tools/call", {"name": name, "arguments": args}) for name, args in calls]
    return stdio_answers(pkg_dir, package, engine, requests)


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for models in ("typeddict", "pydantic"):
        root = tmp_path_factory.mktemp(models)
        write_package(_manifest(root, models), root, f"calc_{models}", HANDLERS[models])
        out[models] = root
    return out


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_typeddict_answers_as_pydantic_does(packages: dict[str, Path], engine: str) -> None:
    typed = _session(packages["typeddict"], "calc_typeddict", engine)
    model = _session(packages["pydantic"], "calc_pydantic", engine)
    for (name, args), t, m in zip(CALLS, typed, model, strict=True):
        if name == "keys":
            continue  # what the handler sees differs by design (the next test)
        assert t == m, (name, args)  # answers, refusals (the same words) and the output check
    assert typed[0]["result"]["structuredContent"] == {"sum": 42}
    assert typed[1]["result"]["structuredContent"] == {"sum": 3}  # the handler's own default
    assert typed[2]["result"]["isError"] is True and typed[3]["result"]["isError"] is True
    assert "does not match its outputSchema" in typed[-1]["result"]["content"][0]["text"]


def test_the_handler_gets_the_json_as_sent_and_no_pydantic_is_imported(
    packages: dict[str, Path],
) -> None:
    """The first call of a lean typeddict server: the handler sees the JSON names and an extra
    property, and nothing in the process has imported pydantic by then. The schema still
    decides: a nested value it refuses is refused, naming the place."""
    calls = [
        ("keys", {"first-name": "Ada", "class": 3, "more": True}),
        ("keys", {"first-name": "Ada", "where": {"city": ""}}),
    ]
    first, refused = _session(packages["typeddict"], "calc_typeddict", "lean", calls)
    assert first["result"]["structuredContent"] == {
        "names": ["class", "first-name", "more"],
        "pydantic": False,
        "gc": True,  # the fast boot turns the collector off while it builds, and back on
    }, first
    assert refused["result"]["isError"] is True
    assert "/where/city" in refused["result"]["content"][0]["text"]


@pytest.mark.parametrize(
    ("models", "line", "expected"),
    [
        (
            "typeddict",
            '        return {"sum": args.a}\n',
            "`args.a` in add: with server.models: typeddict",
        ),
        (
            "pydantic",
            '        return AddOutput(sum=args["a"])\n',
            "`args['a']` in add: with server.models: pydantic",
        ),
    ],
)
def test_handlers_that_read_arguments_the_other_way_get_a_warning_at_the_place(
    tmp_path: Path, models: str, line: str, expected: str
) -> None:
    """Switching ``server.models`` leaves ``handlers.py`` as it was (it is the user's):
    ``mcpgen server`` points at each tool method that still reads its arguments the old way."""
    manifest = _manifest(tmp_path, models)
    out = tmp_path / "out"
    first = mcpgen("server", manifest, "--out", out, "--package", "calc_server")
    assert first.returncode == 0, first.stderr
    handlers = out / "calc_server" / "handlers.py"
    source = handlers.read_text(encoding="utf-8")
    head = (
        "from ._generated.models import AddInput, AddOutput\n" if "AddOutput" not in source else ""
    )
    method = "    async def add(self, args: AddInput, ctx: ToolContext) -> AddOutput:\n"
    assert method in source
    start = source.index(method) + len(method)
    end = source.index("\n\n", start)
    handlers.write_text(head + source[:start] + line + source[end + 1 :], encoding="utf-8")
    row = (head + source[:start]).count("\n") + 1
    again = mcpgen("server", manifest, "--out", out, "--package", "calc_server")
    assert again.returncode == 0, again.stderr
    assert f"handlers.py:{row}:" in again.stderr and expected in again.stderr, again.stderr
