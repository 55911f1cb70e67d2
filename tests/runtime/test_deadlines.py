"""Per-call time limits (``mcpgen_runtime.server.deadlines``): one watchdog thread instead of
a cancel scope or a loop timer per call, and the tool error a handler over its limit gets.

The server is the generated conformance example run in process by the SDK, with handlers
overridden per test; the peers are the official ``mcp.Client`` (concurrent calls) and the raw
JSON-RPC client of tests/server/helpers.py.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from types import ModuleType
from typing import Any

import anyio
import mcp.types as types
import pytest
from mcp import Client

from mcpgen_runtime.server import deadlines as deadlines_mod
from mcpgen_runtime.server.deadlines import Deadlines
from mcpgen_runtime.server.server_runtime import ServerRuntime, runtime_of

needs_uncancel = pytest.mark.skipif(
    sys.version_info < (3, 11), reason="Task.uncancel (Python 3.11+); 3.10 uses cancel scopes"
)


def _rt(server: Any) -> ServerRuntime:
    runtime = runtime_of(server)
    assert runtime is not None
    return runtime


def _server(example: tuple[ModuleType, Any], handlers: Any, timeout: float) -> Any:
    _, generated = example
    from mcpgen_runtime import build_server

    return build_server(
        handlers, generated.BINDINGS, generated.SERVER_INFO, limits={"timeoutSeconds": timeout}
    )


def _text(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


async def _call(client: Client, name: str = "test_simple_text") -> types.CallToolResult:
    return await client.call_tool(name, {})


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_over_the_limit_is_a_tool_error_and_the_server_goes_on(example: Any, mode: str) -> None:
    mod, _ = example
    seen: dict[str, Any] = {}

    class Slow(mod.Handlers):  # type: ignore[misc, name-defined]
        async def test_simple_text(self, args: Any, ctx: Any) -> Any:
            try:
                await anyio.sleep(60)
            except BaseException as exc:
                seen["exc"] = type(exc).__name__
                raise
            return "never"

    server = _server(example, Slow(), 0.2)

    async def main() -> None:
        async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
            t0 = time.perf_counter()
            slow = await _call(client)
            seen["elapsed"] = time.perf_counter() - t0
            assert slow.is_error
            assert "did not finish within its time limit of 0.2 s" in _text(slow)
            # the same connection keeps serving: other tools, and the slow one again
            ok = await _call(client, "test_image_content")
            assert not ok.is_error
            again = await _call(client)
            assert again.is_error and "time limit" in _text(again)

    anyio.run(main)
    assert seen["exc"] == "CancelledError"
    assert 0.15 < seen["elapsed"] < 5
    dl = _rt(server).tools._deadlines
    if sys.version_info >= (3, 11):
        assert dl is not None and len(dl) == 0  # every finished call forgotten


@needs_uncancel
def test_limit_cancels_task_groups_and_inner_scopes_still_work(example: Any) -> None:
    """A handler's own anyio scopes behave as without the limit: an inner shorter
    ``move_on_after`` fires normally; a task group's children are cancelled by the limit."""
    mod, _ = example
    seen: dict[str, Any] = {"children": 0}

    class Scoped(mod.Handlers):  # type: ignore[misc, name-defined]
        async def test_simple_text(self, args: Any, ctx: Any) -> Any:
            with anyio.move_on_after(0.05) as inner:
                await anyio.sleep(30)
            seen["inner"] = inner.cancelled_caught

            async def child() -> None:
                try:
                    await anyio.sleep(30)
                except anyio.get_cancelled_exc_class():
                    seen["children"] += 1
                    raise

            async with anyio.create_task_group() as tg:
                tg.start_soon(child)
                tg.start_soon(child)
            return "never"

        async def test_image_content(self, args: Any, ctx: Any) -> Any:
            with anyio.move_on_after(0.05):
                await anyio.sleep(30)
            return "inner scope done"

    async def main() -> None:
        async with Client(_server(example, Scoped(), 0.5), mode="legacy") as client:  # type: ignore[arg-type]
            r = await _call(client)
            assert r.is_error and "time limit of 0.5 s" in _text(r)
            r2 = await _call(client, "test_image_content")
            assert not r2.is_error and _text(r2) == "inner scope done"

    anyio.run(main)
    assert seen["inner"] is True
    assert seen["children"] == 2


def test_concurrent_calls_each_get_their_own_verdict(example: Any) -> None:
    """Twenty concurrent calls, every other one too slow: each gets its own answer."""
    mod, _ = example

    class Mixed(mod.Handlers):  # type: ignore[misc, name-defined]
        async def test_simple_text(self, args: Any, ctx: Any) -> Any:
            await anyio.sleep(30)
            return "never"

        async def test_image_content(self, args: Any, ctx: Any) -> Any:
            await anyio.sleep(0.05)
            return "fast"

    results: dict[int, types.CallToolResult] = {}

    async def main() -> None:
        async with Client(_server(example, Mixed(), 0.3), mode="legacy") as client:  # type: ignore[arg-type]

            async def one(i: int) -> None:
                name = "test_simple_text" if i % 2 else "test_image_content"
                results[i] = await _call(client, name)

            with anyio.fail_after(10):
                async with anyio.create_task_group() as tg:
                    for i in range(20):
                        tg.start_soon(one, i)

    anyio.run(main)
    for i, r in results.items():
        if i % 2:
            assert r.is_error and "time limit" in _text(r), i
        else:
            assert not r.is_error and _text(r) == "fast", i
    assert len(results) == 20


@needs_uncancel
def test_a_handler_that_swallows_the_cancellation_keeps_its_result(example: Any) -> None:
    """As with ``asyncio.timeout``: a handler that catches the cancellation and returns has
    the last word; its task is left uncancelled, so the SDK still writes the answer."""
    mod, _ = example

    class Stubborn(mod.Handlers):  # type: ignore[misc, name-defined]
        async def test_simple_text(self, args: Any, ctx: Any) -> Any:
            try:
                await anyio.sleep(30)
            except asyncio.CancelledError:
                await anyio.sleep(0.01)  # a further await is not cancelled again
                return "stubborn"
            return "never"

    async def main() -> None:
        async with Client(_server(example, Stubborn(), 0.1), mode="legacy") as client:  # type: ignore[arg-type]
            r = await _call(client)
            assert not r.is_error and _text(r) == "stubborn"
            r2 = await _call(client, "test_image_content")
            assert not r2.is_error

    anyio.run(main)


def test_cancel_scope_fallback_where_the_task_cannot_be_watched(
    example: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where :class:`Deadlines` cannot watch (trio, Python 3.10), a cancel scope enforces
    the same limit with the same tool error."""
    mod, _ = example
    monkeypatch.setattr(deadlines_mod, "running_task", lambda: None)
    from mcpgen_runtime.server import tools

    monkeypatch.setattr(tools, "running_task", lambda: None)

    class Slow(mod.Handlers):  # type: ignore[misc, name-defined]
        async def test_simple_text(self, args: Any, ctx: Any) -> Any:
            await anyio.sleep(30)
            return "never"

    server = _server(example, Slow(), 0.1)

    async def main() -> None:
        async with Client(server, mode="legacy") as client:  # type: ignore[arg-type]
            r = await _call(client)
            assert r.is_error and "time limit of 0.1 s" in _text(r)

    anyio.run(main)
    assert _rt(server).tools._deadlines is None  # never used


# -- the watch itself, on a bare asyncio loop ------------------------------------------------


@needs_uncancel
def test_one_watchdog_for_many_calls_and_a_shorter_limit_shortens_its_tick() -> None:
    threads: list[threading.Thread] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        dl = Deadlines(loop)
        task = asyncio.current_task()
        assert task is not None
        assert dl.start(task, 300)
        assert dl.thread is not None and dl.thread.is_alive()
        threads.append(dl.thread)
        assert not dl.start(task, 300)  # nested in the same task: not watched twice
        assert dl.stop(task) is None  # finished in time
        for _ in range(1000):  # no timer, no thread per call
            assert dl.start(task, 300)
            assert dl.stop(task) is None
        assert dl.thread is threads[0] and len(dl) == 0
        assert dl._tick == 1.0
        assert not any(isinstance(h, asyncio.TimerHandle) for h in getattr(loop, "_scheduled", []))

        cancelled: list[str] = []

        async def sleeper(limit: float, label: str) -> str:
            me = asyncio.current_task()
            assert me is not None
            assert dl.start(me, limit)
            try:
                await asyncio.sleep(5)
                return "slept"
            except asyncio.CancelledError:
                assert dl.stop(me) == 0  # the limit's own cancellation, taken back
                cancelled.append(label)
                return "timed out"
            finally:
                dl.stop(me)

        t0 = loop.time()
        results = await asyncio.gather(sleeper(0.3, "late"), sleeper(0.05, "early"))
        elapsed = loop.time() - t0
        assert results == ["timed out", "timed out"]
        assert cancelled == ["early", "late"]  # the shorter limit shortened the tick
        assert dl._tick == 0.005
        assert 0.29 < elapsed < 2
        assert len(dl) == 0 and not dl._expired

    asyncio.run(main())
    threads[0].join(timeout=5)
    assert not threads[0].is_alive()  # the watchdog ends with its loop


@needs_uncancel
def test_another_cancellation_is_never_swallowed() -> None:
    """A task cancelled both by its limit and from elsewhere: ``stop`` reports the other
    cancellation, so the caller re-raises."""

    async def main() -> None:
        dl = Deadlines(asyncio.get_running_loop())
        outcome: dict[str, Any] = {}

        async def victim() -> None:
            me = asyncio.current_task()
            assert me is not None
            assert dl.start(me, 30)
            try:
                await asyncio.sleep(5)
            except asyncio.CancelledError:
                outcome["pending"] = dl.stop(me)
                raise
            finally:
                dl.stop(me)

        task = asyncio.ensure_future(victim())
        await asyncio.sleep(0)  # the victim is asleep, watched
        for watched in list(dl.calls):
            dl.calls[watched] = 0.0  # over its limit now
        dl._fire()  # the limit cancels it ...
        task.cancel()  # ... and so does somebody else, before it runs again
        with pytest.raises(asyncio.CancelledError):
            await task
        assert outcome["pending"] == 1

    asyncio.run(main())


def test_start_up_options_pass_through_create_server_and_stay_with_their_server(
    example: Any,
) -> None:
    """``run_cli``'s options reach ``build_server`` as arguments of the generated
    ``create_server`` (no module global): a second server in the same process keeps its own."""
    mod, generated = example
    timed = generated.create_server(mod.Handlers(), limits={"timeoutSeconds": 0.2})
    plain = generated.create_server(mod.Handlers())
    key = bytes(range(32))
    keyed = generated.create_server(mod.Handlers(), request_state_key=key)
    assert {t.timeout for t in _rt(timed).tools.tools} == {0.2}
    assert 0.2 not in {t.timeout for t in _rt(plain).tools.tools}
    from mcpgen_runtime import RequestStateKey

    assert not _rt(keyed).serving.state_key.generated
    assert _rt(keyed).serving.state_key._key == RequestStateKey(key)._key
    assert _rt(plain).serving.state_key._key != RequestStateKey(key)._key
