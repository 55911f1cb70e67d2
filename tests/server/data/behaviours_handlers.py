"""Handlers for data/behaviours.yaml (copied into the generated test package as handlers.py)."""

from __future__ import annotations

from mcp_wire.v2026_07_28 import MetaObject
from mcpgen_runtime import (
    Annotations,
    AudioContent,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    Role,
    TextContent,
    TextResourceContents,
    ToolContext,
    ToolError,
    ToolResult,
)

from ._generated.base import BehavioursToolsBase
from ._generated.models import (
    BadOutputInput,
    BadOutputOutput,
    BoomInput,
    EchoInput,
    EchoOutput,
    LegacyDraft7Input,
    ListingInput,
    ListingOutput,
    MediaInput,
    ProgressInput,
    RefuseInput,
)

SECRET = "db-password=hunter2"


class Handlers(BehavioursToolsBase):
    async def echo(self, args: EchoInput, ctx: ToolContext) -> EchoOutput:
        text = args.text.upper() if args.mode == "shout" else args.text
        text = text * (args.times or 1)
        return EchoOutput(text=text, length=len(text))

    async def boom(self, args: BoomInput, ctx: ToolContext) -> ToolResult:
        raise RuntimeError(SECRET)

    async def refuse(self, args: RefuseInput, ctx: ToolContext) -> ToolResult:
        raise ToolError(f"refused: {args.reason or 'no reason'}; pass reason='ok' to proceed")

    async def bad_output(self, args: BadOutputInput, ctx: ToolContext) -> BadOutputOutput:
        return BadOutputOutput.model_construct(n=99)

    async def media(self, args: MediaInput, ctx: ToolContext) -> ToolResult:
        ann = Annotations(
            audience=[Role("user")], priority=0.2, last_modified="2025-01-01T00:00:00Z"
        )
        return ToolResult(
            content=[
                TextContent(
                    type="text",
                    text="hello",
                    annotations=ann,
                    meta=MetaObject.model_validate({"k": "v"}),
                ),
                ImageContent(type="image", data="iVBORw0KGgo=", mime_type="image/png"),
                AudioContent(type="audio", data="UklGRg==", mime_type="audio/wav"),
                ResourceLink(
                    type="resource_link",
                    uri="file:///tmp/a.txt",
                    name="a.txt",
                    description="a file",
                    mime_type="text/plain",
                ),
                EmbeddedResource(
                    type="resource",
                    resource=TextResourceContents(
                        uri="file:///tmp/b.txt",
                        text="B",
                        mime_type="text/plain",
                        meta=MetaObject.model_validate({"x": 1}),
                    ),
                    annotations=ann,
                ),
            ]
        )

    async def listing(self, args: ListingInput, ctx: ToolContext) -> ListingOutput:
        return ListingOutput(["a", "b"])

    async def legacy_draft7(self, args: LegacyDraft7Input, ctx: ToolContext) -> ToolResult | str:
        return f"n={args.n.root}"

    async def progress(self, args: ProgressInput, ctx: ToolContext) -> ToolResult:
        await ctx.progress(1, 2, "half")
        await ctx.log("info", {"step": 1})
        return ToolResult(
            content=[TextContent(type="text", text=f"{ctx.protocol_version} {ctx.request_id}")]
        )
