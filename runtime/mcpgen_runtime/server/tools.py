"""The tools surface of a generated server, on the official MCP Python SDK's low-level Server.

The SDK owns lifecycle, version negotiation (handshake revisions and the stateless
2026-07-28 wire), transports, HTTP headers and DNS-rebinding protection. This module owns:

* ``tools/list``: the manifest's tool definitions, in manifest order, with their schemas
  exactly as written; cursor pagination; fields a revision lacks are left out.
* ``tools/call``: unknown tool -> JSON-RPC -32602; arguments checked against the tool's
  inputSchema (``validation``); handler results turned into ``CallToolResult`` with
  structured output checked against the outputSchema (``results``); every result shaped for
  the revision the client negotiated (``shaping``).

A generated package passes its binding table (one ``ToolBinding`` per tool) and its
``ServerInfo`` to ``build_server``.
"""

from __future__ import annotations

import asyncio
import json
import uuid
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import anyio
import mcp.types as types
from mcp.server.caching import CacheHint
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError

from ..revisions import MODERN_REVISIONS
from .asking import (
    AnswerError,
    CallInputs,
    InputRequired,
    RequestStateError,
    RequestStateKey,
    args_digest,
    current_principal,
    question_digest,
)
from .context import LOGGER, ToolContext, ToolError
from .deadlines import Deadlines, running_task
from .flat import flat_scalar_bound
from .limits import DEFAULT_LIMITS, Limits, TokenBucket
from .results import error_result, to_result
from .shaping import has_result_type, shape_call_result, shape_tool

if TYPE_CHECKING:
    from .validation import SchemaCheck

__all__ = ["ServerInfo", "ToolBinding", "build_server"]

H = TypeVar("H")

_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

_TIMED_OUT: Any = object()
"""What a call over its time limit comes back as (``_run``, ``_within_scope``)."""


@dataclass(frozen=True)
class ServerInfo:
    """What ``initialize`` / ``server/discover`` tell a client about the server."""

    name: str
    version: str
    title: str | None = None
    description: str | None = None
    instructions: str | None = None
    website_url: str | None = None
    list_changed: bool = False
    """The manifest's ``server.capabilities.tools.listChanged``: declare it on handshake
    revisions (2026-07-28 always serves ``subscriptions/listen``)."""
    limits: Mapping[str, Any] | str | None = None
    """The manifest's ``server.limits`` (JSON spelling or its JSON text, see ``limits``)."""


class ToolBinding:
    """One tool: its exact definition (JSON text), its handler method and typed models."""

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
        input_model: type[BaseModel],
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


Invoke = Callable[[BaseModel, ToolContext], Awaitable[object]]


class _CompiledTool:
    """One tool at run time: its definition, its bound handler, and its schema checks once
    it is first called."""

    __slots__ = (
        "name",
        "definition",
        "binding",
        "invoke",
        "_checks",
        "limits",
        "bucket",
        "max_bytes",
        "timeout",
    )

    def __init__(
        self,
        definition: dict[str, Any],
        binding: ToolBinding,
        invoke: Invoke,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.name: str = definition["name"]
        self.definition = definition
        self.binding = binding
        self.invoke = invoke
        self._checks: tuple[SchemaCheck, SchemaCheck | None] | None = None
        self.limits = limits
        self.bucket = TokenBucket(limits.rate_per_s, limits.burst) if limits.rate_per_s else None
        # read on every call: one attribute, not two
        self.max_bytes = limits.max_argument_bytes
        self.timeout = limits.timeout_s

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


class _Runtime(Generic[H]):
    def __init__(
        self,
        tools: list[_CompiledTool],
        page_size: int | None,
        state_key: RequestStateKey | None = None,
    ) -> None:
        self.tools = tools
        self.page_size = page_size
        self.by_name = {t.name: t for t in tools}
        self.client_log_level = "debug"
        self.state_key = state_key or RequestStateKey()
        self.disabled: set[str] = set()
        from mcp.server.subscriptions import InMemorySubscriptionBus

        self.bus = InMemorySubscriptionBus()
        self.connections: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
        self._deadlines: Deadlines | None = None

    # -- list_changed -------------------------------------------------------------------------

    def _remember(self, ctx: ServerRequestContext[Any, Any]) -> None:
        """Handshake-era connections get ``notifications/tools/list_changed`` on their own
        channel; remember each one (weakly) as it initializes or lists tools."""
        if ctx.protocol_version in MODERN_REVISIONS:
            return
        conn = getattr(ctx.session, "_connection", None)
        if conn is not None and id(conn) not in self.connections:
            self.connections[id(conn)] = conn

    def is_enabled(self, name: str) -> bool:
        return name in self.by_name and name not in self.disabled

    def visible(self) -> list[_CompiledTool]:
        if not self.disabled:
            return self.tools
        return [t for t in self.tools if t.name not in self.disabled]

    async def set_enabled(self, names: Sequence[str], enabled: bool) -> bool:
        """Enable or disable tools; announce the change once. True when something changed."""
        unknown = [n for n in names if n not in self.by_name]
        if unknown:
            raise ValueError(f"unknown tools: {', '.join(unknown)}")
        before = set(self.disabled)
        if enabled:
            self.disabled.difference_update(names)
        else:
            self.disabled.update(names)
        if self.disabled == before:
            return False
        await self.notify_list_changed()
        return True

    async def notify_list_changed(self) -> None:
        """``notifications/tools/list_changed``: to every open 2026-07-28
        ``subscriptions/listen`` stream that asked for it, and on every handshake-era
        connection seen (stdio, HTTP sessions' standalone streams)."""
        from mcp.shared.subscriptions import ToolsListChanged

        await self.bus.publish(ToolsListChanged())
        for conn in list(self.connections.values()):
            try:
                await conn.send_tool_list_changed()
            except Exception as exc:  # a closed connection: forget it
                LOGGER.debug("tools/list_changed not delivered: %s", exc)

    # -- tools/list ---------------------------------------------------------------------

    def _decode_cursor(self, cursor: str | None) -> int:
        if cursor is None:
            return 0
        prefix = "mcpgen-offset:"
        if cursor.startswith(prefix):
            digits = cursor[len(prefix) :]
            if digits.isdigit() and digits.isascii():
                offset = int(digits)
                if 0 < offset < len(self.tools):
                    return offset
        raise MCPError(code=types.INVALID_PARAMS, message="Invalid cursor", data=cursor[:200])

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> dict[str, Any]:
        self._remember(ctx)
        tools = self.visible()
        start = self._decode_cursor(params.cursor if params is not None else None)
        end = len(tools) if not self.page_size else min(start + self.page_size, len(tools))
        version = ctx.protocol_version
        result: dict[str, Any] = {
            "tools": [shape_tool(t.definition, version) for t in tools[start:end]]
        }
        if end < len(tools):
            result["nextCursor"] = f"mcpgen-offset:{end}"
        if has_result_type(version):
            result["resultType"] = "complete"
        return result

    def restore_exact_schemas(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> Coroutine[Any, Any, HandlerResult]:
        """Middleware: the SDK re-dumps results through its models, which may reorder keys
        inside schemas; put back the schemas exactly as written (same values, same order).
        Also remembers each handshake connection as it initializes (for list_changed).
        Other methods pass straight through (no coroutine of its own)."""
        method = ctx.method
        if method == "tools/list":
            return self._exact_schemas(ctx, call_next)
        if method == "initialize":
            self._remember(ctx)
        # the SDK's chain hands each middleware a coroutine function (``CallNext``); no
        # typing.cast here: it is a function call on every request
        return call_next(ctx)  # type: ignore[return-value]

    async def _exact_schemas(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        result = await call_next(ctx)
        if isinstance(result, dict):
            for tool in result.get("tools") or []:
                name = tool.get("name") if isinstance(tool, dict) else None
                known = self.by_name.get(name) if isinstance(name, str) else None
                if known is None:
                    continue
                for key in ("inputSchema", "outputSchema"):
                    if key in tool and key in known.definition:
                        tool[key] = known.definition[key]
        return result

    # -- tools/call ---------------------------------------------------------------------

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> dict[str, Any]:
        tool = self.by_name.get(params.name)
        version = ctx.protocol_version
        if tool is None or tool.name in self.disabled:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        bound = flat_scalar_bound(arguments)
        if tool.bucket is not None or (
            tool.max_bytes is not None and (bound is None or bound > tool.max_bytes)
        ):
            refused = self._refuse(tool, arguments, bound)
            if refused is not None:
                return shape_call_result(refused, version)
        inputs: CallInputs | None = None
        if version in MODERN_REVISIONS:
            opened = self._open_inputs(tool, ctx, arguments)
            if isinstance(opened, dict):
                return shape_call_result(opened, version)
            inputs = opened
        return await self._run(tool, ctx, arguments, version, inputs, bound is not None)

    def _refuse(
        self, tool: _CompiledTool, arguments: Any, bound: int | None
    ) -> dict[str, Any] | None:
        """The tool error for a call over the argument-size or rate limit, else None.
        ``bound``: ``flat_scalar_bound(arguments)``; only other calls are serialised to be
        measured."""
        lim = tool.limits
        limit = tool.max_bytes
        if limit is not None and arguments and (bound is None or bound > limit):
            size = len(_COMPACT_JSON(arguments).encode())
            if size > limit:
                return error_result(
                    f"The arguments of tool {tool.name!r} are {size} bytes; the limit is "
                    f"{limit} bytes. Send smaller arguments."
                )
        if tool.bucket is not None:
            wait = tool.bucket.take()
            if wait > 0.0:
                retry = max(0.001, round(wait, 3))
                result = error_result(
                    f"Tool {tool.name!r} is rate limited ({lim.rate_per_s:g} calls/s); "
                    f"retry after {retry:g} s."
                )
                result["_meta"] = {"io.mcpgen/retryAfterSeconds": retry}
                return result
        return None

    def _open_inputs(
        self, tool: _CompiledTool, ctx: ServerRequestContext[Any, Any], arguments: Any
    ) -> CallInputs | dict[str, Any]:
        """This round's answers (2026-07-28): the verified requestState and inputResponses;
        or the tool error for a genuine but unusable state."""
        raw = ctx.params if isinstance(ctx.params, Mapping) else {}
        state = raw.get("requestState")
        responses = raw.get("inputResponses")
        if responses is not None and not isinstance(responses, Mapping):
            raise MCPError(code=types.INVALID_PARAMS, message="inputResponses must be an object")
        sealed: dict[str, Any] = {}
        pending: dict[str, str] | None = None
        if state is not None:
            if not isinstance(state, str):
                raise MCPError(code=types.INVALID_PARAMS, message="requestState must be a string")
            try:
                sealed, pending = self.state_key.open(
                    state, tool.name, args_digest(arguments), current_principal()
                )
            except RequestStateError as exc:
                if exc.integrity:
                    raise MCPError(code=types.INVALID_PARAMS, message=exc.message) from None
                return error_result(exc.message)
        return CallInputs(sealed, responses or {}, pending)

    def _input_required(
        self, tool: _CompiledTool, arguments: Any, inputs: CallInputs, exc: InputRequired
    ) -> dict[str, Any]:
        from mcp_wire.v2026_07_28 import InputRequiredResult

        state = self.state_key.seal(
            tool.name,
            args_digest(arguments),
            inputs.used,
            {k: question_digest(v) for k, v in exc.pending.items()},
            principal=current_principal(),
        )
        result = InputRequiredResult.model_validate(
            {"resultType": "input_required", "inputRequests": exc.pending, "requestState": state}
        )
        dumped: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        return dumped

    async def _run(
        self,
        tool: _CompiledTool,
        ctx: ServerRequestContext[Any, Any],
        arguments: Any,
        version: str,
        inputs: CallInputs | None = None,
        vetted: bool = False,
    ) -> dict[str, Any]:
        """The call's result shaped for ``version`` (or an ``InputRequiredResult``).
        ``vetted``: ``flat_scalar_bound(arguments)`` accepted the arguments."""
        try:
            input_check, output_check = tool._checks or tool.checks()
            validator = input_check.validator
            if vetted and validator is not None and validator.is_valid(arguments):
                problems: list[str] = []
            else:
                problems = input_check.problems(arguments, vetted)
        except Exception as exc:
            from .validation import SchemaCompileError  # imported on this path only

            if not isinstance(exc, SchemaCompileError):
                raise
            LOGGER.error("tool %r: %s", tool.name, exc)
            return _error(f"Tool {tool.name!r} cannot check its arguments: {exc}", version)
        if not problems:
            try:
                # model_validate(arguments), minus its wrapper
                args = tool.binding.input_model.__pydantic_validator__.validate_python(arguments)
            except ValidationError as exc:
                from .validation import pydantic_problems

                problems = pydantic_problems(exc.errors(include_url=False, include_input=False))
        if problems:
            return _error(
                f"Invalid arguments for tool {tool.name!r}:\n"
                + "\n".join(problems)
                + "\nCorrect these arguments to match the tool's inputSchema and call it again.",
                version,
            )
        tctx = ToolContext(ctx, tool.name, self, inputs)
        try:
            timeout = tool.timeout
            if timeout is None:
                value = await tool.invoke(args, tctx)
            else:
                # watched by the loop's Deadlines (nothing armed per call), inline: this is
                # every call's path; a cancel scope where that cannot watch
                task = running_task()
                deadlines = self._deadlines
                if task is not None and (
                    deadlines is None or deadlines.loop is not task.get_loop()
                ):
                    deadlines = self._deadlines = Deadlines(task.get_loop())
                if task is None or deadlines is None or not deadlines.start(task, timeout):
                    value = await self._within_scope(tool, args, tctx, timeout)
                else:
                    try:
                        value = await tool.invoke(args, tctx)
                    except asyncio.CancelledError:
                        # ours alone: the limit's cancellation; anything else propagates
                        if deadlines.stop(task) != 0:
                            raise
                        value = _TIMED_OUT
                    finally:
                        deadlines.stop(task)
                if value is _TIMED_OUT:
                    LOGGER.warning("tool %r timed out after %g s", tool.name, timeout)
                    return _error(
                        f"Tool {tool.name!r} did not finish within its time limit of "
                        f"{timeout:g} s.",
                        version,
                    )
            return to_result(tool.name, tool.binding.output_model, output_check, value, version)
        except InputRequired as exc:
            if inputs is None:  # pragma: no cover - only raised on 2026-07-28
                raise
            return self._input_required(tool, arguments, inputs, exc)
        except ToolError as exc:
            return _error(exc.message, version)
        except AnswerError as exc:
            return _error(f"Tool {tool.name!r} could not use the client's answer: {exc}", version)
        except MCPError:
            raise
        except NotImplementedError:
            LOGGER.warning("tool %r is not implemented (handlers.py)", tool.name)
            return _error(f"Tool {tool.name!r} is not implemented yet.", version)
        except Exception:
            incident = uuid.uuid4().hex[:12]
            LOGGER.exception("tool %r failed (incident %s)", tool.name, incident)
            return _error(
                f"Tool {tool.name!r} failed with an internal error (incident {incident}).",
                version,
            )

    async def _within_scope(
        self, tool: _CompiledTool, args: BaseModel, tctx: ToolContext, timeout: float
    ) -> object:
        """The handler's value, or ``_TIMED_OUT``, under a cancel scope: where the loop's
        :class:`Deadlines` cannot watch (trio, Python 3.10, a call nested in another call's
        task)."""
        with anyio.move_on_after(timeout):
            return await tool.invoke(args, tctx)
        return _TIMED_OUT

    # -- logging/setLevel (handshake revisions) --------------------------------------------

    async def set_level(
        self, ctx: ServerRequestContext[Any, Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        self.client_log_level = str(params.level)
        return types.EmptyResult()


def _error(text: str, version: str) -> dict[str, Any]:
    return shape_call_result(error_result(text), version)


def _bind(handlers: object, binding: ToolBinding) -> Invoke:
    method = getattr(handlers, binding.method, None)
    if not callable(method):
        raise TypeError(f"handlers have no method {binding.method!r}")
    bound: Invoke = method
    return bound


def build_server(
    handlers: H,
    bindings: Sequence[ToolBinding],
    info: ServerInfo,
    *,
    page_size: int | None = None,
    list_ttl_ms: int = 0,
    request_state_key: RequestStateKey | bytes | None = None,
    list_changed: bool | None = None,
    limits: Mapping[str, Any] | None = None,
) -> Server[Any]:
    """An SDK ``Server`` serving ``bindings`` with ``handlers`` (an instance of the generated
    base class); each schema is compiled once, on the tool's first call."""
    if page_size is not None and page_size < 1:
        raise ValueError("page_size must be a positive integer or None")
    from .options import STARTUP

    if request_state_key is None:
        request_state_key = STARTUP.request_state_key
    if limits is None:
        limits = STARTUP.limits
    if list_changed is None:
        list_changed = info.list_changed
    server_limits = DEFAULT_LIMITS.merged(
        json.loads(info.limits) if isinstance(info.limits, str) else info.limits
    )
    compiled = []
    for b in bindings:
        definition = json.loads(b.definition_json)
        ext = definition.get("x-mcpgen")
        tool_limits = server_limits.merged(ext.get("limits") if isinstance(ext, dict) else None)
        compiled.append(
            _CompiledTool(definition, b, _bind(handlers, b), tool_limits.merged(limits))
        )
    key = (
        request_state_key
        if isinstance(request_state_key, RequestStateKey)
        else RequestStateKey(request_state_key)
    )
    runtime: _Runtime[H] = _Runtime(tools=compiled, page_size=page_size, state_key=key)
    server: Server[Any] = Server(
        info.name,
        version=info.version,
        title=info.title,
        description=info.description,
        instructions=info.instructions,
        website_url=info.website_url,
        cache_hints={"tools/list": CacheHint(ttl_ms=list_ttl_ms, scope="private")},
        get_tool_input_schema=lambda tool: (
            runtime.by_name[tool].definition["inputSchema"] if tool in runtime.by_name else None
        ),
        on_list_tools=runtime.list_tools,  # type: ignore[arg-type]
        on_call_tool=runtime.call_tool,  # type: ignore[arg-type]
    )
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, runtime.set_level)
    from mcp.server.lowlevel.server import NotificationOptions
    from mcp.server.subscriptions import ListenHandler

    server.add_request_handler(
        "subscriptions/listen", types.SubscriptionsListenRequestParams, ListenHandler(runtime.bus)
    )
    if list_changed:
        plain = server.create_initialization_options

        def _with_list_changed(
            notification_options: NotificationOptions | None = None, *a: Any, **kw: Any
        ) -> Any:
            return plain(notification_options or NotificationOptions(tools_changed=True), *a, **kw)

        server.create_initialization_options = _with_list_changed  # type: ignore[method-assign]
    server.mcpgen_runtime = runtime  # type: ignore[attr-defined]
    server.middleware.append(runtime.restore_exact_schemas)
    return server
