"""Per-tool limits: a timeout, a rate limit (token bucket) and a maximum argument size.

Where they come from, later entries winning, field by field:

1. the defaults (``DEFAULT_LIMITS``): 300 s timeout, 1 MiB of arguments, no rate limit;
2. the manifest's ``server.limits`` (every tool);
3. a tool's ``x-mcpgen: {limits: ...}`` in the manifest;
4. start-up options (``--tool-timeout``, ``--max-argument-bytes``, ``--rate-limit``): the
   operator has the last word, for every tool.

Manifest spelling (JSON names)::

    limits: {timeoutSeconds: 30, maxArgumentBytes: 65536, rateLimit: {perSecond: 5, burst: 10}}

``0`` (or ``null``) turns a limit off.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from .value import Value

__all__ = ["DEFAULT_LIMITS", "Limits", "TokenBucket"]


class Limits(Value):
    """A tool's limits. A plain class (as a frozen dataclass it cost every server about 3M
    instructions at start); treat it as immutable: ``replace`` makes a changed copy."""

    __slots__ = ("timeout_s", "max_argument_bytes", "rate_per_s", "burst")

    def __init__(
        self,
        timeout_s: float | None = 300.0,
        max_argument_bytes: int | None = 1024 * 1024,
        rate_per_s: float | None = None,
        burst: int | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        """Wall-clock time a handler may take (answered with a tool error); None: no limit."""
        self.max_argument_bytes = max_argument_bytes
        """Size of the call's arguments as compact UTF-8 JSON; None: no limit."""
        self.rate_per_s = rate_per_s
        """Sustained calls per second of this tool (in this process, or all replicas sharing
        ``--state``); None: no limit."""
        self.burst = burst
        """Bucket size (calls allowed at once); default: max(1, ceil(rate_per_s))."""

    def merged(self, data: Mapping[str, Any] | None) -> Limits:
        """These limits overridden by manifest JSON (``timeoutSeconds``, ...)."""
        if not isinstance(data, Mapping):
            return self
        out = self
        if "timeoutSeconds" in data:
            v = data["timeoutSeconds"]
            out = out.replace(timeout_s=float(v) if v else None)
        if "maxArgumentBytes" in data:
            v = data["maxArgumentBytes"]
            out = out.replace(max_argument_bytes=int(v) if v else None)
        if "rateLimit" in data:
            rl = data["rateLimit"]
            if not rl:
                out = out.replace(rate_per_s=None, burst=None)
            elif isinstance(rl, Mapping):
                rate = rl.get("perSecond")
                burst = rl.get("burst")
                out = out.replace(
                    rate_per_s=float(rate) if rate else None,
                    burst=int(burst) if burst else None,
                )
        return out

    def overridden(self, other: Limits | None, fields: frozenset[str]) -> Limits:
        """``other``'s values for ``fields`` (start-up options that were given)."""
        if other is None or not fields:
            return self
        return self.replace(**{f: getattr(other, f) for f in fields})


DEFAULT_LIMITS = Limits()


class TokenBucket:
    """``rate`` tokens per second, at most ``capacity``; one token per call."""

    __slots__ = ("rate", "capacity", "tokens", "stamp")

    def __init__(self, rate: float, capacity: int | None = None) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.capacity = float(capacity if capacity else max(1, math.ceil(rate)))
        self.tokens = self.capacity
        self.stamp = time.monotonic()

    def take(self) -> float:
        """0.0 when a token was taken; otherwise the seconds until one is available."""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate
