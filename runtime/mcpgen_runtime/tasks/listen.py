"""``subscriptions/listen`` with the tasks extension's ``taskIds`` (SEP-2663 on SEP-2575): the
SDK's listen stream (acknowledgement first, every frame stamped with the subscription id, only
what was asked for), plus ``notifications/tasks`` for the tasks the caller owns and named.

A request naming ``taskIds`` without declaring the extension gets ``-32021``. The ids
acknowledged are those of the caller's own tasks that exist; a status change of one of them
goes out as a ``DetailedTask``, the same object ``tasks/get`` returns at that moment (the
replica that changed the task announces it; every replica's streams hear it with ``--state``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import anyio
from mcp.server.context import ServerRequestContext
from mcp.server.subscriptions import SUBSCRIPTION_ID_META_KEY
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import event_matches, event_to_notification
from mcp_types import (
    SubscriptionFilter,
    SubscriptionsAcknowledgedNotification,
    SubscriptionsAcknowledgedNotificationParams,
    SubscriptionsListenRequestParams,
    SubscriptionsListenResult,
)
from pydantic import BaseModel

from ..server.auth.scopes import principal
from ..server.sdk_adapter import honored_filter
from .changes import TaskChanged
from .runner import Tasks
from .settings import declared, missing_extension
from .store import TaskStoreDown, unavailable

__all__ = ["TaskListenHandler"]

LOGGER = logging.getLogger("mcpgen_runtime.tasks")


class _Notification(BaseModel):
    method: str
    params: dict[str, Any]


class TaskListenHandler:
    """Serves ``subscriptions/listen``: one call, one stream (as ``mcp.server.subscriptions.
    ListenHandler``, with its limits: at most ``max_subscriptions`` open streams, each ended
    when ``max_buffered_events`` wait unread), with task status notifications."""

    def __init__(
        self,
        bus: Any,
        tasks: Tasks,
        *,
        max_subscriptions: int = 1024,
        max_buffered_events: int = 1024,
    ) -> None:
        self._bus = bus
        self._tasks = tasks
        self._max_subscriptions = max_subscriptions
        self._max = max_buffered_events
        self._streams: set[Any] = set()

    async def _honored_tasks(self, ctx: ServerRequestContext[Any, Any]) -> list[str]:
        raw = ctx.params if isinstance(ctx.params, Mapping) else {}
        wanted = (raw.get("notifications") or {}).get("taskIds")
        if wanted is None:
            return []
        if not isinstance(wanted, list) or not all(isinstance(i, str) for i in wanted):
            raise MCPError(code=-32602, message="notifications.taskIds must be a list of strings")
        if not declared(raw):
            LOGGER.info("subscriptions/listen refused: taskIds without the tasks extension")
            raise missing_extension("subscriptions/listen with taskIds")
        me = principal()
        honored = []
        try:
            for task_id in wanted:
                record = await self._tasks.store.get(task_id)
                if record is not None and record["owner"] == me:
                    honored.append(task_id)
        except TaskStoreDown as exc:
            raise unavailable(exc) from None
        return honored

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], params: SubscriptionsListenRequestParams
    ) -> SubscriptionsListenResult:
        subscription_id = ctx.request_id
        if subscription_id is None:
            raise MCPError(code=-32600, message="subscriptions/listen requires a request id")
        if len(self._streams) >= self._max_subscriptions:
            LOGGER.warning("subscriptions/listen refused: %d streams open", len(self._streams))
            raise MCPError(code=-32603, message="Subscription limit reached")
        task_ids = frozenset(await self._honored_tasks(ctx))
        honored = honored_filter(params.notifications)
        if task_ids:
            honored = SubscriptionFilter.model_validate(
                {
                    **honored.model_dump(by_alias=True, exclude_none=True),
                    "taskIds": sorted(task_ids),
                }
            )
        uris = frozenset(honored.resource_subscriptions or ())
        meta: dict[str, Any] = {SUBSCRIPTION_ID_META_KEY: subscription_id}
        send, recv = anyio.create_memory_object_stream[Any](self._max)

        def deliver(event: Any) -> None:
            if isinstance(event, TaskChanged):
                if event.task_id not in task_ids:
                    return
            elif not event_matches(honored, uris, event):
                return
            try:
                send.send_nowait(event)
            except anyio.ClosedResourceError:
                pass
            except anyio.WouldBlock:
                LOGGER.warning("listen stream %r backlog full; ending it", subscription_id)
                self._streams.discard(send)
                send.close()

        self._streams.add(send)
        unsubscribe = self._bus.subscribe(deliver)
        try:
            await ctx.session.send_notification(
                SubscriptionsAcknowledgedNotification(
                    params=SubscriptionsAcknowledgedNotificationParams(
                        notifications=honored, _meta=meta
                    )
                ),
                related_request_id=subscription_id,
            )
            async for event in recv:
                if isinstance(event, TaskChanged):
                    note: Any = _Notification(
                        method="notifications/tasks", params={**event.detailed, "_meta": meta}
                    )
                else:
                    note = event_to_notification(event, meta)
                await ctx.session.send_notification(note, related_request_id=subscription_id)
        finally:
            unsubscribe()
            self._streams.discard(send)
            send.close()
            recv.close()
        return SubscriptionsListenResult(_meta=meta)
