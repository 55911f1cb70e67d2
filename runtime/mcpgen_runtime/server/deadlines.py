"""Per-call time limits without a timer per call.

A cancel scope per call (``anyio.move_on_after``) costs about 6 µs of a ~200 µs call, and
almost every call finishes long before its limit (300 s by default). Here a call only records
its deadline in a dict (well under 1 µs); one loop timer, armed for the earliest deadline,
cancels the calls that are over it, the way ``asyncio.timeout`` does (``Task.cancel`` when
the time is up, ``Task.uncancel`` when the cancellation is converted into a result), so a
cancellation from anywhere else (the client's ``notifications/cancelled``, a closed stream,
shutdown) still propagates. The timer fires about once per limit while calls keep coming,
and not at all while none are running.

Only on asyncio event loops (uvloop included: its tasks are asyncio tasks) on Python 3.11+
(``Task.uncancel``); elsewhere (trio, Python 3.10) :func:`running_task` is None and callers
fall back to a cancel scope.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

__all__ = ["Deadlines", "Watch", "running_task"]


class Watch:
    """One call under a limit: its task, its deadline and whether the limit cancelled it."""

    __slots__ = ("owner", "task", "deadline", "expired", "settled")

    def __init__(self, owner: Deadlines, task: asyncio.Task[Any], deadline: float) -> None:
        self.owner = owner
        self.task = task
        self.deadline = deadline
        self.expired = False
        """The limit cancelled the task."""
        self.settled = False

    def stop(self) -> int:
        """:meth:`Deadlines.stop` for this call."""
        return self.owner.stop(self)


class Deadlines:
    """The running calls of one event loop and the one timer that watches them."""

    __slots__ = ("loop", "_calls", "_timer", "_armed_for")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._calls: dict[asyncio.Task[Any], Watch] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._armed_for = 0.0

    def start(self, task: asyncio.Task[Any], timeout: float) -> Watch | None:
        """Watch ``task`` for ``timeout`` seconds; None when the task is watched already (a
        call nested in another one's task: the caller uses a cancel scope instead)."""
        if task in self._calls:
            return None
        deadline = self.loop.time() + timeout
        watch = Watch(self, task, deadline)
        self._calls[task] = watch
        if self._timer is None or deadline < self._armed_for:
            self._arm(deadline)
        return watch

    def stop(self, watch: Watch) -> int:
        """The call finished (any way; a second call does nothing). Takes back the limit's
        cancellation, if it made one, and returns how many other cancellations of the task
        are pending (not 0: the task was cancelled from elsewhere too, so a
        ``CancelledError`` must propagate). The timer stays armed: when it fires with
        nothing over its limit it re-arms for the earliest deadline left, or stops."""
        if watch.settled:
            return watch.task.cancelling()
        watch.settled = True
        if self._calls.get(watch.task) is watch:
            del self._calls[watch.task]
        if watch.expired:
            return watch.task.uncancel()
        return watch.task.cancelling()

    def _arm(self, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._armed_for = when
        self._timer = self.loop.call_at(when, self._fire)

    def _fire(self) -> None:
        self._timer = None
        now = self.loop.time()
        earliest: float | None = None
        for watch in list(self._calls.values()):
            if watch.expired:
                continue
            if watch.deadline <= now:
                watch.expired = True
                watch.task.cancel()
            elif earliest is None or watch.deadline < earliest:
                earliest = watch.deadline
        if earliest is not None:
            self._arm(earliest)

    def __len__(self) -> int:
        return len(self._calls)


_WATCHABLE = sys.version_info >= (3, 11)
"""Whether this Python has ``Task.uncancel`` (3.11+)."""


def running_task() -> asyncio.Task[Any] | None:
    """The current asyncio task, or None where :class:`Deadlines` cannot watch it (not an
    asyncio loop, or Python 3.10 without ``Task.uncancel``)."""
    if not _WATCHABLE:
        return None
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None
