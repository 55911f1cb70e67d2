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
from .asking import AnswerError, InputRequired, RequestStateKey
from .bindings import CompiledTool
from .context import LOGGER, ToolContext, ToolError
from .deadlines import DONE, Deadlines, running_task
from .flat import flat_scalar_bound
from .limits import refusal
from .results import error_result, to_result
from .shaping import has_result_type, shape_call_result, shape_tool

if TYPE_CHECKING:
    from .rounds import CallInputs

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

    def visible(self) -> list[CompiledTool]:
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
        """``tools/call``: the call's result shaped for the client's revision, or an
        ``InputRequiredResult`` (2026-07-28); unknown tools and forged ``requestState``
        are JSON-RPC errors."""
        tool = self.by_name.get(params.name)
        version = ctx.protocol_version
        if tool is None or tool.name in self.disabled:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        bound = flat_scalar_bound(arguments)
        if tool.bucket is not None or (
            tool.max_bytes is not None and (bound is None or bound > tool.max_bytes)
        ):
            refused = refusal(tool, arguments, bound)
            if refused is not None:
                return shape_call_result(refused, version)
        inputs: CallInputs | None = None
        raw = ctx.params
        if version in MODERN_REVISIONS and (
            # a first round (most calls) carries neither; a plain dict needs no ABC check
            type(raw) is not dict or "requestState" in raw or "inputResponses" in raw
        ):
            from .rounds import open_inputs  # a retry's path only: not imported at start

            opened = open_inputs(self.state_key, tool.name, raw, arguments)
            if isinstance(opened, dict):
                return shape_call_result(opened, version)
            inputs = opened
        # One coroutine from here to the result (a second one costs every call ~2.5k
        # instructions): check the arguments, run the handler under its limit, shape.
        try:
            input_check, output_check = tool._checks or tool.checks()
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
                        # Deadlines.stop, inline: a dict pop unless the limit fired
                        if deadlines.calls.pop(task, None) is DONE:
                            deadlines.taken_back(task)
                if value is _TIMED_OUT:
                    LOGGER.warning("tool %r timed out after %g s", tool.name, timeout)
                    return _error(
                        f"Tool {tool.name!r} did not finish within its time limit of "
                        f"{timeout:g} s.",
                        version,
                    )
            return to_result(
                tool.name,
                tool.binding.output_model,
                output_check,
                value,
                version,
                tool.binding.method,
            )
        except InputRequired as exc:  # only raised on 2026-07-28
            from .rounds import input_required

            return input_required(self.state_key, tool.name, arguments, tctx.call_inputs(), exc)
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
