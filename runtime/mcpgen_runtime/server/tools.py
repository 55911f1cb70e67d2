"""The tools surface of a generated server, on the official MCP Python SDK's low-level Server.

The SDK owns lifecycle, version negotiation (handshake revisions and the stateless
2026-07-28 wire), transports, HTTP headers and DNS-rebinding protection. This module owns:

* ``tools/list``: the manifest's tool definitions, in manifest order, with their schemas
  exactly as written; cursor pagination; fields a revision lacks are left out; tools enabled
  and disabled at run time, announced with ``notifications/tools/list_changed``.
* ``tools/call``: unknown tool -> JSON-RPC -32602; limits (``limits``); this round's answers
  on 2026-07-28 (``rounds``); arguments checked against the tool's inputSchema
  (``validation``); handler results turned into ``CallToolResult`` with structured output
  checked against the outputSchema (``results``); every result shaped for the revision the
  client negotiated (``shaping``).

``build`` registers it on the SDK's hooks; ``bindings`` holds what it serves.
"""

from __future__ import annotations

import asyncio
import uuid
import weakref
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import anyio
import mcp.types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError

from ..revisions import MODERN_REVISIONS
from .auth.scopes import require
from .bindings import CompiledTool
from .context import ToolContext
from .deadlines import DONE, Deadlines, running_task
from .flat import flat_scalar_bound
from .outcome import LOGGER, ToolError
from .results import error_result, to_result
from .sealed import AnswerError, InputRequired, RequestStateKey
from .shaping import has_result_type, shape_call_result, shape_tool
from .shared import Switches

if TYPE_CHECKING:
    from .rounds import CallInputs
    from .state import State

__all__ = ["ToolsRuntime"]

H = TypeVar("H")

_TIMED_OUT: Any = object()
"""What a call over its time limit comes back as (``call_tool``, ``_within_scope``)."""


class ToolsRuntime(Generic[H]):
    """The tools a server serves, and its handlers of tools/list, tools/call and
    logging/setLevel."""

    def __init__(
        self,
        tools: list[CompiledTool],
        page_size: int | None,
        state_key: RequestStateKey | None = None,
        backend: State | None = None,
    ) -> None:
        self.tools = tools
        self.page_size = page_size
        self.by_name = {t.name: t for t in tools}
        self.client_log_level = "debug"
        self.state_key = state_key or RequestStateKey()
        if backend is None:
            from .state.memory import MemoryState

            backend = MemoryState()
        self.backend = backend
        """What the replicas of this server share (``state``): memory unless ``--state``."""
        self.switches = Switches("tools", self.by_name, self.notify_list_changed, backend)
        from mcp.server.subscriptions import InMemorySubscriptionBus

        self.bus = InMemorySubscriptionBus()
        self.connections: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
        self._deadlines: Deadlines | None = None
        self.prompts: Any = None
        """The server's ``prompts.PromptsRuntime`` (``ctx.set_prompt_enabled``), if any."""
        self.resources: Any = None
        """The server's ``resources.ResourcesRuntime`` (``ctx.resource_updated``), when it has
        any (typed ``Any``: resources sits above this module)."""
        from .auth.scopes import ScopePolicy

        self.scopes = ScopePolicy()
        """The OAuth scopes each tool, resource and prompt needs (set by ``build_server``)."""
        self.auth_manifest: Any = None
        """The manifest's ``server.auth`` (``ServerInfo.auth``), resolved by ``run_cli``."""
        self.expose_token = False
        """Whether handlers see the raw access token (``--auth-expose-token``)."""
        self.selection: tuple[int, dict[str, dict[str, Any]]] = (0, {})
        """(how many tools the package has, the toolsets it declares), set by ``build_server``;
        ``tools`` holds the ones this process serves (``--toolsets``/``--tools``)."""

    # -- list_changed -------------------------------------------------------------------------

    def _remember(self, ctx: ServerRequestContext[Any, Any]) -> None:
        """Handshake-era connections get ``notifications/tools/list_changed`` on their own
        channel; remember each one (weakly) as it initializes or lists tools."""
        if ctx.protocol_version in MODERN_REVISIONS:
            return
        conn = getattr(ctx.session, "_connection", None)
        if conn is not None and id(conn) not in self.connections:
            self.connections[id(conn)] = conn

    @property
    def disabled(self) -> frozenset[str]:
        return self.switches.disabled

    def is_enabled(self, name: str) -> bool:
        return name in self.by_name and name not in self.disabled

    def visible(self) -> list[CompiledTool]:
        if not self.disabled:
            return self.tools
        return [t for t in self.tools if t.name not in self.disabled]

    async def set_enabled(self, names: Sequence[str], enabled: bool) -> bool:
        """Enable or disable tools (on every replica sharing the state); announce the change
        once. True when something changed."""
        return await self.switches.set_enabled(names, enabled)

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
        tools = self.scopes.visible(self.visible(), lambda t: t.scopes)
        start = self._decode_cursor(params.cursor if params is not None else None)
        end = len(tools) if not self.page_size else min(start + self.page_size, len(tools))
        version = ctx.protocol_version
        result: dict[str, Any] = {
            "tools": [shape_tool(t.served, version) for t in tools[start:end]]
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
                    if key in tool and key in known.served:
                        tool[key] = known.served[key]
        return result

    # -- tools/call ---------------------------------------------------------------------

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> dict[str, Any]:
        """``tools/call``: the call's result shaped for the client's revision, or an
        ``InputRequiredResult`` (2026-07-28); unknown tools and forged ``requestState``
        are JSON-RPC errors.

        The steps are plain functions around one coroutine (this one) and the handler's: a
        second coroutine per call costs every call ~2.5k instructions."""
        tool = self._find(params.name)
        version = ctx.protocol_version
        arguments = params.arguments or {}
        bound = flat_scalar_bound(arguments)
        refused = self._admit(tool, arguments, bound)
        if refused is None and tool.limiter is not None:
            refused = await tool.rate_refusal()
        if refused is not None:
            return shape_call_result(refused, version)
        inputs = self._open_round(tool, ctx, arguments)
        if isinstance(inputs, dict):
            return shape_call_result(inputs, version)
        checked = self._checked_arguments(tool, arguments, bound)
        if isinstance(checked, dict):
            return shape_call_result(checked, version)
        tctx = ToolContext(ctx, tool.name, self, inputs)
        try:
            value = await self._run(tool, checked, tctx)
            if value is _TIMED_OUT:
                return _error(self._timed_out(tool), version)
            return to_result(
                tool.name,
                tool.binding.output_model,
                tool._checks[1],  # type: ignore[index]  # set by _checked_arguments
                value,
                version,
                tool.binding.method,
            )
        except InputRequired as exc:  # only raised on 2026-07-28
            from .rounds import input_required

            return input_required(self.state_key, tool.name, arguments, tctx.call_inputs(), exc)
        except MCPError:
            raise
        except Exception as exc:
            return _error(_failure(tool.name, exc), version)

    def _find(self, name: str) -> CompiledTool:
        tool = self.by_name.get(name)
        if tool is None or name in self.disabled:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {name}")
        if tool.scopes:
            require(tool.scopes, f"tool {name!r}")
        return tool

    @staticmethod
    def _admit(tool: CompiledTool, arguments: Any, bound: int | None) -> dict[str, Any] | None:
        """The refusal of a call over the tool's argument-size limit, else None (a flat call
        under the limit is not measured)."""
        if tool.max_bytes is not None and (bound is None or bound > tool.max_bytes):
            return tool.refusal(arguments, bound)
        return None

    def _open_round(
        self, tool: CompiledTool, ctx: ServerRequestContext[Any, Any], arguments: Any
    ) -> CallInputs | dict[str, Any] | None:
        """This round's answers on 2026-07-28 (``rounds.open_inputs``): ``CallInputs``, the
        tool error for an unusable ``requestState``, or None on a first round."""
        raw = ctx.params
        if ctx.protocol_version in MODERN_REVISIONS and (
            # a first round (most calls) carries neither; a plain dict needs no ABC check
            type(raw) is not dict or "requestState" in raw or "inputResponses" in raw
        ):
            from .rounds import open_inputs  # a retry's path only: not imported at start

            return open_inputs(self.state_key, tool.name, raw, arguments)
        return None

    @staticmethod
    def _checked_arguments(
        tool: CompiledTool, arguments: Any, bound: int | None
    ) -> BaseModel | dict[str, Any]:
        """The handler's typed arguments, or the tool error that lists what is wrong with them
        (inputSchema, then the input model)."""
        try:
            input_check = (tool._checks or tool.checks())[0]
            validator = input_check.validator
            if bound is not None and validator is not None and validator.is_valid(arguments):
                problems: list[str] = []
            else:
                problems = input_check.problems(arguments, bound is not None)
        except Exception as exc:
            from .validation import SchemaCompileError  # imported on this path only

            if not isinstance(exc, SchemaCompileError):
                raise
            LOGGER.error("tool %r: %s", tool.name, exc)
            return error_result(f"Tool {tool.name!r} cannot check its arguments: {exc}")
        if not problems:
            try:
                # model_validate(arguments), minus its wrapper
                validated: BaseModel = (
                    tool.binding.input_model.__pydantic_validator__.validate_python(arguments)
                )
                return validated
            except ValidationError as exc:
                from .validation import pydantic_problems

                problems = pydantic_problems(exc.errors(include_url=False, include_input=False))
        return error_result(
            f"Invalid arguments for tool {tool.name!r}:\n"
            + "\n".join(problems)
            + "\nCorrect these arguments to match the tool's inputSchema and call it again."
        )

    async def _run(self, tool: CompiledTool, args: BaseModel, tctx: ToolContext) -> object:
        """The handler's value, or ``_TIMED_OUT`` past the tool's time limit. The limit is
        watched by the loop's ``Deadlines`` (nothing armed per call); by a cancel scope where
        that cannot watch."""
        timeout = tool.timeout
        if timeout is None:
            return await tool.invoke(args, tctx)
        task = running_task()
        deadlines = self._deadlines
        if task is not None and (deadlines is None or deadlines.loop is not task.get_loop()):
            deadlines = self._deadlines = Deadlines(task.get_loop())
        if task is None or deadlines is None or not deadlines.start(task, timeout):
            return await self._within_scope(tool, args, tctx, timeout)
        try:
            return await tool.invoke(args, tctx)
        except asyncio.CancelledError:
            # ours alone: the limit's cancellation; anything else propagates
            if deadlines.stop(task) != 0:
                raise
            return _TIMED_OUT
        finally:
            # Deadlines.stop, inline: a dict pop unless the limit fired
            if deadlines.calls.pop(task, None) is DONE:
                deadlines.taken_back(task)

    @staticmethod
    def _timed_out(tool: CompiledTool) -> str:
        LOGGER.warning("tool %r timed out after %g s", tool.name, tool.timeout)
        return f"Tool {tool.name!r} did not finish within its time limit of {tool.timeout:g} s."

    async def _within_scope(
        self, tool: CompiledTool, args: BaseModel, tctx: ToolContext, timeout: float
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


def _failure(name: str, exc: Exception) -> str:
    """The text of the tool error for a handler that raised ``exc``: its own message for a
    ``ToolError``; for anything unexpected, a logged incident and a safe text."""
    if isinstance(exc, ToolError):
        return exc.message
    if isinstance(exc, AnswerError):
        return f"Tool {name!r} could not use the client's answer: {exc}"
    if isinstance(exc, NotImplementedError):
        LOGGER.warning("tool %r is not implemented (handlers.py)", name)
        return f"Tool {name!r} is not implemented yet."
    incident = uuid.uuid4().hex[:12]
    LOGGER.error("tool %r failed (incident %s)", name, incident, exc_info=exc)
    return f"Tool {name!r} failed with an internal error (incident {incident})."
