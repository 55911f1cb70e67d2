"""Tool implementations of this server: fill in one method per tool.

mcpgen created this file once and never overwrites it. After the manifest changes, run
``mcpgen server`` again: it lists tools that are missing here and methods whose tool is gone.
Raise ``ToolError("what went wrong and how to fix it")`` for errors the model should see;
any other exception is logged (stderr) and reported as a generic internal error. Content
blocks for ``ToolResult`` (``TextContent``, ``ImageContent``, ...) come from ``mcpgen_runtime``.
"""

from __future__ import annotations

from mcpgen_runtime import ToolContext, ToolError, ToolResult

from ._generated import ToolsBase

__all__ = ["Handlers", "ToolContext", "ToolError", "ToolResult"]


class Handlers(ToolsBase):
    pass
    # tool "list_items": forwarded to GET /items (server.http) by mcpgen-runtime;
    # define async def list_items(self, args, ctx) here to handle it yourself

    # tool "create_item": forwarded to POST /items (server.http) by mcpgen-runtime;
    # define async def create_item(self, args, ctx) here to handle it yourself

    # tool "get_item": forwarded to GET /items/{item_id} (server.http) by mcpgen-runtime;
    # define async def get_item(self, args, ctx) here to handle it yourself

    # tool "replace_item": forwarded to PUT /items/{item_id} (server.http) by mcpgen-runtime;
    # define async def replace_item(self, args, ctx) here to handle it yourself

    # tool "delete_item": forwarded to DELETE /items/{item_id} (server.http) by mcpgen-runtime;
    # define async def delete_item(self, args, ctx) here to handle it yourself

    # tool "count_items_count_get": forwarded to GET /count (server.http) by mcpgen-runtime;
    # define async def count_items_count_get(self, args, ctx) here to handle it yourself
