"""The schema decides (issue 36, item 6): for every tool of every golden manifest
(``tests/regen_golden.py``), Hypothesis draws instances of its inputSchema and checks that the
generated models and jsonschema-rs agree, on the server side and in the typed client.

* Valid instances (``hypothesis_jsonschema.from_schema``): jsonschema-rs accepts them, as the
  runtime builds it (``SchemaCheck``); the server's check of a call (jsonschema-rs, then the
  input model: ``ToolsRuntime._checked_arguments``) accepts them; the typed client's
  ``ClientTool.arguments`` accepts them and sends arguments jsonschema-rs accepts. A model may
  accept more than its schema, never less.
* Invalid instances (mutations of valid ones, and instances of the schema with its constraints
  removed, kept when jsonschema-rs refuses them): the server's check refuses them and the
  typed client raises ``ArgumentsError`` (nothing is sent). Where the input model alone accepts
  one, the reasons allowed are named: the keywords a model leaves to the schema
  (``mcpgen.modelview.LEFT_TO_THE_SCHEMA``: with those removed the instance must be valid), a
  ``null`` on a property the schema lets be absent (an optional field is ``X | None``: with
  its null properties removed the instance must be valid), and the tools of ``MODEL_WIDER``.

The golden packages are loaded from ``tests/golden`` under a private parent package (their
names are not claimed in ``sys.modules``) and without writing ``__pycache__`` into the tree.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import re
import sys
import types
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from pydantic import BaseModel, ValidationError

from mcpgen.modelview import model_view
from mcpgen_runtime import ClientTool
from mcpgen_runtime.client.errors import ArgumentsError
from mcpgen_runtime.schemawalk import walk
from mcpgen_runtime.server.bindings import CompiledTool
from mcpgen_runtime.server.tools import ToolsRuntime
from mcpgen_runtime.server.validation import SchemaCheck
from tests.regen_golden import CASES, GOLDEN, package

EXAMPLES = 25
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

UNSUPPORTED: dict[str, str] = {}
"""``case/tool`` -> why hypothesis-jsonschema cannot draw its instances (skipped, by name)."""

MODEL_WIDER: dict[str, str] = {
    "conformance/json_schema_2020_12_tool": "which properties are required is said by allOf/anyOf"
    " of `required` and if/then/else; the model states no required property",
}
"""``case/tool`` -> why its input model alone accepts instances the schema refuses, beyond the
named reasons (jsonschema-rs refuses them first, on the server and in the client)."""

_PARENT = "_mcpgen_golden_agreement"


@dataclass(frozen=True, eq=False)
class Tool:
    case: str
    name: str
    definition: dict[str, Any]
    dialect: str
    server: CompiledTool
    client: ClientTool
    client_model: type[BaseModel]

    @property
    def id(self) -> str:
        return f"{self.case}/{self.name}"

    @property
    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = self.definition["inputSchema"]
        return schema

    @property
    def server_model(self) -> type[BaseModel] | None:
        """The handler's input model; None for a ``server.models: typeddict`` package, whose
        handlers get the arguments as jsonschema-rs accepted them."""
        model: type[BaseModel] | None = self.server.binding.input_model
        return model


def _load(name: str, kind: str, case: str) -> str:
    """Golden package ``name`` imported as ``_PARENT.name``; returns that module name."""
    if _PARENT not in sys.modules:
        parent = types.ModuleType(_PARENT)
        parent.__path__ = []
        sys.modules[_PARENT] = parent
    qualified = f"{_PARENT}.{name}"
    if qualified not in sys.modules:
        path = GOLDEN / case / kind / name
        spec = importlib.util.spec_from_file_location(
            qualified, path / "__init__.py", submodule_search_locations=[str(path)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[qualified] = module
        spec.loader.exec_module(module)
    return qualified


def _no_call(*_: object) -> None:
    raise AssertionError("no handler runs in these tests")


def _golden_tools() -> list[Tool]:
    found: list[Tool] = []
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        for case in CASES:
            server = _load(package(case, "server"), "server", case.name)
            client = _load(package(case, "client"), "client", case.name)
            bindings = importlib.import_module(f"{server}._generated.server").BINDINGS
            client_tools = importlib.import_module(f"{client}._generated.tools").TOOLS
            client_models = importlib.import_module(f"{client}._generated.models")
            source = GOLDEN / case.name / "client" / package(case, "client") / "_generated"
            calls = re.findall(
                r"_TOOLS\[(\d+)\],\s*_m\.(\w+)", (source / "client.py").read_text("utf-8")
            )
            model_of = {int(i): getattr(client_models, m) for i, m in calls}
            assert len(bindings) == len(client_tools) == len(model_of), case.name
            for i, binding in enumerate(bindings):
                definition = json.loads(binding.definition_json)
                assert client_tools[i].definition == definition, (case.name, i)
                found.append(
                    Tool(
                        case.name,
                        definition["name"],
                        definition,
                        binding.input_dialect,
                        CompiledTool(definition, binding, _no_call),
                        client_tools[i],
                        model_of[i],
                    )
                )
    finally:
        sys.dont_write_bytecode = writes
    return found


TOOLS = _golden_tools()
PARAMS = [
    pytest.param(
        t,
        id=t.id,
        marks=[pytest.mark.skip(reason=UNSUPPORTED[t.id])] if t.id in UNSUPPORTED else [],
    )
    for t in TOOLS
]
INVALID_PARAMS = PARAMS


def test_every_golden_tool_is_drawn() -> None:
    """The skipped tools are named, few, and still exist."""
    ids = {t.id for t in TOOLS}
    assert set(UNSUPPORTED) <= ids, sorted(set(UNSUPPORTED) - ids)
    assert len(UNSUPPORTED) <= 3, sorted(UNSUPPORTED)
    assert len(TOOLS) >= 50, len(TOOLS)  # the five golden manifests hold 60 tools


@cache
def _check(tool: Tool) -> SchemaCheck:
    return SchemaCheck(tool.schema, tool.dialect)


@cache
def _deferred_check(tool: Tool) -> SchemaCheck:
    """The schema without the keywords a model leaves to it (what the models come from)."""
    return SchemaCheck(model_view(tool.schema), tool.dialect)


def _show(instance: Any) -> str:
    text = json.dumps(instance, ensure_ascii=True, default=repr)
    return text if len(text) <= 600 else text[:597] + "..."


def _without_nulls(value: Any) -> Any:
    """``value`` without the object properties whose value is null, at every depth."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _server(tool: Tool, instance: Any) -> tuple[Any, dict[str, Any] | None]:
    """The runtime's check of a call's arguments: ``(what the handler gets, None)`` or
    ``(None, the tool error)``."""
    return ToolsRuntime._checked_arguments(tool.server, copy.deepcopy(instance), None)


def _error_text(result: dict[str, Any]) -> str:
    return " ".join(str(c.get("text", "")) for c in result.get("content", []))


# -- valid instances -------------------------------------------------------------------------


@pytest.mark.parametrize("tool", PARAMS)
def test_valid_instances_pass_everywhere(tool: Tool) -> None:
    check = _check(tool)

    @SETTINGS
    @given(from_schema(tool.schema))
    def agree(instance: Any) -> None:
        where = f"{tool.id}: valid instance {_show(instance)}"
        problems = check.problems(instance)
        assert not problems, f"{where}: jsonschema-rs refuses it: {problems}"
        served, refused = _server(tool, instance)
        assert refused is None, (
            f"{where}: the server refuses what the schema accepts: {_error_text(refused)}"
        )
        model = tool.server_model
        assert isinstance(served, model) if model is not None else served == instance, (
            f"{where}: the server gave {served!r}"
        )
        try:
            sent = tool.client.arguments(tool.client_model, copy.deepcopy(instance))
        except ArgumentsError as exc:
            pytest.fail(f"{where}: the typed client refuses what the schema accepts: {exc}")
        problems = check.problems(sent)
        assert not problems, f"{where}: the typed client sends {_show(sent)}: {problems}"

    agree()


# -- invalid instances -----------------------------------------------------------------------

_LOOSENED = (
    "type", "enum", "const", "required", "additionalProperties", "unevaluatedProperties",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
    "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems", "minProperties",
    "maxProperties", "not", "propertyNames", "dependentRequired", "dependencies", "contains",
    "if", "then", "else", "additionalItems", "unevaluatedItems",
)  # fmt: skip
_OF_TYPE = {
    "null": None, "boolean": True, "integer": 7, "number": 0.5, "string": "x",
    "array": [1], "object": {"k": 1},
}  # fmt: skip


def _loosened(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` shaped as written (properties, items, $defs) but without its constraints."""
    loose: dict[str, Any] = copy.deepcopy(schema)
    for node in walk(loose):
        sub = node.schema
        for keyword in _LOOSENED:
            sub.pop(keyword, None)
        if "oneOf" in sub:  # branches loosened alike would exclude each other
            sub["anyOf"] = sub.pop("oneOf")
    return loose


def _other_type(prop: Any) -> st.SearchStrategy[Any]:
    """A value of a JSON type ``prop`` does not name (any value when it names none)."""
    named = prop.get("type") if isinstance(prop, dict) else None
    if isinstance(named, str):
        named = [named]
    if not isinstance(named, list):
        return st.sampled_from(list(_OF_TYPE.values()))
    if "number" in named:
        named = [*named, "integer"]
    others = [v for k, v in _OF_TYPE.items() if k not in named]
    return st.sampled_from(others) if others else st.just(None)


@st.composite
def _mutated(draw: st.DrawFn, tool: Tool, valid: st.SearchStrategy[Any]) -> Any:
    """A valid instance with one thing broken (often invalid; the test keeps those that are)."""
    instance = draw(valid)
    schema = tool.schema
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = list(schema.get("required", []))
    kinds = ["not an object", "extra property"]
    kinds += ["missing required"] if required else []
    kinds += ["wrong type"] if props and isinstance(instance, dict) else []
    kind = draw(st.sampled_from(kinds))
    if kind == "not an object" or not isinstance(instance, dict):
        return draw(st.sampled_from([None, True, 3, 2.5, "text", [], [instance]]))
    if kind == "missing required":
        instance.pop(draw(st.sampled_from(required)), None)
    elif kind == "wrong type":
        name = draw(st.sampled_from(sorted(props)))
        instance[name] = draw(_other_type(props[name]))
    else:
        instance[draw(st.sampled_from(["zz_undeclared", "", "__proto__"]))] = 1
    return instance


@pytest.mark.parametrize("tool", INVALID_PARAMS)
def test_invalid_instances_are_refused(tool: Tool) -> None:
    check, deferred = _check(tool), _deferred_check(tool)
    valid = from_schema(tool.schema)
    broader = st.one_of(_mutated(tool, valid), from_schema(_loosened(tool.schema)))

    @SETTINGS
    @given(broader)
    def refused(instance: Any) -> None:
        problems = check.problems(instance)
        assume(problems)
        where = f"{tool.id}: invalid instance {_show(instance)} ({problems[0]})"
        served, refusal = _server(tool, instance)
        assert refusal is not None and refusal.get("isError") is True, (
            f"{where}: the server accepts it as {served!r}"
        )
        try:
            sent = tool.client.arguments(tool.client_model, copy.deepcopy(instance))
        except ArgumentsError:
            pass
        else:
            pytest.fail(f"{where}: the typed client would send {_show(sent)}")
        for side, model in (("server", tool.server_model), ("client", tool.client_model)):
            if model is None:  # typeddict: nothing but jsonschema-rs decides (above)
                continue
            try:
                converted = model.model_validate(copy.deepcopy(instance))
            except ValidationError:
                continue
            if tool.id in MODEL_WIDER or not deferred.problems(instance):
                continue
            # pydantic's lax mode converts (False -> 0.0 for a number): harmless, since both
            # sides check the raw arguments with jsonschema-rs first (asserted above), as long
            # as what the model makes of it is something the schema accepts (nulls aside, as
            # below: an optional field's None)
            dumped = converted.model_dump(mode="json", by_alias=True, exclude_unset=True)
            if not deferred.problems(_without_nulls(dumped)):
                continue
            left = deferred.problems(_without_nulls(instance))
            assert not left, (
                f"{where}: the {side} model {model.__name__} accepts it, and not only for a "
                f"keyword left to the schema (format, pattern, patternProperties) or a null "
                f"on a property that may be absent: {left}"
            )

    refused()


@pytest.mark.parametrize("given", [{"duration": False}, {"duration": "5"}], ids=["bool", "str"])
def test_typed_client_sends_what_it_was_given(given: dict[str, Any]) -> None:
    """The example Hypothesis found, without Hypothesis: the server refuses it, and so does
    the typed client (it converted it to 0.0 / 5.0 and sent it: the caller's values are now
    checked against the schema before the model converts them)."""
    (tool,) = (t for t in TOOLS if t.id == "everything/trigger-long-running-operation")
    assert _check(tool).problems(given)
    assert _server(tool, given)[1] is not None  # the server refuses it: a tool error
    try:
        sent = tool.client.arguments(tool.client_model, given)
    except ArgumentsError:
        return
    pytest.fail(f"{tool.id}: given {_show(given)}, the typed client sends {_show(sent)}")
