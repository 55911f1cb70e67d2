"""The server runtime: a generated package's tools served on the official MCP Python SDK.

``tools`` (list and call on ``mcp.server.lowlevel.Server``), ``context`` (what handlers use),
``shaping`` (responses per protocol revision), ``validation`` (JSON Schema checks on
jsonschema-rs), ``cli`` (``python -m <package>``). Import the public names from
``mcpgen_runtime``.
"""
