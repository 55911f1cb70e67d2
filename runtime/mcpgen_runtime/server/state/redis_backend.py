"""State on Redis (``--state redis://...``): what makes N replicas behave as one server.

* **Rate limits**: the ``limits`` library's moving window on Redis (its Lua script, one
  ``EVALSHA`` per hit on connections of the limiter's own: see ``lane``). A limit of ``r`` calls
  per second with bursts of ``b`` is ``b`` calls per ``ceil(b / r)`` seconds, for all replicas
  together: the same burst, never more than ``r`` per second over a window.
* **Sets** (disabled tools, resources, prompts): Redis sets, changed in a transaction that
  returns the whole set.
* **Announcements**: Redis pub/sub on one channel per server; a listener task per replica,
  which reconnects by itself and then asks the runtime to reload the sets (announcements sent
  during an outage are lost; the sets are not).
* **One-time keys** (DPoP proofs' ``jti``): ``SET NX PX``, one round trip: the first replica
  to see a key wins, every later use on any replica is a replay.
* **Resumable streams**: one Redis stream per SSE stream (``XADD`` with ``MAXLEN ~``, a TTL
  renewed on each event); an event ID names its stream, so any replica can replay it
  (``redis_events``, imported for ``--resumable`` only: it is the SDK's ``EventStore``).

**Outages.** A rate-limited call while Redis is unreachable is judged by a token bucket in
this replica (logged once per outage): the limit then holds per replica, so N replicas admit
at most N times the limit until Redis is back, and no call waits on a dead connection. An
event that cannot be stored is still sent (the stream is then not resumable past it). One-time
keys are kept in this replica meanwhile (a replay on the same replica is still refused). A change
of enablement fails with a clear error. Nothing crashes and no response is lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .base import Limiter, Message, State, StateError, StateUnavailable
from .lane import ACQUIRE, WINDOW, Lane
from .memory import LocalLimiter, OnceCache
from .redis_outage import Outage, text_of

if TYPE_CHECKING:
    from mcp.server.streamable_http import EventStore

__all__ = ["RedisState"]

LOGGER = logging.getLogger("mcpgen.state")
TIMEOUT_S = 2.0
RESYNC_S = 10.0
"""Each replica reloads the shared sets this often, whatever it heard."""


class RedisLimiter(Limiter):
    __slots__ = ("args", "expiry", "key", "limit", "local", "state")

    def __init__(self, state: RedisState, key: str, rate: float, burst: int | None) -> None:
        self.limit = int(burst) if burst else max(1, math.ceil(rate))
        self.expiry = max(1, math.ceil(self.limit / rate))
        self.key, self.state = f"{state.prefix}:limits:{key}".encode(), state
        self.args = (b"%d" % self.limit, b"%d" % self.expiry, b"1")  # limit, expiry, amount
        self.local = LocalLimiter(rate, burst)

    async def take(self) -> float:
        if self.state.limits_outage.wait():
            return await self.local.take()
        lane = self.state.lane
        try:
            now = time.time()
            if await lane.script(ACQUIRE, self.key, b"%r" % now, *self.args):
                self.state.limits_outage.ok()
                return 0.0
            window = await lane.script(WINDOW, self.key, b"%r" % (now - self.expiry), self.args[0])
            self.state.limits_outage.ok()
            oldest = float(window[0]) if window else now
            return max(0.001, oldest + self.expiry - time.time())
        except Exception as exc:  # refused or closed connections, timeouts, Redis errors (OOM)
            self.state.limits_outage.failed(exc)
            return await self.local.take()


class RedisState(State):
    shared = True

    def __init__(self, url: str, *, namespace: str = "mcpgen") -> None:
        super().__init__()
        self.url, self.prefix = url, namespace
        self.channel = f"{namespace}:announce"
        self.limits_outage = Outage("rate limits")
        self.listen_outage = Outage("announcements")
        self.writes_outage = Outage("shared switches")
        self.once_outage = Outage("one-time keys")
        self._local_once = OnceCache()
        self._client: aioredis.Redis | None = None
        self._lane: Lane | None = None
        self._listener: asyncio.Task[None] | None = None

    def _new_client(self) -> aioredis.Redis:
        # a pooled connection that died with a Redis restart fails once: retried on a new
        # one, so the first command after the restart is not lost
        return aioredis.Redis.from_url(
            self.url,
            socket_connect_timeout=TIMEOUT_S,
            socket_timeout=TIMEOUT_S,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 3),
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
        )

    @property
    def client(self) -> aioredis.Redis:
        if self._client is None:
            self._client = self._new_client()
        return self._client

    @property
    def lane(self) -> Lane:
        if self._lane is None:
            self._lane = Lane(self.url, TIMEOUT_S)
        return self._lane

    async def check(self) -> None:
        client = self._new_client()
        try:
            await client.ping()
        except (RedisError, OSError) as exc:
            raise StateError(f"--state: cannot reach Redis: {str(exc)[:200]}") from None
        finally:
            await client.aclose()

    async def start(self) -> None:
        if self._listener is None:
            self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            self._listener = None
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        if self._lane is not None:
            await self._lane.close()
            self._lane = None

    async def _listen(self) -> None:
        """Deliver every announcement of the other replicas; after a broken connection,
        reconnect (backing off up to 5 s) and have the runtime reload the sets."""
        delay, first = 0.1, True
        while True:
            client = self._new_client()
            pubsub = client.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                if not first:
                    await self._resync()
                first, delay = False, 0.1
                self.listen_outage.ok()
                synced = time.monotonic()
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=RESYNC_S)
                    if time.monotonic() - synced > RESYNC_S:
                        # anti-entropy: an announcement lost on the way (a publisher's
                        # connection dying mid-send) is made good within RESYNC_S
                        synced = time.monotonic()
                        await self._resync()
                    if msg is None or msg.get("type") != "message":
                        continue
                    await self._received(msg.get("data"))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # connection lost, Redis restarted, timeouts
                self.listen_outage.failed(exc)
                first = False
            finally:
                try:
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                    await client.aclose()
                except Exception:  # noqa: S110 - closing a broken connection
                    pass
            await asyncio.sleep(delay)
            delay = min(5.0, delay * 2)

    async def _received(self, data: Any) -> None:
        try:
            message = json.loads(data)
        except (TypeError, ValueError):
            LOGGER.warning("ignored a malformed announcement on %s", self.channel)
            return
        if not isinstance(message, dict) or message.get("replica") == self.replica:
            return
        try:
            await self._deliver(message)
        except Exception:
            LOGGER.exception("an announcement could not be applied: %s", str(message)[:200])

    def limiter(self, key: str, rate: float, burst: int | None) -> Limiter:
        return RedisLimiter(self, key, rate, burst)

    async def update_set(self, name: str, members: Sequence[str], add: bool) -> frozenset[str]:
        key = f"{self.prefix}:set:{name}"
        try:
            async with self.client.pipeline(transaction=True) as pipe:
                if members and add:
                    pipe.sadd(key, *members)
                elif members:
                    pipe.srem(key, *members)
                pipe.smembers(key)
                result = await pipe.execute()
        except (RedisError, OSError) as exc:
            self.writes_outage.failed(exc)
            raise StateUnavailable() from None
        self.writes_outage.ok()
        return frozenset(text_of(m) for m in result[-1])

    async def members(self, name: str) -> frozenset[str]:
        try:
            found = await self.client.smembers(f"{self.prefix}:set:{name}")
        except (RedisError, OSError) as exc:
            self.writes_outage.failed(exc)
            raise StateUnavailable() from None
        return frozenset(text_of(m) for m in found)

    async def publish(self, message: Message) -> None:
        data = json.dumps({**message, "replica": self.replica}, separators=(",", ":"))
        try:
            await self.client.publish(self.channel, data)
        except (RedisError, OSError) as exc:
            LOGGER.warning("an announcement was not sent (Redis): %s", str(exc)[:200])

    async def remember(self, key: str, value: str, ttl_s: int) -> None:
        try:
            await self.client.set(f"{self.prefix}:kv:{key}", value, ex=ttl_s)
        except (RedisError, OSError) as exc:
            self.writes_outage.failed(exc)

    async def recall(self, key: str) -> str | None:
        try:
            found = await self.client.get(f"{self.prefix}:kv:{key}")
        except (RedisError, OSError) as exc:
            self.writes_outage.failed(exc)
            return None
        return None if found is None else text_of(found)

    async def remember_once(self, key: str, ttl_s: float) -> bool:
        if self.once_outage.wait():
            return self._local_once.add(key, ttl_s)
        try:
            first = await self.client.set(
                f"{self.prefix}:once:{key}", b"1", nx=True, px=max(1, math.ceil(ttl_s * 1000))
            )
        except (RedisError, OSError) as exc:
            self.once_outage.failed(exc)
            return self._local_once.add(key, ttl_s)
        self.once_outage.ok()
        return bool(first)

    def event_store(self, max_events: int = 10_000, ttl_s: int = 3600) -> EventStore:
        from .redis_events import RedisEventStore  # the SDK's EventStore: --resumable only

        return RedisEventStore(self, max_events, ttl_s)

    def task_store(self) -> Any:
        from ...tasks.redis_store import RedisTaskStore

        return RedisTaskStore(self)
