"""Resources, resource templates, prompts and completions in the runtime (``build_server``
with hand-written bindings, as generated code declares them), driven by the official
``mcp.Client`` in process on both wires."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from mcpgen_runtime import ToolContext, build_server
from mcpgen_runtime.server.prompts import PromptBinding, fill
from mcpgen_runtime.server.resources import ResourceBinding, TemplateBinding

MODES = ["legacy", "2026-07-28"]
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(16))


class ItemParams(BaseModel):
    id: int


class GreetArgs(BaseModel):
    name: str
    mood: str | None = None


def _bindings() -> dict[str, Any]:
    resources = [
        ResourceBinding(
            definition_json=json.dumps(
                {
                    "uri": "test://static-text",
                    "name": "static-text",
                    "title": "Static text",
                    "mimeType": "text/plain",
                }
            ),
            text="hello {not a placeholder}",
        ),
        ResourceBinding(
            definition_json=json.dumps(
                {"uri": "test://logo", "name": "logo", "mimeType": "image/png", "size": 24}
            ),
            method="read_logo",
        ),
    ]
    templates = [
        TemplateBinding(
            definition_json=json.dumps(
                {
                    "uriTemplate": "test://items/{id}",
                    "name": "item",
                    "mimeType": "application/json",
                }
            ),
            method="read_item",
            params_model=ItemParams,
            completions={"id": ["1", "12", "123", "7"]},
        )
    ]
    prompts = [
        PromptBinding(
            definition_json=json.dumps(
                {
                    "name": "greet",
                    "title": "Greeting",
                    "description": "Greets someone.",
                    "arguments": [
                        {"name": "name", "required": True, "title": "Name"},
                        {"name": "mood"},
                    ],
                }
            ),
            messages=[("user", "Say hello to {name} ({{literally}}) {name.__class__}")],
            completions={"name": ["Ada", "Alan", "Grace"]},
        ),
        PromptBinding(
            definition_json=json.dumps({"name": "built", "arguments": [{"name": "name"}]}),
            method="prompt_built",
            args_model=GreetArgs,
        ),
    ]
    return {"resources": resources, "templates": templates, "prompts": prompts}


def _server(example: tuple[ModuleType, Any]) -> Any:
    mod, generated = example

    class Handlers(mod.Handlers):  # type: ignore[misc, name-defined]
        async def read_logo(self, ctx: ToolContext) -> bytes:
            return PNG

        async def read_item(self, params: ItemParams, ctx: ToolContext) -> str:
            return json.dumps({"id": params.id, "double": params.id * 2})

        async def prompt_built(self, args: GreetArgs, ctx: ToolContext) -> Any:
            return [f"Hi {args.name}", {"type": "image", "data": "AA==", "mimeType": "image/png"}]

    return build_server(Handlers(), generated.BINDINGS, generated.SERVER_INFO, **_bindings())


def _run(example: tuple[ModuleType, Any], mode: str, body: Any) -> None:
    server = _server(example)

    async def main() -> None:
        async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
            await body(client)

    anyio.run(main)


@pytest.mark.parametrize("mode", MODES)
def test_resources_list_and_read(example: Any, mode: str) -> None:
    async def body(client: Client) -> None:
        listed = await client.list_resources()
        assert [r.name for r in listed.resources] == ["static-text", "logo"]
        assert listed.resources[0].title == "Static text"
        templates = await client.list_resource_templates()
        assert [t.uri_template for t in templates.resource_templates] == ["test://items/{id}"]
        text = await client.read_resource("test://static-text")
        block = text.contents[0]
        assert isinstance(block, types.TextResourceContents)
        assert block.text == "hello {not a placeholder}" and block.mime_type == "text/plain"
        blob = await client.read_resource("test://logo")
        assert isinstance(blob.contents[0], types.BlobResourceContents)
        import base64

        assert base64.b64decode(blob.contents[0].blob) == PNG
        item = await client.read_resource("test://items/21")
        assert isinstance(item.contents[0], types.TextResourceContents)
        assert json.loads(item.contents[0].text) == {"id": 21, "double": 42}

    _run(example, mode, body)


@pytest.mark.parametrize("mode", MODES)
def test_unknown_uri_and_bad_variable_are_protocol_errors(example: Any, mode: str) -> None:
    async def body(client: Client) -> None:
        with pytest.raises(MCPError) as missing:
            await client.read_resource("test://nothing-here")
        expected = -32602 if mode == "2026-07-28" else -32002
        assert missing.value.error.code == expected
        assert "test://nothing-here" in missing.value.error.message
        with pytest.raises(MCPError) as bad:
            await client.read_resource("test://items/abc")
        assert bad.value.error.code == -32602 and "id" in bad.value.error.message
        if mode == "legacy":
            await client.subscribe_resource("test://static-text")
            await client.unsubscribe_resource("test://static-text")
            with pytest.raises(MCPError) as unknown:
                await client.subscribe_resource("test://nothing-here")
            assert unknown.value.error.code == -32002

    _run(example, mode, body)


@pytest.mark.parametrize("mode", MODES)
def test_prompts_and_completions(example: Any, mode: str) -> None:
    async def body(client: Client) -> None:
        listed = await client.list_prompts()
        assert [p.name for p in listed.prompts] == ["greet", "built"]
        got = await client.get_prompt("greet", {"name": "Ada"})
        content = got.messages[0].content
        assert isinstance(content, types.TextContent)
        # placeholders are substituted, nothing is evaluated
        assert content.text == "Say hello to Ada ({literally}) {name.__class__}"
        with pytest.raises(MCPError) as missing:
            await client.get_prompt("greet", {})
        assert missing.value.error.code == -32602 and "name" in missing.value.error.message
        built = await client.get_prompt("built", {"name": "Grace"})
        assert [m.content.type for m in built.messages] == ["text", "image"]
        done = await client.complete(
            types.PromptReference(type="ref/prompt", name="greet"),
            {"name": "name", "value": "a"},
        )
        assert done.completion.values == ["Ada", "Alan"] and done.completion.total == 2
        ids = await client.complete(
            types.ResourceTemplateReference(type="ref/resource", uri="test://items/{id}"),
            {"name": "id", "value": "12"},
        )
        assert ids.completion.values == ["12", "123"]
        with pytest.raises(MCPError) as unknown:
            await client.complete(
                types.PromptReference(type="ref/prompt", name="nope"),
                {"name": "name", "value": ""},
            )
        assert unknown.value.error.code == -32602

    _run(example, mode, body)


def test_fill_never_evaluates() -> None:
    assert fill("{a} {b} {{a}} {a.__class__} {0} {", {"a": "x"}) == "x {b} {a} {a.__class__} {0} {"


@pytest.mark.parametrize("mode", MODES)
def test_handler_failures_are_safe_protocol_errors(example: Any, mode: str) -> None:
    mod, generated = example

    class Failing(mod.Handlers):  # type: ignore[misc, name-defined]
        async def read_logo(self, ctx: ToolContext) -> bytes:
            raise RuntimeError("secret database password in the message")

        async def read_item(self, params: ItemParams, ctx: ToolContext) -> str:
            raise NotImplementedError

        async def prompt_built(self, args: GreetArgs, ctx: ToolContext) -> Any:
            from mcpgen_runtime import ToolError

            raise ToolError("no greeting for you")

    server = build_server(Failing(), generated.BINDINGS, generated.SERVER_INFO, **_bindings())

    async def main() -> None:
        async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
            with pytest.raises(MCPError) as crashed:
                await client.read_resource("test://logo")
            assert "incident" in crashed.value.error.message
            assert "secret" not in crashed.value.error.message
            with pytest.raises(MCPError) as missing:
                await client.read_resource("test://items/1")
            assert "not implemented yet" in missing.value.error.message
            with pytest.raises(MCPError) as refused:
                await client.get_prompt("built", {"name": "x"})
            assert refused.value.error.message == "no greeting for you"

    anyio.run(main)


@pytest.mark.parametrize(
    ("revision", "has_title"), [("2024-11-05", False), ("2025-11-25", True), ("2026-07-28", True)]
)
def test_fields_a_revision_lacks_are_not_served(
    example: Any, revision: str, has_title: bool
) -> None:
    from tests.server.helpers import RawClient

    async def main() -> None:
        async with RawClient(_server(example), revision) as raw:
            listed = (await raw.request("resources/list"))["result"]["resources"]
            assert ("title" in listed[0]) is has_title
            prompts = (await raw.request("prompts/list"))["result"]["prompts"]
            assert ("title" in prompts[0]) is has_title
            assert ("title" in prompts[0]["arguments"][0]) is has_title

    anyio.run(main)


def test_updated_and_list_changed_reach_the_official_client(example: Any) -> None:
    """A handler calls ``ctx.resource_updated`` and ``ctx.set_resource_enabled``: the
    subscribed client gets ``notifications/resources/updated``, every client
    ``notifications/resources/list_changed``, and the disabled resource is neither listed
    nor readable."""
    mod, generated = example

    class Changing(mod.Handlers):  # type: ignore[misc, name-defined]
        async def read_logo(self, ctx: ToolContext) -> bytes:
            return PNG

        async def read_item(self, params: ItemParams, ctx: ToolContext) -> str:
            return "item"

        async def prompt_built(self, args: GreetArgs, ctx: ToolContext) -> Any:
            return "built"

        async def test_simple_text(self, args: Any, ctx: ToolContext) -> Any:
            await ctx.resource_updated("test://static-text")
            await ctx.set_resource_enabled("test://logo", False)
            return "changed"

    server = build_server(Changing(), generated.BINDINGS, generated.SERVER_INFO, **_bindings())

    async def main() -> None:
        got: list[Any] = []
        both = anyio.Event()

        async def on_message(message: Any) -> None:
            root = getattr(message, "root", message)
            method = getattr(root, "method", None)
            if method in (
                "notifications/resources/updated",
                "notifications/resources/list_changed",
            ):
                got.append((method, getattr(getattr(root, "params", None), "uri", None)))
                if len(got) == 2:
                    both.set()

        async with Client(server, mode="legacy", message_handler=on_message) as client:  # type: ignore[arg-type]
            await client.subscribe_resource("test://static-text")
            await client.call_tool("test_simple_text", {})
            with anyio.fail_after(10):
                await both.wait()
            assert sorted(m for m, _u in got) == [
                "notifications/resources/list_changed",
                "notifications/resources/updated",
            ]
            assert ("notifications/resources/updated", "test://static-text") in [
                (m, str(u)) for m, u in got
            ]
            listed = await client.list_resources()
            assert [r.name for r in listed.resources] == ["static-text"]
            with pytest.raises(MCPError):
                await client.read_resource("test://logo")

    anyio.run(main)


def test_caching_hints_come_from_the_manifest(example: Any) -> None:
    """``server.cache`` (here in ``ServerInfo``, as generated code passes it) sets ``ttlMs`` and
    ``cacheScope`` on every cacheable 2026-07-28 result; ``list_ttl_ms`` overrides the ttl."""

    from tests.server.helpers import RawClient

    mod, generated = example
    info = generated.SERVER_INFO.replace(cache_ttl_ms=5000, cache_scope="public")

    async def hints(server: Any) -> list[tuple[int, str]]:
        out = []
        async with RawClient(server, "2026-07-28") as raw:
            for method, params in [
                ("tools/list", {}),
                ("resources/list", {}),
                ("resources/templates/list", {}),
                ("prompts/list", {}),
                ("resources/read", {"uri": "test://static-text"}),
            ]:
                result = (await raw.request(method, params))["result"]
                out.append((result["ttlMs"], result["cacheScope"]))
        return out

    class Handlers(mod.Handlers):  # type: ignore[misc, name-defined]
        async def read_logo(self, ctx: ToolContext) -> bytes:
            return PNG

        async def read_item(self, params: ItemParams, ctx: ToolContext) -> str:
            return "item"

        async def prompt_built(self, args: GreetArgs, ctx: ToolContext) -> Any:
            return "built"

    server = build_server(Handlers(), generated.BINDINGS, info, **_bindings())
    assert anyio.run(hints, server) == [(5000, "public")] * 5
    server = build_server(Handlers(), generated.BINDINGS, info, list_ttl_ms=7, **_bindings())
    assert anyio.run(hints, server) == [(7, "public")] * 5


@pytest.mark.parametrize("revision", ["2025-11-25", "2026-07-28"])
def test_prompt_arguments_of_the_wrong_type_are_invalid_params(example: Any, revision: str) -> None:
    from tests.server.helpers import RawClient

    async def main() -> None:
        async with RawClient(_server(example), revision) as raw:
            for arguments in ({"name": 5}, {"name": ["Ada"]}, "Ada"):
                resp = await raw.request("prompts/get", {"name": "greet", "arguments": arguments})
                assert resp["error"]["code"] == -32602, resp
            missing = await raw.request("prompts/get", {"name": "nope", "arguments": {}})
            assert missing["error"]["code"] == -32602
            sub = await raw.request("resources/subscribe", {"uri": "test://nothing"})
            if revision == "2025-11-25":
                assert sub["error"]["code"] == -32002

    anyio.run(main)


def test_every_list_is_paginated(example: Any) -> None:
    from tests.server.helpers import RawClient

    mod, generated = example

    class Handlers(mod.Handlers):  # type: ignore[misc, name-defined]
        async def read_logo(self, ctx: ToolContext) -> bytes:
            return PNG

        async def read_item(self, params: ItemParams, ctx: ToolContext) -> str:
            return "item"

        async def prompt_built(self, args: GreetArgs, ctx: ToolContext) -> Any:
            return "built"

    server = build_server(
        Handlers(), generated.BINDINGS, generated.SERVER_INFO, page_size=1, **_bindings()
    )

    async def every(raw: RawClient, method: str, key: str) -> list[str]:
        names: list[str] = []
        cursor = None
        for _ in range(10):
            result = (await raw.request(method, {"cursor": cursor} if cursor else {}))["result"]
            assert len(result[key]) <= 1
            names += [i["name"] for i in result[key]]
            cursor = result.get("nextCursor")
            if cursor is None:
                return names
        raise AssertionError("no last page")

    async def main() -> None:
        async with RawClient(server, "2025-11-25") as raw:
            assert await every(raw, "resources/list", "resources") == ["static-text", "logo"]
            assert await every(raw, "prompts/list", "prompts") == ["greet", "built"]
            bad = await raw.request("prompts/list", {"cursor": "prompts:99"})
            assert bad["error"]["code"] == -32602

    anyio.run(main)


def test_listen_streams_get_resource_updates_and_list_changes(example: Any) -> None:
    """2026-07-28: ``subscriptions/listen`` with resource subscriptions gets
    ``resources/updated`` for the URI it named (and not for others) and
    ``resources/list_changed``, from the same handler calls as the handshake wire."""
    mod, generated = example

    class Changing(mod.Handlers):  # type: ignore[misc, name-defined]
        async def read_logo(self, ctx: ToolContext) -> bytes:
            return PNG

        async def read_item(self, params: ItemParams, ctx: ToolContext) -> str:
            return "item"

        async def prompt_built(self, args: GreetArgs, ctx: ToolContext) -> Any:
            return "built"

        async def test_simple_text(self, args: Any, ctx: ToolContext) -> Any:
            await ctx.resource_updated("test://logo")  # not subscribed: not delivered
            await ctx.resource_updated("test://static-text")
            await ctx.set_resource_enabled("test://logo", False)
            return "changed"

    server = build_server(Changing(), generated.BINDINGS, generated.SERVER_INFO, **_bindings())

    async def main() -> list[str]:
        seen: list[str] = []
        async with Client(server, mode="2026-07-28") as client:  # type: ignore[arg-type]
            async with client.listen(
                resources_list_changed=True, resource_subscriptions=["test://static-text"]
            ) as sub:
                await client.call_tool("test_simple_text", {})
                with anyio.fail_after(10):
                    async for event in sub:
                        seen.append(repr(event))
                        if len(seen) == 2:
                            break
        return seen

    seen = anyio.run(main)
    assert any("static-text" in s for s in seen), seen
    assert any("ListChanged" in s or "list_changed" in s.lower() for s in seen), seen
    assert not any("test://logo" in s for s in seen), seen
