"""The generated CLI's ``resources`` group (``resources list``, every page, and ``resources read
URI``) and ``prompts`` group (``prompts get NAME --arg KEY=VALUE``), for a server whose manifest
has resources or prompts, and ``search-tools`` for a server in search or code discovery mode;
results are JSON, as the tools' are."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from .base import ToolClient
    from .cli_skills import Call

__all__ = ["prompts_group", "resources_group", "search_command"]


def resources_group(call: Call) -> click.Group:
    """``call(ctx, body)``: the CLI's way to run ``body`` against a connected client and print
    what it returns."""
    group = click.Group("resources", help="The server's resources.")

    @group.command("list", help="resources/list (every page).")
    @click.pass_context
    def list_resources(ctx: click.Context) -> None:
        async def body(client: ToolClient) -> Any:
            found: list[Any] = []
            cursor: str | None = None
            for _ in range(1000):
                page = await client.mcp.list_resources(cursor=cursor)
                found.extend(page.resources)
                cursor = page.next_cursor
                if cursor is None:
                    break
            return {
                "resources": [
                    r.model_dump(mode="json", by_alias=True, exclude_none=True) for r in found
                ]
            }

        call(ctx.find_root(), body)

    @group.command("read", help="resources/read URI.")
    @click.argument("uri")
    @click.pass_context
    def read_resource(ctx: click.Context, uri: str) -> None:
        async def body(client: ToolClient) -> Any:
            return await client.resources.read(uri)  # type: ignore[attr-defined]

        call(ctx.find_root(), body)

    return group


def prompts_group(call: Call) -> click.Group:
    """``prompts get``, run through ``call`` as ``resources_group``'s commands are."""
    group = click.Group("prompts", help="The server's prompts.")

    @group.command("get", help="prompts/get NAME with --arg KEY=VALUE (repeatable).")
    @click.argument("name")
    @click.option("--arg", "pairs", multiple=True, metavar="KEY=VALUE")
    @click.pass_context
    def get_prompt(ctx: click.Context, name: str, pairs: tuple[str, ...]) -> None:
        arguments: dict[str, str] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep:
                raise click.BadParameter("use KEY=VALUE", param_hint="--arg")
            arguments[key] = value

        async def body(client: ToolClient) -> Any:
            return await client.prompts.get(name, arguments)  # type: ignore[attr-defined]

        call(ctx.find_root(), body)

    return group


def search_command(call: Call) -> click.Command:
    """``search-tools QUERY [--limit N]``: the server's tool search (search and code modes);
    the per-tool commands call their tools by name, as always."""

    @click.command("search-tools", help="Search the server's tools by what you want to do (JSON).")
    @click.argument("query")
    @click.option("--limit", type=click.IntRange(1, 50), default=None, help="At most N tools.")
    @click.pass_context
    def search_tools(ctx: click.Context, query: str, limit: int | None) -> None:
        async def body(client: ToolClient) -> Any:
            return {"tools": await client.search_tools(query, limit)}

        call(ctx, body)

    return search_tools
