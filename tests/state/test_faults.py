"""Bad state configuration and Redis faults: one line at start-up, or a documented degraded
mode while serving, never a traceback or a lost response."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.server.streamable_http import EventMessage
from mcp.types import JSONRPCNotification, JSONRPCResponse

from mcpgen_runtime.server.state import StateError, StateUnavailable, open_state
from mcpgen_runtime.server.state.redis_backend import RedisState
from tests.interop.procs import free_port
from tests.state.conftest import RedisServer, redis_server_binary
from tests.state.test_replicas import package  # noqa: F401


def start_cli(package: Path, *args: str, env: dict[str, str] | None = None) -> Any:  # noqa: F811
    return subprocess.run(
        [sys.executable, "-m", "replicated", "--http", "--port", str(free_port()), *args],
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(package), **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["--state", "redis://127.0.0.1:1/0"], None, "cannot reach Redis"),
        (["--state", "http://example.test/"], None, "use redis://HOST:PORT/DB"),
        ([], {"MCPGEN_STATE_URL": "redis://user:s3cret@127.0.0.1:1/0"}, "cannot reach Redis"),
        ([], {"MCPGEN_REQUEST_STATE_KEY_FILE": "/nonexistent/keys"}, "cannot read"),
        ([], {"MCPGEN_REQUEST_STATE_KEY": "short"}, "at least 32 bytes"),
    ],
)
def test_bad_state_configuration_is_one_line_at_start(
    package: Path,  # noqa: F811
    args: list[str],
    env: dict[str, str] | None,
    said: str,
) -> None:
    proc = start_cli(package, *args, env=env)
    assert proc.returncode == 2, proc.stderr
    assert said in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "s3cret" not in proc.stderr and "short" not in proc.stderr.split("error:")[-1]


def test_the_password_of_a_state_url_is_never_shown() -> None:
    with pytest.raises(StateError) as err:
        open_state("memcached://admin:hunter2@cache:11211")
    assert "hunter2" not in str(err.value) and "***" in str(err.value)


def message(n: int) -> Any:
    return JSONRPCNotification(jsonrpc="2.0", method="notifications/progress", params={"n": n})


def test_event_ids_malformed_expired_or_foreign(redis_server: RedisServer) -> None:
    async def main() -> None:
        state = RedisState(redis_server.url, namespace="faults")
        store = state.event_store(ttl_s=1)
        first = await store.store_event("7", None)
        ids = [await store.store_event("7", message(n)) for n in range(3)]
        await store.store_event("8", message(99))  # another stream: never replayed here
        got: list[EventMessage] = []

        async def collect(ev: EventMessage) -> None:
            got.append(ev)

        assert await store.replay_events_after(first, collect) == "7"
        assert [e.event_id for e in got] == ids  # each once, in order, none of stream 8
        got.clear()
        assert await store.replay_events_after(ids[1], collect) == "7"
        assert [e.event_id for e in got] == ids[2:]
        for bad in ("", "7", "7~", "~1-0", "7~abc", "7~1-x", "7~١-0", "x" * 5000):
            got.clear()
            assert await store.replay_events_after(bad, collect) is None
            assert got == []
        assert await store.replay_events_after("nosuchstream~1-0", collect) is None
        await anyio.sleep(1.5)  # the stream's TTL
        assert await store.replay_events_after(first, collect) is None
        await state.close()

    anyio.run(main)


def test_redis_out_of_memory_degrades_without_losing_responses() -> None:
    """maxmemory reached with noeviction: writes fail. An event is still sent (just not
    resumable), a shared switch change is a clear tool error, rate limits fall back to this
    replica's bucket."""
    with tempfile.TemporaryDirectory() as tmp:
        srv = RedisServer(
            free_port(),
            redis_server_binary(),
            Path(tmp),
            extra=["--maxmemory", "2mb", "--maxmemory-policy", "noeviction"],
        )
        srv.start()
        try:
            for size in (100_000, 1_000, 10):  # until even a small write is refused
                for i in range(5_000):
                    if b"OOM" in srv.command("SET", f"fill{size}-{i}", "x" * size):
                        break
                else:
                    pytest.fail("Redis never ran out of memory")

            async def main() -> None:
                state = RedisState(srv.url, namespace="oom")
                store = state.event_store()
                reply = JSONRPCResponse(jsonrpc="2.0", id=1, result={})
                assert (await store.store_event("1", reply)).endswith("~unstored")
                with pytest.raises(StateUnavailable):
                    await state.update_set("tools", ["echo"], add=True)
                limiter = state.limiter("tool:x", 1.0, 2)
                assert [await limiter.take() for _ in range(2)] == [0.0, 0.0]
                assert await limiter.take() > 0.0  # this replica's own bucket still limits
                await state.close()

            anyio.run(main)
        finally:
            srv.stop()


def test_a_hung_redis_costs_one_call_a_timeout_then_calls_are_judged_here() -> None:
    """Redis stopped (SIGSTOP: connections accepted, nothing answered): the call waiting on it
    is judged by this replica's bucket after the timeout; the calls after it do not wait;
    once Redis answers again, the shared window is used again."""
    with tempfile.TemporaryDirectory() as tmp:
        srv = RedisServer(free_port(), redis_server_binary(), Path(tmp))
        srv.start()
        assert srv.proc is not None
        pid = srv.proc.pid
        try:

            async def main() -> None:
                state = RedisState(srv.url, namespace="hang")
                limiter = state.limiter("tool:x", 100.0, 1000)  # a 10 s window
                assert await limiter.take() == 0.0
                os.kill(pid, signal.SIGSTOP)
                try:
                    t0 = time.monotonic()
                    assert await limiter.take() == 0.0
                    waited = time.monotonic() - t0
                    assert 1.9 <= waited < 4.0, waited
                    assert state.limits_outage.down
                    t0 = time.monotonic()
                    for _ in range(20):
                        assert await limiter.take() == 0.0
                    assert time.monotonic() - t0 < 0.5  # no call waits on the hung Redis
                finally:
                    os.kill(pid, signal.SIGCONT)
                await anyio.sleep(1.1)  # the next probe
                assert await limiter.take() == 0.0
                assert not state.limits_outage.down
                # the hit went to Redis: the window holds the first hit and this one (and
                # the hit that timed out, when Redis read it after SIGCONT: it counts)
                held = int(srv.command("LLEN", "hang:limits:tool:x")[1:].split(b"\r")[0])
                assert held in (2, 3), held
                await state.close()

            anyio.run(main)
        finally:
            srv.stop()


def test_a_flushed_script_cache_is_loaded_again(redis_server: RedisServer) -> None:
    """After a Redis restart (or SCRIPT FLUSH) EVALSHA answers NOSCRIPT: the limiter sends
    the script itself and the shared window goes on counting."""

    async def main() -> None:
        state = RedisState(redis_server.url, namespace="flush")
        limiter = state.limiter("tool:y", 1.0, 3)
        assert await limiter.take() == 0.0
        assert redis_server.command("SCRIPT", "FLUSH").startswith(b"+OK")
        assert [await limiter.take() for _ in range(2)] == [0.0, 0.0]
        assert not state.limits_outage.down
        wait = await limiter.take()  # the 4th call in the window: refused by Redis
        assert 0.0 < wait <= 3.0, wait
        assert redis_server.command("LLEN", "flush:limits:tool:y").startswith(b":3")
        await state.close()

    anyio.run(main)
