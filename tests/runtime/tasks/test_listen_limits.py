"""The tasks extension's ``subscriptions/listen`` handler keeps the limits of the SDK's own
handler, which it replaces when a server has task tools: at most ``max_subscriptions`` streams
open at once (one more is refused before its acknowledgement), and a slot is free again when a
stream ends. Runs the handler on the SDK's real subscription bus."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.shared.exceptions import MCPError
from mcp_types import SubscriptionFilter, SubscriptionsListenRequestParams

from mcpgen_runtime.tasks.listen import TaskListenHandler


class _Session:
    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def send_notification(self, note: Any, related_request_id: Any = None) -> None:
        self.sent.append((related_request_id, note))


class _Ctx:
    def __init__(self, request_id: int, session: _Session) -> None:
        self.request_id = request_id
        self.params: dict[str, Any] = {"notifications": {"toolsListChanged": True}}
        self.session = session


def test_streams_past_the_cap_are_refused_and_slots_come_back() -> None:
    params = SubscriptionsListenRequestParams(
        notifications=SubscriptionFilter.model_validate({"toolsListChanged": True})
    )
    session = _Session()
    handler = TaskListenHandler(InMemorySubscriptionBus(), None, max_subscriptions=2)  # type: ignore[arg-type]

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            scopes = []
            for rid in (1, 2):
                scope = anyio.CancelScope()
                scopes.append(scope)

                async def listen(rid: int = rid, scope: anyio.CancelScope = scope) -> None:
                    with scope:
                        await handler(_Ctx(rid, session), params)  # type: ignore[arg-type]

                tg.start_soon(listen)
            with anyio.fail_after(5):
                while len(session.sent) < 2:
                    await anyio.sleep(0.01)
            assert sorted(rid for rid, _ in session.sent) == [1, 2]  # both acknowledged
            with pytest.raises(MCPError, match="Subscription limit reached"):
                await handler(_Ctx(3, session), params)  # type: ignore[arg-type]
            assert len(session.sent) == 2  # refused before any acknowledgement
            scopes[0].cancel()  # the client went away: its slot is free again
            await anyio.sleep(0.05)
            with anyio.move_on_after(0.2):
                await handler(_Ctx(4, session), params)  # type: ignore[arg-type]
            assert [rid for rid, _ in session.sent][-1] == 4
            tg.cancel_scope.cancel()

    anyio.run(main)
