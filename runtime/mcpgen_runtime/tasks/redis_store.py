"""Tasks on Redis (``--state redis://...``): every replica reads, updates and cancels the
same tasks.

* A task is one JSON string under ``<ns>:task:<id>``, without expiry while someone works on it,
  expiring at its ``expires`` once nobody does (``input_required``, finished).
* Creation is one Lua script: it checks the caps (``<ns>:tasks:live`` and
  ``<ns>:tasks:live:<owner>``, sorted sets of the unfinished tasks) and stores the task, so a
  burst on several replicas never passes them, and the task is in Redis before the
  ``CreateTaskResult`` goes out.
* A change is an optimistic transaction (``WATCH``/``MULTI``): two replicas changing one
  task never both win (a cancel against a finishing run, two ``tasks/update``).
* Each replica holds a lease ``<ns>:tasks:replica:<id>`` (``SET PX``, renewed while it runs
  tasks); a ``working`` task whose runner has no lease is orphaned (``runner.Tasks.orphaned``).

Redis unreachable: every operation raises ``TaskStoreDown``; task calls get a clear error
(``store.unavailable``) and plain tool calls do not touch this store.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError, WatchError

from .store import LIVE, CapReached, Record, TaskStore, TaskStoreDown, unfinished

__all__ = ["RedisTaskStore"]

_CREATE = """
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 1 end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 2 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
return 0
"""


def _dumps(record: Record) -> str:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


class RedisTaskStore(TaskStore):
    shared = True

    def __init__(self, state: Any) -> None:
        """``state``: the server's ``RedisState`` (its client and key prefix)."""
        self.state = state
        self.prefix = state.prefix

    def _key(self, task_id: str) -> str:
        return f"{self.prefix}:task:{task_id}"

    def _live(self, owner: str = "", *, mine: bool = False) -> str:
        return f"{self.prefix}:tasks:live" + (f":{owner}" if mine else "")

    async def create(self, record: Record, per_caller: int, total: int) -> None:
        owner = record["owner"]
        keys = (self._key(record["id"]), self._live(), self._live(owner, mine=True))
        args = (_dumps(record), record["id"], record["created"], per_caller, total)
        try:
            client = self.state.client
            verdict = await client.eval(_CREATE, 3, *keys, *args)
            if verdict:
                await self._prune(keys[1])
                await self._prune(keys[2])
                verdict = await client.eval(_CREATE, 3, *keys, *args)
        except (RedisError, OSError) as exc:
            raise TaskStoreDown(str(exc)) from None
        if verdict == 1:
            raise CapReached(f"the server runs {unfinished(total)} (maxLive {total})")
        if verdict == 2:
            raise CapReached(
                f"this caller has {unfinished(per_caller)} (maxLivePerCaller {per_caller})"
            )

    async def _prune(self, live: str) -> None:
        """Drop from a live set the tasks that expired or finished without being removed."""
        client = self.state.client
        members = [
            m.decode() if isinstance(m, bytes) else str(m) for m in await client.zrange(live, 0, -1)
        ]
        if not members:
            return
        found = await client.mget([self._key(m) for m in members])
        stale = [
            m
            for m, raw in zip(members, found, strict=True)
            if raw is None or json.loads(raw).get("status") not in LIVE
        ]
        if stale:
            await client.zrem(live, *stale)

    async def get(self, task_id: str) -> Record | None:
        try:
            raw = await self.state.client.get(self._key(task_id))
        except (RedisError, OSError) as exc:
            raise TaskStoreDown(str(exc)) from None
        if raw is None:
            return None
        record: Record = json.loads(raw)
        return record

    async def change(
        self, task_id: str, change: Callable[[Record], Record | None]
    ) -> tuple[Record | None, bool]:
        key = self._key(task_id)
        try:
            async with self.state.client.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        await pipe.watch(key)
                        raw = await pipe.get(key)
                        if raw is None:
                            await pipe.reset()
                            return None, False
                        record: Record = json.loads(raw)
                        after = change(record)
                        if after is None:
                            await pipe.reset()
                            return record, False
                        pipe.multi()
                        pipe.set(key, _dumps(after))
                        if after.get("expires") is not None:
                            pipe.pexpireat(key, int(float(after["expires"]) * 1000))
                        if after["status"] not in LIVE:
                            pipe.zrem(self._live(), task_id)
                            pipe.zrem(self._live(after["owner"], mine=True), task_id)
                        await pipe.execute()
                        return after, True
                    except WatchError:
                        continue
        except (RedisError, OSError) as exc:
            raise TaskStoreDown(str(exc)) from None

    async def drop(self, task_id: str) -> None:
        record = await self.get(task_id)
        if record is None:
            return
        try:
            async with self.state.client.pipeline(transaction=True) as pipe:
                pipe.delete(self._key(task_id))
                pipe.zrem(self._live(), task_id)
                pipe.zrem(self._live(record["owner"], mine=True), task_id)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            raise TaskStoreDown(str(exc)) from None

    async def alive(self, runner: str) -> bool:
        try:
            return bool(await self.state.client.exists(f"{self.prefix}:tasks:replica:{runner}"))
        except (RedisError, OSError) as exc:
            raise TaskStoreDown(str(exc)) from None

    async def renew(self, replica: str, lease_s: float) -> None:
        try:
            await self.state.client.set(
                f"{self.prefix}:tasks:replica:{replica}", b"1", px=max(1, int(lease_s * 1000))
            )
        except (RedisError, OSError) as exc:
            raise TaskStoreDown(str(exc)) from None
