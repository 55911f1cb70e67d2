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

``build`` registers it on the SDK's hooks; ``bindings`` holds what it serves; ``serving`` what
it shares with resources and prompts (scopes, switches, notifications, the requestState key).
"""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING, Any

from ..revisions import MODERN_REVISIONS
from .auth.scopes import require
from .bindings import CompiledTool, input_check, output_check
from .context import ToolContext
from .deadlines import WATCHABLE, Deadlines, running_task
from .errors import INVALID_PARAMS, RequestError, protocol_errors
from .fastpath import is_validation_error, validate
from .flat import flat_scalar_bound
from .outcome import LOGGER, ToolError
from .results import error_result, to_result
from .sdk_adapter import list_fixups
from .sealed import AnswerError, InputRequired
from .shaping import has_result_type, shape_call_result, shape_tool

if TYPE_CHECKING:
    import mcp.types as types
    from mcp.server.context import ServerMiddleware, ServerRequestContext

    from .discovery_modes import Discoverer
    from .rounds import CallInputs
    from .serving import Serving

    Arguments = Any
    """What a handler receives: its generated pydantic input model, or (``server.models:
    typeddict``, no input model) the arguments' JSON as validated."""

__all__ = ["ToolsRuntime"]

_current_task = asyncio.current_task
_TIMED_OUT: Any = object()
"""What a call over its time limit comes back as (``call_tool``, ``_within_scope``)."""


class ToolsRuntime:
    """The tools one server serves (``tools``, in manifest order), and its handlers of
    tools/list, tools/call and logging/setLevel; what it shares with resources and prompts is
    ``serving``."""

    def __init__(self, tools: list[CompiledTool], page_size: int | None, serving: Serving) -> None:
        self.tools = tools
        self.page_size = page_size
        self.by_name = {t.name: t for t in tools}
        self.serving = serving
        self.switches = serving.tool_switches
        self._deadlines: Deadlines | None = None
        """The ``Deadlines`` of the event loop serving calls (made on the first timed call)."""
        self.discovery: Discoverer | None = None
        """The meta-tools of a server in search or code mode (``discovery_modes``)."""
        self.tasks: Any = None
        """The tasks extension (``mcpgen_runtime.tasks.runner.Tasks``, which builds on this
        module), when some tool runs as a task."""

    @property
    def disabled(self) -> frozenset[str]:
        return self.switches.disabled

    def visible(self) -> list[CompiledTool]:
        if not self.disabled:
            return self.tools
        return [t for t in self.tools if t.name not in self.disabled]

    def middleware(self) -> ServerMiddleware[Any]:
        """Server middleware: ``tools/list`` results with each schema exactly as written, and
        handshake connections remembered as they initialize (``sdk_adapter.list_fixups``)."""
        return list_fixups({t.name: t.served for t in self.tools}, self.serving.notices.remember)

    # -- tools/list ---------------------------------------------------------------------

    def _decode_cursor(self, cursor: str | None, length: int) -> int:
        if cursor is None:
            return 0
        prefix = "mcpgen-offset:"
        if cursor.startswith(prefix):
            digits = cursor[len(prefix) :]
            if digits.isdigit() and digits.isascii():
                offset = int(digits)
                if 0 < offset < length:
                    return offset
        raise RequestError(INVALID_PARAMS, "Invalid cursor", cursor[:200])

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> dict[str, Any]:
        self.serving.notices.remember(ctx)
        tools = self.serving.scopes.visible(self.visible(), lambda t: t.scopes)
        served = (
            [t.served for t in tools] if self.discovery is None else self.discovery.listing(tools)
        )
        cursor = params.cursor if params is not None else None
        start = self._decode_cursor(cursor, max(len(self.tools), len(served)))
        end = len(served) if not self.page_size else min(start + self.page_size, len(served))
        version = ctx.protocol_version
        result: dict[str, Any] = {"tools": [shape_tool(d, version) for d in served[start:end]]}
        if end < len(served):
            result["nextCursor"] = f"mcpgen-offset:{end}"
        if has_result_type(version):
            result["resultType"] = "complete"
        return result

    # -- tools/call ---------------------------------------------------------------------

    async def call_tool(
        self,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
        *,
        inline: bool = False,
    ) -> dict[str, Any]:
        """``tools/call`` (the SDK's typed params): ``call``."""
        return await self.call(ctx, params.name, params.arguments, inline=inline)

    async def call(
        self,
        ctx: ServerRequestContext[Any, Any],
        name: str,
        arguments: dict[str, Any] | None,
        *,
        inline: bool = False,
    ) -> dict[str, Any]:
        """``tools/call``: the call's result shaped for the client's revision, or an
        ``InputRequiredResult`` (2026-07-28); unknown tools and forged ``requestState``
        are JSON-RPC errors. ``inline``: a call from code mode's ``execute``, whose code
        awaits the tool's value: never a task (a tool that runs only as a task is refused).

        The steps are plain functions around one coroutine (this one) and the handler's, each
        step's common case inline: each further coroutine or call per call shows in
        ``bench/bench_server.py --instructions``."""
        if self.discovery is not None and name in self.discovery.meta:
            return await self.discovery.call(self, ctx, name, arguments)
        tool = self.by_name.get(name)
        if tool is None or tool.scopes or name in self.switches.disabled:
            tool = self._find(name)
        task = self.tasks is not None and self.tasks.wants(tool, ctx)
        if task and inline:
            if self.tasks.support.get(tool.name) == "required":
                raise RequestError(
                    INVALID_PARAMS,
                    f"tool {tool.name!r} runs only as a task, which code cannot wait for: "
                    "call it with tools/call, task-augmented",
                )
            task = False
        version = ctx.protocol_version
        arguments = arguments or {}
        bound = flat_scalar_bound(arguments)
        limit = tool.max_bytes
        refused = (
            self._admit(tool, arguments, bound)
            if limit is not None and (bound is None or bound > limit)
            else None
        )
        if refused is None and tool.limiter is not None:
            refused = await tool.rate_refusal()
        if refused is not None:
            return shape_call_result(refused, version)
        raw = ctx.params
        inputs = (
            self._open_round(tool, ctx, arguments)
            if version in MODERN_REVISIONS
            and (type(raw) is not dict or "requestState" in raw or "inputResponses" in raw)
            else None
        )
        if isinstance(inputs, dict):
            return shape_call_result(inputs, version)
        checks = tool._checks
        validator = checks[0].validator if checks is not None else None
        model = tool.binding.input_model
        if bound is not None and validator is not None and validator.is_valid(arguments):
            # the common case of _checked_arguments, inline
            refused = None
            if model is None:
                checked: Any = arguments
            else:
                try:
                    checked = model.__pydantic_validator__.validate_python(arguments)
                except Exception as exc:
                    if not is_validation_error(exc):
                        raise
                    checked, refused = self._checked_arguments(tool, arguments, bound)
        else:
            checked, refused = self._checked_arguments(tool, arguments, bound)
        if refused is not None:
            return shape_call_result(refused, version)
        if task:
            started: dict[str, Any] = await self.tasks.start(tool, ctx, arguments, checked, inputs)
            return started
        tctx = ToolContext(ctx, tool.name, self.serving, inputs)
        try:
            timeout = tool.timeout
            if timeout is None:
                value = await tool.invoke(checked, tctx)
            else:  # _run's common case, inline: the loop's Deadlines watch the call
                try:
                    current = _current_task() if WATCHABLE else None
                except RuntimeError:  # not an asyncio loop
                    current = None
                deadlines = self._deadlines
                if current is None or deadlines is None or deadlines.loop is not current.get_loop():
                    value = await self._run(tool, checked, tctx)
                elif not deadlines.start(current, timeout):
                    value = await self._within_scope(tool, checked, tctx, timeout)
                else:
                    try:
                        value = await tool.invoke(checked, tctx)
                    except asyncio.CancelledError:
                        # ours alone: the limit's cancellation; anything else propagates
                        if deadlines.stop(current) != 0:
                            raise
                        value = _TIMED_OUT
                    finally:
                        deadlines.release(current)
            if value is _TIMED_OUT:
                return _error(self._timed_out(tool), version)
            return to_result(
                tool.name,
                tool.binding.output_model,
                checks[1] if checks is not None else output_check(tool),
                value,
                version,
                tool.binding.method,
            )
        except InputRequired as exc:  # only raised on 2026-07-28
            from .rounds import input_required

            key = self.serving.state_key
            return input_required(key, tool.name, arguments, tctx.call_inputs(), exc)
        except protocol_errors():  # the handler's own JSON-RPC error: the answer
            raise
        except Exception as exc:
            return _error(_failure(tool.name, exc), version)

    def _find(self, name: str) -> CompiledTool:
        tool = self.by_name.get(name)
        if tool is None or name in self.disabled:
            raise RequestError(INVALID_PARAMS, f"Unknown tool: {name}")
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
        if ctx.protocol_version in MODERN_REVISIONS and may_carry_answers(raw):
            from .rounds import open_inputs  # a retry's path only: not imported at start

            return open_inputs(self.serving.state_key, tool.name, raw, arguments)
        return None

    @staticmethod
    def _checked_arguments(
        tool: CompiledTool, arguments: Any, bound: int | None
    ) -> tuple[Arguments, None] | tuple[None, dict[str, Any]]:
        """``(the handler's arguments, None)``, or ``(None, the tool error that lists what is
        wrong with them)`` (inputSchema, then the input model if there is one)."""
        try:
            check = input_check(tool)
            validator = check.validator
            if bound is not None and validator is not None and validator.is_valid(arguments):
                problems: list[str] = []
            else:
                problems = check.problems(arguments, bound is not None)
        except Exception as exc:
            from .validation import SchemaCompileError  # imported on this path only

            if not isinstance(exc, SchemaCompileError):
                raise
            LOGGER.error("tool %r: %s", tool.name, exc)
            return None, error_result(f"Tool {tool.name!r} cannot check its arguments: {exc}")
        model = tool.binding.input_model
        if not problems:
            if model is None:
                return arguments, None
            try:
                return validate(model, arguments), None
            except Exception as exc:
                if not is_validation_error(exc):
                    raise
                from .validation import pydantic_problems

                problems = pydantic_problems(
                    exc.errors(include_url=False, include_input=False)  # type: ignore[attr-defined]
                )
        return None, error_result(
            f"Invalid arguments for tool {tool.name!r}:\n"
            + "\n".join(problems)
            + "\nCorrect these arguments to match the tool's inputSchema and call it again."
        )

    async def _run(self, tool: CompiledTool, args: Arguments, tctx: ToolContext) -> object:
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
            deadlines.release(task)

    @staticmethod
    def _timed_out(tool: CompiledTool) -> str:
        LOGGER.warning("tool %r timed out after %g s", tool.name, tool.timeout)
        return f"Tool {tool.name!r} did not finish within its time limit of {tool.timeout:g} s."

    async def _within_scope(
        self, tool: CompiledTool, args: Arguments, tctx: ToolContext, timeout: float
    ) -> object:
        """The handler's value, or ``_TIMED_OUT``, under a cancel scope: where the loop's
        :class:`Deadlines` cannot watch (trio, Python 3.10, a call nested in another call's
        task)."""
        import anyio  # this path only: a lean server on asyncio never imports anyio

        with anyio.move_on_after(timeout):
            return await tool.invoke(args, tctx)
        return _TIMED_OUT

    # -- logging/setLevel (handshake revisions) --------------------------------------------

    async def set_level(
        self, ctx: ServerRequestContext[Any, Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        """The SDK engine's ``logging/setLevel`` (the lean engine sets the level itself)."""
        import mcp.types as sdk_types

        self.serving.client_log_level = str(params.level)
        return sdk_types.EmptyResult()


def may_carry_answers(params: object) -> bool:
    """Whether a 2026-07-28 ``tools/call``'s raw params may carry ``requestState`` or
    ``inputResponses`` (a retry); a first round, most calls, carries neither."""
    # a plain dict needs no Mapping ABC check: bench/bench_server.py --instructions
    return type(params) is not dict or "requestState" in params or "inputResponses" in params


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
