"""What the replicas of one server share: one interface (``base.State``), two implementations.

* ``memory.MemoryState`` (the default): one process; nothing to install.
* ``redis_backend.RedisState`` (``--state redis://...`` or ``$MCPGEN_STATE_URL``; the
  ``mcpgen-runtime[redis]`` extra): every replica pointed at the same Redis behaves as one
  server for rate limits, tool/resource/prompt enablement, resource updates and resumable
  streams.

The features (``shared.SharedSurface``, the rate limiter, the event store) are written once
against ``State``.
"""

from __future__ import annotations

import os

from .base import State, StateError, StateUnavailable

__all__ = ["STATE_ENV", "State", "StateError", "StateUnavailable", "open_state"]

from ..flags import STATE_ENV  # noqa: E402 - one place for the name (the fast boot reads it)

"""Environment variable naming the state backend (``redis://``, ``rediss://``, ``unix://``);
unset or ``memory``: in-process state."""


def open_state(url: str | None = None, *, namespace: str = "mcpgen") -> State:
    """The backend ``url`` names (else ``$MCPGEN_STATE_URL``, else memory). Raises
    ``StateError`` with one line for a URL it cannot use (no connection is made here)."""
    url = url if url is not None else os.environ.get(STATE_ENV, "")
    if not url or url == "memory":
        from .memory import MemoryState

        return MemoryState()
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme not in ("redis", "rediss", "unix"):
        raise StateError(
            f"--state {_redacted(url)!r}: use redis://HOST:PORT/DB, rediss://... or unix://PATH "
            "(or 'memory')"
        )
    _check_db(url, scheme)
    try:
        from .redis_backend import RedisState
    except ImportError as exc:
        raise StateError(
            f"--state {scheme}://...: the Redis backend needs the redis extra "
            f"(pip install 'mcpgen-runtime[redis]'): {exc}"
        ) from None
    return RedisState(url, namespace=namespace)


def _check_db(url: str, scheme: str) -> None:
    """A ``redis://`` URL's database (its path, or ``?db=``) is a number; redis-py would take
    ``/notanumber`` as database 0 without a word."""
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(url)
    path = "" if scheme == "unix" else parts.path.strip("/")
    values = [path] if path else []
    values += parse_qs(parts.query).get("db", [])
    for value in values:
        if not value.isdigit():
            raise StateError(
                f"--state {_redacted(url)!r}: the database {value!r} is not a number "
                "(redis://HOST:PORT/DB, e.g. /0)"
            )


def _redacted(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    if "@" not in url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    creds, host = rest.rsplit("@", 1)
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user + ':***' if ':' in creds else '***'}@{host}"
