"""The conformance suite's fixture tools, written against the mcpgen runtime API.

Each handler does what the official suite's scenario for it checks (the python-sdk
"everything" server is the reference). Input requests go through one API on every wire:
``await ctx.elicit(Model, "message")`` / ``ctx.sample(...)`` / ``ctx.list_roots()`` /
``ctx.ask(...)``; on 2026-07-28 the runtime answers with an ``InputRequiredResult`` and runs
the handler again on the client's retry.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Mapping

from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field

from mcpgen_runtime import (
    AudioContent,
    Elicit,
    EmbeddedResource,
    ImageContent,
    ListRoots,
    Sample,
    TextContent,
    TextResourceContents,
    ToolContext,
    ToolError,
    ToolResult,
)

from ._generated import ToolsBase
from ._generated.models import (
    ConfirmDeleteInput,
    FailingJobInput,
    GreetInput,
    JsonSchema202012ToolInput,
    MultiInputInput,
    PromptTestPromptWithEmbeddedResourceInput,
    ProtocolErrorJobInput,
    ReadTemplateDataInput,
    SlowComputeInput,
    TestAudioContentInput,
    TestElicitationInput,
    TestElicitationSep1034DefaultsInput,
    TestElicitationSep1330EnumsInput,
    TestEmbeddedResourceInput,
    TestErrorHandlingInput,
    TestImageContentInput,
    TestInputRequiredResultCapabilitiesInput,
    TestInputRequiredResultElicitationInput,
    TestInputRequiredResultListRootsInput,
    TestInputRequiredResultMultipleInputsInput,
    TestInputRequiredResultMultiRoundInput,
    TestInputRequiredResultRequestStateInput,
    TestInputRequiredResultSamplingInput,
    TestInputRequiredResultTamperedStateInput,
    TestLoggingToolInput,
    TestMissingCapabilityInput,
    TestMultipleContentTypesInput,
    TestReconnectionInput,
    TestSamplingInput,
    TestSimpleTextInput,
    TestStreamingElicitationInput,
    TestToolWithLoggingInput,
    TestToolWithProgressInput,
    TestToolWithTaskInput,
    TestTriggerPromptChangeInput,
    TestTriggerToolChangeInput,
    TestXMcpHeaderInput,
)

__all__ = ["Handlers", "ToolError", "ToolResult"]

TEST_IMAGE_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="  # noqa: E501
TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="


class UserResponse(BaseModel):
    response: str = Field(description="User's response")


class Name(BaseModel):
    name: str


class Confirm(BaseModel):
    ok: bool


class Color(BaseModel):
    color: str


class PromptContext(BaseModel):
    context: str


class Sep1034Defaults(BaseModel):
    name: str = Field(default="John Doe", description="User name")
    age: int = Field(default=30, description="User age")
    score: float = Field(default=95.5, description="User score")
    status: str = Field(
        default="active",
        description="User status",
        json_schema_extra={"enum": ["active", "inactive", "pending"]},
    )
    verified: bool = Field(default=True, description="Verification status")


class Sep1330Enums(BaseModel):
    untitledSingle: str = Field(
        description="Simple enum without titles",
        json_schema_extra={"enum": ["active", "inactive", "pending"]},
    )
    titledSingle: str = Field(
        description="Enum with titled options (oneOf)",
        json_schema_extra={
            "oneOf": [
                {"const": "low", "title": "Low Priority"},
                {"const": "medium", "title": "Medium Priority"},
                {"const": "high", "title": "High Priority"},
            ]
        },
    )
    untitledMulti: list[str] = Field(
        description="Multi-select without titles",
        json_schema_extra={"items": {"type": "string", "enum": ["read", "write", "execute"]}},
    )
    titledMulti: list[str] = Field(
        description="Multi-select with titled options",
        json_schema_extra={
            "items": {
                "anyOf": [
                    {"const": "feature", "title": "New Feature"},
                    {"const": "bug", "title": "Bug Fix"},
                    {"const": "docs", "title": "Documentation"},
                ]
            }
        },
    )
    legacyEnum: str = Field(
        description="Legacy enum with enumNames",
        json_schema_extra={
            "enum": ["small", "medium", "large"],
            "enumNames": ["Small Size", "Medium Size", "Large Size"],
        },
    )


def _text(answer: object) -> str:
    content = getattr(answer, "content", None)
    return str(getattr(content, "text", "?"))


class ConfirmForm(BaseModel):
    confirm: bool


class Handlers(ToolsBase):
    async def test_simple_text(self, args: TestSimpleTextInput, ctx: ToolContext) -> ToolResult:
        return ToolResult(
            content=[TextContent(type="text", text="This is a simple text response for testing.")]
        )

    async def test_image_content(self, args: TestImageContentInput, ctx: ToolContext) -> ToolResult:
        return ToolResult(
            content=[ImageContent(type="image", data=TEST_IMAGE_BASE64, mime_type="image/png")]
        )

    async def test_audio_content(self, args: TestAudioContentInput, ctx: ToolContext) -> ToolResult:
        return ToolResult(
            content=[AudioContent(type="audio", data=TEST_AUDIO_BASE64, mime_type="audio/wav")]
        )

    async def test_embedded_resource(
        self, args: TestEmbeddedResourceInput, ctx: ToolContext
    ) -> ToolResult:
        resource = TextResourceContents(
            uri="test://embedded-resource",
            mime_type="text/plain",
            text="This is an embedded resource content.",
        )
        return ToolResult(content=[EmbeddedResource(type="resource", resource=resource)])

    async def test_multiple_content_types(
        self, args: TestMultipleContentTypesInput, ctx: ToolContext
    ) -> ToolResult:
        resource = TextResourceContents(
            uri="test://mixed-content-resource",
            mime_type="application/json",
            text='{"test": "data", "value": 123}',
        )
        return ToolResult(
            content=[
                TextContent(type="text", text="Multiple content types test:"),
                ImageContent(type="image", data=TEST_IMAGE_BASE64, mime_type="image/png"),
                EmbeddedResource(type="resource", resource=resource),
            ]
        )

    async def test_error_handling(
        self, args: TestErrorHandlingInput, ctx: ToolContext
    ) -> ToolResult:
        raise ToolError("This tool intentionally returns an error for testing")

    async def test_tool_with_logging(self, args: TestToolWithLoggingInput, ctx: ToolContext) -> str:
        await ctx.log("info", "Tool execution started")
        await asyncio.sleep(0.05)
        await ctx.log("info", "Tool processing data")
        await asyncio.sleep(0.05)
        await ctx.log("info", "Tool execution completed")
        return "Tool with logging executed successfully"

    async def test_tool_with_progress(
        self, args: TestToolWithProgressInput, ctx: ToolContext
    ) -> str:
        await ctx.progress(0, 100, "Completed step 0 of 100")
        await asyncio.sleep(0.05)
        await ctx.progress(50, 100, "Completed step 50 of 100")
        await asyncio.sleep(0.05)
        await ctx.progress(100, 100, "Completed step 100 of 100")
        return str(ctx.progress_token if ctx.progress_token is not None else 0)

    async def test_sampling(self, args: TestSamplingInput, ctx: ToolContext) -> str:
        answer = await ctx.sample(args.prompt, max_tokens=100)
        return f"LLM response: {_text(answer)}"

    async def test_elicitation(self, args: TestElicitationInput, ctx: ToolContext) -> str:
        answer = await ctx.elicit(UserResponse, args.message)
        content = answer.data.model_dump_json() if answer.data is not None else "{}"
        return f"User response: action={answer.action}, content={content}"

    async def test_elicitation_sep1034_defaults(
        self, args: TestElicitationSep1034DefaultsInput, ctx: ToolContext
    ) -> str:
        answer = await ctx.elicit(Sep1034Defaults, "Please provide user information")
        content = answer.data.model_dump_json() if answer.data is not None else "{}"
        return f"Elicitation result: action={answer.action}, content={content}"

    async def test_elicitation_sep1330_enums(
        self, args: TestElicitationSep1330EnumsInput, ctx: ToolContext
    ) -> str:
        answer = await ctx.elicit(
            Sep1330Enums, "Please select values using different enum schema types"
        )
        content = answer.data.model_dump_json() if answer.data is not None else "{}"
        return f"Elicitation completed: action={answer.action}, content={content}"

    async def test_x_mcp_header(self, args: TestXMcpHeaderInput, ctx: ToolContext) -> str:
        return f"region={args.region if args.region is not None else '<none>'}"

    async def test_missing_capability(
        self, args: TestMissingCapabilityInput, ctx: ToolContext
    ) -> str:
        if not ctx.client_supports("sampling"):
            raise MCPError(
                code=-32021,
                message="This tool requires the client 'sampling' capability",
                data={"requiredCapabilities": {"sampling": {}}},
            )
        return "Client declared sampling capability; proceeding."

    async def test_input_required_result_elicitation(
        self, args: TestInputRequiredResultElicitationInput, ctx: ToolContext
    ) -> str:
        answer = await ctx.elicit(Name, "What is your name?", key="user_name")
        return f"Hello, {answer.data.name if answer.data is not None else 'stranger'}!"

    async def test_input_required_result_sampling(
        self, args: TestInputRequiredResultSamplingInput, ctx: ToolContext
    ) -> str:
        answer = await ctx.sample(
            "What is the capital of France?", max_tokens=100, key="capital_question"
        )
        return f"Model said: {_text(answer)}"

    async def test_input_required_result_list_roots(
        self, args: TestInputRequiredResultListRootsInput, ctx: ToolContext
    ) -> str:
        roots = await ctx.list_roots(key="client_roots")
        return f"Client exposed {len(roots)} root(s)."

    async def test_input_required_result_request_state(
        self, args: TestInputRequiredResultRequestStateInput, ctx: ToolContext
    ) -> str:
        # The runtime seals and verifies requestState; reaching the line after the question
        # means the echoed state passed its integrity check.
        await ctx.elicit(Confirm, "Please confirm", key="confirm")
        return "state-ok: confirmation received"

    async def test_input_required_result_multiple_inputs(
        self, args: TestInputRequiredResultMultipleInputsInput, ctx: ToolContext
    ) -> str:
        await ctx.ask(
            Elicit(Name, "What is your name?", key="user_name"),
            Sample("Generate a greeting", max_tokens=50, key="greeting"),
            ListRoots(key="client_roots"),
        )
        return "All inputs received."

    async def test_input_required_result_multi_round(
        self, args: TestInputRequiredResultMultiRoundInput, ctx: ToolContext
    ) -> str:
        name = await ctx.elicit(Name, "Step 1: What is your name?", key="step1")
        color = await ctx.elicit(Color, "Step 2: What is your favorite color?", key="step2")
        who = name.data.name if name.data is not None else "someone"
        what = color.data.color if color.data is not None else "nothing"
        return f"{who} likes {what}."

    async def test_input_required_result_tampered_state(
        self, args: TestInputRequiredResultTamperedStateInput, ctx: ToolContext
    ) -> str:
        await ctx.elicit(Confirm, "Please confirm", key="confirm")
        return "state-ok: round-1"

    async def test_input_required_result_capabilities(
        self, args: TestInputRequiredResultCapabilitiesInput, ctx: ToolContext
    ) -> str:
        questions: list[Elicit[Name] | Sample] = []
        if ctx.client_supports("sampling"):
            questions.append(Sample("Say hello", max_tokens=50, key="sample"))
        if ctx.client_supports("elicitation"):
            questions.append(Elicit(Name, "What is your name?", key="ask"))
        if not questions:
            raise ToolError("This tool needs the client to support sampling or elicitation.")
        await ctx.ask(*questions)
        return "capability-gated inputs received"

    async def test_trigger_tool_change(
        self, args: TestTriggerToolChangeInput, ctx: ToolContext
    ) -> str:
        await ctx.set_tool_enabled("test_simple_text", False)
        await ctx.set_tool_enabled("test_simple_text", True)
        return "tool list changed"

    async def test_trigger_prompt_change(
        self, args: TestTriggerPromptChangeInput, ctx: ToolContext
    ) -> str:
        await ctx.set_prompt_enabled("test_simple_prompt", False)
        await ctx.set_prompt_enabled("test_simple_prompt", True)
        return "prompt list changed"

    async def test_streaming_elicitation(
        self, args: TestStreamingElicitationInput, ctx: ToolContext
    ) -> str:
        await ctx.progress(0, 1, "asking")
        answer = await ctx.elicit(UserResponse, "Say something", key="streamed")
        return f"User response: action={answer.action}"

    async def test_logging_tool(self, args: TestLoggingToolInput, ctx: ToolContext) -> str:
        await ctx.log("info", "test_logging_tool ran")
        return "logged (if the request opted in)"

    async def test_reconnection(self, args: TestReconnectionInput, ctx: ToolContext) -> str:
        await ctx.log("info", "Before disconnect")
        await ctx.close_sse_stream()
        await asyncio.sleep(0.2)  # the client reconnects with Last-Event-ID
        await ctx.log("info", "After reconnect")
        return "Reconnection test completed"

    async def json_schema_2020_12_tool(
        self, args: JsonSchema202012ToolInput, ctx: ToolContext
    ) -> str:
        return "json_schema_2020_12_tool"

    # -- resources, templates and prompts ------------------------------------------------

    async def read_static_binary(self, ctx: ToolContext) -> bytes:
        return base64.b64decode(TEST_IMAGE_BASE64)

    async def read_template_data(self, params: ReadTemplateDataInput, ctx: ToolContext) -> str:
        return json.dumps(
            {"id": params.id, "templateTest": True, "data": f"Data for ID: {params.id}"},
            separators=(",", ":"),
        )

    async def prompt_test_prompt_with_embedded_resource(
        self, args: PromptTestPromptWithEmbeddedResourceInput, ctx: ToolContext
    ) -> list[object]:
        return [
            EmbeddedResource(
                type="resource",
                resource=TextResourceContents(
                    uri=args.resource_uri,
                    mime_type="text/plain",
                    text="Embedded resource content for testing.",
                ),
            ),
            "Please process the embedded resource above.",
        ]

    async def prompt_test_prompt_with_image(
        self, args: Mapping[str, str], ctx: ToolContext
    ) -> list[object]:
        return [
            ImageContent(type="image", data=TEST_IMAGE_BASE64, mime_type="image/png"),
            "Please analyze the image above.",
        ]

    async def prompt_test_input_required_result_prompt(
        self, args: Mapping[str, str], ctx: ToolContext
    ) -> str:
        answer = await ctx.elicit(
            PromptContext, "What context should the prompt use?", key="user_context"
        )
        context = answer.data.context if answer.data is not None else "none"
        return f"Use this context: {context}"

    # -- the tasks extension (SEP-2663) -------------------------------------------------------

    async def greet(self, args: GreetInput, ctx: ToolContext) -> str:
        return f"Hello, {args.name}!"

    async def slow_compute(self, args: SlowComputeInput, ctx: ToolContext) -> str:
        steps = max(1, int(args.seconds * 10))
        for step in range(steps):
            await asyncio.sleep(args.seconds / steps)
            await ctx.progress(step + 1, steps)
        return f"Computed {args.label or 'result'} in {args.seconds:g} s"

    async def failing_job(self, args: FailingJobInput, ctx: ToolContext) -> str:
        await asyncio.sleep(1)
        raise ToolError("The job failed: the input data is invalid")

    async def protocol_error_job(self, args: ProtocolErrorJobInput, ctx: ToolContext) -> str:
        await asyncio.sleep(0.2)
        raise MCPError(code=-32603, message="The job's backend crashed")

    async def confirm_delete(self, args: ConfirmDeleteInput, ctx: ToolContext) -> str:
        answer = await ctx.elicit(ConfirmForm, f"Delete {args.filename}?", key="confirm")
        if answer.data is not None and answer.data.confirm:
            return f"Deleted {args.filename}"
        return f"Kept {args.filename}"

    async def multi_input(self, args: MultiInputInput, ctx: ToolContext) -> str:
        name, confirm = await ctx.ask(
            Elicit(Name, "Your name?", key="name"), Elicit(ConfirmForm, "Go ahead?", key="go")
        )
        who = name.data.name if name.data is not None else "nobody"
        go = confirm.data is not None and confirm.data.confirm
        return f"{who}: {'confirmed' if go else 'declined'}"

    async def test_tool_with_task(self, args: TestToolWithTaskInput, ctx: ToolContext) -> str:
        answer = await ctx.elicit(Name, "What is your name?", key="user_name", before_task=True)
        await asyncio.sleep(0.5)
        who = answer.data.name if answer.data is not None else "stranger"
        return f"Hello, {who}! Your task is done."
