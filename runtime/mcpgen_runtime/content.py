"""The content types handlers build results from: the wire models of the newest MCP revision
(``mcp_wire.v2026_07_28``), e.g. ``TextContent``, ``ImageContent``, ``AudioContent``,
``ResourceLink``, ``EmbeddedResource``, ``Annotations``. The runtime downgrades blocks a
client's revision lacks. ``mcpgen_runtime`` exports the ones handlers use (``__init__.pyi``).
"""

from mcp_wire.v2026_07_28 import *  # noqa: F403
