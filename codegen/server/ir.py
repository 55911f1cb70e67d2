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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from codegen import __version__
from codegen.manifest.model import Manifest
from codegen.modelview import tool_model_spec
from codegen.naming import class_name_from
from codegen.surface import PreparedSurface, prepare_surface
from codegen.toolset import canonical_json, prepare_tools
from mcpgen_runtime import API_VERSION


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
    forwarded: str | None = None
    """``GET /items`` when the runtime forwards the tool to the HTTP API (``x-mcpgen.http``
    and ``server.http``): handlers.py gets no stub for it."""


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
    """The class ``handlers.py`` subclasses: always ``ToolsBase``, so renaming the server never
    breaks the user's import."""
    legacy_base_alias: str | None
    """``<Name>ToolsBase``, the name derived from ``server.name`` that earlier versions used,
    kept as an alias of ``ToolsBase`` (None when it would be the same name)."""
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
    cache_ttl_ms: int = 0
    cache_scope: str = "private"
    auth_json: str | None = None
    toolsets_json: str | None = None
    http_json: str | None = None
    """``server.http`` (canonical JSON): the API forwarded calls go to."""
    """``server.toolsets`` (canonical JSON), when the manifest declares toolsets."""
    """``server.auth`` as compact JSON (the runtime resolves it with the operator's options)."""
    surface: PreparedSurface = PreparedSurface((), (), ())
    """The manifest's resources, resource templates and prompts."""

    @property
    def surface_methods(self) -> list[Any]:
        """The resources, templates and prompts a ``Handlers`` method serves."""
        return [item for item in self.surface.all if item.method_name is not None]

    @property
    def completer_methods(self) -> list[Any]:
        """The templates and prompts whose completions a ``Handlers`` method computes."""
        return [item for item in self.surface.all if item.complete_method is not None]

    @property
    def model_specs(self) -> list[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]]:
        """``(stem, input schema, output schema)`` of every model of the package: each tool's,
        then each template's variables and each handler prompt's arguments."""
        specs: list[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]] = [
            tool_model_spec(t.class_stem, t.input_schema, t.output_schema) for t in self.tools
        ]
        for item in self.surface.all:
            if item.model_stem and item.model_schema is not None:
                specs.append((item.model_stem, item.model_schema, None))
        return specs

    @property
    def handler_model_imports(self) -> list[str]:
        """The model names ``handlers.py`` imports: each tool's input and output models."""
        names: list[str] = []
        for tool in self.tools:
            if tool.forwarded:
                continue
            names.append(tool.input_model)
            if tool.output_model is not None:
                names.append(tool.output_model)
        for item in self.surface.all:
            if item.model is not None and item.method_name is not None:
                names.append(item.model)
        return names


BASE_CLASS = "ToolsBase"


def _legacy_alias(server_name: str) -> str | None:
    alias = class_name_from(server_name, suffix=BASE_CLASS, fallback="Server")
    return None if alias == BASE_CLASS else alias


def _forwarded(raw: Mapping[str, Any], api: Mapping[str, Any] | None) -> str | None:
    ext = raw.get("x-mcpgen")
    http = ext.get("http") if isinstance(ext, Mapping) else None
    if api is None or not isinstance(http, Mapping):
        return None
    return f"{http.get('method')} {http.get('path')}"


def build_server_ir(manifest: Manifest, *, package: str, manifest_name: str) -> ServerIR:
    prepared = prepare_tools(manifest, package=package)
    tools = [
        ToolIR(
            index=p.index,
            name=p.tool.name,
            method_name=p.names.method_name,
            class_stem=p.names.class_stem,
            input_model=p.names.input_model,
            output_model=p.names.output_model if p.tool.output_schema is not None else None,
            has_output=p.tool.output_schema is not None,
            raw_json=p.raw_json,
            input_schema=p.tool.input_schema,
            output_schema=p.tool.output_schema,
            input_dialect=p.input_dialect,
            output_dialect=p.output_dialect,
            forwarded=_forwarded(p.tool.raw, manifest.server.http),
            title=p.tool.title,
            description=p.tool.description,
            pointer=p.tool.pointer,
        )
        for p in prepared
    ]
    server = manifest.server
    return ServerIR(
        package=package,
        server_name=server.name,
        server_version=server.version,
        server_title=server.title,
        server_description=server.description,
        instructions=server.instructions,
        website_url=server.website_url,
        base_class=BASE_CLASS,
        legacy_base_alias=_legacy_alias(server.name),
        tools=tuple(tools),
        manifest_name=manifest_name,
        revisions=manifest.revisions,
        runtime_api=API_VERSION,
        generator=f"mcpgen {__version__}",
        list_changed=server.list_changed,
        server_limits_json=canonical_json(server.limits) if server.limits else None,
        cache_ttl_ms=server.cache_ttl_ms,
        cache_scope=server.cache_scope,
        auth_json=canonical_json(server.auth) if server.auth else None,
        toolsets_json=canonical_json(server.toolsets) if server.toolsets else None,
        http_json=canonical_json(server.http) if server.http else None,
        surface=prepare_surface(manifest, [p.names for p in prepared]),
    )
