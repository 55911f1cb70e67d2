"""Where tasks live: one record per task (a JSON object), in the server's state backend.

``TaskStore`` is the interface; ``MemoryTaskStore`` the default (one process), and
``redis_store.RedisTaskStore`` the shared one (``--state redis://...``), where every replica
reads, updates and cancels the same tasks.

A record::

    {"id", "owner", "tool", "arguments", "status", "message", "created", "updated",
     "expires", "result", "error", "requests", "pending", "answers", "runner", "attempt"}

``expires`` (epoch seconds) is set when nobody works on the task (``input_required`` and the
terminal statuses): it is dropped ``keep_s`` after that. A ``working`` task is kept while its
runner (a replica, ``runner``) is alive; ``orphaned`` tells a reader when it is not.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from ..server.errors import RequestError
from ..server.outcome import LOGGER

__all__ = [
    "LIVE",
    "TERMINAL",
    "CapReached",
    "MemoryTaskStore",
    "Record",
    "TaskStore",
    "TaskStoreDown",
    "unavailable",
    "wire",
]

Record = dict[str, Any]
TERMINAL = frozenset(("completed", "failed", "cancelled"))
LIVE = frozenset(("working", "input_required"))


class TaskStoreDown(Exception):
    """The shared store cannot be reached (Redis down): task calls fail with a clear error."""


class CapReached(Exception):
    """Creating one more task would pass a cap (``maxLivePerCaller``, ``maxLive``)."""


def iso(epoch: float) -> str:
    return (
        datetime.fromtimestamp(epoch, tz=timezone.utc)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


def wire(record: Record, keep_s: int, poll_ms: int, *, detailed: bool) -> dict[str, Any]:
    """The task as the wire shows it: a ``Task`` (``detailed=False``, the ``CreateTaskResult``
    seed) or a ``DetailedTask`` (``tasks/get``, ``notifications/tasks``)."""
    created = float(record["created"])
    expires = record.get("expires")
    until = float(expires) if expires is not None else time.time() + keep_s
    out: dict[str, Any] = {
        "taskId": record["id"],
        "status": record["status"],
        "createdAt": iso(created),
        "lastUpdatedAt": iso(float(record["updated"])),
        "ttlMs": max(1, int((until - created) * 1000)),
        "pollIntervalMs": poll_ms,
    }
    if record.get("message"):
        out["statusMessage"] = record["message"]
    if detailed:
        status = record["status"]
        if status == "completed":
            out["result"] = record.get("result") or {"content": []}
        elif status == "failed":
            out["error"] = record.get("error") or {"code": -32603, "message": "Internal error"}
        elif status == "input_required":
            out["inputRequests"] = record.get("requests") or {}
    return out


class TaskStore(abc.ABC):
    """Tasks of one server, shared by its replicas when the backend is."""

    shared = False

    @abc.abstractmethod
    async def create(self, record: Record, per_caller: int, total: int) -> None:
        """Store a new task, durably (a ``get`` on any replica finds it once this returns).
        Raises ``CapReached`` past a cap of unfinished tasks."""

    @abc.abstractmethod
    async def get(self, task_id: str) -> Record | None:
        """The task (None: unknown or expired)."""

    @abc.abstractmethod
    async def change(
        self, task_id: str, change: Callable[[Record], Record | None]
    ) -> tuple[Record | None, bool]:
        """Apply ``change`` atomically (it returns the new record, or None to leave it as it
        is): (the record after, whether it changed); (None, False) for an unknown task."""

    @abc.abstractmethod
    async def drop(self, task_id: str) -> None:
        """Forget a task that was never shown to a client."""

    async def alive(self, runner: str) -> bool:
        """Whether the replica ``runner`` still holds its lease (one process: always)."""
        return True

    async def renew(self, replica: str, lease_s: float) -> None:
        """Renew this replica's lease on the tasks it runs."""
        return None

    async def close(self) -> None:
        return None


class MemoryTaskStore(TaskStore):
    """Tasks in this process (the default state)."""

    def __init__(self) -> None:
        self._records: dict[str, Record] = {}

    def _sweep(self, now: float) -> None:
        for task_id in [
            k for k, r in self._records.items() if r.get("expires") and r["expires"] <= now
        ]:
            del self._records[task_id]

    async def create(self, record: Record, per_caller: int, total: int) -> None:
        self._sweep(time.time())
        live = [r for r in self._records.values() if r["status"] in LIVE]
        if len(live) >= total:
            raise CapReached(f"the server runs {unfinished(len(live))} (maxLive {total})")
        mine = sum(1 for r in live if r["owner"] == record["owner"])
        if mine >= per_caller:
            raise CapReached(f"this caller has {unfinished(mine)} (maxLivePerCaller {per_caller})")
        self._records[record["id"]] = dict(record)

    async def get(self, task_id: str) -> Record | None:
        record = self._records.get(task_id)
        if record is None:
            return None
        expires = record.get("expires")
        if expires is not None and expires <= time.time():
            del self._records[task_id]
            return None
        return dict(record)

    async def change(
        self, task_id: str, change: Callable[[Record], Record | None]
    ) -> tuple[Record | None, bool]:
        record = await self.get(task_id)
        if record is None:
            return None, False
        after = change(record)
        if after is None:
            return record, False
        self._records[task_id] = after
        return dict(after), True

    async def drop(self, task_id: str) -> None:
        self._records.pop(task_id, None)


def unfinished(n: int) -> str:
    """``1 unfinished task``, ``3 unfinished tasks``."""
    return f"{n} unfinished task{'' if n == 1 else 's'}"


def unavailable(exc: BaseException) -> RequestError:
    """The JSON-RPC error of a task request the store could not serve (``TaskStoreDown``)."""
    LOGGER.getChild("tasks").warning("task state unavailable: %s", str(exc)[:200])
    return RequestError(
        code=-32603,
        message="Task state unavailable: the server cannot reach its shared state store right "
        "now; no task was created or changed. Plain tool calls still work; try again shortly.",
    )
