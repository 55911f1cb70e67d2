"""The generator's view of a manifest for a typed client package. Pure.

Like ``codegen.server.ir``: manifest strings never become code here; names come from
``codegen.naming``; templates emit strings through ``pyrepr``/``docstring``. The keyword
parameters of each method are derived later (``codegen.client.params``) from the generated
input models, so they are exactly the models' fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from codegen import __version__
from codegen.errors import McpgenError
from codegen.manifest.model import Manifest
from codegen.naming import assign_tool_names, class_name_from, package_name_problem
from codegen.server.ir import canonical_json, schema_dialect
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
    problem = package_name_problem(package)
    if problem is not None:
        raise McpgenError(f"--package {package!r} {problem}")
    seen: dict[str, str] = {}
    for tool in manifest.tools:
        if tool.name in seen:
            line, col = manifest.source_map.locate(tool.pointer)
            raise McpgenError(
                f"duplicate tool name {tool.name!r} (also at {seen[tool.name]})",
                path=manifest.path,
                line=line,
                col=col,
            )
        seen[tool.name] = tool.pointer or "/"
    names = assign_tool_names([t.name for t in manifest.tools], reserved=RESERVED_METHODS)
    tools: list[ClientToolIR] = []
    for i, (tool, nm) in enumerate(zip(manifest.tools, names, strict=True)):
        where = f"tool {tool.name!r}"
        out = tool.output_schema
        try:
            raw_json = canonical_json(tool.raw)
        except ValueError as exc:
            line, col = manifest.source_map.locate(tool.pointer)
            raise McpgenError(
                f"{where} is not JSON-serialisable: {exc}", path=manifest.path, line=line, col=col
            ) from exc
        schema_dialect(tool.input_schema, where=f"{where} inputSchema")
        tools.append(
            ClientToolIR(
                index=i,
                name=tool.name,
                method_name=nm.method_name,
                class_stem=nm.class_stem,
                input_model=nm.input_model,
                output_model=nm.output_model if out is not None else None,
                raw_json=raw_json,
                input_schema=tool.input_schema,
                output_schema=out,
                output_dialect=schema_dialect(out, where=f"{where} outputSchema")
                if out is not None
                else None,
                title=tool.title,
                description=tool.description,
            )
        )
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
