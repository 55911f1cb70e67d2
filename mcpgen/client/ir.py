"""The generator's view of a manifest for a typed client package. Pure.

The tools, resources and prompts are the shared IR's (``mcpgen.ir``); this adds what only a
client package has (its class, the namespace methods, the CLI's subcommands). Like
``mcpgen.server.ir``: manifest strings never become code here; names come from
``mcpgen.naming``; templates emit strings through ``pyrepr``/``docstring``. The keyword
parameters of each method are derived later (``mcpgen.parameters``) from the models run's
facts, so they are exactly the models' fields.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from mcpgen import __version__
from mcpgen.ir.models import ModelSpec, model_specs
from mcpgen.ir.resources_prompts import (
    ResourceOrPrompt,
    ResourcesAndPrompts,
    prepare_resources_and_prompts,
)
from mcpgen.ir.tools import ToolIR, build_tools, canonical_json
from mcpgen.manifest.model import Manifest
from mcpgen.naming import class_name_from, snake_identifier
from mcpgen_runtime import API_VERSION
from mcpgen_runtime.tasks.settings import task_support

# Public attributes of mcpgen_runtime.ToolClient: a tool method must not shadow them
# (tests/client/test_generate.py checks this list against the runtime class).
RESERVED_METHODS: frozenset[str] = frozenset(
    {
        "drift",
        "http",
        "prompts",
        "resources",
        "list_live_tools",
        "search_tools",
        "mcp",
        "protocol_version",
        "selected_tools",
        "server_info",
        "skills",
        "stdio",
        "sync",
        "with_options",
    }
)


@dataclass(frozen=True)
class ClientIR:
    package: str
    client_class: str
    server_name: str
    server_title: str | None
    tools: tuple[ToolIR, ...]
    manifest_name: str
    runtime_api: tuple[int, int]
    generator: str
    resources_and_prompts: ResourcesAndPrompts = ResourcesAndPrompts((), (), ())
    namespace_methods: Mapping[tuple[str, int], str] | None = None
    """``(kind, index)`` -> the method of ``client.resources`` / ``client.prompts``."""
    toolsets_json: str | None = None
    """``server.toolsets`` (canonical JSON), when the manifest declares toolsets."""
    cli_names: tuple[str, ...] | None = None
    """``mcpgen cli``: each tool's subcommand name (None: no CLI)."""
    skills: bool = False
    """The manifest has skills: the CLI has a ``skills`` group (list, read)."""
    discovery_mode: str = "all"
    """``server.discovery.mode``: search and code give the CLI a ``search-tools`` command."""
    task_tools: frozenset[int] = frozenset()
    """Indexes of the tools that may run as a task (``execution.taskSupport`` optional or
    required): their methods return a ``TaskHandle``."""

    def method_of(self, item: ResourceOrPrompt) -> str:
        return (self.namespace_methods or {})[(item.kind, item.index)]

    @property
    def model_specs(self) -> list[ModelSpec]:
        """Every model of the package (``mcpgen.ir.models.model_specs``)."""
        return model_specs(self.tools, self.resources_and_prompts)


_NAMESPACE_RESERVED = {"resources": {"read", "complete"}, "prompts": {"get", "complete"}}


def _namespace_methods(resources_and_prompts: ResourcesAndPrompts) -> dict[tuple[str, int], str]:
    """One method name per resource and template (``client.resources``) and per prompt
    (``client.prompts``): the snake-case name, unique in its namespace."""
    out: dict[tuple[str, int], str] = {}
    for space, items in (
        ("resources", (*resources_and_prompts.resources, *resources_and_prompts.templates)),
        ("prompts", resources_and_prompts.prompts),
    ):
        used = set(_NAMESPACE_RESERVED[space])
        for item in items:
            base = snake_identifier(item.name, fallback=item.kind)
            name, n = base, 2
            while name in used or name.startswith("_"):
                name = f"{base}_{n}"
                n += 1
            used.add(name)
            out[(item.kind, item.index)] = name
    return out


def build_client_ir(
    manifest: Manifest, *, package: str, manifest_name: str, cli: bool = False
) -> ClientIR:
    cli_names = None
    if cli:
        from mcpgen.client.cli_table import command_names

        cli_names = command_names(manifest)
    tools = build_tools(manifest, package=package, reserved=RESERVED_METHODS)
    resources_and_prompts = prepare_resources_and_prompts(
        manifest, [t.names for t in tools], every_prompt=True, reserved=RESERVED_METHODS
    )
    server = manifest.server
    client_class = class_name_from(server.name, suffix="Client", fallback="Server")
    return ClientIR(
        package=package,
        client_class=client_class,
        server_name=server.name,
        server_title=server.title,
        tools=tools,
        manifest_name=manifest_name,
        runtime_api=API_VERSION,
        generator=f"mcpgen {__version__}",
        resources_and_prompts=resources_and_prompts,
        namespace_methods=_namespace_methods(resources_and_prompts),
        toolsets_json=canonical_json(server.toolsets) if server.toolsets else None,
        cli_names=cli_names,
        skills=bool(manifest.skills),
        discovery_mode=str((server.discovery or {}).get("mode", "all")),
        task_tools=frozenset(
            t.index for t in tools if task_support(json.loads(t.raw_json)) != "forbidden"
        ),
    )
