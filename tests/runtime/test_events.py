"""The in-memory SSE event store behind ``--resumable``: bounded, replays one stream only."""

from __future__ import annotations

from typing import Any

import anyio

from mcpgen_runtime.server.events import MemoryEventStore


def test_replays_only_later_events_of_the_same_stream_and_stays_bounded() -> None:
    async def main() -> None:
        store = MemoryEventStore(max_events=5)
        a1 = await store.store_event("a", None)  # priming event: never replayed
        a2 = await store.store_event("a", {"n": 1})
        await store.store_event("b", {"n": 2})
        await store.store_event("a", {"n": 3})
        got: list[Any] = []

        async def send(event: Any) -> None:
            got.append((event.event_id, event.message))

        assert await store.replay_events_after(a1, send) == "a"
        assert [m for _, m in got] == [{"n": 1}, {"n": 3}]
        got.clear()
        assert await store.replay_events_after(a2, send) == "a"
        assert [m for _, m in got] == [{"n": 3}]
        for i in range(10):
            await store.store_event("c", {"i": i})
        assert len(store._events) == 5
        assert await store.replay_events_after(a2, send) is None  # evicted
        assert await store.replay_events_after("not-a-number", send) is None

    anyio.run(main)
