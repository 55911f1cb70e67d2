"""Code mode's typed API (``mcpgen.codemode``), computed at build time: one async function per
tool with the typed client's names and parameters, JSON-shaped annotations, manifest strings only
through ``repr()``, byte-stable output."""

from __future__ import annotations

import ast

from mcpgen.client.ir import RESERVED_METHODS
from mcpgen.codemode import _RESERVED, api_stub, compile_api, function_names
from mcpgen.naming import assign_tool_names

DEFINITIONS = [
    {
        "name": "get-weather",
        "description": 'Weather now.\n"""\nimport os  # not code',
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "units": {"enum": ["c", "f"], "default": "c"},
                "self": {"type": "integer"},
                "where": {"type": "object", "properties": {"lat": {"type": "number"}}},
                "tags": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["city"],
        },
        "outputSchema": {"type": "object", "properties": {"temp": {"type": "number"}}},
    },
    {"name": "print", "inputSchema": {"type": "object"}},
    {"name": "list", "inputSchema": {"type": "object", "properties": {}}},
]


def test_stub_is_python_with_one_async_function_per_tool() -> None:
    stub = api_stub(DEFINITIONS)
    tree = ast.parse(stub)
    functions = [n for n in tree.body if isinstance(n, ast.AsyncFunctionDef)]
    assert [f.name for f in functions] == ["get_weather", "print_2", "list_2"]
    weather = functions[0]
    assert ast.get_docstring(weather) == DEFINITIONS[0]["description"]
    assert weather.args.args == [] and weather.args.vararg is None  # keyword-only
    assert [a.arg for a in weather.args.kwonlyargs] == ["city", "units", "self_", "where", "tags"]
    assert "async def get_weather(*, city: str, units: Literal['c', 'f'] | None = 'c', " in stub
    assert (
        "where: dict[str, Any] | None = None, tags: list[str] | None = None) -> dict[str, Any]:"
        in stub
    )


def test_stub_is_byte_stable() -> None:
    assert api_stub(DEFINITIONS) == api_stub([dict(d) for d in DEFINITIONS])


def test_table_maps_functions_to_tools_and_parameters_to_properties() -> None:
    table = compile_api(DEFINITIONS).table["functions"]
    assert table["get_weather"]["tool"] == "get-weather"
    assert table["get_weather"]["params"]["self_"] == "self"
    assert table["print_2"] == {"tool": "print", "params": {}}
    assert function_names(DEFINITIONS) == {
        "get_weather": "get-weather",
        "print_2": "print",
        "list_2": "list",
    }


def test_function_names_are_the_typed_clients_unless_a_builtin() -> None:
    names = [f"tool-{i}" for i in range(5)] + ["get_user", "get user", "sync"]
    client = [n.method_name for n in assign_tool_names(names, reserved=RESERVED_METHODS)]
    ours = list(function_names([{"name": n} for n in names]))
    assert ours == client
    assert RESERVED_METHODS <= _RESERVED


def test_parameters_from_the_servers_models_run_give_the_same_api() -> None:
    from mcpgen.parameters import tool_models

    names = assign_tool_names([d["name"] for d in DEFINITIONS])
    run = tool_models(
        [(n.class_stem, d["inputSchema"], None) for n, d in zip(names, DEFINITIONS, strict=True)]
    )
    params = {n.tool_name: run.info.methods[n.input_model] for n in names}
    assert compile_api(DEFINITIONS, params=params) == compile_api(DEFINITIONS)
