"""The lean engine: one connection's JSON-RPC messages, routed to the runtimes of
``mcpgen_runtime.server`` without the SDK's generic engine.

The eras, as the SDK's ``serve_dual_era_loop`` decides them: the client's first request opens
the connection. ``initialize`` (or any request without the 2026-07-28 envelope) opens a
handshake connection: requests before ``initialize`` get ``-32602`` (``ping`` excepted), and a
request carrying the envelope gets ``-32600``. A request with the envelope opens a 2026-07-28
connection: each request is checked against its own envelope (``-32602`` for a missing or
malformed one, ``-32022`` for an unsupported version), ``initialize`` gets ``-32022``.

Each request runs in its own task (a slow tool does not hold up the next message) and gets
exactly one answer; ``notifications/cancelled`` cancels it and it is not answered. Methods the
engine does not serve go to the SDK (``bridge``).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

from . import jsonrpc
from .checks import FAST_CHECKS, error_answer, initialize_valid, surface_check
from .closing import close, end_of_input
from .context import LOG_LEVEL_KEY, LeanConnection, LeanRequest, log_floor
from .discovery import LATEST_HANDSHAKE, MODERN, Discovery
from .envelope import CAPABILITIES_KEY, VERSION_KEY, envelope_refusal, enveloped, negotiate
from .methods import Handler, Methods

if TYPE_CHECKING:
    from ..server.server_runtime import ServerRuntime
    from .bridge import Bridge

__all__ = ["Engine"]


_SDK_SESSION_METHODS = frozenset(("resources/subscribe", "resources/unsubscribe"))

# Python 3.12+: a request's task starts at once and runs up to its first wait (``eager_start``,
# what ``asyncio.eager_task_factory`` does); a call that never waits, most tools, is answered
# before ``receive`` returns, with no task scheduled and nothing to forget. On 3.11 each request
# is a task the loop runs next (docs/lean-engine.md, "Where the time goes").
_EAGER = sys.version_info >= (3, 12)


_TASK_NAME = "mcpgen-request"
"""The name of every request's task."""

MAX_IN_FLIGHT = 1024
"""Requests running at once before the engine stops reading the client's lines (stdio); it
reads again once half of them are answered (docs/lean-engine.md, "Memory bounds")."""


class Engine:
    """One client connection served by ``runtime``; ``write`` sends one encoded line."""

    def __init__(
        self,
        runtime: ServerRuntime,
        discovery: Discovery,
        write: Callable[[bytes], None],
        bridge: Bridge | None = None,
    ) -> None:
        self.runtime = runtime
        self.discovery = discovery
        self._write = write
        self.bridge = bridge
        self.era: str | None = None
        self.version = LATEST_HANDSHAKE
        self.initialize: dict[str, Any] | None = None
        """The client's ``initialize`` request (handshake wire), replayed to the bridge."""
        self.client_capabilities: dict[str, Any] | None = None
        self.tasks: dict[Any, asyncio.Task[Any]] = {}
        self.connection = LeanConnection(self._notify)
        self._asked: dict[str, asyncio.Future[Any]] = {}
        self._next_ask = 0
        self._answers = {**discovery.answers()}
        self._legacy, self._modern = Methods(runtime, self._answers).tables()
        self._cacheable = frozenset(
            m
            for m in (
                "tools/list",
                "resources/list",
                "resources/templates/list",
                "resources/read",
                "prompts/list",
            )
            if m in self._modern
        )
        self._replica = runtime.replica
        self._loop = asyncio.get_running_loop()
        self._hold: Callable[[str, bool], None] | None = None
        self._holding = False
        self._drain: Callable[[], Awaitable[None]] | None = None

    def flow(self, hold: Callable[[str, bool], None], drain: Callable[[], Awaitable[None]]) -> None:
        """Flow control (stdio): ``hold(reason, True)`` stops reading the client's lines,
        ``hold(reason, False)`` takes that reason back; ``drain`` waits while the client does
        not read what was written (a notifying handler waits there). Set before the first
        ``receive``: on 3.12+ a request runs up to its first wait as it is received, and a
        handler that notifies without a drain never waits at all."""
        self._hold = hold
        self._drain = drain

    def resume(
        self,
        era: str | None,
        version: str,
        initialize: dict[str, Any] | None,
        client_capabilities: dict[str, Any] | None,
    ) -> None:
        """Go on from what the fast boot (``boot``) already answered on this connection."""
        self.era = era
        self.version = version
        self.initialize = initialize
        self.client_capabilities = client_capabilities

    # -- routing -------------------------------------------------------------------------

    def receive(self, line: bytes) -> None:
        """One line from the client."""
        try:
            msg = jsonrpc.decode(line)
        except jsonrpc.Invalid as exc:
            if exc.answer is not None:
                self._write(jsonrpc.encode(exc.answer))
            return
        method = msg.get("method")
        if method is None:
            self._response(msg)
            return
        params = msg.get("params")
        if "id" not in msg:
            self._notification(msg, method, params)
            return
        rid = msg["id"]
        if rid in self.tasks:
            # refused with id null: an answer carrying the id would be read as the answer to
            # the request in flight under it, which then answers too (a second response)
            self._write(jsonrpc.ID_IN_USE)
            return
        if self.era is None:
            self.era = "modern" if method != "initialize" and enveloped(params) else "legacy"
        if self.era == "legacy":
            self._legacy_request(msg, rid, method, params)
        else:
            self._modern_request(msg, rid, method, params)

    def _legacy_request(self, msg: dict[str, Any], rid: Any, method: str, params: Any) -> None:
        if method == "initialize":
            self._write(self._initialize(rid, msg, params))
            return
        meta = params.get("_meta") if params is not None else None
        if type(meta) is dict and VERSION_KEY in meta:  # enveloped(params), inline
            self._error(
                rid,
                jsonrpc.INVALID_REQUEST,
                "this connection serves the handshake protocol era; requests carrying "
                "the 2026-07-28 envelope are not accepted on it",
            )
            return
        handler = self._legacy.get(method)
        if handler is None:
            self._spawn(rid, self._bridged(msg))
            return
        if self.initialize is None and method != "ping":
            self._error(rid, jsonrpc.INVALID_PARAMS, "Invalid request parameters", "")
            return
        channel = (self.connection, self._notify, self.client_capabilities, 0, self._ask)
        req = LeanRequest(method, params, rid, meta, self.version, channel)
        self._spawn(rid, self._answer(handler, req, params or {}, False, True))

    def _modern_request(self, msg: dict[str, Any], rid: Any, method: str, params: Any) -> None:
        if method == "initialize":
            requested = (params or {}).get("protocolVersion")
            data: dict[str, Any] = {"supported": list(MODERN)}
            if isinstance(requested, str):
                data["requested"] = requested
            self._error(
                rid,
                jsonrpc.UNSUPPORTED_PROTOCOL_VERSION,
                "connection is serving the 2026-07-28 protocol; the initialize "
                "handshake is not accepted",
                data,
            )
            return
        meta = params.get("_meta") if params is not None else None
        refusal = envelope_refusal(meta)
        if refusal is not None:
            self._write(jsonrpc.encode(jsonrpc.error(rid, *refusal)))
            return
        handler = self._modern.get(method)
        if handler is None:
            self._spawn(rid, self._bridged(msg))
            return
        assert meta is not None
        req = self._modern_req(method, params, rid, meta)
        self._spawn(rid, self._answer(handler, req, params, True, True))

    def _spawn(self, rid: Any, work: Coroutine[Any, Any, object]) -> None:
        """Run ``work``, the request ``rid``'s coroutine, in its own task. The coroutine takes
        its task out of ``tasks`` as it ends (``_answer(..., serve=True)``, ``_bridged``: no
        done callback per request, bench/bench_server.py --instructions); a task cancelled
        before it ever ran does not, so ``_cancel`` adds one."""
        task: asyncio.Task[Any]
        if _EAGER:
            task = asyncio.Task(work, loop=self._loop, name=_TASK_NAME, eager_start=True)  # type: ignore[call-arg,unused-ignore]
            if task.done():
                return
        else:
            # named: an unnamed task formats "Task-<n>" as it is made (2,000 instructions)
            task = asyncio.Task(work, loop=self._loop, name=_TASK_NAME)
        tasks = self.tasks
        tasks[rid] = task
        if len(tasks) >= MAX_IN_FLIGHT and self._hold is not None and not self._holding:
            self._holding = True
            self._hold("requests", True)

    def _forget(self, rid: Any, task: asyncio.Task[Any] | None = None) -> None:
        """Request ``rid``'s task is over (``task``: only if it is still the one under
        ``rid``, for a done callback that may run after a new request took the id)."""
        tasks = self.tasks
        if task is None or tasks.get(rid) is task:
            tasks.pop(rid, None)
        if self._holding and len(tasks) <= MAX_IN_FLIGHT // 2:
            self._holding = False
            assert self._hold is not None
            self._hold("requests", False)

    def _cancel(self, rid: Any, task: asyncio.Task[Any]) -> None:
        """Cancel request ``rid``'s task; forgotten once done, even if it never ran."""
        task.cancel()
        task.add_done_callback(partial(self._forget, rid))

    async def _answer(
        self,
        handler: Handler,
        req: LeanRequest,
        params: dict[str, Any],
        modern: bool,
        serve: bool = False,
    ) -> dict[str, Any] | None:
        """The answer to one request (None: cancelled by the client, no answer); ``serve``:
        a request ``_spawn`` runs: the answer is written instead, and the request forgotten
        (one coroutine per request, not two: bench/bench_server.py --instructions)."""
        rid = req.request_id
        try:
            try:
                fast = FAST_CHECKS.get(req.method)
                if fast is None or not fast(params):
                    surface_check(req.method, req.protocol_version, params)
                if self._replica is not None and not self._replica.started:
                    await self._replica.start()
                result = await handler(req, params)
            except asyncio.CancelledError:
                return None  # cancelled by the client: no answer (or the connection is closing)
            except Exception as exc:  # noqa: BLE001 - every request gets one answer
                answer = error_answer(rid, exc, modern)
            else:
                if modern:
                    result = self.discovery.stamp(result, req.method in self._cacheable)
                answer = {"jsonrpc": "2.0", "id": rid, "result": result}
            if not serve:
                return answer
            self._write(jsonrpc.encode(answer))
            return None
        finally:
            if serve:
                self.tasks.pop(rid, None)
                if self._holding:
                    self._forget(rid)

    def session_handler(self, method: str) -> Handler | None:
        """What serves ``method`` in a Streamable HTTP session of the handshake wire
        (``http_sessions``): the handshake methods but ``resources/subscribe`` and
        ``unsubscribe`` (left to the SDK with the rest of the session's machinery)."""
        if method in _SDK_SESSION_METHODS:
            return None
        return self._legacy.get(method)

    async def answer_request(
        self, handler: Handler, req: LeanRequest, params: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The answer to one handshake-wire request whose session the caller checked (None:
        cancelled)."""
        return await self._answer(handler, req, params, False)

    def serves_modern(self, method: str) -> bool:
        """Whether the engine serves ``method`` on the 2026-07-28 wire itself."""
        return method in self._modern

    async def answer_modern(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to one 2026-07-28 request whose envelope was checked (HTTP: one request
        per POST, no connection state); its method is one ``serves_modern`` names."""
        params = msg["params"]
        meta = params["_meta"]
        req = self._modern_req(msg["method"], params, msg["id"], meta)
        return await self._answer(self._modern[msg["method"]], req, params, True)

    def _modern_req(
        self, method: str, params: dict[str, Any], rid: Any, meta: dict[str, Any]
    ) -> LeanRequest:
        """A 2026-07-28 request: its envelope says the revision and the capabilities, and
        whether it opted in to log entries; no server-to-client requests on this wire."""
        caps = meta[CAPABILITIES_KEY]
        channel = (
            self.connection,
            self._notify,
            caps if type(caps) is dict else None,
            # most requests do not opt in to log entries: no call to tell
            log_floor(meta) if LOG_LEVEL_KEY in meta else None,
            None,
        )
        return LeanRequest(method, params, rid, meta, meta[VERSION_KEY], channel)

    def _error(self, rid: Any, code: int, message: str, data: Any = None) -> None:
        self._write(jsonrpc.encode(jsonrpc.error(rid, code, message, data)))

    # -- the handshake -------------------------------------------------------------------

    def _initialize(self, rid: Any, msg: dict[str, Any], params: Any) -> bytes:
        version = negotiate(params)
        if version is None or not initialize_valid(params, LATEST_HANDSHAKE):
            return jsonrpc.encode(
                jsonrpc.error(rid, jsonrpc.INVALID_PARAMS, "Invalid request parameters", "")
            )
        self.version = version
        self.initialize = msg
        self.client_capabilities = params["capabilities"]
        result = self._answers[f"initialize@{self.version}"]
        return jsonrpc.encode({"jsonrpc": "2.0", "id": rid, "result": result})

    # -- notifications and responses -----------------------------------------------------

    def _notification(self, msg: dict[str, Any], method: str, params: Any) -> None:
        if method == "notifications/cancelled":
            target = (params or {}).get("requestId")
            task = self.tasks.get(target) if jsonrpc.valid_id(target) else None
            if task is None and jsonrpc.valid_id(target):
                target = jsonrpc.other_spelling(target)
                task = self.tasks.get(target)
            if task is not None:
                self._cancel(target, task)
                return
        bridge = self.bridge
        if bridge is not None and bridge.started:
            self._loop.create_task(bridge.forward(msg))

    def _response(self, msg: dict[str, Any]) -> None:
        rid = msg.get("id")
        waiter = self._asked.pop(rid, None) if isinstance(rid, str) else None
        if waiter is not None:
            if not waiter.done():
                waiter.set_result(msg)
            return
        bridge = self.bridge
        if bridge is not None and bridge.started:
            self._loop.create_task(bridge.forward(msg))

    async def _notify(self, method: str, params: dict[str, Any] | None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self._write(jsonrpc.encode(msg))
        if self._drain is not None:
            try:
                await self._drain()  # the client reads slowly: the handler waits here
            except OSError:  # the client has gone: its notifications have nowhere to go
                pass

    async def _ask(self, method: str, params: Any, related: Any) -> Any:
        """A server-to-client request; the client's result (an error raises
        ``server.errors.client_error``: the SDK's ``MCPError`` once the SDK is loaded)."""
        self._next_ask += 1
        rid = f"mcpgen-{self._next_ask}"
        waiter: asyncio.Future[Any] = self._loop.create_future()
        self._asked[rid] = waiter
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self._write(jsonrpc.encode(msg))
        try:
            answer = await waiter
        except asyncio.CancelledError:
            self._write(jsonrpc.encode(jsonrpc.courtesy_cancel(rid)))
            raise
        finally:
            self._asked.pop(rid, None)
        if "error" in answer:
            from ..server.errors import client_error

            err = answer["error"] if type(answer["error"]) is dict else {}
            raise client_error(
                int(err.get("code", jsonrpc.INTERNAL_ERROR)),
                str(err.get("message", "")),
                err.get("data"),
            )
        return answer.get("result")

    async def _bridged(self, msg: dict[str, Any]) -> None:
        """A request the SDK serves (``_spawn`` runs it: it forgets itself as it ends)."""
        try:
            bridge = self.bridge
            if bridge is None:
                self._error(msg["id"], jsonrpc.METHOD_NOT_FOUND, "Method not found", msg["method"])
                return
            if not bridge.started:
                await bridge.start(self.initialize if self.era == "legacy" else None)
            await bridge.forward(msg)
        finally:
            self._forget(msg["id"])

    def end_of_input(self) -> None:
        """The client closed its end (``closing.end_of_input``)."""
        end_of_input(self._asked)

    async def close(self, drain: bool = True) -> None:
        """End the connection (``closing.close``; ``drain`` False: SIGINT)."""
        await close(self.tasks, self._asked, self.bridge, self._write, drain)
