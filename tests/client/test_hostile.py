"""Hostile manifests: manifest strings reach generated client code only as data.

Hypothesis builds manifests whose tool names, descriptions, titles, property names, enum
values and defaults carry quotes, triple quotes, backslashes, newlines, keywords, names that
collide after mangling (``a-b``/``a_b``/``A B``), ``self`` and names of the client's own
attributes. The client package must parse, import, have one method per tool with unique
names, and never run the strings; one fixed hostile manifest also passes mypy --strict.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.client.helpers import imported, write_client
from tests.mypy_cache import strict_args
from tests.server.test_hostile import NASTY as SERVER_NASTY

NASTY = [
    *SERVER_NASTY,
    "stdio",
    "with_options",
    "selected_tools",
    "mcp",
    "sync",
    "a-b",
    "a_b",
    "A B",
    "_m",
    "_TOOLS",
    "_rt",
    "Literal",
    "ClassVar",
]
nasty_text = st.one_of(
    st.sampled_from(NASTY),
    st.lists(st.sampled_from(NASTY), min_size=1, max_size=3).map("".join),
    st.text(min_size=1, max_size=6),
)


@st.composite
def property_schema(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["string", "enum", "integer", "object", "array"]))
    schema: dict[str, Any] = {"description": draw(nasty_text)}
    if kind == "string":
        schema.update(type="string", default=draw(nasty_text))
    elif kind == "enum":
        values = draw(st.lists(nasty_text, min_size=1, max_size=3, unique=True))
        schema.update(type="string", enum=values, default=values[0])
    elif kind == "integer":
        schema.update(type="integer", default=draw(st.integers(-3, 3)))
    elif kind == "array":
        schema.update(type="array", items={"type": "string"})
    else:
        schema.update(type="object", properties={draw(nasty_text): {"type": "string"}})
    return schema


@st.composite
def manifest(draw: Any) -> dict[str, Any]:
    names = draw(st.lists(nasty_text, min_size=1, max_size=4, unique=True))
    tools = []
    for name in names:
        props = draw(st.dictionaries(nasty_text, property_schema(), max_size=3))
        required = [p for p in props if draw(st.booleans())]
        tool: dict[str, Any] = {
            "name": name,
            "description": draw(nasty_text),
            "inputSchema": {"type": "object", "properties": props, "required": required},
        }
        if draw(st.booleans()):
            tool["title"] = draw(nasty_text)
            tool["outputSchema"] = {
                "type": "object",
                "properties": {draw(nasty_text): {"type": "string"}},
            }
        tools.append(tool)
    return {"server": {"name": draw(nasty_text), "version": "1"}, "tools": tools}


def _generate(doc: dict[str, Any], work: Path) -> tuple[Path, str]:
    path = work / "hostile.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    package = "hostile_" + uuid.uuid4().hex[:8]
    return write_client(path, work, package), package


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(doc=manifest())
def test_hostile_manifest_compiles_and_injects_nothing(doc: dict[str, Any], tmp_path: Path) -> None:
    work = tmp_path / uuid.uuid4().hex
    work.mkdir()
    pkg, package = _generate(doc, work)
    trees = {
        py.name: ast.parse(py.read_text(encoding="utf-8"), str(py)) for py in pkg.rglob("*.py")
    }
    client_tree = trees["client.py"]
    # Only imports, the class and its methods: nothing else runs at import.
    assert all(
        isinstance(n, (ast.ImportFrom, ast.Import, ast.ClassDef, ast.Expr))
        for n in client_tree.body
    )
    cls = next(n for n in client_tree.body if isinstance(n, ast.ClassDef))
    methods = [n for n in cls.body if isinstance(n, ast.AsyncFunctionDef)]
    assert len(methods) == len(doc["tools"])
    for m in methods:
        # each body: the docstring and one return of a runtime call
        assert isinstance(m.body[0], ast.Expr) and isinstance(m.body[0].value, ast.Constant)
        assert len(m.body) == 2 and isinstance(m.body[1], ast.Return)
    with imported(work, package) as module:
        cls_obj = getattr(module, module.__all__[0])
        assert [t.name for t in cls_obj.MCPGEN_TOOLS] == [t["name"] for t in doc["tools"]]
        for tool, wanted in zip(cls_obj.MCPGEN_TOOLS, doc["tools"], strict=True):
            assert json.loads(tool.definition_json) == wanted  # the definitions are data, exact
        names = [m.name for m in methods]
        assert len(set(names)) == len(names)
        assert all(callable(getattr(cls_obj, n)) for n in names)
        for m, tool in zip(methods, doc["tools"], strict=True):
            doc_text = ast.get_docstring(m, clean=False) or ""
            assert repr(tool["name"]) in doc_text
    assert not (work / "PWNED").exists() and not Path("PWNED").exists()


FIXED = {
    "server": {"name": 'tool """ client', "version": "1"},
    "tools": [
        {
            "name": "self",
            "description": 'ends with a quote"',
            "inputSchema": {
                "type": "object",
                "properties": {
                    "self": {"type": "string"},
                    "class": {"type": "integer", "default": 2},
                    "with": {"type": "string", "enum": ["'", '"""', "\\"], "default": '"""'},
                    "items": {"type": "array", "items": {"type": "string"}, "default": ["x"]},
                },
                "required": ["self"],
            },
        },
        {"name": "a-b", "inputSchema": {"type": "object"}},
        {
            "name": "a_b",
            "inputSchema": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}},
        },
        {
            "name": "stdio",
            "title": "\\",
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object", "properties": {'a"b': {"type": "string"}}},
        },
    ],
}


def test_fixed_hostile_manifest_passes_mypy_strict(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    pkg, package = _generate(FIXED, tmp_path)
    proc = subprocess.run(
        [
            sys.executable,
            *strict_args(tmp_path_factory, tmp_path),
            "-p",
            package,
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with imported(tmp_path, package) as module:
        cls = getattr(module, module.__all__[0])
        assert cls.__name__ == "ToolClientClient" or cls.__name__.endswith("Client")
        import inspect

        sig = inspect.signature(cls.self_)
        assert list(sig.parameters) == ["self", "self_", "class_", "with_", "items"]
        assert sig.parameters["with_"].default == '"""'
        assert sig.parameters["items"].default is None  # a list default stays the model's
        assert {"a_b", "a_b_2", "stdio_2"} <= set(vars(cls))
        assert "stdio" not in vars(cls)  # the runtime classmethod is not shadowed
