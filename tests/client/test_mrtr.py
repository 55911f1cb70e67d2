"""2026-07-28 ``InputRequiredResult`` (multi round-trip requests) through a generated client:
the user's elicitation and sampling callbacks answer, the call is retried with the responses
and the echoed ``requestState``, bounded by ``max_input_rounds``; refusals and failing
callbacks are typed errors. The server is an SDK low-level ``Server`` connected in-process on
the 2026-07-28 wire (``mcp.Client``'s own direct dispatcher, not a mock)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.server import Server

from tests.client.helpers import imported, write_client

MANIFEST = {
    "server": {"name": "asker", "version": "1"},
    "tools": [
        {
            "name": "book",
            "description": "Books a table after asking the user and a model.",
            "inputSchema": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
        {"name": "nag", "description": "Always asks again.", "inputSchema": {"type": "object"}},
    ],
}


def make_server(log: list[dict[str, Any]]) -> Server[Any]:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[types.Tool.model_validate(t) for t in MANIFEST["tools"]]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
        log.append(
            {
                "name": params.name,
                "responses": params.input_responses,
                "state": params.request_state,
            }
        )
        if params.name == "nag":
            return types.InputRequiredResult(request_state=f"round-{len(log)}")
        if not params.input_responses:
            return types.InputRequiredResult(
                input_requests={
                    "people": types.ElicitRequest(
                        params=types.ElicitRequestFormParams(
                            message="How many people?",
                            requested_schema={
                                "type": "object",
                                "properties": {"n": {"type": "integer"}},
                                "required": ["n"],
                            },
                        )
                    ),
                    "wine": types.CreateMessageRequest(
                        params=types.CreateMessageRequestParams(
                            messages=[
                                types.SamplingMessage(
                                    role="user",
                                    content=types.TextContent(type="text", text="Pick a wine"),
                                )
                            ],
                            max_tokens=20,
                        )
                    ),
                },
                request_state="opaque-state-1",
            )
        people = params.input_responses["people"]
        wine = params.input_responses["wine"]
        text = json.dumps(
            {
                "people": people.content,
                "wine": wine.content.text,  # type: ignore[union-attr]
                "state": params.request_state,
            }
        )
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    return Server("asker", on_list_tools=list_tools, on_call_tool=call_tool)


@pytest.fixture(scope="module")
def asker(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("mrtr")
    path = out / "asker.json"
    path.write_text(json.dumps(MANIFEST))
    write_client(path, out, "asker_client")
    with imported(out, "asker_client") as module:
        yield module.AskerClient


async def elicit_ok(context: Any, params: types.ElicitRequestFormParams) -> types.ElicitResult:
    assert params.message == "How many people?"
    return types.ElicitResult(action="accept", content={"n": 4})


async def sample_ok(
    context: Any, params: types.CreateMessageRequestParams
) -> types.CreateMessageResult:
    return types.CreateMessageResult(
        role="assistant", model="test", content=types.TextContent(type="text", text="Rioja")
    )


def test_callbacks_answer_and_the_call_is_retried(asker: Any) -> None:
    log: list[dict[str, Any]] = []

    async def go() -> str:
        async with asker(
            make_server(log),
            mode="2026-07-28",
            elicitation_callback=elicit_ok,
            sampling_callback=sample_ok,
        ) as c:
            assert c.protocol_version == "2026-07-28"
            return str((await c.book(city="Madrid")).text)

    got = json.loads(anyio.run(go))
    assert got == {"people": {"n": 4}, "wine": "Rioja", "state": "opaque-state-1"}
    assert [entry["state"] for entry in log] == [None, "opaque-state-1"]  # echoed byte-for-byte


def test_rounds_are_bounded(asker: Any) -> None:
    from mcpgen_runtime import InputRequiredError

    log: list[dict[str, Any]] = []

    async def go() -> None:
        async with asker(make_server(log), mode="2026-07-28", max_input_rounds=3) as c:
            await c.nag()

    with pytest.raises(InputRequiredError, match="after 3 rounds"):
        anyio.run(go)
    assert len(log) == 4  # the first call and three retries


def test_a_declining_callback_is_a_typed_error(asker: Any) -> None:
    from mcpgen_runtime import InputRequiredError

    async def refuse(context: Any, params: Any) -> types.ErrorData:
        return types.ErrorData(code=-1, message="user said no")

    async def go() -> None:
        async with asker(
            make_server([]),
            mode="2026-07-28",
            elicitation_callback=refuse,
            sampling_callback=sample_ok,
        ) as c:
            await c.book(city="Madrid")

    with pytest.raises(InputRequiredError, match="user said no") as info:
        anyio.run(go)
    assert info.value.code == -1


def test_a_raising_callback_is_a_typed_error(asker: Any) -> None:
    from mcpgen_runtime import InputRequiredError

    async def broken(context: Any, params: Any) -> Any:
        raise KeyError("boom")

    async def go() -> None:
        async with asker(
            make_server([]),
            mode="2026-07-28",
            elicitation_callback=elicit_ok,
            sampling_callback=broken,
        ) as c:
            await c.book(city="Madrid")

    with pytest.raises(InputRequiredError, match="callback raised"):
        anyio.run(go)
