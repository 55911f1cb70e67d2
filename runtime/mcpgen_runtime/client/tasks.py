"""The official tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663) on the client side.

A generated client whose manifest has a task tool (``execution.taskSupport`` optional or
required) constructs its ``mcp.Client`` with ``TasksExtension``: on a 2026-07-28 connection
every request then declares the extension in its per-request client capabilities (the SDK
stamps them), and a ``CreateTaskResult`` (``resultType: "task"``) is a shape the client
expects. On older connections the extension is not declared and the server answers plainly.

* The task tool's typed method returns a ``TaskHandle``: ``await handle.result()`` (typed as
  the plain method's result), ``handle.status``, ``await handle.refresh()``,
  ``handle.input_requests`` and ``await handle.answer({...})`` (``tasks/update``),
  ``await handle.cancel()`` (``tasks/cancel``). When the server answers without a task (no
  extension on its side, or it chose not to), the handle is complete at once.
* ``client.mcp.call_tool(...)`` (the SDK) on a task tool gets the final ``CallToolResult``: the
  claim's resolver polls the task to its end, answering input requests with the client's
  callbacks.

``tasks/get`` is polled at the server's ``pollIntervalMs``; status notifications over
``subscriptions/listen`` are not used (the extension makes them optional for clients).
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import anyio
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, ErrorData
from pydantic import BaseModel

from .errors import ClientError
from .outputs import call_result, raise_if_error, typed_output
from .results import CallResult
from .task_wire import (
    TASKS_EXTENSION,
    TERMINAL,
    CreateTaskResult,
    TaskState,
    answer_with_callbacks,
    cancel_task,
    get_task,
    poll_seconds,
    task_support,
    update_task,
)
from .tool import ClientTool

if TYPE_CHECKING:
    from mcp import Client
    from mcp.client.session import ClientSession

__all__ = [
    "TASKS_EXTENSION",
    "CreateTaskResult",
    "TaskCancelledError",
    "TaskCreated",
    "TaskCalls",
    "TaskHandle",
    "TaskState",
    "TasksExtension",
    "capture_tasks",
    "task_extensions",
    "task_support",
]


_T = TypeVar("_T")
_OutT = TypeVar("_OutT", bound=BaseModel)


class TaskCancelledError(ClientError):
    """The task ended ``cancelled`` (by ``cancel()``, another client, or the server)."""

    def __init__(self, tool: str, task_id: str, message: str | None = None) -> None:
        self.tool, self.task_id = tool, task_id
        super().__init__(
            f"tool {tool!r}: task {task_id} was cancelled" + (f": {message}" if message else "")
        )


def task_extensions(tools: Sequence[ClientTool]) -> list[ClientExtension] | None:
    """``[TasksExtension()]`` when some tool may run as a task (else None: nothing declared)."""
    if any(task_support(t.definition) != "forbidden" for t in tools):
        return [TasksExtension()]
    return None


# -- the handle ----------------------------------------------------------------------------


class TaskHandle(Generic[_T]):
    """A tool call the server runs as a task (or answered at once: then ``task_id`` is None
    and the handle is already ``completed``). ``await handle`` is ``await handle.result()``."""

    def __init__(
        self,
        tool: str,
        finish: Callable[[CallToolResult], _T],
        *,
        session: ClientSession | None = None,
        created: CreateTaskResult | None = None,
        result: CallToolResult | None = None,
    ) -> None:
        self.tool = tool
        self._finish = finish
        self._session = session
        self._answered: set[str] = set()
        self._done: CallToolResult | None = result
        if created is not None:
            self._state = TaskState.model_validate(
                created.model_dump(by_alias=True, exclude={"result_type"})
            )
        else:
            self._state = TaskState(task_id="", status="completed")

    @property
    def task_id(self) -> str | None:
        """The server's task id (None: the call was answered without a task)."""
        return self._state.task_id or None

    @property
    def status(self) -> str:
        """working, input_required, completed, failed or cancelled (as last seen)."""
        return self._state.status

    @property
    def status_message(self) -> str | None:
        return self._state.status_message

    @property
    def state(self) -> TaskState:
        """The task as ``tasks/get`` last answered (a ``DetailedTask``)."""
        return self._state

    @property
    def poll_interval(self) -> float:
        """Seconds between polls, as the server last suggested."""
        return poll_seconds(self._state.poll_interval_ms)

    @property
    def input_requests(self) -> dict[str, Any]:
        """The task's outstanding input requests not answered yet (key -> the request as
        ``elicitation/create``/``sampling/createMessage``/``roots/list`` JSON)."""
        pending = self._state.input_requests or {}
        if self._state.status != "input_required":
            return {}
        return {k: v for k, v in pending.items() if k not in self._answered}

    @property
    def done(self) -> bool:
        return self._state.status in TERMINAL

    def _session_or_raise(self) -> ClientSession:
        if self._session is None or self.task_id is None:
            raise ClientError(f"tool {self.tool!r}: the call was answered without a task")
        return self._session

    async def refresh(self) -> TaskState:
        """``tasks/get``: the task's current state, asked of the server every time (also for
        a finished task: it may have expired there since)."""
        if self.task_id is None:
            return self._state
        self._state = await _mapped(self, get_task(self._session_or_raise(), self.task_id))
        return self._state

    async def answer(self, responses: Mapping[str, Any]) -> None:
        """``tasks/update``: answers to input requests (key -> an ``ElicitResult``,
        ``CreateMessageResult``, ``ListRootsResult`` or its JSON)."""
        task_id = self.task_id
        if task_id is None:
            raise ClientError(f"tool {self.tool!r}: the call was answered without a task")
        await _mapped(self, update_task(self._session_or_raise(), task_id, responses))
        self._answered.update(responses)

    async def cancel(self) -> None:
        """``tasks/cancel``: asks the server to stop the task (cooperative; ``result()`` then
        raises ``TaskCancelledError`` unless the work finished first)."""
        if self.task_id is None or self.done:
            return
        await _mapped(self, cancel_task(self._session_or_raise(), self.task_id))

    async def result(
        self,
        *,
        on_update: Callable[[TaskHandle[_T]], Awaitable[None] | None] | None = None,
        answer_inputs: bool = True,
    ) -> _T:
        """Poll until the task ends and return its result, typed as the plain call's.

        ``on_update`` is called after each poll that changed the status or its message.
        ``answer_inputs``: answer input requests with the client's callbacks (elicitation,
        sampling, roots); False leaves them to ``answer()`` (from ``on_update``). Raises
        ``ToolCallError`` (``isError``), ``ProtocolError`` (the task failed with a JSON-RPC
        error, or is unknown/expired), ``TaskCancelledError``."""
        await self.wait(on_update=on_update, answer_inputs=answer_inputs)
        return self._finish(self._final())

    async def wait(
        self,
        *,
        on_update: Callable[[TaskHandle[_T]], Awaitable[None] | None] | None = None,
        answer_inputs: bool = True,
    ) -> TaskState:
        """Poll until the task ends (honouring ``pollIntervalMs``); its final state."""
        seen = (self.status, self.status_message)
        while not self.done:
            if answer_inputs and (pending := self.input_requests):
                session = self._session_or_raise()
                answers = await answer_with_callbacks(session, self.tool, pending)
                await self.answer(answers)
            await anyio.sleep(self.poll_interval)
            await self.refresh()
            now = (self.status, self.status_message)
            if on_update is not None and now != seen:
                maybe = on_update(self)
                if maybe is not None:
                    await maybe
            seen = now
        return self._state

    async def follow(self, report: Callable[[str], None]) -> _T:
        """``result()``, telling ``report`` each status (and message) the task goes through;
        when the caller is cancelled (Ctrl-C in the CLI), the task is cancelled on the server
        (``tasks/cancel``) before the cancellation goes on."""
        if self.task_id is None:
            return await self.result()
        report(self._line())
        try:
            return await self.result(on_update=lambda h: report(h._line()))
        except anyio.get_cancelled_exc_class():
            with anyio.move_on_after(5, shield=True):
                try:  # best-effort: a server gone (its own Ctrl-C) must not hide the cancel
                    await self.cancel()
                except ClientError as exc:
                    report(f"task {self.task_id}: cancel not sent: {exc}")
                else:
                    report(f"task {self.task_id}: cancel requested")
            raise

    def _line(self) -> str:
        msg = f": {self.status_message}" if self.status_message else ""
        return f"task {self.task_id}: {self.status}{msg}"

    def __await__(self) -> Any:
        return self.result().__await__()

    def _final(self) -> CallToolResult:
        if self._done is not None:
            return self._done
        st = self._state
        if st.status == "cancelled":
            raise TaskCancelledError(self.tool, st.task_id, st.status_message)
        from pydantic import ValidationError

        from ..server.validation import pydantic_problems
        from .errors import InvalidResultError
        from .failures import map_error

        try:
            if st.status == "completed":
                return CallToolResult.model_validate(st.result, by_name=False)
            err = ErrorData.model_validate(st.error, by_name=False)
        except ValidationError as exc:
            what = f"task {st.task_id} ended {st.status} without a valid result or error"
            raise InvalidResultError(
                self.tool, what, pydantic_problems(exc.errors()), st.result or st.error
            ) from None
        raise map_error(f"task {st.task_id}", self.tool, MCPError.from_error_data(err))

    def __repr__(self) -> str:
        return f"<TaskHandle {self.tool!r} {self.task_id or '(no task)'} {self.status}>"


async def _mapped(handle: TaskHandle[Any], work: Awaitable[_T]) -> _T:
    try:
        return await work
    except ClientError:
        raise
    except Exception as exc:  # noqa: BLE001 - every failure is a typed ClientError
        from .failures import map_error

        raise map_error(f"task {handle.task_id}", handle.tool, exc) from exc


# -- the extension (SDK) -------------------------------------------------------------------

_CAPTURE: contextvars.ContextVar[bool] = contextvars.ContextVar("mcpgen_tasks", default=False)


class TaskCreated(Exception):  # noqa: N818 - a signal, not an error
    """Raised by the claim's resolver while ``capture_tasks`` is on: the typed method takes the
    ``CreateTaskResult`` and returns a handle instead of waiting."""

    def __init__(self, created: CreateTaskResult) -> None:
        super().__init__(created.task_id)
        self.created = created


class capture_tasks:  # noqa: N801 - used as a context manager
    """Within it, a task created by ``tools/call`` is raised as ``TaskCreated``."""

    def __enter__(self) -> None:
        self._token = _CAPTURE.set(True)

    def __exit__(self, *exc: object) -> None:
        _CAPTURE.reset(self._token)


async def _resolve(created: CreateTaskResult, ctx: ClaimContext) -> CallToolResult:
    if _CAPTURE.get():
        raise TaskCreated(created)
    handle: TaskHandle[CallToolResult] = TaskHandle(
        ctx.tool_name, lambda r: r, session=ctx.session, created=created
    )
    state = await handle.wait()
    if state.status == "completed":
        return CallToolResult.model_validate(state.result or {}, by_name=False)
    if state.status == "cancelled":
        raise MCPError(-32800, f"task {state.task_id} was cancelled")
    err = ErrorData.model_validate(state.error or {"code": -32603, "message": "task failed"})
    raise MCPError.from_error_data(err)


class TasksExtension(ClientExtension):
    """Declares the tasks extension and claims ``resultType: "task"`` on ``tools/call``."""

    identifier = TASKS_EXTENSION

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreateTaskResult, resolve=_resolve)]


class TaskCalls:
    """The task tools' methods of ``ToolClient`` (a generated task tool's method calls one)."""

    if TYPE_CHECKING:

        @property
        def mcp(self) -> Client: ...

        async def _mcpgen_call(
            self, tool: ClientTool, input_model: type[BaseModel], kwargs: Mapping[str, Any]
        ) -> CallToolResult: ...

    async def _mcpgen_task(
        self,
        tool: ClientTool,
        input_model: type[BaseModel],
        kwargs: Mapping[str, Any],
        finish: Callable[[CallToolResult], _T],
    ) -> TaskHandle[_T]:
        try:
            with capture_tasks():
                result = await self._mcpgen_call(tool, input_model, kwargs)
        except TaskCreated as created:
            return TaskHandle(tool.name, finish, session=self.mcp.session, created=created.created)
        return TaskHandle(tool.name, finish, result=result)

    async def _mcpgen_task_output(
        self,
        tool: ClientTool,
        input_model: type[BaseModel],
        kwargs: Mapping[str, Any],
        output_model: type[_OutT],
    ) -> TaskHandle[_OutT]:
        def finish(r: CallToolResult) -> _OutT:
            return typed_output(tool, raise_if_error(tool, r), output_model)

        return await self._mcpgen_task(tool, input_model, kwargs, finish)

    async def _mcpgen_task_content(
        self, tool: ClientTool, input_model: type[BaseModel], kwargs: Mapping[str, Any]
    ) -> TaskHandle[CallResult]:
        def finish(r: CallToolResult) -> CallResult:
            return call_result(tool, raise_if_error(tool, r))

        return await self._mcpgen_task(tool, input_model, kwargs, finish)
