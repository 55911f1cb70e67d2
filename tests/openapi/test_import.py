"""``mcpgen import openapi``: a real FastAPI app's ``/openapi.json`` (served by uvicorn on
127.0.0.1) becomes a manifest that ``mcpgen check`` accepts and ``mcpgen server`` generates;
the converter's rules on small documents; bad documents get one located line."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcpgen.errors import McpgenError
from mcpgen.openapi.convert import Selection, convert, tool_name
from tests import inprocess

REPO = Path(__file__).resolve().parents[2]


def _mcpgen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return inprocess.mcpgen(*args, cwd=cwd)


@pytest.fixture(scope="module")
def shop_url() -> Iterator[str]:
    """The FastAPI app of ``shop_app.py`` served by uvicorn in a thread on a free port."""
    import uvicorn

    from tests.openapi.shop_app import app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def _yaml(path: Path) -> Any:
    from mcpgen.manifest.sourcemap import parse_text

    return parse_text(path.read_text(), path.name).value


def test_a_fastapi_app_imports_checks_and_generates(shop_url: str, tmp_path: Path) -> None:
    out = tmp_path / "shop.yaml"
    done = inprocess.process("import", "openapi", f"{shop_url}/openapi.json", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "wrote" in done.stderr and "6 tools" in done.stderr
    doc = _yaml(out)
    tools = {t["name"]: t for t in doc["tools"]}
    assert list(tools)[:5] == [
        "list_items",
        "create_item",
        "get_item",
        "replace_item",
        "delete_item",
    ]
    assert doc["server"] == {
        "name": "shop-api",
        "title": "Shop API",
        "version": "2.1.0",
        "description": "Items of a small shop.",
        "http": {
            "baseUrl": shop_url,  # no `servers`: the host the document came from
            "securitySchemes": {
                "APIKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"}
            },
        },
    }
    listed = tools["list_items"]
    assert listed["annotations"] == {"readOnlyHint": True}
    assert listed["inputSchema"]["properties"]["limit"]["maximum"] == 100
    assert listed["x-mcpgen"]["http"] == {
        "method": "GET",
        "path": "/items",
        "parameters": {
            "limit": {"in": "query", "name": "limit"},
            "color": {"in": "query", "name": "color"},
        },
        "response": "wrapped",
    }
    assert listed["outputSchema"]["properties"]["result"]["items"] == {"$ref": "#/$defs/Item"}
    created = tools["create_item"]
    assert created["inputSchema"]["required"] == ["body"]
    assert created["inputSchema"]["properties"]["body"] == {"$ref": "#/$defs/ItemIn"}
    assert created["x-mcpgen"]["http"]["security"] == ["APIKeyHeader"]
    assert "X-API-Key" not in json.dumps(created["inputSchema"])  # a credential, not an argument
    assert created["outputSchema"]["type"] == "object"  # the Item component, inlined at the root
    got = tools["get_item"]
    assert got["inputSchema"]["required"] == ["item_id"]
    assert got["x-mcpgen"]["http"]["parameters"] == {"item_id": {"in": "path", "name": "item_id"}}
    assert tools["replace_item"]["annotations"] == {"idempotentHint": True}
    deleted = tools["delete_item"]
    assert deleted["annotations"] == {"destructiveHint": True}
    assert deleted["description"].startswith("Deprecated.")
    assert set(doc["$defs"]) >= {"Item", "ItemIn", "Color", "Dimensions"}
    assert "&id" not in out.read_text()  # no YAML anchors
    checked = _mcpgen("check", str(out))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no findings" in checked.stderr
    made = _mcpgen("server", str(out), "--out", str(tmp_path), "--package", "shop_server")
    assert made.returncode == 0, made.stderr
    probe = subprocess.run(
        [sys.executable, "-c", "import shop_server.handlers, shop_server._generated.server"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.returncode == 0, probe.stderr


def test_selection_by_tag_operation_and_path(shop_url: str, tmp_path: Path) -> None:
    spec = f"{shop_url}/openapi.json"
    for args, expected in (
        (["--include-tags", "admin"], ["delete_item"]),
        (["--exclude-tags", "admin,items"], []),
        (["--operations", "get_item,list_items"], ["list_items", "get_item"]),
        (["--paths", "/items/*"], ["get_item", "replace_item", "delete_item"]),
    ):
        out = tmp_path / "sel.yaml"
        done = _mcpgen("import", "openapi", spec, "-o", str(out), "--force", *args)
        assert done.returncode == 0, done.stderr
        assert [t["name"] for t in _yaml(out)["tools"]] == expected, args
    # the import wrote sel.yaml: importing over it again needs no --force
    again = _mcpgen("import", "openapi", spec, "-o", str(tmp_path / "sel.yaml"))
    assert again.returncode == 0, again.stderr


def _doc(paths: dict[str, Any], version: str = "3.0.3", **extra: Any) -> dict[str, Any]:
    return {"openapi": version, "info": {"title": "T", "version": "1"}, "paths": paths, **extra}


def _convert(doc: dict[str, Any], **kw: Any) -> Any:
    from mcpgen.manifest.sourcemap import parse_text
    from mcpgen.openapi.external import Sources

    return convert(Sources(parse_text(json.dumps(doc), "t.json"), "t.json", None), **kw)


def test_openapi_30_schemas_become_2020_12() -> None:
    op = {
        "operationId": "find",
        "parameters": [
            {
                "name": "n",
                "in": "query",
                "schema": {"type": "integer", "minimum": 1, "exclusiveMinimum": True, "example": 5},
            },
            {"name": "s", "in": "query", "schema": {"type": "string", "nullable": True}},
            {"name": "class", "in": "query", "required": True, "schema": {"type": "string"}},
        ],
        "responses": {
            "200": {
                "description": "ok",
                "content": {"application/json": {"schema": {"type": "string"}}},
            }
        },
    }
    tool = _convert(_doc({"/find": {"get": op}})).tools[0]
    props = tool["inputSchema"]["properties"]
    assert props["n"] == {"type": "integer", "exclusiveMinimum": 1, "examples": [5]}
    assert props["s"] == {"type": ["string", "null"]}
    assert tool["inputSchema"]["required"] == ["class"]  # a Python keyword stays the JSON name
    assert tool["outputSchema"] == {
        "type": "object",
        "properties": {"result": {"type": "string"}},
        "required": ["result"],
    }


def test_names_are_cleaned_cut_and_kept_apart() -> None:
    long = "get_" + "very_long_operation_name_" * 5
    ops = {
        "/a": {"get": {"operationId": "list items!", "responses": {}}},
        "/b": {"get": {"operationId": "list_items", "responses": {}}},
        "/c/{id}": {"get": {"responses": {}}},
        "/d": {"get": {"operationId": long, "responses": {}}},
        "/e": {"get": {"operationId": long + "x", "responses": {}}},
    }
    names = [t["name"] for t in _convert(_doc(ops)).tools]
    assert names[:3] == ["list_items", "list_items_2", "get__c_id"]
    assert all(len(n) <= 64 for n in names) and len(set(names)) == 5
    assert names[3] != names[4] and names[3].startswith("get_very_long")
    assert tool_name("a" * 200, 64) == tool_name("a" * 200, 64)  # deterministic


def test_a_non_json_body_is_a_counted_skip() -> None:
    ops = {
        "/upload": {
            "post": {
                "operationId": "upload",
                "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object"}}}},
                "responses": {},
            }
        },
        "/ok": {"get": {"operationId": "ok", "responses": {}}},
    }
    out = _convert(_doc(ops))
    assert [t["name"] for t in out.tools] == ["ok"]
    assert [(s.operation, s.reason) for s in out.skipped] == [
        ("upload", "the request body is not JSON (multipart/form-data)")
    ]


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"$ref": "other.yaml#/components/schemas/X"}, "external $ref"),
        ({"$ref": "https://example.com/s.json"}, "external $ref"),
        ({"$ref": "#/components/schemas/Missing"}, "points at nothing"),
    ],
)
def test_refs_outside_or_missing_are_refused(schema: dict[str, Any], message: str) -> None:
    op = {
        "operationId": "x",
        "parameters": [{"name": "p", "in": "query", "schema": schema}],
        "responses": {},
    }
    with pytest.raises(McpgenError, match=re.escape(message)):
        _convert(_doc({"/x": {"get": op}}))


def test_recursive_schemas_and_parameter_ref_cycles() -> None:
    node = {
        "type": "object",
        "properties": {
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}
        },
    }
    op = {
        "operationId": "tree",
        "responses": {
            "200": {
                "description": "",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}},
            }
        },
    }
    out = _convert(_doc({"/t": {"get": op}}, components={"schemas": {"Node": node}}))
    assert out.defs["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    cyc = {
        "operationId": "c",
        "parameters": [{"$ref": "#/components/parameters/A"}],
        "responses": {},
    }
    params = {
        "A": {"$ref": "#/components/parameters/B"},
        "B": {"$ref": "#/components/parameters/A"},
    }
    with pytest.raises(McpgenError, match="cycle"):
        _convert(_doc({"/c": {"get": cyc}}, components={"parameters": params}))


def test_bad_documents_get_one_located_line(tmp_path: Path) -> None:
    cases = {
        "swagger.yaml": (
            "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n",
            ":1:10:",
            "Swagger 2.0",
        ),
        "old.yaml": (
            "openapi: 2.5.0\ninfo: {title: t, version: '1'}\npaths: {}\n",
            ":1:10:",
            "3.0 and 3.1",
        ),
        "bad.yaml": (
            "openapi: 3.0.3\ninfo: {title: t}\npaths: {}\n",
            ":2:7:",
            '"version" is a required',
        ),
        "broken.yaml": ("openapi: 3.0.3\ninfo: [\n", ":3:1:", "invalid YAML"),
    }
    for name, (text, where, message) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        done = _mcpgen("import", "openapi", str(path), "-o", str(tmp_path / "out.yaml"))
        assert done.returncode == 2, (name, done.stderr)
        line = done.stderr.strip().splitlines()[-1]
        assert f"{name}{where}" in line and message in line, (name, line)
        assert "Traceback" not in done.stderr
        assert not (tmp_path / "out.yaml").exists()
    missing = _mcpgen(
        "import", "openapi", str(tmp_path / "nope.yaml"), "-o", str(tmp_path / "o.yaml")
    )
    assert missing.returncode == 2 and "no such file" in missing.stderr
    unreachable = _mcpgen(
        "import", "openapi", "http://127.0.0.1:9/openapi.json", "-o", str(tmp_path / "o.yaml")
    )
    assert unreachable.returncode == 2 and "cannot fetch" in unreachable.stderr


def test_hostile_strings_stay_data(tmp_path: Path) -> None:
    """Quotes, newlines, YAML syntax and code in every field reach the manifest as data, and
    the generated server imports."""
    nasty = 'x\'"\n# y: z\n- ${{}}"""; import os; os._exit(3) #'
    doc = _doc(
        {
            "/h": {
                "post": {
                    "operationId": "hostile",
                    "summary": nasty,
                    "parameters": [
                        {
                            "name": nasty,
                            "in": "query",
                            "description": nasty,
                            "schema": {"type": "string", "default": nasty},
                        }
                    ],
                    "responses": {"200": {"description": nasty}},
                }
            }
        },
        version="3.1.0",
    )
    doc["info"]["title"] = nasty
    spec = tmp_path / "h.json"
    spec.write_text(json.dumps(doc))
    out = tmp_path / "h.yaml"
    done = _mcpgen("import", "openapi", str(spec), "-o", str(out))
    assert done.returncode == 0, done.stderr
    tool = _yaml(out)["tools"][0]
    assert tool["description"] == nasty.strip()
    assert list(tool["inputSchema"]["properties"]) == [nasty]
    made = _mcpgen("server", str(out), "--out", str(tmp_path), "--package", "h_server")
    assert made.returncode == 0, made.stderr
    probe = subprocess.run(
        [sys.executable, "-c", "import h_server._generated.server"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert probe.returncode == 0, probe.stderr


def test_selection_object() -> None:
    sel = Selection(include_tags=frozenset({"a"}), paths=("/x/*",))
    assert sel.wants({"tags": ["a"]}, "/x/1") and not sel.wants({"tags": ["b"]}, "/x/1")
    assert not sel.wants({"tags": ["a"]}, "/y")


def test_generated_handlers_call_the_api(shop_url: str, tmp_path: Path) -> None:
    """The imported server forwards every call to the running app; the app sees each request
    as it should arrive (method, path, query, API key, JSON body)."""
    from mcp import Client, StdioServerParameters

    from tests.openapi import shop_app

    out = tmp_path / "shop.yaml"
    assert _mcpgen("import", "openapi", f"{shop_url}/openapi.json", "-o", str(out)).returncode == 0
    made = _mcpgen("server", str(out), "--out", str(tmp_path), "--package", "shop_fwd")
    assert made.returncode == 0, made.stderr
    assert "NotImplementedError" not in (tmp_path / "shop_fwd" / "handlers.py").read_text()

    def env(**extra: str) -> dict[str, str]:
        base = {k: v for k, v in os.environ.items() if not k.startswith("MCPGEN_HTTP")}
        return {**base, **extra}

    async def calls(environ: dict[str, str], todo: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "shop_fwd"], cwd=str(tmp_path), env=environ
        )
        results = []
        async with Client(params, mode="legacy") as client:
            for name, arguments in todo:
                res = await client.call_tool(name, arguments)
                text = " ".join(getattr(b, "text", "") for b in res.content)
                results.append((res.is_error, res.structured_content, text))
        return results

    import anyio

    shop_app.ITEMS.clear()
    shop_app.SEEN.clear()
    lamp = {
        "name": "Lamp",
        "color": "green",
        "dimensions": {"width": 1.5, "height": 2},
        "tags": ["a b", "c"],
    }
    keyed = env(MCPGEN_HTTP_AUTH_APIKEYHEADER="secret-key")
    got = anyio.run(
        calls,
        keyed,
        [
            ("create_item", {"body": lamp}),
            ("get_item", {"item_id": 1}),
            ("list_items", {"limit": 5, "color": "green"}),
            ("replace_item", {"item_id": 1, "body": {**lamp, "name": "Big lamp"}}),
            ("get_item", {"item_id": 999}),
            ("count_items_count_get", {}),
            ("delete_item", {"item_id": 1}),
        ],
    )
    created, fetched, listed, replaced, missing, counted, deleted = got
    assert created[0] is False and created[1]["id"] == 1 and created[1]["name"] == "Lamp"
    assert fetched[1]["dimensions"] == {"width": 1.5, "height": 2.0}
    assert listed[1] == {"result": [fetched[1]]}
    assert replaced[1]["name"] == "Big lamp"
    assert missing[0] is True and "HTTP 404" in missing[2] and "no such item" in missing[2]
    assert counted[1] == {"result": 1}
    assert deleted[1] == {"deleted": True}
    seen = [(r["method"], r["path"], r["query"], r["key"]) for r in shop_app.SEEN]
    assert seen == [
        ("POST", "/items", "", "secret-key"),
        ("GET", "/items/1", "", None),
        ("GET", "/items", "limit=5&color=green", None),
        ("PUT", "/items/1", "", "secret-key"),
        ("GET", "/items/999", "", None),
        ("GET", "/count", "", None),
        ("DELETE", "/items/1", "", "secret-key"),
    ]
    assert json.loads(str(shop_app.SEEN[0]["body"])) == lamp
    # no credential, a wrong one, and no API at all: tool errors that say what is wrong
    shop_app.SEEN.clear()
    (no_key,) = anyio.run(calls, env(), [("create_item", {"body": lamp})])
    assert no_key[0] is True and "MCPGEN_HTTP_AUTH_APIKEYHEADER" in no_key[2]
    assert shop_app.SEEN == []  # never sent without its credential
    (wrong,) = anyio.run(
        calls, env(MCPGEN_HTTP_AUTH_APIKEYHEADER="nope"), [("create_item", {"body": lamp})]
    )
    assert wrong[0] is True and "HTTP 401" in wrong[2] and "nope" not in wrong[2]
    (gone,) = anyio.run(
        calls, env(MCPGEN_HTTP_BASE_URL="http://127.0.0.1:9"), [("get_item", {"item_id": 1})]
    )
    assert gone[0] is True and "could not be reached" in gone[2]


def test_a_handler_written_in_handlers_py_wins(shop_url: str, tmp_path: Path) -> None:
    from mcp import Client, StdioServerParameters

    from tests.openapi import shop_app

    out = tmp_path / "shop.yaml"
    assert _mcpgen("import", "openapi", f"{shop_url}/openapi.json", "-o", str(out)).returncode == 0
    pkg = tmp_path / "shop_own"
    assert (
        _mcpgen("server", str(out), "--out", str(tmp_path), "--package", "shop_own").returncode == 0
    )
    (pkg / "handlers.py").write_text(
        "from mcpgen_runtime import ToolContext\n"
        "from ._generated import ToolsBase\n"
        "from ._generated.models import CountItemsCountGetInput\n\n\n"
        "class Handlers(ToolsBase):\n"
        "    async def count_items_count_get(\n"
        "        self, args: CountItemsCountGetInput, ctx: ToolContext\n"
        "    ) -> dict[str, int]:\n"
        "        return {'result': 42}\n"
    )
    rerun = _mcpgen("server", str(out), "--out", str(tmp_path), "--package", "shop_own")
    assert rerun.returncode == 0 and "missing" not in rerun.stderr.lower(), rerun.stderr

    async def go() -> tuple[Any, Any]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "shop_own"], cwd=str(tmp_path), env=dict(os.environ)
        )
        async with Client(params, mode="legacy") as client:
            mine = await client.call_tool("count_items_count_get", {})
            theirs = await client.call_tool("get_item", {"item_id": 12345})
            return mine.structured_content, theirs.is_error

    import anyio

    shop_app.SEEN.clear()
    mine, forwarded_error = anyio.run(go)
    assert mine == {"result": 42}
    assert forwarded_error is True  # get_item still forwarded: 404 from the app
    assert [r["path"] for r in shop_app.SEEN] == ["/items/12345"]


def test_curation_survives_a_reimport_and_check_reports_upstream_changes(tmp_path: Path) -> None:
    """The overlay (keyed by METHOD /path) renames, rewrites, tightens and removes; a changed
    document re-imports with the curation kept; --check shows the upstream change and what it
    breaks, and writes nothing."""
    from tests.openapi.shop_app import app

    doc = app.openapi()
    spec = tmp_path / "shop.json"
    spec.write_text(json.dumps(doc))
    overlay = tmp_path / "curation.yaml"
    overlay.write_text(
        "server: {name: shop}\n"
        "tools:\n"
        "  GET /items:\n"
        "    name: list_inventory\n"
        "    description: Items in stock.\n"
        "    inputSchema: {properties: {limit: {maximum: 20}}}\n"
        "  DELETE /items/{item_id}: {remove: true}\n"
    )
    out = tmp_path / "shop.yaml"
    args = ["import", "openapi", str(spec), "-o", str(out), "--overlay", str(overlay)]
    first = _mcpgen(*args)
    assert first.returncode == 0, first.stderr
    assert "5 tools (1 removed by the overlay)" in first.stderr

    def tools() -> dict[str, Any]:
        return {t["name"]: t for t in _yaml(out)["tools"]}

    got = tools()
    assert _yaml(out)["server"]["name"] == "shop"
    assert "delete_item" not in got and "list_items" not in got
    assert got["list_inventory"]["description"] == "Items in stock."
    assert got["list_inventory"]["inputSchema"]["properties"]["limit"]["maximum"] == 20
    assert got["list_inventory"]["inputSchema"]["properties"]["limit"]["minimum"] == 1  # kept
    unchanged = _mcpgen(*args, "--check")
    assert unchanged.returncode == 0 and "up to date" in unchanged.stderr
    # upstream: get_item is gone, list gains a required parameter, a new operation appears
    doc["paths"]["/items/{item_id}"].pop("get")
    doc["paths"]["/items"]["get"]["parameters"].append(
        {"name": "page", "in": "query", "required": True, "schema": {"type": "integer"}}
    )
    doc["paths"]["/health"] = {
        "get": {"operationId": "health", "responses": {"200": {"description": "ok"}}}
    }
    spec.write_text(json.dumps(doc))
    before = out.read_text()
    checked = _mcpgen(*args, "--check")
    assert checked.returncode == 1, checked.stderr
    assert "+- name: health" in checked.stdout and "-- name: get_item" in checked.stdout
    assert "TOOL_NO_DELETE tool 'get_item' was removed" in checked.stderr
    assert "INPUT_REQUIRED_NO_ADD tool 'list_inventory'" in checked.stderr
    assert out.read_text() == before  # --check writes nothing
    again = _mcpgen(*args)
    assert again.returncode == 0, again.stderr
    got = tools()
    assert "list_inventory" in got and "health" in got and "get_item" not in got
    assert got["list_inventory"]["description"] == "Items in stock."  # curation kept
    # a stale key is reported; a hand-written manifest is not overwritten without --force
    overlay.write_text("tools:\n  GET /items/{item_id}: {description: gone}\n")
    stale = _mcpgen(*args)
    assert stale.returncode == 0 and "no operation GET /items/{item_id} any more" in stale.stderr
    mine = tmp_path / "mine.yaml"
    mine.write_text("tools: []\n")
    refused = _mcpgen("import", "openapi", str(spec), "-o", str(mine))
    assert refused.returncode == 2 and "was not written by mcpgen import" in refused.stderr
    assert mine.read_text() == "tools: []\n"
    overlay.write_text("tools: [1, 2]\n")
    bad = _mcpgen(*args)
    assert bad.returncode == 2 and f"{overlay}:1:8:" in bad.stderr, bad.stderr


def test_merge_patch_is_rfc_7396() -> None:
    from mcpgen.openapi.overlay import merge_patch

    target = {"a": "b", "c": {"d": "e", "f": "g"}}
    assert merge_patch(target, {"a": "z", "c": {"f": None}}) == {"a": "z", "c": {"d": "e"}}
    assert merge_patch({"a": [1]}, {"a": [2]}) == {"a": [2]}
    assert merge_patch({"a": 1}, {"b": {"c": None}}) == {"a": 1, "b": {}}
    assert target == {"a": "b", "c": {"d": "e", "f": "g"}}  # not mutated


def test_a_50_mb_document_is_refused_in_one_line(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    pad = "x" * 1000
    with big.open("w") as fh:
        fh.write('{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {')
        fh.write(",".join(f'"/p{i}": {{"description": "{pad}"}}' for i in range(50_000)))
        fh.write("}}")
    assert big.stat().st_size > 50_000_000
    done = _mcpgen("import", "openapi", str(big), "-o", str(tmp_path / "o.yaml"))
    assert done.returncode == 2, done.stderr[-500:]
    assert "MiB" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o.yaml").exists()
