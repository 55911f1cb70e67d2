"""The generated runtime, in-process: real SDK ``Server.run`` loop, raw JSON-RPC per revision.

Every response is validated against the negotiated revision's official schema.json.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest

from mcpgen_runtime.revisions import REVISIONS
from tests.server.helpers import (
    DATA,
    WEATHER,
    WEATHER_HANDLERS,
    RawClient,
    imported,
    spec_validator,
    write_package,
)


@pytest.fixture(scope="module")
def behaviours(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("behaviours")
    write_package(
        DATA / "behaviours.yaml",
        out,
        "behaviours_pkg",
        (DATA / "behaviours_handlers.py").read_text(),
    )
    with imported(out, "behaviours_pkg") as handlers:
        yield handlers


@pytest.fixture(scope="module")
def weather(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("weather")
    write_package(WEATHER, out, "weather_rt", WEATHER_HANDLERS.read_text())
    with imported(out, "weather_rt") as handlers:
        yield handlers


def _server(mod: ModuleType, **kw: Any) -> Any:
    pkg = mod.__name__.rsplit(".", 1)[0]
    gen = __import__(f"{pkg}._generated", fromlist=["create_server"])
    return gen.create_server(mod.Handlers(), **kw)


def _call(mod: ModuleType, version: str, name: str, args: Any = None, **kw: Any) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        async with RawClient(_server(mod, **kw), version) as c:
            params: dict[str, Any] = {"name": name}
            if args is not None:
                params["arguments"] = args
            return await c.request("tools/call", params)

    return anyio.run(go)


def _check(spec_dir: Path, version: str, type_name: str, result: dict[str, Any]) -> None:
    errors = sorted(spec_validator(spec_dir, version, type_name).iter_errors(result), key=str)
    assert not errors, f"{type_name} invalid for {version}: {errors[0].message}"


@pytest.mark.parametrize("version", REVISIONS)
def test_structured_output_per_revision(
    behaviours: ModuleType, spec_dir: Path, version: str
) -> None:
    resp = _call(behaviours, version, "echo", {"text": "hi", "times": 2})
    result = resp["result"]
    _check(spec_dir, version, "CallToolResult", result)
    assert json.loads(result["content"][0]["text"]) == {"text": "hihi", "length": 4}
    assert not result.get("isError")
    if version in ("2024-11-05", "2025-03-26"):
        assert "structuredContent" not in result
    else:
        assert result["structuredContent"] == {"text": "hihi", "length": 4}
    assert ("resultType" in result) == (version == "2026-07-28")


@pytest.mark.parametrize("version", REVISIONS)
def test_content_blocks_downgraded_per_revision(
    behaviours: ModuleType, spec_dir: Path, version: str
) -> None:
    result = _call(behaviours, version, "media")["result"]
    _check(spec_dir, version, "CallToolResult", result)
    types = [b["type"] for b in result["content"]]
    expect = {
        "2024-11-05": ["text", "image", "text", "text", "resource"],
        "2025-03-26": ["text", "image", "audio", "text", "resource"],
    }.get(version, ["text", "image", "audio", "resource_link", "resource"])
    assert types == expect
    first = result["content"][0]
    if version < "2025-06-18":
        assert "_meta" not in first and "lastModified" not in first["annotations"]
        assert "_meta" not in result["content"][4]["resource"]
        assert "file:///tmp/a.txt" in result["content"][3]["text"]
    else:
        assert first["_meta"] == {"k": "v"}
        assert first["annotations"]["lastModified"] == "2025-01-01T00:00:00Z"
    if version == "2024-11-05":
        assert "audio/wav" in result["content"][2]["text"]


@pytest.mark.parametrize("version", REVISIONS)
def test_unknown_tool_is_invalid_params(
    behaviours: ModuleType, spec_dir: Path, version: str
) -> None:
    resp = _call(behaviours, version, "no-such-tool", {})
    assert resp["error"]["code"] == -32602
    assert "no-such-tool" in resp["error"]["message"]


@pytest.mark.parametrize("version", ["2024-11-05", "2025-11-25", "2026-07-28"])
def test_invalid_arguments_tell_what_to_fix(
    behaviours: ModuleType, spec_dir: Path, version: str
) -> None:
    result = _call(behaviours, version, "echo", {"times": 9, "mode": "loud", "extra": 1})["result"]
    _check(spec_dir, version, "CallToolResult", result)
    assert result["isError"] is True
    text = result["content"][0]["text"]
    # jsonschema-rs messages: instance path plus reason.
    assert '- (root): "text" is a required property' in text
    assert "- /times: 9 is greater than the maximum of 3" in text
    assert '- /mode: "loud" is not one of "plain" or "shout"' in text
    assert "'extra' was unexpected" in text


def test_draft07_schema_uses_draft07_semantics(behaviours: ModuleType) -> None:
    ok = _call(behaviours, "2025-11-25", "legacy.draft7", {"n": 3})["result"]
    assert ok["content"][0]["text"] == "n=3" and not ok.get("isError")
    bad = _call(behaviours, "2025-11-25", "legacy.draft7", {"n": 0})["result"]
    assert bad["isError"] is True and "/n:" in bad["content"][0]["text"]


def test_unexpected_exception_is_safe(
    behaviours: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        result = _call(behaviours, "2025-11-25", "boom", {})["result"]
    assert result["isError"] is True
    text = json.dumps(result)
    assert "hunter2" not in text and "Traceback" not in text and "RuntimeError" not in text
    assert "internal error" in result["content"][0]["text"]
    assert any(
        "hunter2" in (r.exc_text or "") or "hunter2" in str(r.exc_info) for r in caplog.records
    )


def test_tool_error_message_reaches_client(behaviours: ModuleType) -> None:
    result = _call(behaviours, "2026-07-28", "refuse", {"reason": "nope"})["result"]
    assert result["isError"] is True
    assert result["content"][0]["text"] == "refused: nope; pass reason='ok' to proceed"
    assert result["resultType"] == "complete"


def test_output_violating_schema_is_not_sent(
    behaviours: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        result = _call(behaviours, "2025-06-18", "bad-output", {})["result"]
    assert result["isError"] is True and "structuredContent" not in result
    assert "99" not in json.dumps(result)
    assert any("outputSchema" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "2026-07-28"])
def test_array_output_only_where_allowed(
    behaviours: ModuleType, spec_dir: Path, version: str
) -> None:
    result = _call(behaviours, version, "listing", {})["result"]
    _check(spec_dir, version, "CallToolResult", result)
    assert json.loads(result["content"][0]["text"]) == ["a", "b"]
    assert ("structuredContent" in result) == (version == "2026-07-28")


def test_not_implemented_method(behaviours: ModuleType) -> None:
    result = _call(behaviours, "2025-11-25", "not_implemented", {})["result"]
    assert result["isError"] is True and "not implemented" in result["content"][0]["text"]


@pytest.mark.parametrize("version", ["2024-11-05", "2025-11-25", "2026-07-28"])
def test_context_progress_and_log(behaviours: ModuleType, version: str) -> None:
    async def go() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        async with RawClient(_server(behaviours), version) as c:
            meta: dict[str, Any] = {"progressToken": "tok"}
            if version == "2026-07-28":
                meta["io.modelcontextprotocol/logLevel"] = "debug"
            resp = await c.request(
                "tools/call", {"name": "progress", "arguments": {}, "_meta": meta}
            )
            return resp, c.notifications

    resp, notes = anyio.run(go)
    assert resp["result"]["content"][0]["text"] == f"{version} {resp['id']}"
    methods = [n["method"] for n in notes]
    assert "notifications/progress" in methods and "notifications/message" in methods
    prog = next(n for n in notes if n["method"] == "notifications/progress")
    assert prog["params"]["progressToken"] == "tok"
    assert ("message" in prog["params"]) == (version != "2024-11-05")


@pytest.mark.parametrize("version", REVISIONS)
def test_tools_list_exact_schemas_and_fields(
    weather: ModuleType, spec_dir: Path, version: str
) -> None:
    async def go() -> dict[str, Any]:
        async with RawClient(_server(weather), version) as c:
            return await c.request("tools/list", {})

    result = anyio.run(go)["result"]
    _check(spec_dir, version, "ListToolsResult", result)
    pkg = weather.__name__.rsplit(".", 1)[0]
    defs = [
        json.loads(t)
        for t in __import__(f"{pkg}._generated.tools", fromlist=["x"]).TOOL_DEFINITIONS
    ]
    assert [t["name"] for t in result["tools"]] == [d["name"] for d in defs]
    for served, written in zip(result["tools"], defs, strict=True):
        # byte-for-byte: same JSON text, key order included
        assert json.dumps(served["inputSchema"]) == json.dumps(written["inputSchema"])
        if version >= "2025-06-18" and "outputSchema" in written:
            assert json.dumps(served["outputSchema"]) == json.dumps(written["outputSchema"])
        else:
            assert "outputSchema" not in served
        assert ("annotations" in served) == ("annotations" in written and version >= "2025-03-26")
        assert ("title" in served) == ("title" in written and version >= "2025-06-18")


@pytest.mark.parametrize("version", ["2024-11-05", "2026-07-28"])
def test_tools_list_pagination(weather: ModuleType, version: str) -> None:
    async def go() -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        async with RawClient(_server(weather, page_size=3), version) as c:
            names: list[str] = []
            cursor = None
            for _ in range(5):
                resp = await c.request("tools/list", {"cursor": cursor} if cursor else {})
                names += [t["name"] for t in resp["result"]["tools"]]
                cursor = resp["result"].get("nextCursor")
                if cursor is None:
                    break
            bad = await c.request("tools/list", {"cursor": "garbage"})
            past = await c.request("tools/list", {"cursor": "mcpgen-offset:99"})
            return names, bad, past

    names, bad, past = anyio.run(go)
    assert names == ["get_weather", "get_forecast", "weather-map", "report_outage"]
    assert bad["error"]["code"] == -32602 and past["error"]["code"] == -32602


def test_weather_via_official_client_in_process(weather: ModuleType) -> None:
    from mcp import Client

    async def go() -> Any:
        async with Client(_server(weather)) as client:
            listed = await client.list_tools()
            res = await client.call_tool("get_weather", {"city": "Paris", "units": "imperial"})
            fc = await client.call_tool("get_forecast", {"location": {"city": "Oslo"}, "days": 2})
            err = await client.call_tool("report_outage", {"station": "X1"})
            return listed, res, fc, err

    listed, res, fc, err = anyio.run(go)
    assert [t.name for t in listed.tools][0] == "get_weather"
    assert res.structured_content["units"] == "imperial" and not res.is_error
    assert len(fc.structured_content["days"]) == 2
    assert err.is_error and "offline" in err.content[0].text
