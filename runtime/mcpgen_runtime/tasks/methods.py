"""The extension's methods on a server: ``tasks/get``, ``tasks/update``, ``tasks/cancel``
(registered on the SDK ``Server``; the lean engine reaches them through its bridge), and
``install``, which registers them on the SDK's server of a runtime ``runner.join`` joined
``Tasks`` to (when the SDK's server is made: on the lean engine's stdio, on first need).

Every method checks, in order: the revision (the extension applies on 2026-07-28 only:
``-32601`` elsewhere), the request's declaration of the extension (``-32021``), the task id
(unknown, expired or another caller's: ``-32602``, the same answer for all three, so a task id
says nothing about other callers' tasks).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mcp.shared.exceptions import MCPError
from mcp_types import RequestParams
from pydantic import ConfigDict

from ..revisions import MODERN_REVISIONS
from ..server.auth.scopes import principal
from .runner import LOG, Tasks
from .settings import EXTENSION, declared, missing_extension
from .store import TERMINAL, Record, TaskStoreDown, unavailable, wire

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

    from ..server.server_runtime import ServerRuntime

__all__ = ["install"]

_ACK: dict[str, Any] = {"resultType": "complete"}


class _TaskParams(RequestParams):
    """``tasks/*`` params: checked here, from the raw params (``ctx.params``)."""

    model_config = ConfigDict(extra="allow")


class TaskMethods:
    def __init__(self, tasks: Tasks) -> None:
        self.tasks = tasks

    async def _mine(self, ctx: Any, method: str) -> Record:
        version = ctx.protocol_version
        if version not in MODERN_REVISIONS:
            LOG.info("%s refused on %s: the tasks extension applies on 2026-07-28", method, version)
            raise MCPError(
                code=-32601,
                message=f"Method not found: {method} belongs to the {EXTENSION} extension, "
                f"which applies on 2026-07-28 only (this connection negotiated {version})",
                data=method,
            )
        params = ctx.params if isinstance(ctx.params, Mapping) else {}
        if not declared(params):
            LOG.info("%s refused: the request did not declare %s", method, EXTENSION)
            raise missing_extension(method)
        task_id = params.get("taskId")
        if not isinstance(task_id, str) or not task_id:
            raise MCPError(code=-32602, message=f"{method}: taskId must be a non-empty string")
        _routing_header(ctx, method, task_id)
        try:
            record = await self.tasks.store.get(task_id)
            if record is not None and record["owner"] == principal():
                return await self.tasks.orphaned(record)
        except TaskStoreDown as exc:
            raise unavailable(exc) from None
        LOG.info("%s: task %r not found (unknown, expired, or another caller's)", method, task_id)
        raise MCPError(
            code=-32602,
            message=f"Failed to retrieve task: Task not found ({task_id[:64]!r} is unknown, "
            "expired, or not this caller's)",
        )

    async def get(self, ctx: Any, params: Any) -> dict[str, Any]:
        record = await self._mine(ctx, "tasks/get")
        s = self.tasks.settings
        return {**wire(record, s.keep_s, s.poll_ms, detailed=True), "resultType": "complete"}

    async def update(self, ctx: Any, params: Any) -> dict[str, Any]:
        record = await self._mine(ctx, "tasks/update")
        responses = ctx.params.get("inputResponses")
        if not isinstance(responses, Mapping):
            LOG.info("tasks/update %s: inputResponses is not an object", record["id"])
            raise MCPError(code=-32602, message="tasks/update: inputResponses must be an object")
        pending = record.get("pending") or {}
        accepted: dict[str, Any] = {}
        for key, raw in responses.items():
            if record["status"] != "input_required" or key not in pending:
                LOG.debug("tasks/update %s: ignored key %r (not outstanding)", record["id"], key)
                continue
            problem = answer_problem(record["requests"][key], raw)
            if problem is not None:
                LOG.info(
                    "tasks/update %s: inputResponses[%r] refused: %s", record["id"], key, problem
                )
                raise MCPError(
                    code=-32602,
                    message=f"tasks/update: inputResponses[{key!r}] does not answer its "
                    f"question: {problem}",
                )
            accepted[key] = {"q": pending[key], "r": raw}
        if accepted:
            await self._answer(record["id"], accepted)
        return dict(_ACK)

    async def _answer(self, task_id: str, accepted: dict[str, Any]) -> None:
        tasks = self.tasks
        resumed: list[bool] = []

        def change(r: Record) -> Record | None:
            pending = dict(r.get("pending") or {})
            fresh = {k: v for k, v in accepted.items() if pending.get(k) == v["q"]}
            if r["status"] != "input_required" or not fresh:
                return None
            for k in fresh:
                pending.pop(k)
            requests = {k: v for k, v in (r.get("requests") or {}).items() if k in pending}
            out = {**r, "pending": pending, "requests": requests}
            out["answers"] = {**(r.get("answers") or {}), **fresh}
            out["updated"] = time.time()
            if not pending:
                out.update(status="working", runner=tasks.replica, expires=None, message=None)
                resumed.append(True)
            return out

        try:
            await tasks._keep_lease()
            after = await tasks._change(task_id, change)
        except TaskStoreDown as exc:
            raise unavailable(exc) from None
        if after is not None and resumed:
            tool = tasks.tools.by_name.get(after["tool"])
            if tool is not None:
                tasks.restart(tool, after)

    async def cancel(self, ctx: Any, params: Any) -> dict[str, Any]:
        record = await self._mine(ctx, "tasks/cancel")
        if record["status"] in TERMINAL:
            LOG.info(
                "tasks/cancel %s: already %s, nothing to cancel", record["id"], record["status"]
            )
            return dict(_ACK)
        keep = self.tasks.settings.keep_s

        def change(r: Record) -> Record | None:
            if r["status"] in TERMINAL:
                return None
            now = time.time()
            return {
                **r,
                "status": "cancelled",
                "message": "Cancelled by the client",
                "updated": now,
                "expires": now + keep,
                "runner": None,
            }

        try:
            await self.tasks._change(record["id"], change)
        except TaskStoreDown as exc:
            raise unavailable(exc) from None
        await self.tasks.cancel_run(record["id"])
        return dict(_ACK)


def _routing_header(ctx: Any, method: str, task_id: str) -> None:
    """Streamable HTTP: an ``Mcp-Name`` header that does not name ``taskId`` is refused with
    ``-32020`` (HeaderMismatch, SEP-2663 "Routing Headers"). A request without one is served:
    clients that predate the rule (the SDK's, which names only tools, prompts and resources)
    do not send it."""
    request = getattr(ctx, "request", None)  # the HTTP request (Starlette) on HTTP
    headers = getattr(request, "headers", None)
    if headers is None:
        return
    raw = headers.get("mcp-name")
    if raw is None:
        return
    from mcp.shared.inbound import decode_header_value

    if decode_header_value(raw) != task_id:
        LOG.info("%s refused: Mcp-Name does not match taskId", method)
        raise MCPError(
            code=-32020,
            message=f"Mcp-Name header does not match the request body's 'taskId' ({method})",
        )


def answer_problem(request: Mapping[str, Any], raw: Any) -> str | None:
    """What is wrong with ``raw`` as the answer to the input request ``request`` (None: it
    fits): the wire result type of its method, and an accepted form's content against the
    schema the question asked for."""
    from pydantic import ValidationError

    from mcp_wire.v2026_07_28 import CreateMessageResult, ElicitResult, ListRootsResult

    method = request.get("method")
    kinds: dict[str, Any] = {
        "elicitation/create": ElicitResult,
        "sampling/createMessage": CreateMessageResult,
        "roots/list": ListRootsResult,
    }
    kind = kinds.get(str(method))
    if kind is None:
        return None
    try:
        kind.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = "/".join(str(p) for p in first["loc"]) or "(root)"
        return f"not a valid {method} result ({where}: {first['msg']})"
    if method == "elicitation/create" and raw.get("action") == "accept":
        import jsonschema_rs

        schema = (request.get("params") or {}).get("requestedSchema")
        if isinstance(schema, Mapping):
            errors = list(
                jsonschema_rs.validator_for(dict(schema)).iter_errors(raw.get("content") or {})
            )
            if errors:
                return "the form content does not match the requested schema: " + "; ".join(
                    e.message for e in errors[:3]
                )
    return None


def install(server: Server[Any], runtime: ServerRuntime) -> Tasks:
    """Serve the tasks extension on ``server``, the SDK's server around ``runtime`` (whose
    tools ``runner.join`` runs as tasks; ``build_server`` put the extension in the
    capabilities): the methods, and task status notifications on ``subscriptions/listen``."""
    import mcp.types as types

    from .listen import TaskListenHandler

    tasks: Tasks = runtime.tools.tasks
    methods = TaskMethods(tasks)
    server.add_request_handler("tasks/get", _TaskParams, methods.get)
    server.add_request_handler("tasks/update", _TaskParams, methods.update)
    server.add_request_handler("tasks/cancel", _TaskParams, methods.cancel)
    server.add_request_handler(
        "subscriptions/listen",
        types.SubscriptionsListenRequestParams,
        TaskListenHandler(runtime.serving.notices.bus, tasks),
    )
    return tasks
