"""Per-call time limits with nothing armed per call and no timer on the event loop.

Almost every call finishes long before its limit (300 s by default), so the limit must cost
next to nothing while it is not reached. The alternatives, each measured with
``bench/bench_server.py --instructions`` (instructions per ``tools/call``, whole stdio server),
cost far more: a cancel scope per call (``anyio.move_on_after``); a loop timer kept armed for
the earliest deadline (while any timer is scheduled, asyncio recomputes its select timeout on
every loop iteration, and a stdio call takes several); arming and cancelling a loop timer per
call. Here a call only records its deadline in a dict.

A watchdog thread per event loop wakes every ``tick`` (a tenth of the shortest limit seen,
between 5 ms and 1 s) and, when a call is over its deadline, asks the loop
(``call_soon_threadsafe``) to cancel the calls that are over it, the way ``asyncio.timeout``
does: ``Task.cancel`` when the time is up, ``Task.uncancel`` when the cancellation is turned
into the tool error, so a cancellation from anywhere else (the client's
``notifications/cancelled``, a closed stream, shutdown) still propagates. A call is cancelled
between its deadline and one tick after it. The thread ends when its loop is closed.

Only on asyncio event loops (uvloop included: its tasks are asyncio tasks) on Python 3.11+
(``Task.uncancel``); elsewhere (trio, Python 3.10) :func:`running_task` is None and callers
fall back to a cancel scope.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import weakref
from typing import Any

__all__ = ["DONE", "WATCHABLE", "Deadlines", "running_task"]

_MIN_TICK = 0.005
_MAX_TICK = 1.0
DONE = float("inf")
"""The deadline of a call the limit has cancelled already (never cancelled twice)."""
_now = time.monotonic


class Deadlines:
    """The running calls of one event loop under a limit, and their watchdog thread."""

    __slots__ = ("loop", "calls", "_expired", "_tick", "_wake", "_posted", "thread", "__weakref__")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.calls: dict[asyncio.Task[Any], float] = {}
        """Each watched task's deadline (``time.monotonic``)."""
        self._expired: set[asyncio.Task[Any]] = set()
        """Tasks the limit has cancelled and that have not stopped yet."""
        self._tick = _MAX_TICK
        self._wake = threading.Event()
        self._posted = False
        self.thread: threading.Thread | None = None

    def start(self, task: asyncio.Task[Any], timeout: float) -> bool:
        """Watch ``task`` for ``timeout`` seconds. False when the task is watched already (a
        call nested in another one's task: the caller uses a cancel scope instead)."""
        calls = self.calls
        if task in calls:
            return False
        calls[task] = _now() + timeout
        if timeout < 10 * self._tick or self.thread is None:
            self._shorten(timeout)
        return True

    def stop(self, task: asyncio.Task[Any]) -> int | None:
        """The call finished (any way; a second call does nothing). None when the limit did
        not cancel the task. Otherwise the limit's cancellation is taken back and the
        result is how many other cancellations of the task are pending (not 0: it was
        cancelled from elsewhere too, so a ``CancelledError`` must propagate)."""
        if self.calls.pop(task, None) is None:
            return None
        return self.taken_back(task)

    def release(self, task: asyncio.Task[Any]) -> None:
        """The call of ``task`` is over, however it ended (its ``finally``): ``stop`` without
        a result."""
        # a dict pop unless the limit fired (stop: two calls): bench/bench_server.py --instructions
        if self.calls.pop(task, None) is DONE:
            self.taken_back(task)

    def taken_back(self, task: asyncio.Task[Any]) -> int | None:
        """``stop`` for a task already popped from ``calls``."""
        if task not in self._expired:
            return None
        self._expired.discard(task)
        return task.uncancel()

    def _shorten(self, timeout: float) -> None:
        """Wake at least ten times per ``timeout``; start the watchdog on first use."""
        tick = min(_MAX_TICK, max(_MIN_TICK, timeout / 10))
        if tick < self._tick:
            self._tick = tick
            self._wake.set()
        if self.thread is None:
            self.thread = threading.Thread(
                target=_watchdog, args=(weakref.ref(self),), name="mcpgen-deadlines", daemon=True
            )
            self.thread.start()

    def _over(self) -> bool:
        """(watchdog thread) Whether some call is over its deadline."""
        now = _now()
        return any(d <= now for d in list(self.calls.values()))  # list(): one atomic copy

    def _fire(self) -> None:
        """(loop thread) Cancel the calls over their deadline."""
        self._posted = False
        now = _now()
        for task, deadline in list(self.calls.items()):
            if deadline <= now:
                self.calls[task] = DONE
                self._expired.add(task)
                task.cancel()

    def __len__(self) -> int:
        return len(self.calls)


def _watchdog(ref: weakref.ref[Deadlines]) -> None:
    while True:
        deadlines = ref()
        if deadlines is None or deadlines.loop.is_closed():
            return
        wake, tick = deadlines._wake, deadlines._tick
        if not deadlines._posted and deadlines._over():
            deadlines._posted = True
            try:
                deadlines.loop.call_soon_threadsafe(deadlines._fire)
            except RuntimeError:  # the loop closed meanwhile
                return
        del deadlines
        wake.wait(tick)
        wake.clear()


WATCHABLE = sys.version_info >= (3, 11)
"""Whether this Python has ``Task.uncancel`` (3.11+)."""


def running_task() -> asyncio.Task[Any] | None:
    """The current asyncio task, or None where :class:`Deadlines` cannot watch it (not an
    asyncio loop, or Python 3.10 without ``Task.uncancel``)."""
    if not WATCHABLE:
        return None
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None
