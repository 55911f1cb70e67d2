"""The uses that reach into the SDK's session objects: ``session-connection`` (the server
session's ``Connection``), ``listen-honored-filter`` (the filter the SDK's listen handler
acknowledges) and ``client-read-timeout`` (the client session's read timeout)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.connection import Connection
    from mcp.server.context import ServerRequestContext

__all__ = ["handshake_connection", "honored_filter", "set_client_read_timeout"]


# -- session-connection ------------------------------------------------------------------------


def handshake_connection(ctx: ServerRequestContext[Any, Any]) -> Connection | None:
    """The SDK ``Connection`` behind ``ctx.session`` (use ``session-connection``); on the
    lean engine, its own connection (``lean.context.LeanConnection``, same methods)."""
    session = ctx.session
    lean: Connection | None = getattr(session, "lean_connection", None)
    if lean is not None:
        return lean
    conn: Connection | None = getattr(session, "_connection", None)
    return conn


# -- listen-honored-filter -------------------------------------------------------------------


def honored_filter(requested: Any) -> Any:
    """The part of a ``subscriptions/listen`` filter the SDK's listen handler acknowledges
    (use ``listen-honored-filter``)."""
    from mcp.server.subscriptions import _honored_subset

    return _honored_subset(requested)


# -- client-read-timeout ---------------------------------------------------------------------


def set_client_read_timeout(session: object, seconds: float | None) -> bool:
    """Make ``seconds`` the connected client ``session``'s default read timeout (use
    ``client-read-timeout``); False when this SDK keeps it elsewhere (nothing changed)."""
    if not hasattr(session, "_session_read_timeout_seconds"):
        return False
    setattr(session, "_session_read_timeout_seconds", seconds)  # noqa: B010 - the use named above
    return True
