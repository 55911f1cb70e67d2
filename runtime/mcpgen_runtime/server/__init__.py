"""The server runtime: a generated package's tools, resources and prompts, served by the lean
engine (``mcpgen_runtime.lean``) or on the official MCP Python SDK's ``Server``.

``build`` (the runtime, assembled without the SDK), ``sdk_server`` (the SDK's ``Server`` around
it, made when something needs the SDK), ``tools``, ``resources``, ``prompts`` (the methods),
``context`` (what handlers use), ``errors`` (the protocol errors the runtime raises),
``shaping`` (responses per protocol revision), ``validation`` (JSON Schema checks on
jsonschema-rs), ``cli`` (``python -m <package>``). Import the public names from
``mcpgen_runtime``.
"""
