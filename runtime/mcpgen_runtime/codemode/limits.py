"""Code mode's limits: their defaults, and which mechanism enforces each.

=================  =========  ==============================================================
key                default    enforced by
=================  =========  ==============================================================
``seconds``        10         the sandbox's own clock (monty ``max_feed_duration_secs``: time
                              the code runs, not time spent waiting on tool calls), backed by
                              the pool killing a worker ``seconds`` + 2 s into one turn
``wall_seconds``   60         ``asyncio.timeout`` around the whole run, tool calls included
``memory_bytes``   64 MiB     the sandbox's heap limit (monty ``max_memory``)
``calls``          100        ``run_code`` counts the tool calls (the next one raises, and the
                              run ends in an error even if the code catches it); monty's
                              ``max_suspensions`` (``calls`` + 20) is the uncatchable backstop
``output_bytes``   1 MiB      ``run_code`` measures the answer's JSON (and caps ``print``)
``code_bytes``     100 kB     ``run_code`` refuses longer code before parsing it
``recursion``      200        the sandbox (monty ``max_recursion_depth``)
=================  =========  ==============================================================

Files, network, environment and subprocesses: the sandbox has none of its own; every OS call
goes to ``run_code``'s handler, which refuses it (``PermissionError`` in the code). Imports
other than ``ALLOWED_MODULES`` are refused before the code runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ALLOWED_MODULES", "DEFAULT_LIMITS", "resolve_limits"]

DEFAULT_LIMITS: Mapping[str, float] = {
    "seconds": 10.0,
    "wall_seconds": 60.0,
    "memory_bytes": 64 * 1024 * 1024,
    "calls": 100,
    "output_bytes": 1024 * 1024,
    "code_bytes": 100_000,
    "recursion": 200,
}

# Pure modules the sandbox implements itself (no OS access behind them).
ALLOWED_MODULES = frozenset(
    {
        "asyncio",
        "base64",
        "binascii",
        "collections",
        "csv",
        "dataclasses",
        "datetime",
        "decimal",
        "functools",
        "hashlib",
        "itertools",
        "json",
        "math",
        "random",
        "re",
        "typing",
    }
)


def resolve_limits(limits: Mapping[str, Any] | None) -> dict[str, float]:
    """``DEFAULT_LIMITS`` with ``limits`` over them; an unknown key or a value that is not a
    positive number is a ``ValueError`` (a server's configuration mistake, not the caller's)."""
    out = dict(DEFAULT_LIMITS)
    for key, value in (limits or {}).items():
        if key not in DEFAULT_LIMITS:
            raise ValueError(
                f"unknown code mode limit {key!r} (known: {', '.join(DEFAULT_LIMITS)})"
            )
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"code mode limit {key!r} must be a positive number, not {value!r}")
        out[key] = value
    return out
