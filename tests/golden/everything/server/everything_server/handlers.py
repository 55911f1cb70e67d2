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
    EchoInput,
    GetAnnotatedMessageInput,
    GetEnvInput,
    GetResourceLinksInput,
    GetResourceReferenceInput,
    GetStructuredContentInput,
    GetStructuredContentOutput,
    GetSumInput,
    GetTinyImageInput,
    GzipFileAsResourceInput,
    ToggleSimulatedLoggingInput,
    ToggleSubscriberUpdatesInput,
    TriggerLongRunningOperationInput,
    SimulateResearchQueryInput,
    ReadDynamicTextResourceInput,
    ReadDynamicBlobResourceInput,
    PromptArgsPromptInput,
    PromptCompletablePromptInput,
    PromptResourcePromptInput,
)

__all__ = ["Handlers", "ToolError", "ToolResult"]


class Handlers(ToolsBase):
    async def echo(self, args: EchoInput, ctx: ToolContext) -> ToolResult:
        # tool "echo"
        # Echoes back the input string
        raise NotImplementedError

    async def get_annotated_message(
        self, args: GetAnnotatedMessageInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "get-annotated-message"
        # Demonstrates how annotations can be used to provide metadata about content.
        raise NotImplementedError

    async def get_env(self, args: GetEnvInput, ctx: ToolContext) -> ToolResult:
        # tool "get-env"
        # Returns all environment variables, helpful for debugging MCP server configuration
        raise NotImplementedError

    async def get_resource_links(self, args: GetResourceLinksInput, ctx: ToolContext) -> ToolResult:
        # tool "get-resource-links"
        # Returns up to ten resource links that reference different types of resources
        raise NotImplementedError

    async def get_resource_reference(
        self, args: GetResourceReferenceInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "get-resource-reference"
        # Returns a resource reference that can be used by MCP clients
        raise NotImplementedError

    async def get_structured_content(
        self, args: GetStructuredContentInput, ctx: ToolContext
    ) -> GetStructuredContentOutput:
        # tool "get-structured-content"
        # Returns structured content along with an output schema for client data validation
        raise NotImplementedError

    async def get_sum(self, args: GetSumInput, ctx: ToolContext) -> ToolResult:
        # tool "get-sum"
        # Returns the sum of two numbers
        raise NotImplementedError

    async def get_tiny_image(self, args: GetTinyImageInput, ctx: ToolContext) -> ToolResult:
        # tool "get-tiny-image"
        # Returns a tiny MCP logo image.
        raise NotImplementedError

    async def gzip_file_as_resource(
        self, args: GzipFileAsResourceInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "gzip-file-as-resource"
        # Compresses a single file using gzip compression. Depending upon the selected output type, returns either the compressed data as a gzipped resource or a resource link, allowing it to be downloaded i...
        raise NotImplementedError

    async def toggle_simulated_logging(
        self, args: ToggleSimulatedLoggingInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "toggle-simulated-logging"
        # Toggles simulated, random-leveled logging on or off.
        raise NotImplementedError

    async def toggle_subscriber_updates(
        self, args: ToggleSubscriberUpdatesInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "toggle-subscriber-updates"
        # Toggles simulated resource subscription updates on or off.
        raise NotImplementedError

    async def trigger_long_running_operation(
        self, args: TriggerLongRunningOperationInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "trigger-long-running-operation"
        # Demonstrates a long running operation with progress updates.
        raise NotImplementedError

    async def simulate_research_query(
        self, args: SimulateResearchQueryInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "simulate-research-query"
        # Simulates a deep research operation that gathers, analyzes, and synthesizes information. Demonstrates MCP task-based operations with progress through multiple stages. If 'ambiguous' is true and cli...
        raise NotImplementedError

    async def read_architecture_md(self, ctx: ToolContext) -> str:
        # resource "demo://resource/static/document/architecture.md"
        raise NotImplementedError

    async def read_extension_md(self, ctx: ToolContext) -> str:
        # resource "demo://resource/static/document/extension.md"
        raise NotImplementedError

    async def read_features_md(self, ctx: ToolContext) -> str:
        # resource "demo://resource/static/document/features.md"
        raise NotImplementedError

    async def read_how_it_works_md(self, ctx: ToolContext) -> str:
        # resource "demo://resource/static/document/how-it-works.md"
        raise NotImplementedError

    async def read_instructions_md(self, ctx: ToolContext) -> str:
        # resource "demo://resource/static/document/instructions.md"
        raise NotImplementedError

    async def read_startup_md(self, ctx: ToolContext) -> str:
        # resource "demo://resource/static/document/startup.md"
        raise NotImplementedError

    async def read_structure_md(self, ctx: ToolContext) -> str:
        # resource "demo://resource/static/document/structure.md"
        raise NotImplementedError

    async def read_dynamic_text_resource(
        self, params: ReadDynamicTextResourceInput, ctx: ToolContext
    ) -> str:
        # resource template "demo://resource/dynamic/text/{resourceId}"
        raise NotImplementedError

    async def read_dynamic_blob_resource(
        self, params: ReadDynamicBlobResourceInput, ctx: ToolContext
    ) -> str:
        # resource template "demo://resource/dynamic/blob/{resourceId}"
        raise NotImplementedError

    async def prompt_simple_prompt(self, args: Mapping[str, str], ctx: ToolContext) -> str:
        # prompt "simple-prompt"
        raise NotImplementedError

    async def prompt_args_prompt(self, args: PromptArgsPromptInput, ctx: ToolContext) -> str:
        # prompt "args-prompt"
        raise NotImplementedError

    async def prompt_completable_prompt(
        self, args: PromptCompletablePromptInput, ctx: ToolContext
    ) -> str:
        # prompt "completable-prompt"
        raise NotImplementedError

    async def prompt_resource_prompt(
        self, args: PromptResourcePromptInput, ctx: ToolContext
    ) -> str:
        # prompt "resource-prompt"
        raise NotImplementedError
