"""The uses that touch the SDK's Streamable HTTP transport and session manager, for the lean
HTTP front: ``header-checks`` (the SDK's header checks run on a plain dict of headers),
``http-session-table`` (whether the SDK still serves a session) and
``http-session-idle-clock`` (a session's idle countdown held while a lean request runs)."""

from __future__ import annotations

import contextvars
import logging
import math
from collections.abc import Mapping
from typing import Any

__all__ = [
    "HeaderChecks",
    "begin_session_request",
    "end_session_request",
    "live_session",
    "settle_idle",
]


# -- header-checks ----------------------------------------------------------------------------


class _HeadersOnly:
    """A request as the SDK's header checks read it (use ``header-checks``)."""

    __slots__ = ("headers",)

    def __init__(self, headers: Mapping[str, str]) -> None:
        self.headers = headers


_ASKING = contextvars.ContextVar("mcpgen_front_asking", default=False)
"""Set while the front asks the SDK's security middleware (in that request's task only)."""


class _OnceOnly(logging.Filter):
    """Drops the SDK middleware's refusal warnings while the front asks it: the request then
    goes to the SDK's app, whose own check logs the refusal (once, not twice)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not _ASKING.get()


_SECURITY_LOGGER = "mcp.server.transport_security"


class HeaderChecks:
    """The SDK's header checks of a POST (use ``header-checks``): ``security``, its
    ``TransportSecurityMiddleware`` (Content-Type, Host, Origin), and ``check_accept_headers``.
    The verdicts are pure functions of those few header values, so the values that passed are
    remembered (at most ``KEEP`` sets of each): a client's next POST costs a dict lookup."""

    __slots__ = ("security", "_passed", "_accept")
    KEEP = 256

    def __init__(self, security: Any) -> None:
        self.security = security
        self._passed: set[tuple[str | None, str | None, str | None]] = set()
        self._accept: dict[str, tuple[bool, bool]] = {}
        logger = logging.getLogger(_SECURITY_LOGGER)
        if not any(isinstance(f, _OnceOnly) for f in logger.filters):
            logger.addFilter(_OnceOnly())

    async def refuses(self, headers: Mapping[str, str]) -> bool:
        """Whether ``security`` refuses a POST with ``headers`` (lowercase names, first
        values); its refusal is the SDK app's to send."""
        key = (headers.get("content-type"), headers.get("host"), headers.get("origin"))
        if key in self._passed:
            return False
        asking = _ASKING.set(True)
        try:
            refused = await self.security.validate_request(_HeadersOnly(headers), is_post=True)
        finally:
            _ASKING.reset(asking)
        if refused is not None:
            return True
        if len(self._passed) < self.KEEP:
            self._passed.add(key)
        return False

    def accepted(self, headers: Mapping[str, str]) -> tuple[bool, bool]:
        """(JSON, SSE): what the ``Accept`` header allows, by ``check_accept_headers``."""
        value = headers.get("accept", "")
        known = self._accept.get(value)
        if known is None:
            from mcp.server.streamable_http import check_accept_headers

            known = check_accept_headers(_HeadersOnly({"accept": value}))  # type: ignore[arg-type]
            if len(self._accept) < self.KEEP:
                self._accept[value] = known
        return known


# -- http-session-table and http-session-idle-clock -------------------------------------------


def live_session(manager: Any, session_id: str) -> Any | None:
    """The transport of the session ``session_id`` if ``manager`` (the SDK's
    ``StreamableHTTPSessionManager``) would hand it a request now, else None: not deleted,
    not idle-timed-out, opened without a credential (use ``http-session-table``)."""
    transport = manager._server_instances.get(session_id)
    if transport is None or transport.is_terminated or session_id in manager._session_owners:
        return None
    idle = transport.idle_scope
    if idle is not None and idle.cancel_called:
        return None
    return transport


def begin_session_request(transport: Any) -> None:
    """One more request in flight on ``transport``'s session, as the SDK's
    ``handle_request`` counts it: the idle countdown is off while one runs (use
    ``http-session-idle-clock``)."""
    idle = transport.idle_scope
    if idle is None or transport._idle_timeout is None:
        return
    transport._requests_in_flight += 1
    if idle.deadline != math.inf:  # anyio reschedules its timer on every set: only if needed
        idle.deadline = math.inf


def end_session_request(transport: Any) -> bool:
    """The request ``begin_session_request`` counted has ended: whether it was the last one
    in flight (then ``settle_idle`` starts the countdown from its end, as the SDK does at once;
    the lean front does it for all its sessions on one timer)."""
    if transport.idle_scope is None or transport._idle_timeout is None:
        return False
    transport._requests_in_flight -= 1
    return not transport._requests_in_flight


def settle_idle(transport: Any, ended: float) -> None:
    """Start the idle countdown of ``transport``'s session from ``ended`` (the event loop's
    clock when its last request ended here), unless a request runs again or the SDK already
    started it (a later request of its own ended since)."""
    idle = transport.idle_scope
    timeout = transport._idle_timeout
    if idle is None or timeout is None or transport._requests_in_flight:
        return
    if idle.deadline == math.inf and not idle.cancel_called:
        idle.deadline = ended + timeout
