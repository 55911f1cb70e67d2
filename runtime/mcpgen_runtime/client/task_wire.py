"""The tasks extension's messages (``io.modelcontextprotocol/tasks``, SEP-2663): the shapes a
client reads (``CreateTaskResult``, ``TaskState``) and the requests it sends (``tasks/get``,
``tasks/update``, ``tasks/cancel``, each with ``Mcp-Name`` set to the task id)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Literal

from mcp_types import ErrorData, Request, RequestParams, Result
from pydantic import BaseModel, ConfigDict, TypeAdapter

from ..tasks.settings import EXTENSION, task_support
from .errors import InputRequiredError

if TYPE_CHECKING:
    from mcp.client.session import ClientSession
    from mcp_types import InputRequest

__all__ = [
    "TASKS_EXTENSION",
    "TERMINAL",
    "CreateTaskResult",
    "TaskState",
    "answer_with_callbacks",
    "cancel_task",
    "get_task",
    "poll_seconds",
    "task_support",
    "update_task",
]

TASKS_EXTENSION: Final = EXTENSION
TERMINAL: Final = frozenset({"completed", "failed", "cancelled"})
DEFAULT_POLL_SECONDS: Final = 1.0
"""Between two ``tasks/get`` when the server suggests no ``pollIntervalMs``."""
MIN_POLL_SECONDS: Final = 0.01


class CreateTaskResult(Result):
    """A ``tools/call`` answered with a task (``resultType: "task"``)."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"] = "task"
    task_id: str
    status: str = "working"
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class TaskState(Result):
    """A ``DetailedTask``: what ``tasks/get`` answers (and ``notifications/tasks`` carries)."""

    model_config = ConfigDict(extra="allow")
    result_type: str | None = None
    task_id: str
    status: str
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None
    input_requests: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class _TaskParams(RequestParams):
    task_id: str


class _UpdateParams(_TaskParams):
    input_responses: dict[str, Any]


class _GetTask(Request[_TaskParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: _TaskParams
    name_param = "taskId"  # Mcp-Name: the extension routes tasks/* by the task id


class _UpdateTask(Request[_UpdateParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    params: _UpdateParams
    name_param = "taskId"


class _CancelTask(Request[_TaskParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: _TaskParams
    name_param = "taskId"


class _Ack(Result):
    model_config = ConfigDict(extra="allow")
    result_type: str | None = None


_INPUT_REQUEST: TypeAdapter[Any] | None = None


def _input_request(raw: Any) -> InputRequest:
    global _INPUT_REQUEST
    if _INPUT_REQUEST is None:
        from mcp_types import InputRequest

        _INPUT_REQUEST = TypeAdapter(InputRequest)
    value: InputRequest = _INPUT_REQUEST.validate_python(raw, by_name=False)
    return value


async def get_task(session: ClientSession, task_id: str) -> TaskState:
    return await session.send_request(_GetTask(params=_TaskParams(task_id=task_id)), TaskState)


async def update_task(session: ClientSession, task_id: str, responses: Mapping[str, Any]) -> None:
    wire = {
        k: v.model_dump(mode="json", by_alias=True, exclude_none=True)
        if isinstance(v, BaseModel)
        else v
        for k, v in responses.items()
    }
    await session.send_request(
        _UpdateTask(params=_UpdateParams(task_id=task_id, input_responses=wire)), _Ack
    )


async def cancel_task(session: ClientSession, task_id: str) -> None:
    await session.send_request(_CancelTask(params=_TaskParams(task_id=task_id)), _Ack)


async def answer_with_callbacks(
    session: ClientSession, tool: str, requests: Mapping[str, Any]
) -> dict[str, Any]:
    """Each input request answered by the client's own callbacks (elicitation, sampling,
    roots), as the SDK answers a 2026-07-28 ``InputRequiredResult``."""
    from mcp.client.session import ClientRequestContext

    out: dict[str, Any] = {}
    for key, raw in requests.items():
        req = _input_request(raw)
        params = req.params
        meta = params.meta if params is not None else None
        ctx = ClientRequestContext(session=session, request_id=key, meta=meta)
        answer = await session.dispatch_input_request(ctx, req)
        if isinstance(answer, ErrorData):
            raise InputRequiredError(
                tool, f"a callback declined the task's input request {key!r}: {answer.message}"
            )
        out[key] = answer
    return out


def poll_seconds(ms: int | None) -> float:
    return DEFAULT_POLL_SECONDS if ms is None else max(ms / 1000, MIN_POLL_SECONDS)
