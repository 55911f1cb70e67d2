"""The error of a task call past a cap (issue 50): not ``-32000`` (the SDK's closed connection,
which its client turns into ``ConnectionLostError``) but Invalid params, as for the other task
requests a server refuses, so HTTP answers it with 400 like them; "1 unfinished task"."""

from __future__ import annotations

import anyio
import pytest
from mcp.shared.inbound import ERROR_CODE_HTTP_STATUS
from mcp_types.jsonrpc import CONNECTION_CLOSED, INVALID_PARAMS

from mcpgen_runtime.tasks.settings import CAP_REACHED
from mcpgen_runtime.tasks.store import CapReached, MemoryTaskStore, unfinished


def test_the_cap_error_code_is_invalid_params_with_http_400() -> None:
    assert CAP_REACHED == INVALID_PARAMS != CONNECTION_CLOSED
    assert ERROR_CODE_HTTP_STATUS[CAP_REACHED] == 400


def test_one_unfinished_task_is_singular() -> None:
    assert unfinished(1) == "1 unfinished task"
    assert unfinished(3) == "3 unfinished tasks"

    async def go() -> str:
        store = MemoryTaskStore()
        base = {"status": "working", "owner": "me", "expires": None}
        await store.create({**base, "id": "t1"}, 1, 10)
        with pytest.raises(CapReached) as exc:
            await store.create({**base, "id": "t2"}, 1, 10)
        return str(exc.value)

    assert anyio.run(go) == "this caller has 1 unfinished task (maxLivePerCaller 1)"
