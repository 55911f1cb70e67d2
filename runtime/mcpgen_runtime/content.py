"""The content types handlers build results from: the wire models of the newest MCP revision
(``mcp_wire.v2026_07_28``), e.g. ``TextContent``, ``ImageContent``, ``AudioContent``,
``ResourceLink``, ``EmbeddedResource``, ``Annotations``. The runtime downgrades blocks a
client's revision lacks. ``mcpgen_runtime`` exports the ones handlers use (``__init__.pyi``).

They come from the revision's ``content`` module alone: importing them does not create the
revision's other models (``mcp_wire.v2026_07_28.protocol``), which a server's first call
would otherwise pay for.
"""

from mcp_wire.v2026_07_28.content import *  # noqa: F403
