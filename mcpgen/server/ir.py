"""The generator's view of a manifest for a server package: the shared tools, resources and
prompts (``mcpgen.ir``) and what only a server has. Everything the server templates render.

``build_server_ir(manifest, package=...)`` is pure. Manifest strings never become code here;
they stay data (``raw_json`` is the tool's exact JSON text; names go through
``mcpgen.naming``). Templates receive only identifiers built by ``mcpgen.naming`` and
strings that they emit through ``repr()`` (the ``pyrepr`` filter).

Designed to grow (roadmap): per-tool options such as timeouts, size limits, header
parameters (``x-mcp-header``) or elicitation needs become new fields with defaults, so
existing templates and handlers keep working.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcpgen import __version__
from mcpgen.ir.models import ModelSpec, model_specs
from mcpgen.ir.resources_prompts import ResourcesAndPrompts, prepare_resources_and_prompts
from mcpgen.ir.skills import SkillIR, prepare_skills
from mcpgen.ir.tools import ToolIR, build_tools, canonical_json
from mcpgen.manifest.model import Manifest
from mcpgen.naming import class_name_from
from mcpgen.server.discovery import discovery_answers, discovery_data
from mcpgen_runtime import API_VERSION
from mcpgen_runtime._version import __version__ as RUNTIME_VERSION


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
    """``server.auth`` as compact JSON (the runtime resolves it with the operator's options)."""
    toolsets_json: str | None = None
    """``server.toolsets`` (canonical JSON), when the manifest declares toolsets."""
    http_json: str | None = None
    """``server.http`` (canonical JSON): the API forwarded calls go to."""
    tasks_json: str | None = None
    """``server.tasks`` (canonical JSON), when the manifest sets it."""
    resources_and_prompts: ResourcesAndPrompts = ResourcesAndPrompts((), (), ())
    """The manifest's resources, resource templates and prompts."""
    discovery_answers: tuple[tuple[str, str], ...] = ()
    """``(key, JSON text)``: what the server answers before its runtime is imported
    (``_generated/discovery.py``; ``mcpgen.server.discovery``)."""
    runtime_version: str = ""
    """The ``mcpgen-runtime`` version that computed ``discovery_answers`` (the fast boot uses
    them with that version only)."""
    skills: tuple[SkillIR, ...] = ()
    """The manifest's skills (the skills extension), each file with its digest and size."""
    discovery_json: str | None = None
    """``server.discovery`` (canonical JSON), when the manifest sets it."""
    search_index_json: str | None = None
    """The tool search index (search and code modes; ``_generated/discovery.py``)."""
    code_api_json: str | None = None
    """Code mode's API table (``mcpgen.codemode.compile_api``; ``_generated/discovery.py``)."""
    models: str = "pydantic"
    """``server.models``: ``typeddict`` makes ``models.py`` ``TypedDict``s, binds no model
    (the runtime hands the handler the validated JSON) and leaves pydantic out of the start."""

    @property
    def typeddict(self) -> bool:
        return self.models == "typeddict"

    @property
    def resource_and_prompt_methods(self) -> list[Any]:
        """The resources, templates and prompts a ``Handlers`` method serves."""
        return [item for item in self.resources_and_prompts.all if item.method_name is not None]

    @property
    def completer_methods(self) -> list[Any]:
        """The templates and prompts whose completions a ``Handlers`` method computes."""
        return [item for item in self.resources_and_prompts.all if item.complete_method is not None]

    @property
    def model_specs(self) -> list[ModelSpec]:
        """Every model of the package (``mcpgen.ir.models.model_specs``)."""
        return model_specs(self.tools, self.resources_and_prompts)

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
        for item in self.resources_and_prompts.all:
            if item.model is not None and item.method_name is not None:
                names.append(item.model)
        return names


BASE_CLASS = "ToolsBase"


def _legacy_alias(server_name: str) -> str | None:
    alias = class_name_from(server_name, suffix=BASE_CLASS, fallback="Server")
    return None if alias == BASE_CLASS else alias


def build_server_ir(manifest: Manifest, *, package: str, manifest_name: str) -> ServerIR:
    tools = build_tools(manifest, package=package)
    server = manifest.server
    catalogue = prepare_resources_and_prompts(manifest, [t.names for t in tools])
    skills = prepare_skills(manifest)
    discovery_json, search_index_json, code_api_json = discovery_data(manifest, tools)
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
        tools=tools,
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
        tasks_json=canonical_json(server.tasks) if server.tasks else None,
        resources_and_prompts=catalogue,
        discovery_answers=discovery_answers(manifest, tools, catalogue, skills),
        discovery_json=discovery_json,
        search_index_json=search_index_json,
        code_api_json=code_api_json,
        runtime_version=RUNTIME_VERSION,
        skills=skills,
        models=server.models,
    )
