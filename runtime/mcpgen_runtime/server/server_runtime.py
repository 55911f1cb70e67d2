"""``ServerRuntime``: what mcpgen serves, assembled whole (``assemble``) without the SDK, in
one order that needs no field filled in later: the items of each kind, the scope policy over
all of them, what they share (``serving.Serving``), then the runtimes of each kind, which only
ever meet through it.

The lean engine serves it as it is. ``sdk_server`` makes the SDK's ``Server`` around it when
something needs the SDK, keeps that server here (``sdk``) and the runtime on the server
(``runtime_of`` finds it again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..apps import extensions_for
from ..lean.discovery import Discovery
from .auth.scopes import ScopePolicy
from .sdk_adapter import attached_runtime
from .sealed import RequestStateKey
from .serving import Serving
from .tools import ToolsRuntime

if TYPE_CHECKING:  # imported when a manifest has resources or prompts (see _catalog)
    from ..skills_facts import SkillBinding
    from .bindings import CompiledTool, ServerInfo
    from .completions import Completions
    from .prompts import PromptBinding, PromptItem, PromptsRuntime
    from .resources import (
        ResourceBinding,
        ResourceItem,
        ResourcesRuntime,
        TemplateBinding,
        TemplateItem,
    )
    from .shared import Replica
    from .state import State

__all__ = ["ServerRuntime", "assemble", "runtime_of", "runtime_required"]


class ServerRuntime:
    """The runtimes of each kind a server serves and what they share (``serving``)."""

    __slots__ = (
        "serving",
        "tools",
        "resources",
        "prompts",
        "completions",
        "auth_manifest",
        "package_tools",
        "toolsets",
        "discovery",
        "replica",
        "info",
        "skills",
        "sdk",
    )

    def __init__(
        self,
        serving: Serving,
        tools: ToolsRuntime,
        resources: ResourcesRuntime | None,
        prompts: PromptsRuntime | None,
        completions: Completions | None,
        *,
        auth_manifest: Mapping[str, Any] | None,
        package_tools: int,
        toolsets: dict[str, Any],
        discovery: Discovery,
        replica: Replica | None = None,
        info: ServerInfo | None = None,
        skills: tuple[SkillBinding, ...] = (),
    ) -> None:
        self.serving = serving
        self.tools = tools
        self.resources = resources
        self.prompts = prompts
        self.completions = completions
        self.auth_manifest = auth_manifest
        """The manifest's ``server.auth`` (``ServerInfo.auth``), resolved by ``run_cli``."""
        self.package_tools = package_tools
        """How many tools the package has; ``tools.tools`` holds the ones this process serves
        (``--toolsets``/``--tools``)."""
        self.toolsets = toolsets
        """The toolsets the manifest declares."""
        self.discovery = discovery
        """What ``initialize`` and ``server/discover`` say (the lean engine answers from it)."""
        self.replica = replica
        """This server on a shared ``--state`` backend (started on the first request)."""
        self.info = info
        """The package's ``ServerInfo`` (``list_changed`` as this server announces it): what
        the SDK's ``Server`` is made from (``sdk_server``)."""
        self.skills = skills
        """The skills extension's skills (their methods are the SDK server's)."""
        self.sdk: Any = None
        """The SDK's ``Server`` around this runtime, once made (``sdk_server.sdk_server``)."""


def runtime_of(server: object) -> ServerRuntime | None:
    """The ``ServerRuntime`` of a ``Server`` that ``build_server`` made, else None."""
    runtime = attached_runtime(server)
    return runtime if isinstance(runtime, ServerRuntime) else None


def runtime_required(server: object) -> ServerRuntime:
    """The runtime of a server ``build_server`` made (what ``create_server`` returns)."""
    runtime = runtime_of(server)
    if runtime is None:
        raise TypeError("the server was not made by mcpgen_runtime's build_server")
    return runtime


def assemble(
    handlers: object,
    tools: list[CompiledTool],
    *,
    resources: Sequence[ResourceBinding],
    templates: Sequence[TemplateBinding],
    prompts: Sequence[PromptBinding],
    page_size: int | None,
    backend: State,
    state_key: RequestStateKey | bytes | None,
    unserved_tools: frozenset[str],
    auth_manifest: Mapping[str, Any] | None,
    package_tools: int,
    toolsets: dict[str, Any],
    info: ServerInfo,
    list_ttl_ms: int | None = None,
    extensions: Mapping[str, Mapping[str, Any]] | None = None,
    skills: tuple[SkillBinding, ...] = (),
) -> ServerRuntime:
    """The whole runtime of a server serving ``tools`` (compiled) and the manifest's other
    sections with ``handlers``."""
    key = state_key if isinstance(state_key, RequestStateKey) else RequestStateKey(state_key)
    res_items, tmpl_items, prompt_items = _catalog(handlers, resources, templates, prompts)
    config = None
    if info.discovery is not None:
        from .discovery_modes import CALL, DiscoveryConfig

        config = DiscoveryConfig(info.discovery)
    policy = _scope_policy(tools, res_items, tmpl_items, prompt_items)
    if config is not None and config.mode == "search":
        policy.via = CALL  # the front gates a call_tool call as a call of the tool it names
    serving = Serving(
        backend=backend,
        state_key=key,
        scopes=policy,
        tools=[t.name for t in tools],
        resources=[r.definition["uri"] for r in res_items] if resources or templates else None,
        prompts=[p.definition["name"] for p in prompt_items] if prompts else None,
        unserved_tools=unserved_tools,
    )
    resources_rt = prompts_rt = completions = None
    if resources or templates:
        from .resources import ResourcesRuntime

        resources_rt = ResourcesRuntime(res_items, tmpl_items, page_size, serving)
    if prompts:
        from .prompts import PromptsRuntime

        prompts_rt = PromptsRuntime(prompt_items, page_size, serving)
    if prompts or templates:
        from .completions import Completions

        completions = Completions(prompt_items, tmpl_items, handlers, serving)
    replica = None
    if backend.shared:
        from .shared import Replica

        updated = serving.notices.updated if serving.resource_switches is not None else None
        replica = Replica(backend, serving.switches(), updated)
    discovery = Discovery(
        name=info.name,
        version=info.version,
        title=info.title,
        description=info.description,
        instructions=info.instructions,
        website_url=info.website_url,
        tools_list_changed=info.list_changed,
        resources=resources_rt is not None,
        prompts=prompts_rt is not None,
        completions=completions is not None,
        cache={
            "ttlMs": info.cache_ttl_ms if list_ttl_ms is None else list_ttl_ms,
            # lists that show each caller what its scopes allow are that caller's alone
            "cacheScope": "private" if serving.scopes.any else info.cache_scope,
        },
        extensions=dict(  # sorted: the order both engines advertise them in
            sorted(
                {**extensions_for(r.definition for r in res_items), **(extensions or {})}.items()
            )
        ),
    )
    tools_rt = ToolsRuntime(tools, page_size, serving)
    if config is not None and config.mode != "all":
        from .discovery_modes import Discoverer

        tools_rt.discovery = Discoverer(config, info.search_index, info.code_api)
    return ServerRuntime(
        serving,
        tools_rt,
        resources_rt,
        prompts_rt,
        completions,
        auth_manifest=auth_manifest,
        package_tools=package_tools,
        toolsets=toolsets,
        discovery=discovery,
        replica=replica,
        info=info,
        skills=skills,
    )


def _catalog(
    handlers: object,
    resources: Sequence[ResourceBinding],
    templates: Sequence[TemplateBinding],
    prompts: Sequence[PromptBinding],
) -> tuple[list[ResourceItem], list[TemplateItem], list[PromptItem]]:
    """The manifest's resources, templates and prompts with their handlers (their modules
    are imported only when there are some)."""
    res_items: list[ResourceItem] = []
    tmpl_items: list[TemplateItem] = []
    prompt_items: list[PromptItem] = []
    if resources or templates:
        from .resources import ResourceItem, TemplateItem

        res_items = [ResourceItem(b, handlers) for b in resources]
        tmpl_items = [TemplateItem(b, handlers) for b in templates]
    if prompts:
        from .prompts import PromptItem

        prompt_items = [PromptItem(b, handlers) for b in prompts]
    return res_items, tmpl_items, prompt_items


def _scope_policy(
    tools: Sequence[CompiledTool],
    resources: Sequence[ResourceItem],
    templates: Sequence[TemplateItem],
    prompts: Sequence[PromptItem],
) -> ScopePolicy:
    """The OAuth scopes each item needs; templates by a URI matcher (in order)."""
    matchers: list[tuple[Any, Sequence[str]]] = [
        ((lambda uri, t=t.template: t.match(uri) is not None), t.binding.scopes) for t in templates
    ]
    return ScopePolicy(
        tools={t.name: t.scopes for t in tools},
        prompts={p.definition["name"]: p.binding.scopes for p in prompts},
        resources={r.definition["uri"]: r.binding.scopes for r in resources},
        templates=matchers,
    )
