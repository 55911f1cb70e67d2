"""What a generated package hands the runtime, and what the runtime makes of it.

* ``ServerInfo``: the manifest's ``server`` section (``initialize`` / ``server/discover``).
* ``ToolBinding``: one tool's exact definition (JSON text), handler method and typed models.
* ``CompiledTool``: one tool at run time: its parsed definition, its bound handler, its limits
  (read on every call, ``refusal``) and its schema checks, built on its first call.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from .context import ToolContext
from .limits import DEFAULT_LIMITS, Limits
from .results import error_result
from .value import Value

if TYPE_CHECKING:
    from pydantic import BaseModel

    from .state.base import Limiter
    from .validation import SchemaCheck

__all__ = [
    "CompiledTool",
    "Invoke",
    "ServerInfo",
    "ToolBinding",
    "bind_handler",
    "input_check",
    "output_check",
]

_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class ServerInfo(Value):
    """What ``initialize`` / ``server/discover`` tell a client about the server.

    A plain class, not a dataclass: a frozen dataclass of these 17 fields costs every server
    10M instructions at start (``dataclasses`` compiles its methods), about 2 ms of the first
    call. Treat it as immutable; ``replace`` makes a changed copy.

    Fields, in order (also positional): ``name``, ``version``, ``title``, ``description``,
    ``instructions``, ``website_url``, then the ones documented in ``__init__``.
    """

    __slots__ = (
        "name",
        "version",
        "title",
        "description",
        "instructions",
        "website_url",
        "list_changed",
        "limits",
        "cache_ttl_ms",
        "cache_scope",
        "auth",
        "http",
        "toolsets",
        "tasks",
        "discovery",
        "search_index",
        "code_api",
    )

    def __init__(
        self,
        name: str,
        version: str,
        title: str | None = None,
        description: str | None = None,
        instructions: str | None = None,
        website_url: str | None = None,
        list_changed: bool = False,
        limits: Mapping[str, Any] | str | None = None,
        cache_ttl_ms: int = 0,
        cache_scope: str = "private",
        auth: Mapping[str, Any] | str | None = None,
        http: Mapping[str, Any] | str | None = None,
        toolsets: Mapping[str, Any] | str | None = None,
        tasks: Mapping[str, Any] | str | None = None,
        discovery: Mapping[str, Any] | str | None = None,
        search_index: Mapping[str, Any] | str | None = None,
        code_api: Mapping[str, Any] | str | None = None,
    ) -> None:
        self.name = name
        self.version = version
        self.title = title
        self.description = description
        self.instructions = instructions
        self.website_url = website_url
        self.list_changed = list_changed
        """The manifest's ``server.capabilities.tools.listChanged``: declare it on handshake
        revisions (2026-07-28 always serves ``subscriptions/listen``)."""
        self.limits = limits
        """The manifest's ``server.limits`` (JSON spelling or its JSON text, see ``limits``)."""
        self.cache_ttl_ms = cache_ttl_ms
        self.cache_scope = cache_scope
        """The manifest's ``server.cache``: ``ttlMs``/``cacheScope`` of every cacheable result."""
        self.auth = auth
        """The manifest's ``server.auth`` (JSON spelling or its JSON text, see ``auth.config``):
        the OAuth resource-server settings an operator may override at start-up."""
        self.http = http
        """The manifest's ``server.http`` (or its JSON text): where tools with an ``x-mcpgen.http``
        binding and no handler of their own forward their calls (see ``forward``)."""
        self.toolsets = toolsets
        """The manifest's ``server.toolsets`` (or its JSON text): name -> ``{description,
        default}``; the operator chooses among them at start-up (see ``toolsets``)."""
        self.tasks = tasks
        """The manifest's ``server.tasks`` (or its JSON text): the tasks extension's settings
        (``mcpgen_runtime.tasks.settings``)."""
        self.discovery = discovery
        """The manifest's ``server.discovery`` (or its JSON text): ``all`` tools listed, or
        ``search``/``code`` meta-tools (``discovery_modes``)."""
        self.search_index = search_index
        """The tool search index computed at build time (``search_index.build_index``)."""
        self.code_api = code_api
        """Code mode's API table computed at build time (``mcpgen.codemode.compile_api``)."""


class ToolBinding:
    """One tool: its exact definition (JSON text), its handler method and typed models.

    ``input_model``/``output_model`` are the generated pydantic models; both are None for a
    package generated with ``server.models: typeddict``: the handler then receives the
    arguments' JSON as the inputSchema validated it, and returns JSON data."""

    __slots__ = (
        "definition_json",
        "method",
        "input_model",
        "output_model",
        "input_dialect",
        "output_dialect",
    )

    def __init__(
        self,
        *,
        definition_json: str,
        method: str,
        input_model: type[BaseModel] | None,
        output_model: type[BaseModel] | None = None,
        input_dialect: str = "2020-12",
        output_dialect: str | None = None,
    ) -> None:
        self.definition_json = definition_json
        self.method = method
        self.input_model = input_model
        self.output_model = output_model
        self.input_dialect = input_dialect
        self.output_dialect = output_dialect


Invoke = Callable[[Any, ToolContext], Awaitable[object]]
"""A bound handler: its arguments (input model, or validated JSON without one), its context."""


class CompiledTool:
    """One tool at run time: its definition, its bound handler, and its schema checks once
    it is first called."""

    __slots__ = (
        "name",
        "definition",
        "served",
        "binding",
        "invoke",
        "_checks",
        "limits",
        "limiter",
        "max_bytes",
        "timeout",
        "scopes",
    )

    def __init__(
        self,
        definition: dict[str, Any],
        binding: ToolBinding,
        invoke: Invoke,
        limits: Limits = DEFAULT_LIMITS,
        scopes: tuple[str, ...] = (),
        limiter: Limiter | None = None,
    ) -> None:
        self.name: str = definition["name"]
        self.definition = definition
        self.served = definition
        """What tools/list shows: the definition, or with ``--inline-schema-refs`` its
        model-friendly form (``schemainline``); calls are checked against ``definition``."""
        self.binding = binding
        self.invoke = invoke
        self._checks: tuple[SchemaCheck, SchemaCheck | None] | None = None
        self.limits = limits
        if limiter is None and limits.rate_per_s:
            from .state.memory import LocalLimiter

            limiter = LocalLimiter(limits.rate_per_s, limits.burst)
        self.limiter = limiter if limits.rate_per_s else None
        """The tool's rate limit (this process's, or shared through ``--state``)."""
        # read on every call: one attribute, not two
        self.max_bytes = limits.max_argument_bytes
        self.timeout = limits.timeout_s
        self.scopes = scopes
        """OAuth scopes a caller's token needs for this tool (``x-mcpgen.scopes``)."""

    def checks(self) -> tuple[SchemaCheck, SchemaCheck | None]:
        """(input check, output check or None); built on the first call of this tool, so a
        server that is only listed never imports the validation module."""
        if self._checks is None:
            from .validation import SchemaCheck

            osch = self.definition.get("outputSchema")
            self._checks = (
                SchemaCheck(self.definition["inputSchema"], self.binding.input_dialect),
                (
                    SchemaCheck(osch, self.binding.output_dialect or "2020-12")
                    if isinstance(osch, dict)
                    else None
                ),
            )
        return self._checks

    def refusal(self, arguments: Any, bound: int | None) -> dict[str, Any] | None:
        """The tool error for a call over this tool's argument-size limit, else None.
        ``bound``: ``flat.flat_scalar_bound(arguments)``; only other calls are serialised to
        be measured."""
        limit = self.max_bytes
        if limit is not None and arguments and (bound is None or bound > limit):
            size = len(_COMPACT_JSON(arguments).encode())
            if size > limit:
                return error_result(
                    f"The arguments of tool {self.name!r} are {size} bytes; the limit is "
                    f"{limit} bytes. Send smaller arguments."
                )
        return None

    async def rate_refusal(self) -> dict[str, Any] | None:
        """The tool error for a call over this tool's rate limit, else None."""
        assert self.limiter is not None
        wait = await self.limiter.take()
        if wait <= 0.0:
            return None
        retry = max(0.001, round(wait, 3))
        result = error_result(
            f"Tool {self.name!r} is rate limited ({self.limits.rate_per_s:g} calls/s); "
            f"retry after {retry:g} s."
        )
        result["_meta"] = {"io.mcpgen/retryAfterSeconds": retry}
        return result


def input_check(tool: CompiledTool) -> SchemaCheck:
    """The check of ``tool``'s arguments against its inputSchema (built on its first call)."""
    # a slot read once built, not a method call: bench/bench_server.py --instructions
    return (tool._checks or tool.checks())[0]


def output_check(tool: CompiledTool) -> SchemaCheck | None:
    """The check of ``tool``'s structured output (None without an outputSchema); only after
    ``input_check``, which builds both."""
    # a slot read, not a method call: bench/bench_server.py --instructions
    return tool._checks[1]  # type: ignore[index]


def bind_handler(handlers: object, binding: ToolBinding) -> Invoke:
    method = getattr(handlers, binding.method, None)
    if not callable(method):
        raise TypeError(f"handlers have no method {binding.method!r}")
    bound: Invoke = method
    return bound
