"""The generator's view of a manifest for a typed client package. Pure.

Like ``codegen.server.ir``: manifest strings never become code here; names come from
``codegen.naming``; templates emit strings through ``pyrepr``/``docstring``. The keyword
parameters of each method are derived later (``codegen.parameters``) from the generated
input models, so they are exactly the models' fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from codegen import __version__
from codegen.manifest.model import Manifest
from codegen.naming import class_name_from
from codegen.toolset import prepare_tools
from mcpgen_runtime import API_VERSION

# Public attributes of mcpgen_runtime.ToolClient: a tool method must not shadow them
# (tests/client/test_generate.py checks this list against the runtime class).
RESERVED_METHODS: frozenset[str] = frozenset(
    {
        "drift",
        "http",
        "list_live_tools",
        "mcp",
        "protocol_version",
        "server_info",
        "stdio",
        "sync",
        "with_options",
    }
)


@dataclass(frozen=True)
class ClientToolIR:
    index: int
    name: str
    method_name: str
    class_stem: str
    input_model: str
    output_model: str | None
    raw_json: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any] | None
    output_dialect: str | None
    title: str | None
    description: str | None


@dataclass(frozen=True)
class ClientIR:
    package: str
    client_class: str
    server_name: str
    server_title: str | None
    tools: tuple[ClientToolIR, ...]
    manifest_name: str
    runtime_api: tuple[int, int]
    generator: str


def build_client_ir(manifest: Manifest, *, package: str, manifest_name: str) -> ClientIR:
    tools = [
        ClientToolIR(
            index=p.index,
            name=p.tool.name,
            method_name=p.names.method_name,
            class_stem=p.names.class_stem,
            input_model=p.names.input_model,
            output_model=p.names.output_model if p.tool.output_schema is not None else None,
            raw_json=p.raw_json,
            input_schema=p.tool.input_schema,
            output_schema=p.tool.output_schema,
            output_dialect=p.output_dialect,
            title=p.tool.title,
            description=p.tool.description,
        )
        for p in prepare_tools(manifest, package=package, reserved=RESERVED_METHODS)
    ]
    server = manifest.server
    client_class = class_name_from(server.name, suffix="Client", fallback="Server")
    return ClientIR(
        package=package,
        client_class=client_class,
        server_name=server.name,
        server_title=server.title,
        tools=tuple(tools),
        manifest_name=manifest_name,
        runtime_api=API_VERSION,
        generator=f"mcpgen {__version__}",
    )
