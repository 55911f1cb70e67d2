"""Ctrl-C in a generated CLI: a level-triggered cancellation of the call, not a one-shot one.

``anyio.run`` on asyncio turns SIGINT into ``task.cancel()`` on the main task: one
``CancelledError``, delivered wherever the task happens to be. Any layer that catches it
there (a request's courtesy-cancel path, a cancel scope exiting at the same moment) ends it,
and a task tool's poll loop then goes on polling a task that never ends: the CLI hangs after
Ctrl-C. Here SIGINT cancels an anyio cancel scope around the call (inside the
connection): every later await in it is cancelled too, so the call always unwinds
(``TaskHandle.follow`` still sends
``tasks/cancel``, shielded and bounded) and the stdio server is shut down on the way out.
"""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from anyio.abc import TaskStatus

__all__ = ["run_interruptible"]


async def _watch(
    scope: anyio.CancelScope, state: dict[str, bool], *, task_status: TaskStatus
) -> None:
    try:
        receiver = anyio.open_signal_receiver(signal.SIGINT)
        with receiver as signals:
            task_status.started()
            async for _ in signals:
                state["interrupted"] = True
                scope.cancel()
                break
    except NotImplementedError:  # no signal receivers here (Windows): anyio.run's own handling
        task_status.started()
        await anyio.sleep_forever()
    # a second Ctrl-C from now on raises KeyboardInterrupt at once (the default handler)
    await anyio.sleep_forever()


async def run_interruptible(work: Callable[[], Awaitable[Any]], state: dict[str, bool]) -> Any:
    """``await work()``; SIGINT cancels it and sets ``state["interrupted"]`` (the caller exits
    130 then, whatever the cancelled call raised on its way out)."""
    scope = anyio.CancelScope()
    outcome: dict[str, Any] = {}
    async with anyio.create_task_group() as tg:
        await tg.start(_watch, scope, state)
        with scope:
            try:
                outcome["value"] = await work()
            except Exception as exc:  # noqa: BLE001 - re-raised below, outside the task group
                outcome["error"] = exc
        tg.cancel_scope.cancel()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
