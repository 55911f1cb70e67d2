"""``TaskHandle.refresh()`` asks the server every time, also once the handle is finished
(issue 50: it returned the cached state without a request)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from tests.client.helpers import imported, write_client
from tests.client.tasks_peer import MANIFEST, make_server


@pytest.fixture(scope="module")
def jobs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("refresh")
    path = out / "jobs.json"
    path.write_text(json.dumps(MANIFEST))
    write_client(path, out, "jobs_client")
    with imported(out, "jobs_client") as module:
        yield module.JobsClient


def test_refresh_on_a_finished_handle_asks(jobs: Any) -> None:
    log: list[dict[str, Any]] = []

    async def go() -> str:
        async with jobs(make_server(log), mode="2026-07-28") as c:
            handle = await c.export(n=2)
            await handle.result()
            assert handle.done
            asked = sum(e["method"] == "tasks/get" for e in log)
            state = await handle.refresh()
            assert sum(e["method"] == "tasks/get" for e in log) == asked + 1
            return str(getattr(state, "status", state))

    assert "completed" in anyio.run(go)
