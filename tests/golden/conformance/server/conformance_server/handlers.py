"""Tool implementations of this server: fill in one method per tool.

mcpgen created this file once and never overwrites it. After the manifest changes, run
``mcpgen server`` again: it lists tools that are missing here and methods whose tool is gone.
Raise ``ToolError("what went wrong and how to fix it")`` for errors the model should see;
any other exception is logged (stderr) and reported as a generic internal error. Content
blocks for ``ToolResult`` (``TextContent``, ``ImageContent``, ...) come from ``mcpgen_runtime``.
"""

from __future__ import annotations

from collections.abc import Mapping

from mcpgen_runtime import ToolContext, ToolError, ToolResult

from ._generated import ToolsBase
from ._generated.models import (
    TestSimpleTextInput,
    TestImageContentInput,
    TestAudioContentInput,
    TestEmbeddedResourceInput,
    TestMultipleContentTypesInput,
    TestErrorHandlingInput,
    TestToolWithLoggingInput,
    TestToolWithProgressInput,
    TestSamplingInput,
    TestElicitationInput,
    TestElicitationSep1034DefaultsInput,
    TestElicitationSep1330EnumsInput,
    TestXMcpHeaderInput,
    TestMissingCapabilityInput,
    TestInputRequiredResultElicitationInput,
    TestInputRequiredResultSamplingInput,
    TestInputRequiredResultListRootsInput,
    TestInputRequiredResultRequestStateInput,
    TestInputRequiredResultMultipleInputsInput,
    TestInputRequiredResultMultiRoundInput,
    TestInputRequiredResultTamperedStateInput,
    TestInputRequiredResultCapabilitiesInput,
    TestTriggerToolChangeInput,
    TestTriggerPromptChangeInput,
    TestStreamingElicitationInput,
    TestLoggingToolInput,
    TestReconnectionInput,
    JsonSchema202012ToolInput,
    GreetInput,
    SlowComputeInput,
    FailingJobInput,
    ProtocolErrorJobInput,
    ConfirmDeleteInput,
    MultiInputInput,
    TestToolWithTaskInput,
    ReadTemplateDataInput,
    PromptTestPromptWithEmbeddedResourceInput,
)

__all__ = ["Handlers", "ToolError", "ToolResult"]


class Handlers(ToolsBase):
    async def test_simple_text(self, args: TestSimpleTextInput, ctx: ToolContext) -> ToolResult:
        # tool "test_simple_text"
        # Tests simple text content response
        raise NotImplementedError

    async def test_image_content(self, args: TestImageContentInput, ctx: ToolContext) -> ToolResult:
        # tool "test_image_content"
        # Tests image content response
        raise NotImplementedError

    async def test_audio_content(self, args: TestAudioContentInput, ctx: ToolContext) -> ToolResult:
        # tool "test_audio_content"
        # Tests audio content response
        raise NotImplementedError

    async def test_embedded_resource(
        self, args: TestEmbeddedResourceInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_embedded_resource"
        # Tests embedded resource content response
        raise NotImplementedError

    async def test_multiple_content_types(
        self, args: TestMultipleContentTypesInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_multiple_content_types"
        # Tests response with multiple content types
        raise NotImplementedError

    async def test_error_handling(
        self, args: TestErrorHandlingInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_error_handling"
        # Tests error response handling
        raise NotImplementedError

    async def test_tool_with_logging(
        self, args: TestToolWithLoggingInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_tool_with_logging"
        # Tests tool that emits log messages during execution
        raise NotImplementedError

    async def test_tool_with_progress(
        self, args: TestToolWithProgressInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_tool_with_progress"
        # Tests tool that reports progress notifications
        raise NotImplementedError

    async def test_sampling(self, args: TestSamplingInput, ctx: ToolContext) -> ToolResult:
        # tool "test_sampling"
        # Tests server-initiated sampling (LLM completion request)
        raise NotImplementedError

    async def test_elicitation(self, args: TestElicitationInput, ctx: ToolContext) -> ToolResult:
        # tool "test_elicitation"
        # Tests server-initiated elicitation (user input request)
        raise NotImplementedError

    async def test_elicitation_sep1034_defaults(
        self, args: TestElicitationSep1034DefaultsInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_elicitation_sep1034_defaults"
        # Tests elicitation with default values for all primitive types (SEP-1034)
        raise NotImplementedError

    async def test_elicitation_sep1330_enums(
        self, args: TestElicitationSep1330EnumsInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_elicitation_sep1330_enums"
        # Tests elicitation with enum schema variations per SEP-1330
        raise NotImplementedError

    async def test_x_mcp_header(self, args: TestXMcpHeaderInput, ctx: ToolContext) -> ToolResult:
        # tool "test_x_mcp_header"
        # Tests SEP-2243 Mcp-Param-* server-side validation
        raise NotImplementedError

    async def test_missing_capability(
        self, args: TestMissingCapabilityInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_missing_capability"
        # Requires the client 'sampling' capability; without it answers -32021
        raise NotImplementedError

    async def test_input_required_result_elicitation(
        self, args: TestInputRequiredResultElicitationInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_input_required_result_elicitation"
        # Tests InputRequiredResult with a single elicitation request
        raise NotImplementedError

    async def test_input_required_result_sampling(
        self, args: TestInputRequiredResultSamplingInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_input_required_result_sampling"
        # Tests InputRequiredResult with a single sampling request
        raise NotImplementedError

    async def test_input_required_result_list_roots(
        self, args: TestInputRequiredResultListRootsInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_input_required_result_list_roots"
        # Tests InputRequiredResult with a single roots/list request
        raise NotImplementedError

    async def test_input_required_result_request_state(
        self, args: TestInputRequiredResultRequestStateInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_input_required_result_request_state"
        # Tests requestState round-tripping in the InputRequiredResult flow
        raise NotImplementedError

    async def test_input_required_result_multiple_inputs(
        self, args: TestInputRequiredResultMultipleInputsInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_input_required_result_multiple_inputs"
        # Tests InputRequiredResult carrying elicitation, sampling and roots requests together
        raise NotImplementedError

    async def test_input_required_result_multi_round(
        self, args: TestInputRequiredResultMultiRoundInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_input_required_result_multi_round"
        # Tests a three-round InputRequiredResult flow with evolving requestState
        raise NotImplementedError

    async def test_input_required_result_tampered_state(
        self, args: TestInputRequiredResultTamperedStateInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_input_required_result_tampered_state"
        # Tests that the server rejects a tampered requestState echo
        raise NotImplementedError

    async def test_input_required_result_capabilities(
        self, args: TestInputRequiredResultCapabilitiesInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_input_required_result_capabilities"
        # Tests that inputRequests only include methods the client declared support for
        raise NotImplementedError

    async def test_trigger_tool_change(
        self, args: TestTriggerToolChangeInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_trigger_tool_change"
        # Disables and re-enables a tool and announces tools/list_changed
        raise NotImplementedError

    async def test_trigger_prompt_change(
        self, args: TestTriggerPromptChangeInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_trigger_prompt_change"
        # Disables and re-enables a prompt and announces prompts/list_changed
        raise NotImplementedError

    async def test_streaming_elicitation(
        self, args: TestStreamingElicitationInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_streaming_elicitation"
        # Diagnostic tool of server-stateless; asks the user once (an InputRequiredResult on 2026-07-28, never a request on the stream)
        raise NotImplementedError

    async def test_logging_tool(self, args: TestLoggingToolInput, ctx: ToolContext) -> ToolResult:
        # tool "test_logging_tool"
        # Diagnostic tool of server-stateless; logs only when the request opted in
        raise NotImplementedError

    async def test_reconnection(self, args: TestReconnectionInput, ctx: ToolContext) -> ToolResult:
        # tool "test_reconnection"
        # Tests SSE polling by closing the stream mid-call (SEP-1699; run with --resumable)
        raise NotImplementedError

    async def json_schema_2020_12_tool(
        self, args: JsonSchema202012ToolInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "json_schema_2020_12_tool"
        # Tool with JSON Schema 2020-12 features
        raise NotImplementedError

    async def greet(self, args: GreetInput, ctx: ToolContext) -> ToolResult:
        # tool "greet"
        # Greets someone (a plain tool; never a task)
        raise NotImplementedError

    async def slow_compute(self, args: SlowComputeInput, ctx: ToolContext) -> ToolResult:
        # tool "slow_compute"
        # Sleeps `seconds` seconds, then answers (a task when the client declares the tasks extension)
        raise NotImplementedError

    async def failing_job(self, args: FailingJobInput, ctx: ToolContext) -> ToolResult:
        # tool "failing_job"
        # Works about a second, then fails with a tool error (always a task)
        raise NotImplementedError

    async def protocol_error_job(self, args: ProtocolErrorJobInput, ctx: ToolContext) -> ToolResult:
        # tool "protocol_error_job"
        # Works briefly, then fails with a JSON-RPC error (a protocol-level failure)
        raise NotImplementedError

    async def confirm_delete(self, args: ConfirmDeleteInput, ctx: ToolContext) -> ToolResult:
        # tool "confirm_delete"
        # Asks the user to confirm deleting a file, then answers
        raise NotImplementedError

    async def multi_input(self, args: MultiInputInput, ctx: ToolContext) -> ToolResult:
        # tool "multi_input"
        # Asks two questions at once, then answers
        raise NotImplementedError

    async def test_tool_with_task(
        self, args: TestToolWithTaskInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "test_tool_with_task"
        # Asks the user's name on the call itself, then works on it as a task
        raise NotImplementedError

    async def read_static_binary(self, ctx: ToolContext) -> str:
        # resource "test://static-binary"
        raise NotImplementedError

    async def read_template_data(self, params: ReadTemplateDataInput, ctx: ToolContext) -> str:
        # resource template "test://template/{id}/data"
        raise NotImplementedError

    async def prompt_test_prompt_with_embedded_resource(
        self, args: PromptTestPromptWithEmbeddedResourceInput, ctx: ToolContext
    ) -> str:
        # prompt "test_prompt_with_embedded_resource"
        raise NotImplementedError

    async def prompt_test_prompt_with_image(self, args: Mapping[str, str], ctx: ToolContext) -> str:
        # prompt "test_prompt_with_image"
        raise NotImplementedError

    async def prompt_test_input_required_result_prompt(
        self, args: Mapping[str, str], ctx: ToolContext
    ) -> str:
        # prompt "test_input_required_result_prompt"
        raise NotImplementedError
