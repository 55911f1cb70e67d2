"""Discovery modes (the manifest's ``server.discovery``): what ``tools/list`` shows and the
meta-tools a model finds the other tools with.

* ``all`` (the default): every tool is listed; nothing here runs.
* ``search``: ``tools/list`` shows the always-listed tools (``listed.tools``, the tools of
  ``listed.toolsets``) and three meta-tools: ``search_tools`` (query -> the best tools, with
  their descriptions; ``search_index``), ``get_tool_schemas`` (names -> input and output
  schemas) and ``call_tool`` (name, arguments).
* ``code``: ``search_tools``, ``get_tool_schemas`` and ``execute``, which runs the model's
  Python in the sandbox (``mcpgen_runtime.codemode.run_code``) against the tools' typed API.

Nothing widens: ``call_tool`` and every tool call from ``execute`` go through
``ToolsRuntime.call_tool``, the direct call's own path (unknown or toolset-excluded tool,
OAuth scopes, argument limits and validation, rate limits, tasks, rounds, time limits).
Search and schemas answer only about the tools this caller could call: served by this process,
enabled, and allowed by the caller's scopes. Every tool stays callable by its name with
``tools/call``: the mode changes what is listed, not what is served.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .errors import RequestError
from .results import error_result
from .shaping import shape_call_result, shape_tool

if TYPE_CHECKING:
    from ..search_index import SearchIndex
    from .bindings import CompiledTool

__all__ = [
    "CODE_LIMIT_KEYS",
    "DEFAULT_RESULTS",
    "META_TOOLS",
    "MODES",
    "DiscoveryConfig",
    "Discoverer",
    "meta_definitions",
]

MODES = ("all", "search", "code")
DEFAULT_RESULTS, MAX_RESULTS = 5, 50
SEARCH, SCHEMAS, CALL, EXECUTE = "search_tools", "get_tool_schemas", "call_tool", "execute"
META_TOOLS = {"search": (SEARCH, SCHEMAS, CALL), "code": (SEARCH, SCHEMAS, EXECUTE)}
CODE_LIMIT_KEYS = {
    "timeout": "seconds",
    "memory": "memory_bytes",
    "max_calls": "calls",
    "max_output": "output_bytes",
}
"""``server.discovery.code`` field -> the key ``run_code``'s ``limits`` reads."""
MAX_NAMES = 20


class DiscoveryConfig:
    """``server.discovery`` as the runtime reads it (already checked by ``mcpgen check``)."""

    __slots__ = ("mode", "tools", "toolsets", "results", "code_limits")

    def __init__(self, value: Mapping[str, Any] | str | None) -> None:
        if isinstance(value, str):
            value = json.loads(value)
        value = value if isinstance(value, Mapping) else {}
        self.mode: str = str(value.get("mode", "all"))
        listed = value.get("listed") or {}
        self.tools = frozenset(listed.get("tools") or ())
        self.toolsets = frozenset(listed.get("toolsets") or ())
        self.results = int(value.get("results", DEFAULT_RESULTS))
        code = value.get("code") or {}
        self.code_limits = {CODE_LIMIT_KEYS[k]: v for k, v in code.items() if k in CODE_LIMIT_KEYS}

    def always_listed(self, definition: Mapping[str, Any]) -> bool:
        from .toolsets import membership

        return definition.get("name") in self.tools or any(
            t in self.toolsets for t in membership(definition)
        )

    def listing(self, definitions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        """What ``tools/list`` shows of ``definitions`` (the tools this caller may see)."""
        if self.mode == "all":
            return list(definitions)
        return [d for d in definitions if self.always_listed(d)] + meta_definitions(
            self.mode, self.results
        )


def meta_definitions(mode: str, results: int = DEFAULT_RESULTS) -> list[dict[str, Any]]:
    """The meta-tools of ``mode`` (none for ``all``), as listed."""
    if mode not in META_TOOLS:
        return []
    names = {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": MAX_NAMES}
    out: list[dict[str, Any]] = [
        {
            "name": SEARCH,
            "description": "Search this server's tools by what you want to do. Answers the "
            f"best matches (at most {results} unless `limit` says otherwise), each with its "
            "name and description; get_tool_schemas gives their parameters.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What you want to do."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_RESULTS},
                },
                "required": ["query"],
            },
            "annotations": {"readOnlyHint": True},
        },
        {
            "name": SCHEMAS,
            "description": "The named tools (names from search_tools) as tools/list would "
            "show them: input and output schemas, annotations.",
            "inputSchema": {
                "type": "object",
                "properties": {"names": names},
                "required": ["names"],
            },
            "annotations": {"readOnlyHint": True},
        },
    ]
    if mode == "search":
        out.append(
            {
                "name": CALL,
                "description": "Call one of this server's tools by name with its arguments "
                "(matching the inputSchema get_tool_schemas gives).",
                "inputSchema": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "arguments": {"type": "object"}},
                    "required": ["name"],
                },
            }
        )
    else:
        out.append(
            {
                "name": EXECUTE,
                "description": "Run Python against this server's tools: each tool is an async "
                "function (keyword arguments; the `function` search_tools gives). Await the "
                "calls; the value of the last expression is the answer. No imports beyond "
                "json, math, re, datetime and the like; no files or network.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"code": {"type": "string"}},
                    "required": ["code"],
                },
            }
        )
    return out


class _Call:
    """The params of a call made through a meta-tool, read as ``tools/call``'s are."""

    __slots__ = ("name", "arguments")

    def __init__(self, name: str, arguments: dict[str, Any]) -> None:
        self.name = name
        self.arguments = arguments


class Discoverer:
    """The meta-tools of one server (``ToolsRuntime.discovery``; ``rt`` below is that
    ``ToolsRuntime``, typed ``Any``: ``tools`` imports this module)."""

    def __init__(
        self,
        config: DiscoveryConfig,
        index: Mapping[str, Any] | str | None = None,
        code_api: Mapping[str, Any] | str | None = None,
    ) -> None:
        self.config = config
        self.meta = frozenset(META_TOOLS.get(config.mode, ()))
        self._index_data = index
        self._index: SearchIndex | None = None
        self._code_api = json.loads(code_api) if isinstance(code_api, str) else code_api

    def index(self, tools: Sequence[CompiledTool]) -> SearchIndex:
        """The index (loaded on the first search); rebuilt from ``tools`` when the package's
        was written in another format or with another version of the stemmer."""
        if self._index is None:
            from ..search_index import SearchIndex, build_index, current

            data = self._index_data
            if isinstance(data, str):
                data = json.loads(data)
            if not isinstance(data, Mapping) or not current(data):
                data = build_index([t.definition for t in tools])
            self._index = SearchIndex(data)
        return self._index

    def listing(self, visible: Sequence[CompiledTool]) -> list[Mapping[str, Any]]:
        return self.config.listing([t.served for t in visible])

    async def call(self, rt: Any, ctx: Any, name: str, arguments: Any) -> dict[str, Any]:
        """A meta-tool's result, shaped for the client's revision."""
        version = ctx.protocol_version
        args = arguments if isinstance(arguments, dict) else {}
        if name == CALL:
            return await self._call(rt, ctx, args)
        if name == EXECUTE:
            return shape_call_result(await self._execute(rt, ctx, args), version)
        usable = rt.serving.scopes.visible(rt.visible(), lambda t: t.scopes)
        if name == SEARCH:
            result = self._search(rt, usable, args)
        else:
            result = self._schemas(usable, args, version)
        return shape_call_result(result, version)

    def _search(
        self, rt: Any, usable: Sequence[CompiledTool], args: Mapping[str, Any]
    ) -> dict[str, Any]:
        from ..search_index import MAX_QUERY_CHARS

        query, limit = args.get("query"), args.get("limit", self.config.results)
        if not isinstance(query, str):
            return error_result(f"{SEARCH}: `query` must be a string")
        if len(query) > MAX_QUERY_CHARS:
            return error_result(
                f"{SEARCH}: the query is {len(query)} characters long; at most "
                f"{MAX_QUERY_CHARS}: describe what you want to do in a few words"
            )
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 < limit <= MAX_RESULTS:
            return error_result(f"{SEARCH}: `limit` must be an integer from 1 to {MAX_RESULTS}")
        by_name = {t.name: t for t in usable}
        hits = self.index(rt.tools).top(query, by_name, limit)
        found = []
        names = self._functions()
        for name, _score in hits:
            d = by_name[name].definition
            row: dict[str, Any] = {"name": name}
            if isinstance(d.get("title"), str):
                row["title"] = d["title"]
            row["description"] = d.get("description", "")
            if names is not None and name in names:
                row["function"] = names[name]
            found.append(row)
        body = {"tools": found}
        return {
            "content": [{"type": "text", "text": json.dumps(body, ensure_ascii=False)}],
            "structuredContent": body,
            "isError": False,
        }

    def _schemas(
        self, usable: Sequence[CompiledTool], args: Mapping[str, Any], version: str
    ) -> dict[str, Any]:
        names = args.get("names")
        if (
            not isinstance(names, list)
            or not names
            or len(names) > MAX_NAMES
            or not all(isinstance(n, str) for n in names)
        ):
            return error_result(f"{SCHEMAS}: `names` must be a list of 1 to {MAX_NAMES} tool names")
        by_name = {t.name: t for t in usable}
        functions = self._functions()
        tools, unknown = [], []
        for n in dict.fromkeys(names):
            t = by_name.get(n)
            if t is None:
                unknown.append(n)
                continue
            row = shape_tool(t.served, version)  # as tools/list would show it
            if functions is not None and n in functions:
                row["function"] = functions[n]
            tools.append(row)
        body: dict[str, Any] = {"tools": tools}
        if unknown:
            body["unknown"] = unknown
        return {
            "content": [{"type": "text", "text": json.dumps(body, ensure_ascii=False)}],
            "structuredContent": body,
            "isError": False,
        }

    def _functions(self) -> dict[str, str] | None:
        """Tool name -> its function in code mode's API (None in search mode)."""
        api = self._code_api
        if self.config.mode != "code" or not isinstance(api, Mapping):
            return None
        return {spec["tool"]: fn for fn, spec in api.get("functions", {}).items()}

    async def _call(self, rt: Any, ctx: Any, args: Mapping[str, Any]) -> dict[str, Any]:
        """``call_tool``: the direct call's path and answer, errors included."""
        name, arguments = args.get("name"), args.get("arguments", {})
        version = ctx.protocol_version
        if not isinstance(name, str) or not isinstance(arguments, dict):
            return shape_call_result(
                error_result(f"{CALL}: `name` must be a string and `arguments` an object"),
                version,
            )
        if name in self.meta:
            return shape_call_result(
                error_result(f"{CALL}: {name!r} is a meta-tool; call it directly"), version
            )
        answer: dict[str, Any] = await rt.call_tool(ctx, _Call(name, arguments))
        return answer

    async def _execute(self, rt: Any, ctx: Any, args: Mapping[str, Any]) -> dict[str, Any]:
        code = args.get("code")
        if not isinstance(code, str):
            return error_result(f"{EXECUTE}: `code` must be a string")
        api = self._code_api
        if not isinstance(api, Mapping):
            return error_result(f"{EXECUTE}: this package has no code-mode API (regenerate it)")
        from ..codemode import run_code

        async def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            if tool in self.meta:
                return error_result(f"{tool!r} is a meta-tool, not one of the server's tools")
            try:  # inline: the code awaits the value, so never a task
                answer: dict[str, Any] = await rt.call_tool(
                    ctx, _Call(tool, arguments), inline=True
                )
                return answer
            except RequestError as exc:  # unknown or hidden tool, missing scope: the code's error
                return error_result(exc.message)

        return await run_code(code, call=call, api=api, limits=self.config.code_limits)
