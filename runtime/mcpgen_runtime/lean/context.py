"""What the lean engine hands the runtimes for each request: the shape of the SDK's
``ServerRequestContext`` the runtime reads (``protocol_version``, ``request_id``, ``params``,
``meta``, ``session``), so ``ToolContext`` and the tools, resources and prompts runtimes serve
both engines unchanged.

``LeanSession`` is the per-request channel back to the client: progress against the caller's
token, log entries (2026-07-28: only when the request opted in with the reserved
``io.modelcontextprotocol/logLevel`` key, at or above that level, as the SDK does),
server-to-client requests on the handshake wire (elicitation, sampling, roots), all through the
request's own ``notify`` (stdio: the pipe; Streamable HTTP: the POST's SSE stream). Its
connection (``lean_connection``, which ``sdk_adapter.handshake_connection`` prefers) takes the
list-changed and resource-updated notifications ``serving.Notices`` sends outside any request:
on stdio the engine's ``LeanConnection``, on an HTTP session the SDK's own ``Connection`` of
that session (so ``Notices`` holds each connection once, whichever engine saw it).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "Capabilities",
    "HttpRequest",
    "LeanConnection",
    "LeanRequest",
    "LeanSession",
    "Params",
]

LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"


class Params:
    """Attribute access over a request's raw params (``params.cursor``, ``params.name``): what
    the runtimes read of the SDK's typed params, for the methods whose params the engine checks
    itself."""

    __slots__ = ("_raw",)

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self._raw = raw

    def __getattr__(self, name: str) -> Any:
        return self._raw.get(name)


class Capabilities:
    """A client's declared capabilities, read as the SDK's model is (``caps.sampling``)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self._raw = raw

    def __getattr__(self, name: str) -> Any:
        return self._raw.get(name)


class LeanConnection:
    """One client connection: where notifications outside a request go."""

    __slots__ = ("send", "__weakref__")

    def __init__(self, send: Callable[[str, dict[str, Any] | None], Any]) -> None:
        self.send = send

    async def send_tool_list_changed(self) -> None:
        await self.send("notifications/tools/list_changed", None)

    async def send_resource_list_changed(self) -> None:
        await self.send("notifications/resources/list_changed", None)

    async def send_prompt_list_changed(self) -> None:
        await self.send("notifications/prompts/list_changed", None)

    async def send_resource_updated(self, uri: str) -> None:
        await self.send("notifications/resources/updated", {"uri": uri})


class LeanSession:
    """The channel of one request back to the client."""

    __slots__ = (
        "lean_connection",
        "_notify",
        "_request",
        "client_capabilities",
        "_log_from",
        "_ask",
    )

    def __init__(
        self,
        connection: Any,
        notify: Callable[[str, dict[str, Any] | None], Any],
        request: LeanRequest,
        capabilities: Any,
        log_from: int | None,
        ask: Callable[..., Any] | None,
    ) -> None:
        self.lean_connection = connection
        self._notify = notify
        """Where this request's notifications go (progress, log entries)."""
        self._request = request
        self.client_capabilities = (
            Capabilities(capabilities) if isinstance(capabilities, Mapping) else capabilities
        )
        """The client's capabilities: raw (wrapped) or the SDK's model of an HTTP session."""
        self._log_from = log_from
        """The lowest level index a log entry needs (None: none are sent)."""
        self._ask = ask

    @property
    def can_send_request(self) -> bool:
        return self._ask is not None

    async def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        meta = self._request.meta
        token = meta.get("progressToken") if meta is not None else None
        if type(token) is not str and type(token) is not int:  # as the SDK reads it: no bool
            return
        params: dict[str, Any] = {"progressToken": token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        await self._notify("notifications/progress", params)

    async def send_log_message(
        self, level: str, data: Any, logger: str | None = None, related_request_id: Any = None
    ) -> None:
        floor = self._log_from
        if floor is None or level not in LOG_LEVELS or LOG_LEVELS.index(level) < floor:
            return
        params: dict[str, Any] = {"level": level}  # the SDK's key order
        if logger is not None:
            params["logger"] = logger
        params["data"] = data
        await self._notify("notifications/message", params)

    async def send_request(self, request: Any, result_type: Any, *args: Any, **kwargs: Any) -> Any:
        """A server-to-client request (handshake wire); ``request`` and ``result_type`` are
        the SDK's models, as ``ToolContext`` passes them."""
        if self._ask is None:
            raise RuntimeError("this connection cannot carry server-to-client requests")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            raw = request.model_dump(mode="json", by_alias=True, exclude_none=True)
        answer = await self._ask(raw["method"], raw.get("params"), self._request.request_id)
        from mcp_types import methods

        try:  # the SDK's check of the client's result for the revision (ServerSession's)
            methods.validate_client_result(raw["method"], self._request.protocol_version, answer)
        except KeyError:
            pass
        return result_type.model_validate(answer, by_name=False)


class LeanRequest:
    """One request, as the runtimes read the SDK's ``ServerRequestContext``."""

    __slots__ = (
        "method",
        "params",
        "request_id",
        "meta",
        "protocol_version",
        "_session",
        "_channel",
    )

    close_sse_stream = None
    close_standalone_sse_stream = None
    request = None
    lifespan_context = None

    def __init__(
        self,
        method: str,
        params: Any,
        request_id: Any,
        meta: Any,
        protocol_version: str,
        channel: tuple[Any, ...],
    ) -> None:
        self.method = method
        self.params = params
        self.request_id = request_id
        self.meta = meta if type(meta) is dict else None
        self.protocol_version = protocol_version
        self._session: LeanSession | None = None
        self._channel = channel
        """``(connection, notify, capabilities, log_from, ask)``: the ``LeanSession`` is made
        from it when a handler first needs one (most calls never do)."""

    @property
    def session(self) -> LeanSession:
        session = self._session
        if session is None:
            connection, notify, capabilities, log_from, ask = self._channel
            session = self._session = LeanSession(
                connection, notify, self, capabilities, log_from, ask
            )
        return session


class HttpRequest(LeanRequest):
    """A request of an HTTP session: ``request`` is the Starlette ``Request`` of its POST, as
    the SDK's context carries it (made on first use; its body was read already)."""

    __slots__ = ("scope",)
    scope: Any

    @property
    def request(self) -> Any:  # type: ignore[override]
        from starlette.requests import Request

        return Request(self.scope)


def log_floor(meta: Mapping[str, Any] | None) -> int | None:
    """2026-07-28: the level index a request opted in to (None: no log entries)."""
    level = meta.get(LOG_LEVEL_KEY) if meta is not None else None
    if isinstance(level, str) and level in LOG_LEVELS:
        return LOG_LEVELS.index(level)
    return None
