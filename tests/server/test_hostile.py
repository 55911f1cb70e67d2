"""Hostile manifests: manifest strings reach generated code only as data.

Hypothesis builds manifests whose names, descriptions, enum values, defaults and property
names carry quotes, triple quotes, backslashes, newlines, ``{{ }}``, ``__import__('os')``,
keywords and non-ASCII. The output must parse (``ast``), import, serve the strings back
exactly, and never execute them. Example count is modest: each example runs the generator.
"""

from __future__ import annotations

import ast
import json
import uuid
from pathlib import Path
from typing import Any

import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.helpers import RawClient, imported, write_package

NASTY = [
    "'",
    '"',
    "'''",
    '"""',
    "\\",
    "\\n",
    "\n",
    "\r\n",
    "{{ x }}",
    "{% if %}",
    "__import__('os').system('touch PWNED')",
    "class",
    "def",
    "None",
    "self",
    "model_config",
    "__init__",
    "é",
    "天气",
    "\u2028",
    "\x00",
    "#",
    "'); import os; ('",
]
nasty_text = st.one_of(
    st.sampled_from(NASTY),
    st.lists(st.sampled_from(NASTY), min_size=1, max_size=3).map("".join),
    st.text(min_size=1, max_size=8),
)
json_scalar = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), nasty_text)


@st.composite
def property_schema(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["string", "enum", "integer", "object"]))
    schema: dict[str, Any] = {"description": draw(nasty_text)}
    if kind == "string":
        schema.update(type="string", default=draw(nasty_text))
    elif kind == "enum":
        values = draw(st.lists(nasty_text, min_size=1, max_size=3, unique=True))
        schema.update(type="string", enum=values, default=values[0])
    elif kind == "integer":
        schema.update(type="integer", default=draw(st.integers(-3, 3)))
    else:
        schema.update(type="object", properties={draw(nasty_text): {"type": "string"}})
    return schema


@st.composite
def manifest(draw: Any) -> dict[str, Any]:
    names = draw(st.lists(nasty_text, min_size=1, max_size=3, unique=True))
    tools = []
    for name in names:
        props = draw(st.dictionaries(nasty_text, property_schema(), max_size=3))
        tool: dict[str, Any] = {
            "name": name,
            "description": draw(nasty_text),
            "inputSchema": {"type": "object", "properties": props},
        }
        if draw(st.booleans()):
            tool["title"] = draw(nasty_text)
            tool["outputSchema"] = {
                "type": "object",
                "properties": {draw(nasty_text): {"type": "string"}},
            }
        tools.append(tool)
    resources = [
        {
            "uri": f"x://r{i}/" + draw(nasty_text).replace("\x00", "0"),
            "name": draw(nasty_text),
            "description": draw(nasty_text),
            **({"text": draw(nasty_text)} if i == 0 else {"handler": True}),
        }
        for i in range(draw(st.integers(1, 2)))
    ]
    templates = [
        {
            "uriTemplate": f"x://t{i}/{{id}}",
            "name": draw(nasty_text),
            "description": draw(nasty_text),
            "variables": {"id": {"type": "string", "completions": [draw(nasty_text)]}},
        }
        for i in range(draw(st.integers(0, 2)))
    ]
    prompts = [
        {
            "name": draw(nasty_text) + str(i),
            "description": draw(nasty_text),
            "arguments": [
                {
                    "name": "a",
                    "description": draw(nasty_text),
                    "required": True,
                    "completions": [draw(nasty_text)],
                },
            ],
            **(
                {"messages": [{"role": "user", "text": draw(nasty_text) + " {a}"}]}
                if i == 0
                else {"handler": True}
            ),
        }
        for i in range(draw(st.integers(1, 2)))
    ]
    return {
        "server": {"name": draw(nasty_text), "version": "1", "instructions": draw(nasty_text)},
        "tools": tools,
        "resources": resources,
        "resourceTemplates": templates,
        "prompts": prompts,
    }


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(doc=manifest())
def test_hostile_manifest_is_served_as_data(doc: dict[str, Any], tmp_path: Path) -> None:
    work = tmp_path / uuid.uuid4().hex
    work.mkdir()
    path = work / "hostile.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    package = "hostile_" + uuid.uuid4().hex[:8]
    pkg = write_package(path, work, package)
    for py in pkg.rglob("*.py"):
        ast.parse(py.read_text(encoding="utf-8"), str(py))
    with imported(work, package) as handlers:
        gen = __import__(f"{package}._generated", fromlist=["create_server"])
        server = gen.create_server(handlers.Handlers())

        async def go() -> dict[str, Any]:
            async with RawClient(server, "2026-07-28") as c:
                listed = await c.request("tools/list", {})
                first = doc["tools"][0]["name"]
                called = await c.request("tools/call", {"name": first, "arguments": {}})
                resources = await c.request("resources/list", {})
                read = await c.request("resources/read", {"uri": doc["resources"][0]["uri"]})
                prompt = doc["prompts"][0]
                got = await c.request(
                    "prompts/get", {"name": prompt["name"], "arguments": {"a": "A"}}
                )
                done = await c.request(
                    "completion/complete",
                    {
                        "ref": {"type": "ref/prompt", "name": prompt["name"]},
                        "argument": {"name": "a", "value": ""},
                    },
                )
                return {
                    "listed": listed,
                    "called": called,
                    "resources": resources,
                    "read": read,
                    "prompt": got,
                    "done": done,
                }

        got = anyio.run(go)
    served = got["listed"]["result"]["tools"]
    assert [t["name"] for t in served] == [t["name"] for t in doc["tools"]]
    for s, w in zip(served, doc["tools"], strict=True):
        assert s["inputSchema"] == w["inputSchema"] and s["description"] == w["description"]
    # handlers.py is the untouched stub: the call reaches it (not implemented), or arguments fail.
    assert got["called"]["result"]["isError"] is True
    # resources, prompts and completions serve the strings back exactly
    listed = got["resources"]["result"]["resources"]
    assert [(r["uri"], r["name"]) for r in listed] == [
        (r["uri"], r["name"]) for r in doc["resources"]
    ]
    assert got["read"]["result"]["contents"][0]["text"] == doc["resources"][0]["text"]
    message = doc["prompts"][0]["messages"][0]["text"]
    from mcpgen_runtime.server.prompts import fill

    served_text = got["prompt"]["result"]["messages"][0]["content"]["text"]
    assert served_text == fill(message, {"a": "A"})
    assert (
        got["done"]["result"]["completion"]["values"]
        == (doc["prompts"][0]["arguments"][0]["completions"])
    )
    assert not (work / "PWNED").exists() and not Path("PWNED").exists()
