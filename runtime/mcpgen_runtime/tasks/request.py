"""What a handler running inside a task sees as its request: the shape of the SDK's
``ServerRequestContext`` that ``ToolContext`` reads, detached from the ``tools/call`` that
created the task (whose answer has gone out by then).

Inside a task ``ctx.progress`` becomes the task's ``statusMessage`` (the extension carries no
``notifications/progress`` for tasks), log entries are dropped (likewise), and the client's
capabilities are those it declared on the call that created the task.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

__all__ = ["TaskRequest", "TaskSession"]

PROGRESS_EVERY_S = 0.2
"""A handler's progress reaches the task at most this often (the last one always does)."""


class _Capabilities:
    __slots__ = ("_raw",)

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self._raw = raw

    def __getattr__(self, name: str) -> Any:
        return self._raw.get(name)


class TaskSession:
    """The channel of a task back to its client: its status, read by ``tasks/get``."""

    __slots__ = ("client_capabilities", "_progress", "_last")

    def __init__(
        self,
        capabilities: Mapping[str, Any] | None,
        progress: Callable[[str], Awaitable[None]],
    ) -> None:
        self.client_capabilities = None if capabilities is None else _Capabilities(capabilities)
        self._progress = progress
        self._last = 0.0

    can_send_request = False

    async def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        now = time.monotonic()
        done = total is not None and progress >= total
        if now - self._last < PROGRESS_EVERY_S and not done:
            return
        self._last = now
        if message is None:
            message = f"{progress:g}/{total:g}" if total is not None else f"{progress:g}"
        await self._progress(message)

    async def send_log_message(self, *args: Any, **kwargs: Any) -> None:
        """Log entries are not carried for tasks (SEP-2663)."""


class TaskRequest:
    """A task's run, shaped as the request context ``ToolContext`` reads."""

    __slots__ = ("protocol_version", "request_id", "params", "meta", "session", "method")

    close_sse_stream = None

    def __init__(
        self,
        task_id: str,
        version: str,
        params: Mapping[str, Any],
        session: TaskSession,
    ) -> None:
        self.protocol_version = version
        self.request_id = task_id
        self.params = params
        self.meta: Mapping[str, Any] | None = None
        self.session = session
        self.method = "tools/call"
