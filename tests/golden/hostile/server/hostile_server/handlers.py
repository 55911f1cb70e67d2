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
    ClassInput,
    GetUserInput,
    GetUser2Input,
    GetUserV2Input,
    Tool2faInput,
    SelfInput,
    StdioInput,
    AToolNameOfSixtyFourCharactersWhichIsTheLongestAllowedInput,
    StringsInput,
    StringsOutput,
    ReadTemplateInput,
)

__all__ = ["Handlers", "ToolError", "ToolResult"]


class Handlers(ToolsBase):
    async def class_(self, args: ClassInput, ctx: ToolContext) -> ToolResult:
        # tool "class"
        # Python keyword as a tool name. Descriptions carry """ and \'\'\' and a trailing backslash \\
        raise NotImplementedError

    async def get_user(self, args: GetUserInput, ctx: ToolContext) -> ToolResult:
        # tool "get-user"
        # get-user and getUser are both get_user in Python
        raise NotImplementedError

    async def get_user_2(self, args: GetUser2Input, ctx: ToolContext) -> ToolResult:
        # tool "getUser"
        # get-user and getUser are both get_user in Python
        raise NotImplementedError

    async def get_user_v2(self, args: GetUserV2Input, ctx: ToolContext) -> ToolResult:
        # tool "get.user.v2"
        # dots in a tool name
        raise NotImplementedError

    async def tool_2fa(self, args: Tool2faInput, ctx: ToolContext) -> ToolResult:
        # tool "2fa"
        # starts with a digit
        raise NotImplementedError

    async def self_(self, args: SelfInput, ctx: ToolContext) -> ToolResult:
        # tool "self"
        # the name of the method's first parameter
        raise NotImplementedError

    async def stdio(self, args: StdioInput, ctx: ToolContext) -> ToolResult:
        # tool "stdio"
        # the name of the client's own classmethod
        raise NotImplementedError

    async def a_tool_name_of_sixty_four_characters_which_is_the_longest_allowed(
        self, args: AToolNameOfSixtyFourCharactersWhichIsTheLongestAllowedInput, ctx: ToolContext
    ) -> ToolResult:
        # tool "a_tool_name_of_sixty_four_characters_which_is_the_longest_allowed"
        # A very long description. The quick brown fox jumps over the lazy dog; "quoted", \'apostrophed\', \\back\\slashed\\, {{ braced }}, {% tagged %}, </script>. The quick brown fox jumps over the lazy dog; "q...
        raise NotImplementedError

    async def strings(self, args: StringsInput, ctx: ToolContext) -> StringsOutput:
        # tool "strings"
        # """\'\'\'\\
        raise NotImplementedError

    async def read_class(self, ctx: ToolContext) -> str:
        # resource "x-hostile://r/handled"
        raise NotImplementedError

    async def read_template(self, params: ReadTemplateInput, ctx: ToolContext) -> str:
        # resource template "x-hostile://t/{id}"
        raise NotImplementedError

    async def prompt_prompt(self, args: Mapping[str, str], ctx: ToolContext) -> str:
        # prompt "Prompt"
        raise NotImplementedError

    async def prompt_prompt_2(self, args: Mapping[str, str], ctx: ToolContext) -> str:
        # prompt "prompt"
        raise NotImplementedError
