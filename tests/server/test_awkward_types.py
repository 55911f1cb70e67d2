"""Tool schemas whose types datamodel-code-generator has trouble naming (issue 36, bad input).

Each case is one tool whose ``inputSchema`` (and ``outputSchema``) is awkward for dcg: property
or ``$defs`` names made of symbols, Python keywords, digits, builtins, the names the generated
module imports (``Field``, ``OpenModel``, ...), unicode; ``{}`` and ``true`` properties; a type
list; recursion; mixed-type ``enum``/``const``. ``mcpgen server`` either generates a package
that imports and builds its server, serves the schema as written and lets a schema-valid call
reach the handler, or refuses the manifest with one located error (exit 1 for check's findings,
2 otherwise): never a traceback or exit 3.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests import inprocess
from tests.server.helpers import RawClient, imported


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741

# name -> (inputSchema, schema-valid arguments the generated server must pass to the handler)
GENERATED: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    "symbol_names": (
        _obj(**{"@#$%": S, "!": I, "-": {"type": "boolean"}}),
        [{"@#$%": "x", "!": 1, "-": True}],
    ),
    "keyword_defs": (
        {
            **_obj(a={"$ref": "#/$defs/class"}, b={"$ref": "#/$defs/None"}),
            "$defs": {"class": _obj(x=S), "None": S},
        },
        [{"a": {"x": "y"}, "b": "s"}],
    ),
    "digit_defs": (
        {
            **_obj(a={"$ref": "#/$defs/1st"}, b={"$ref": "#/$defs/123"}),
            "$defs": {"1st": _obj(x=S), "123": I},
        },
        [{"a": {"x": "y"}, "b": 5}],
    ),
    "symbol_and_empty_defs": (
        {
            **_obj(a={"$ref": "#/$defs/@@"}, b={"$ref": "#/$defs/"}),
            "$defs": {"@@": _obj(x=S), "": _obj(y=I)},
        },
        [{"a": {"x": "b"}, "b": {"y": 1}}],
    ),
    "defs_named_like_imports": (
        {
            **_obj(
                a={"$ref": "#/$defs/Field"},
                b={"$ref": "#/$defs/OpenModel"},
                c={"$ref": "#/$defs/Annotated"},
                d={"$ref": "#/$defs/Literal"},
                e={"enum": ["x", "y"]},
            ),
            "$defs": {
                "Field": _obj(x=S),
                "OpenModel": _obj(y=I),
                "Annotated": {"type": "string", "enum": ["p", "q"]},
                "Literal": _obj(z=S),
            },
        },
        [{"a": {"x": "s"}, "b": {"y": 1}, "c": "p", "d": {"z": "z"}, "e": "y"}],
    ),
    "def_named_like_the_model": (
        {
            **_obj(a={"$ref": "#/$defs/TDefNamedLikeTheModelInput"}),
            "$defs": {"TDefNamedLikeTheModelInput": _obj(x=S)},
        },
        [{"a": {"x": "s"}}],
    ),
    "properties_named_like_types": (
        _obj(
            Field={"type": "string", "default": "a"},
            Annotated={"type": "integer", "default": 1},
            Literal={"enum": ["a", "b"]},
            str=S,
            int=I,
            None_=S,
            **{"None": S, "class": S, "def": I, "model_config": S, "self": S, "_p": S, "__d__": S},
        ),
        [
            {"Field": "b", "Annotated": 2, "Literal": "a", "str": "s", "int": 1, "None": "n"},
            {"class": "a", "def": 1, "model_config": "m", "self": "s", "_p": "p", "__d__": "d"},
        ],
    ),
    "names_that_normalise_alike": (
        _obj(**{"a-b": S, "a_b": I, "a b": {"type": "boolean"}, "A_B": {"type": "number"}}),
        [{"a-b": "s", "a_b": 1, "a b": False, "A_B": 1.5}],
    ),
    "empty_and_true_properties": (
        {**_obj(anything={}, t=True), "required": ["anything"]},
        [{"anything": None}, {"anything": [1, {"a": "b"}]}, {"anything": 1, "t": "x"}],
    ),
    "type_list": (
        _obj(
            v={"type": ["string", "integer", "object"]},
            w={"type": ["null", "array"], "items": S},
        ),
        [{"v": "s"}, {"v": 3}, {"v": {"k": [1]}}, {"w": None}, {"w": ["a"]}],
    ),
    "recursive_defs": (
        {
            **_obj(tree={"$ref": "#/$defs/Node"}),
            "$defs": {
                "Node": _obj(value=I, children={"type": "array", "items": {"$ref": "#/$defs/Node"}})
            },
        },
        [{"tree": {"value": 1, "children": [{"value": 2, "children": []}]}}],
    ),
    "mixed_enum_and_const": (
        _obj(
            e={"enum": [1, "one", True, None, 1.5]},
            c={"const": {"a": 1}},
            n={"const": None},
            e2={"enum": [[1], {"x": 1}]},
            b={"enum": [0, 1, False, True]},
        ),
        [
            {"e": True},
            {"e": None},
            {"e": 1.5},
            {"c": {"a": 1}},
            {"n": None},
            {"e2": [1]},
            {"e2": {"x": 1}},
            {"b": False},
            {"b": 1},
        ],
    ),
    "titles_that_are_builtins": (
        {
            **_obj(
                l={"title": "list", **_obj(x=S)},
                d={"title": "dict", **_obj(y=I)},
                s={"title": "str", "type": "string"},
                m={"title": "BaseModel", **_obj(z=S)},
            ),
            "title": "list",
        },
        [{"l": {"x": "a"}, "d": {"y": 1}, "s": "s", "m": {"z": "z"}}],
    ),
    "unicode_names": (
        {
            # a $ref is a URI reference: what is not ASCII is percent-encoded (unencoded: REFUSED)
            **_obj(**{"天气": S, "é": {"$ref": "#/$defs/%C3%9Cn%C3%AFcode"}, "ß": I}),
            "$defs": {"Ünïcode": _obj(ö=S)},
        },
        [{"天气": "s", "é": {"ö": "x"}, "ß": 1}],
    ),
    "enum_values_that_are_not_names": (
        _obj(e={"type": "string", "enum": ["", " ", "-", "1", "class", "None", "é", "a" * 300]}),
        [{"e": ""}, {"e": "class"}, {"e": "a" * 300}],
    ),
    "prefix_items": (
        _obj(t={"type": "array", "prefixItems": [S, I], "items": False}),
        [{"t": ["a", 1]}],
    ),
}

# name -> (inputSchema, exit code, what the one error line says)
REFUSED: dict[str, tuple[dict[str, Any], int, str]] = {
    "ref_to_nowhere": (_obj(a={"$ref": "#/$defs/Nope"}), 2, "points nowhere"),
    # a $ref cycle inside the schema's own $defs with nothing in between: it generated, and then
    # jsonschema-rs accepted any value and the model refused every one (pydantic recursion_loop)
    "local_ref_cycle": (
        {
            **_obj(a={"$ref": "#/$defs/A"}),
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        },
        2,
        "$ref cycle with no schema in between (A -> B -> A)",
    ),
    # through a combinator it is the same instance, so the same endless loop
    "local_ref_cycle_anyof": (
        {**_obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, S]}}},
        2,
        "$ref cycle with no schema in between (A -> A)",
    ),
    # generated and then failed every call ("schema cannot be compiled") until check compiled
    # each schema with jsonschema-rs as the runtime does
    "unencoded_unicode_ref": (
        {**_obj(a={"$ref": "#/$defs/Ünïcode"}), "$defs": {"Ünïcode": _obj(ö=S)}},
        1,
        "error SCHEMA_VALID inputSchema cannot be compiled by jsonschema-rs",
    ),
}


def _tool_name(case: str) -> str:
    return "t_" + case


def _mcpgen(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return inprocess.mcpgen(*args, cwd=cwd)


def _write(tmp_path: Path, case: str, schema: dict[str, Any], output: bool = True) -> None:
    tool = {"name": _tool_name(case), "description": "An awkward schema.", "inputSchema": schema}
    if output:
        tool["outputSchema"] = schema
    doc = {"server": {"name": "awkward", "version": "1.0.0"}, "tools": [tool]}
    (tmp_path / "tools.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")


def _assert_no_crash(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1, 2), done.stdout + done.stderr


@pytest.mark.parametrize("case", sorted(GENERATED))
def test_awkward_schema_generates_a_server_that_serves_it(tmp_path: Path, case: str) -> None:
    schema, valid = GENERATED[case]
    _write(tmp_path, case, schema)
    package = f"awkward_{case}"
    done = _mcpgen("server", "tools.json", "--out", "out", "--package", package, cwd=tmp_path)
    _assert_no_crash(done)
    assert done.returncode == 0, done.stderr
    with imported(tmp_path / "out", package) as handlers:
        gen = __import__(f"{package}._generated", fromlist=["create_server"])
        server = gen.create_server(handlers.Handlers())

        async def go() -> tuple[dict[str, Any], list[dict[str, Any]]]:
            async with RawClient(server, "2026-07-28") as c:
                listed = await c.request("tools/list", {})
                calls = [
                    await c.request(
                        "tools/call", {"name": _tool_name(case), "arguments": arguments}
                    )
                    for arguments in valid
                ]
                return listed, calls

        listed, calls = anyio.run(go)
    (served,) = listed["result"]["tools"]
    assert served["inputSchema"] == schema and served["outputSchema"] == schema
    for arguments, called in zip(valid, calls, strict=True):
        # the untouched handlers.py stub: a schema-valid call gets past the model to it
        text = called["result"]["content"][0]["text"]
        assert "is not implemented yet" in text, (arguments, text)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_awkward_schema_refused_with_one_located_error(tmp_path: Path, case: str) -> None:
    schema, code, says = REFUSED[case]
    _write(tmp_path, case, schema, output=False)
    done = _mcpgen("server", "tools.json", "--out", "out", "--package", "awkward", cwd=tmp_path)
    _assert_no_crash(done)
    # a manifest the generator refuses is an input error, exit 2, whichever rule fired (the
    # exit-code table, docs/reference/commands.md); `code` says how it is told: 2, one
    # `mcpgen: error: <file>:<line>:<col>: ...`; 1, one located check finding
    assert done.returncode == 2, done.stderr
    located = "mcpgen: error: tools.json:1:" if code == 2 else "tools.json:1:"
    errors = [line for line in done.stderr.splitlines() if line.startswith(located)]
    assert len(errors) == 1 and says in errors[0], done.stderr
    assert not (tmp_path / "out").exists()
