"""A task store outage (issue 50: Redis down logged one warning per task per second) is one
warning while it lasts, and one when the store answers again, with the count in between."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from mcpgen_runtime.tasks.runner import Tasks
from mcpgen_runtime.tasks.store import TaskStoreDown


class _Store:
    def __init__(self) -> None:
        self.down = True

    async def change(self, task_id: str, change: Any) -> tuple[None, bool]:
        if self.down:
            raise TaskStoreDown("Connection refused")
        return None, False


def test_one_warning_per_outage(caplog: pytest.LogCaptureFixture) -> None:
    store = _Store()
    backend = SimpleNamespace(replica="r1", on_message=lambda fn: None)
    tasks = Tasks(SimpleNamespace(tools=[]), None, store, backend, None)  # type: ignore[arg-type]

    async def go() -> None:
        for i in range(30):  # ten tasks, three progress updates each
            await tasks._change(f"task-{i % 10}", None)
        store.down = False
        await tasks._change("task-0", None)
        await tasks._change("task-1", None)

    with caplog.at_level(logging.WARNING):
        anyio.run(go)
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(lines) == 2, lines
    assert "task task-0: its new state was not stored" in lines[0]
    assert lines[1] == "task state is stored again (30 changes were not)"
