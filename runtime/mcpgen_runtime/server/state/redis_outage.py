"""What the Redis backend's modules share (``redis_backend``, ``redis_events``): how an outage
is told apart from a working connection, and Redis replies as text."""

from __future__ import annotations

import logging
import time
from typing import Any

__all__ = ["PROBE_S", "Outage", "text_of"]

LOGGER = logging.getLogger("mcpgen.state")
PROBE_S = 1.0
"""In an outage, rate-limited calls are judged here at once; one of them tries Redis again
this often."""


class Outage:
    """Logs an outage once when it starts and once when it ends; while it lasts, ``wait()``
    says whether to spare a caller the trip to Redis (one probe per ``PROBE_S``)."""

    def __init__(self, what: str) -> None:
        self.what, self.down, self.probe_at = what, False, 0.0

    def failed(self, exc: BaseException) -> None:
        self.probe_at = time.monotonic() + PROBE_S
        if not self.down:
            self.down = True
            LOGGER.warning("Redis unreachable (%s): %s", self.what, str(exc)[:200])

    def ok(self) -> None:
        if self.down:
            self.down = False
            LOGGER.warning("Redis reachable again (%s)", self.what)

    def wait(self) -> bool:
        if not self.down:
            return False
        now = time.monotonic()
        if now < self.probe_at:
            return True
        self.probe_at = now + PROBE_S  # this caller probes; the others keep waiting
        return False


def text_of(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
