"""The generator's view of a manifest: everything the server templates render, and nothing else.

``build_server_ir(manifest, package=...)`` is pure. Manifest strings never become code here;
they stay data (``raw_json`` is the tool's exact JSON text; names go through
``codegen.naming``). Templates receive only identifiers built by ``codegen.naming`` and
strings that they emit through ``repr()`` (the ``pyrepr`` filter).

Designed to grow (roadmap): per-tool options such as timeouts, size limits, header
parameters (``x-mcp-header``) or elicitation needs become new fields with defaults, so
existing templates and handlers keep working.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from codegen import __version__
from codegen.errors import McpgenError
from codegen.manifest.model import Manifest
from codegen.naming import assign_tool_names, class_name_from, package_name_problem
from mcpgen_runtime import API_VERSION
from mcpgen_runtime.jsonschema_facts import GENERATED_DIALECTS, dialect_of

SUPPORTED_DIALECTS = GENERATED_DIALECTS


def schema_dialect(schema: Mapping[str, Any] | None, *, where: str) -> str:
    """``"2020-12"`` (the default when ``$schema`` is absent) or ``"draft-07"``."""
    dialect, declared = dialect_of(schema)
    if dialect is not None and dialect in SUPPORTED_DIALECTS:
        return dialect
    raise McpgenError(
        f"{where}: unsupported JSON Schema dialect {declared!r} "
        f"(supported: {', '.join(SUPPORTED_DIALECTS)})"
    )


def canonical_json(value: Any) -> str:
    """Compact JSON that keeps key order exactly as written (what is served on tools/list)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True)
class ToolIR:
    """One tool as the templates see it."""

    index: int
    name: str
    method_name: str
    class_stem: str
    input_model: str
    output_model: str | None
    has_output: bool
    raw_json: str
    """The complete wire ``Tool`` object as compact JSON, key order as in the manifest."""
    input_schema: Mapping[str, Any]
    """The parsed inputSchema (what the typed models are generated from)."""
    output_schema: Mapping[str, Any] | None
    input_dialect: str
    output_dialect: str | None
    title: str | None
    description: str | None
    pointer: str


@dataclass(frozen=True)
class ServerIR:
    """A whole server package."""

    package: str
    server_name: str
    server_version: str
    server_title: str | None
    server_description: str | None
    instructions: str | None
    website_url: str | None
    base_class: str
    tools: tuple[ToolIR, ...]
    manifest_name: str
    """The manifest's file name (shown in headers; never a full path, for reproducibility)."""
    revisions: tuple[str, ...]
    runtime_api: tuple[int, int]
    """The ``mcpgen-runtime`` API the package is generated for (checked when it is imported)."""
    generator: str
    """``mcpgen <version>``, named in the import-time runtime check."""
    list_changed: bool = False
    """``server.capabilities.tools.listChanged``: the runtime declares it."""
    server_limits_json: str | None = None
    """``server.limits`` as compact JSON (per-tool limits travel in each tool's JSON)."""

    @property
    def handler_model_imports(self) -> list[str]:
        """The model names ``handlers.py`` imports: each tool's input and output models."""
        names: list[str] = []
        for tool in self.tools:
            names.append(tool.input_model)
            if tool.output_model is not None:
                names.append(tool.output_model)
        return names


def build_server_ir(manifest: Manifest, *, package: str, manifest_name: str) -> ServerIR:
    problem = package_name_problem(package)
    if problem is not None:
        raise McpgenError(f"--package {package!r} {problem}")
    seen: dict[str, str] = {}
    for tool in manifest.tools:
        if tool.name in seen:
            raise McpgenError(
                f"duplicate tool name {tool.name!r} (also at {seen[tool.name]})",
                path=manifest.path,
                line=manifest.source_map.locate(tool.pointer)[0],
                col=manifest.source_map.locate(tool.pointer)[1],
            )
        seen[tool.name] = tool.pointer or "/"
    names = assign_tool_names([t.name for t in manifest.tools])
    tools: list[ToolIR] = []
    for i, (tool, nm) in enumerate(zip(manifest.tools, names, strict=True)):
        out_schema = tool.output_schema
        where = f"tool {tool.name!r}"
        try:
            raw_json = canonical_json(tool.raw)
        except ValueError as exc:
            line, col = manifest.source_map.locate(tool.pointer)
            raise McpgenError(
                f"{where} is not JSON-serialisable: {exc}", path=manifest.path, line=line, col=col
            ) from exc
        tools.append(
            ToolIR(
                index=i,
                name=tool.name,
                method_name=nm.method_name,
                class_stem=nm.class_stem,
                input_model=nm.input_model,
                output_model=nm.output_model if out_schema is not None else None,
                has_output=out_schema is not None,
                raw_json=raw_json,
                input_schema=tool.input_schema,
                output_schema=out_schema,
                input_dialect=schema_dialect(tool.input_schema, where=f"{where} inputSchema"),
                output_dialect=(
                    schema_dialect(out_schema, where=f"{where} outputSchema")
                    if out_schema is not None
                    else None
                ),
                title=tool.title,
                description=tool.description,
                pointer=tool.pointer,
            )
        )
    server = manifest.server
    return ServerIR(
        package=package,
        server_name=server.name,
        server_version=server.version,
        server_title=server.title,
        server_description=server.description,
        instructions=server.instructions,
        website_url=server.website_url,
        base_class=class_name_from(server.name, suffix="ToolsBase", fallback="Server"),
        tools=tuple(tools),
        manifest_name=manifest_name,
        revisions=manifest.revisions,
        runtime_api=API_VERSION,
        generator=f"mcpgen {__version__}",
        list_changed=server.list_changed,
        server_limits_json=canonical_json(server.limits) if server.limits else None,
    )
