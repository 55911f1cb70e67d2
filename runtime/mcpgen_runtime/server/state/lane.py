"""The rate limiter's path to Redis: one script call per rate-limited ``tools/call``.

A hit of the shared limit is the ``limits`` library's moving-window script
(``RedisStorage.SCRIPT_ACQUIRE_MOVING_WINDOW``, see
https://limits.readthedocs.io/en/stable/strategies.html#moving-window), sent over redis-py's
own ``Connection`` (``send_command`` / ``read_response``). The algorithm and the wire are the
maintained libraries'; what this module leaves out are the layers between them. Measured per
hit under callgrind (``bench/bench_state.py --instructions``), each layer costs more than the
one below it: ``MovingWindowRateLimiter.hit`` on redis-py with a socket timeout; the same
without one; redis-py's ``Redis.evalsha``; ``Connection.send_command`` + ``read_response``.
With a socket timeout, redis-py arms an ``asyncio`` timeout around every read. The lane's
connections have none; a watchdog task instead closes a connection whose command has waited
``timeout_s``, which fails that command (``ConnectionError``) as a timeout would, at the cost
of a dict entry per command.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from typing import Any

from limits.storage import RedisStorage as _Scripts
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["Lane"]

ACQUIRE = _Scripts.SCRIPT_ACQUIRE_MOVING_WINDOW
"""KEYS[1] the window; ARGV now, limit, expiry, amount; 1 when admitted."""
WINDOW = _Scripts.SCRIPT_MOVING_WINDOW
"""KEYS[1] the window; ARGV now - expiry, limit; [oldest entry, count] or nothing."""


class Lane:
    """Connections of its own (one per concurrent command, kept for reuse) to one Redis."""

    def __init__(self, url: str, timeout_s: float) -> None:
        # the pool only makes connections (``make_connection``: URL, TLS, auth, db)
        self._factory = ConnectionPool.from_url(
            url, socket_connect_timeout=timeout_s, socket_timeout=None
        )
        self.timeout_s = timeout_s
        self._idle: list[AbstractConnection] = []
        self._busy: dict[AbstractConnection, float] = {}
        self._watchdog: asyncio.Task[None] | None = None
        self._sha: dict[bytes, bytes] = {}

    async def script(self, text: bytes, key: bytes, *args: bytes) -> Any:
        """Run the Lua script ``text`` on ``key`` (``EVALSHA``, loaded again after a Redis
        restart flushed it). Raises redis-py's errors. Arguments are bytes: redis-py packs
        them as they are (an int or a float costs it a ``repr`` and several type checks)."""
        sha = self._sha.get(text)
        if sha is None:
            sha = hashlib.sha1(text, usedforsecurity=False).hexdigest().encode()
            self._sha[text] = sha
        try:
            return await self.command(b"EVALSHA", sha, b"1", key, *args)
        except NoScriptError:
            return await self.command(b"EVAL", text, b"1", key, *args)

    async def command(self, *args: Any) -> Any:
        if self._watchdog is None:
            self._watchdog = asyncio.get_running_loop().create_task(self._watch())
        reused = bool(self._idle)
        try:
            return await self._once(args)
        except RedisConnectionError:
            if not reused:
                raise
            # a kept connection that died with a Redis restart fails once: a new one
            # (``read_response`` has closed it) gets the command through
            return await self._once(args)

    async def _once(self, args: tuple[Any, ...]) -> Any:
        conn = self._idle.pop() if self._idle else self._factory.make_connection()  # type: ignore[no-untyped-call]
        self._busy[conn] = deadline = time.monotonic() + self.timeout_s
        try:
            # a closed connection reconnects in send_command; read_response closes it on
            # any failure (including cancellation), so it is always fit to keep
            await conn.send_command(*args)
            return await conn.read_response()
        except RedisConnectionError as exc:
            if time.monotonic() >= deadline:  # closed by the watchdog
                raise RedisTimeoutError(f"no answer from Redis in {self.timeout_s:g} s") from exc
            raise
        finally:
            del self._busy[conn]
            self._idle.append(conn)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.timeout_s / 4)
            now = time.monotonic()
            for conn in [c for c, deadline in self._busy.items() if deadline < now]:
                await conn.disconnect(nowait=True)  # the waiting read fails at once

    async def close(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        for conn in [*self._idle, *self._busy]:
            await conn.disconnect(nowait=True)
        self._idle.clear()
