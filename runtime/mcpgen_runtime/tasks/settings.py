"""The tasks extension's facts and settings: its identifier, the manifest's ``server.tasks``
block, each tool's ``execution.taskSupport``, whether a request declared the extension, and the
errors the extension names (no third-party import: the generator reads this module too)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..server.value import Value

if TYPE_CHECKING:
    from ..server.errors import RequestError

__all__ = [
    "EXTENSION",
    "LEASE_ENV",
    "TaskSettings",
    "declared",
    "missing_extension",
    "task_support",
]

EXTENSION = "io.modelcontextprotocol/tasks"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
MISSING_CAPABILITY = -32021
CAP_REACHED = -32602
"""The error of a task call past ``maxLive``/``maxLivePerCaller``: Invalid params, as for the
other task requests the server refuses (an unknown task id), so it goes out with HTTP 400 like
them. Never ``-32000``, which the SDK reserves for a closed connection (its client would raise
``ConnectionLostError`` on a connection that is fine)."""
LEASE_ENV = "MCPGEN_TASKS_LEASE_S"
"""Seconds a replica's lease on the tasks it runs lasts without renewal (``--state`` Redis;
default 10): a task whose replica has not renewed it for this long counts as orphaned."""


class TaskSettings(Value):
    """``server.tasks``: how long a finished task is kept, the poll interval suggested to
    clients, and the caps on unfinished tasks per caller and per server. A plain class (as a
    frozen dataclass it cost every server about 3M instructions at start); immutable by use."""

    __slots__ = ("keep_s", "poll_ms", "max_live_per_caller", "max_live", "lease_s")

    def __init__(
        self,
        keep_s: int = 3600,
        poll_ms: int = 1000,
        max_live_per_caller: int = 16,
        max_live: int = 1000,
        lease_s: float = 10.0,
    ) -> None:
        self.keep_s = keep_s
        self.poll_ms = poll_ms
        self.max_live_per_caller = max_live_per_caller
        self.max_live = max_live
        self.lease_s = lease_s

    @classmethod
    def of(cls, raw: Mapping[str, Any] | str | None) -> TaskSettings:
        """The settings of the manifest's ``server.tasks`` (a mapping or its JSON text)."""
        data = json.loads(raw) if isinstance(raw, str) else dict(raw or {})
        lease = os.environ.get(LEASE_ENV, "")
        default = _DEFAULT
        return cls(
            keep_s=int(data.get("keepSeconds", default.keep_s)),
            poll_ms=int(data.get("pollIntervalMs", default.poll_ms)),
            max_live_per_caller=int(data.get("maxLivePerCaller", default.max_live_per_caller)),
            max_live=int(data.get("maxLive", default.max_live)),
            lease_s=float(lease) if lease else default.lease_s,
        )


_DEFAULT = TaskSettings()


def task_support(definition: Mapping[str, Any]) -> str:
    """A tool's ``execution.taskSupport``: ``forbidden`` (the default), ``optional`` or
    ``required``."""
    execution = definition.get("execution")
    support = execution.get("taskSupport") if isinstance(execution, Mapping) else None
    return support if support in ("optional", "required") else "forbidden"


def declared(params: object) -> bool:
    """Whether a request's raw params declare the extension in their per-request capabilities
    (``_meta["io.modelcontextprotocol/clientCapabilities"].extensions``)."""
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    caps = meta.get(CAPABILITIES_KEY) if isinstance(meta, Mapping) else None
    extensions = caps.get("extensions") if isinstance(caps, Mapping) else None
    return isinstance(extensions, Mapping) and isinstance(extensions.get(EXTENSION), Mapping)


def missing_extension(what: str) -> RequestError:
    """The ``-32021`` (Missing Required Client Capability) error for ``what``."""
    from ..server.errors import RequestError

    return RequestError(
        code=MISSING_CAPABILITY,
        message=f"Missing required client capability: {what} needs the {EXTENSION} extension "
        "declared in this request's _meta clientCapabilities.extensions",
        data={"requiredCapabilities": {"extensions": {EXTENSION: {}}}},
    )
