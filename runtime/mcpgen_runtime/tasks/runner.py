"""Running tool calls as tasks (SEP-2663): the decision per request, the durable creation, the
handler's run detached from the call, its questions, its end, and what happens to a task whose
replica died.

* **Decision** (``wants``): ``required`` tools always run as a task (a request that does not
  declare the extension gets ``-32021``); ``optional`` ones when the request declares it;
  ``forbidden`` never. Only on 2026-07-28: the extension does not apply to the handshake
  revisions, where an ``optional`` tool is a plain call and a ``required`` one gets ``-32601``.
* **Creation** (``start``): the record is stored (shared with ``--state``) before the
  ``CreateTaskResult`` goes out, so a ``tasks/get`` on any replica finds it.
* **Asking**: a handler's ``ctx.elicit``/``ctx.ask`` inside a task parks it in
  ``input_required`` with the questions as ``inputRequests``; ``tasks/update`` brings the
  answers and, once every question is answered, the handler runs again from the start with
  them (the same rule as the 2026-07-28 multi round-trip: keep side effects after the last
  question). A question asked with ``before_task=True`` before the handler's first real wait is
  asked on the call itself (an ``InputRequiredResult``) and the task is created on the retry.
* **Replica death** (``orphaned``): with ``--state`` Redis each replica holds a lease on the
  tasks it runs. A ``working`` task whose replica's lease ran out is run again by the replica
  that notices (on ``tasks/get``/``update``/``cancel``) when the tool is marked
  ``annotations.idempotentHint: true``; otherwise it fails with a JSON-RPC internal error that
  says so.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import TYPE_CHECKING, Any

from ..revisions import MODERN_REVISIONS
from ..server.auth.scopes import principal
from ..server.errors import RequestError, error_fields, protocol_errors
from ..server.flat import flat_scalar_bound
from ..server.outcome import LOGGER
from ..server.sealed import InputRequired
from .changes import TaskChanged, asking, ended, lost, rerun, status_message
from .request import TaskRequest, TaskSession
from .settings import CAPABILITIES_KEY, EXTENSION, TaskSettings, declared, missing_extension
from .settings import task_support as support_of
from .store import CapReached, Record, TaskStore, TaskStoreDown, unavailable, wire

if TYPE_CHECKING:
    from ..server.bindings import CompiledTool
    from ..server.rounds import CallInputs
    from ..server.server_runtime import ServerRuntime
    from ..server.serving import Notices
    from ..server.state import State
    from ..server.tools import ToolsRuntime

__all__ = ["Tasks", "join"]

LOG = LOGGER.getChild("tasks")


def join(runtime: ServerRuntime, raw_settings: Any) -> Tasks:
    """Run ``runtime``'s task tools as tasks (``ToolsRuntime.tasks``; ``build_runtime`` calls
    this when a tool supports tasks), without the SDK: the lean engine serves a task-augmented
    ``tools/call`` itself; ``tasks/*`` are registered on the SDK's server when it is made
    (``methods.install``). ``raw_settings``: the manifest's ``server.tasks``."""
    backend = runtime.serving.backend
    tasks = Tasks(
        runtime.tools,
        TaskSettings.of(raw_settings),
        backend.task_store(),
        backend,
        runtime.serving.notices,
    )
    runtime.tools.tasks = tasks
    return tasks


class Tasks:
    """The tasks of one server (``ToolsRuntime.tasks``)."""

    def __init__(
        self,
        tools: ToolsRuntime,
        settings: TaskSettings,
        store: TaskStore,
        backend: State,
        notices: Notices,
    ) -> None:
        self.tools, self.settings, self.store, self.backend, self.notices = (
            tools,
            settings,
            store,
            backend,
            notices,
        )
        """``notices``: the listen streams' bus, published to once the SDK made it (no stream
        listens before: ``Notices.publish``)."""
        self.support = {
            t.name: s for t in tools.tools if (s := support_of(t.definition)) != "forbidden"
        }
        self.replica = backend.replica
        self.running: dict[str, asyncio.Task[None]] = {}
        self._heartbeat: asyncio.Task[None] | None = None
        self._unstored = 0
        """Changes not stored since the store last answered (one warning per outage)."""
        backend.on_message(self.received)

    # -- the decision --------------------------------------------------------------------

    def wants(self, tool: CompiledTool, ctx: Any) -> bool:
        """Whether this ``tools/call`` runs as a task; raises where the extension refuses it."""
        support = self.support.get(tool.name)
        if support is None:
            return False
        version = ctx.protocol_version
        if version not in MODERN_REVISIONS:
            if support == "required":
                LOG.info("tool %r refused on %s: it runs only as a task", tool.name, version)
                raise RequestError(
                    code=-32601,
                    message=f"Tool {tool.name!r} runs only as a task ({EXTENSION}, on "
                    f"2026-07-28); this connection negotiated {version}, which has no tasks",
                )
            return False
        if declared(ctx.params):
            return True
        if support == "required":
            LOG.info("tool %r refused: the request did not declare %s", tool.name, EXTENSION)
            raise missing_extension(f"tool {tool.name!r}")
        return False

    # -- creation ------------------------------------------------------------------------

    async def start(
        self, tool: CompiledTool, ctx: Any, arguments: Any, checked: Any, inputs: CallInputs | None
    ) -> dict[str, Any]:
        """Create the task durably, start its run, and answer the call: a ``CreateTaskResult``,
        or the ``InputRequiredResult`` of a question asked before the task."""
        now = time.time()
        meta = ctx.params.get("_meta") if hasattr(ctx.params, "get") else None
        caps = meta.get(CAPABILITIES_KEY) if isinstance(meta, dict) else None
        record: Record = {
            "id": secrets.token_urlsafe(24),
            "owner": principal(),
            "tool": tool.name,
            "arguments": arguments,
            "version": ctx.protocol_version,
            "caps": caps if isinstance(caps, dict) else None,
            "status": "working",
            "message": None,
            "created": now,
            "updated": now,
            "expires": None,
            "runner": self.replica,
            "attempt": 1,
            "requests": {},
            "pending": {},
            "answers": dict(inputs.sealed) if inputs is not None else {},
        }
        s = self.settings
        try:
            await self._keep_lease()
            await self.store.create(record, s.max_live_per_caller, s.max_live)
        except CapReached as exc:
            from .settings import CAP_REACHED

            LOG.info("tool %r: task refused: %s", tool.name, exc)
            raise RequestError(
                code=CAP_REACHED,
                message=f"Too many unfinished tasks: {exc}; wait for one to finish or cancel one",
                data={"maxLivePerCaller": s.max_live_per_caller, "maxLive": s.max_live},
            ) from None
        except TaskStoreDown as exc:
            raise unavailable(exc) from None
        run = _Run(record["id"])
        self._launch(tool, record, checked, inputs, run)
        await asyncio.sleep(0)  # the handler runs up to its first wait: questions before_task
        if run.upfront is not None:
            stop, used = run.upfront
            try:
                await self.store.drop(record["id"])
            except TaskStoreDown as exc:
                raise unavailable(exc) from None
            from ..server.rounds import input_required

            return input_required(self.tools.serving.state_key, tool.name, arguments, used, stop)
        run.announced = True
        return {**wire(record, s.keep_s, s.poll_ms, detailed=False), "resultType": "task"}

    def _launch(
        self,
        tool: CompiledTool,
        record: Record,
        checked: Any,
        inputs: CallInputs | None,
        run: _Run | None = None,
    ) -> None:
        run = run or _Run(record["id"], announced=True)
        task = asyncio.get_running_loop().create_task(self._run(tool, record, checked, inputs, run))
        self.running[record["id"]] = task
        task_id: str = record["id"]

        def forget(_task: asyncio.Task[None]) -> None:
            self.running.pop(task_id, None)

        task.add_done_callback(forget)

    async def _run(
        self, tool: CompiledTool, record: Record, checked: Any, inputs: CallInputs | None, run: _Run
    ) -> None:
        from ..server.context import ToolContext
        from ..server.tools import _TIMED_OUT, _error, _failure

        task_id = record["id"]

        async def progress(message: str) -> None:
            await self._change(task_id, status_message(message))

        session = TaskSession(record.get("caps"), progress)
        request = TaskRequest(
            task_id, record["version"], {"arguments": record["arguments"]}, session
        )
        tctx = ToolContext(request, tool.name, self.tools.serving, inputs)  # type: ignore[arg-type]
        version = record["version"]
        try:
            value = await self.tools._run(tool, checked, tctx)
            if value is _TIMED_OUT:
                result = _error(self.tools._timed_out(tool), version)
            else:
                from ..server.bindings import output_check
                from ..server.results import to_result

                result = to_result(
                    tool.name,
                    tool.binding.output_model,
                    output_check(tool),
                    value,
                    version,
                    tool.binding.method,
                )
            await self._change(task_id, ended("completed", self.settings, result=result))
        except InputRequired as exc:
            if getattr(exc, "before_task", False) and not run.announced:
                run.upfront = (exc, tctx.call_inputs())
                return
            used = dict(tctx.call_inputs().used)
            await self._change(task_id, asking(exc.pending, used, self.settings))
        except asyncio.CancelledError:
            return  # tasks/cancel set the status; a replica shutting down leaves it to others
        except protocol_errors() as exc:  # the SDK's MCPError or the runtime's RequestError
            fields = error_fields(exc)
            assert fields is not None
            code, message, data = fields
            error = {"code": code, "message": message}
            if data is not None:
                error["data"] = data
            await self._change(task_id, ended("failed", self.settings, error=error))
        except Exception as exc:
            result = _error(_failure(tool.name, exc), version)
            await self._change(task_id, ended("completed", self.settings, result=result))

    def restart(self, tool: CompiledTool, record: Record) -> None:
        """Run ``record``'s handler again here, with every answer it has so far."""
        args = record["arguments"]
        checked, refused = self.tools._checked_arguments(tool, args, flat_scalar_bound(args))
        if refused is not None:  # the arguments no longer fit (a newer package)
            self._spawn(
                self._change(record["id"], ended("completed", self.settings, result=refused))
            )
            return
        from ..server.rounds import CallInputs

        self._launch(tool, record, checked, CallInputs(record.get("answers") or {}, {}, None))

    def _spawn(self, work: Any) -> None:
        asyncio.get_running_loop().create_task(work)

    # -- changes and their announcements -------------------------------------------------

    async def _change(self, task_id: str, change: Any) -> Record | None:
        """Apply ``change`` and tell the listeners; a store outage is logged (the task stays
        as the store last saw it)."""
        try:
            after, changed = await self.store.change(task_id, change)
        except TaskStoreDown as exc:
            if not self._unstored:  # once per outage, not once per task per second
                LOG.warning(
                    "task %s: its new state was not stored: %s (further changes not stored "
                    "are counted, not logged, until the store answers again)",
                    task_id,
                    str(exc)[:200],
                )
            self._unstored += 1
            return None
        if self._unstored:
            LOG.warning("task state is stored again (%d changes were not)", self._unstored)
            self._unstored = 0
        if changed and after is not None:
            await self.announce(after)
        return after

    async def announce(self, record: Record) -> None:
        s = self.settings
        await self.notices.publish(
            lambda: TaskChanged(
                record["id"], record["owner"], wire(record, s.keep_s, s.poll_ms, detailed=True)
            )
        )
        if self.store.shared:
            await self.backend.publish({"kind": "task", "id": record["id"]})

    async def received(self, message: Any) -> None:
        """Another replica's announcement: a task changed, or is to be cancelled here."""
        kind = message.get("kind")
        task_id = message.get("id")
        if not isinstance(task_id, str) or kind not in ("task", "task-cancel"):
            return
        if kind == "task-cancel":
            local = self.running.get(task_id)
            if local is not None:
                local.cancel()
            return
        found = await self.store.get(task_id)
        if found is not None:
            record, s = found, self.settings
            await self.notices.publish(
                lambda: TaskChanged(
                    task_id, record["owner"], wire(record, s.keep_s, s.poll_ms, detailed=True)
                )
            )

    async def cancel_run(self, task_id: str) -> None:
        local = self.running.get(task_id)
        if local is not None:
            local.cancel()
        elif self.store.shared:
            await self.backend.publish({"kind": "task-cancel", "id": task_id})

    # -- replicas ------------------------------------------------------------------------

    async def _keep_lease(self) -> None:
        if not self.store.shared:
            return
        if self._heartbeat is None or self._heartbeat.done():
            await self.store.renew(self.replica, self.settings.lease_s)
            self._heartbeat = asyncio.get_running_loop().create_task(self._renew())

    async def _renew(self) -> None:
        failing = False
        while True:
            await asyncio.sleep(self.settings.lease_s / 3)
            try:
                await self.store.renew(self.replica, self.settings.lease_s)
            except TaskStoreDown as exc:
                if not failing:  # once per outage
                    LOG.warning("the lease on this replica's tasks was not renewed: %s", exc)
                failing = True
            else:
                if failing:
                    LOG.warning("the lease on this replica's tasks is renewed again")
                failing = False

    async def orphaned(self, record: Record) -> Record:
        """``record`` as it stands once a dead runner is dealt with: run again here (an
        idempotent tool) or failed."""
        runner = record.get("runner")
        if (
            record["status"] != "working"
            or runner in (None, self.replica)
            or await self.store.alive(str(runner))
        ):
            return record
        tool = self.tools.by_name.get(record["tool"])
        annotations = tool.definition.get("annotations") if tool is not None else None
        idempotent = isinstance(annotations, dict) and annotations.get("idempotentHint") is True
        if tool is not None and idempotent:
            await self._keep_lease()
            after = await self._change(record["id"], rerun(runner, self.replica))
            if after is not None and after.get("runner") == self.replica:
                LOG.warning(
                    "task %s: replica %s stopped; running it again here", record["id"], runner
                )
                self.restart(tool, after)
            return after or record
        LOG.warning("task %s: replica %s stopped while running it; failed", record["id"], runner)
        error = {
            "code": -32603,
            "message": f"The server replica running this task stopped before it finished; "
            f"tool {record['tool']!r} is not marked idempotent (annotations.idempotentHint), "
            "so it was not run again. Call the tool again if that is safe.",
        }
        after = await self._change(record["id"], lost(runner, error, self.settings))
        return after or record


class _Run:
    """One run's hand-over between the creating call and the handler's first slice."""

    __slots__ = ("task_id", "announced", "upfront")

    def __init__(self, task_id: str, *, announced: bool = False) -> None:
        self.task_id = task_id
        self.announced = announced
        self.upfront: tuple[InputRequired, CallInputs] | None = None
