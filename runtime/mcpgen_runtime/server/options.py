"""Start-up options of a server process: what ``run_cli`` read from its command line and
environment, passed as keyword arguments through the generated ``create_server`` to
``build_server``.

A ``TypedDict``, so a new option is a new key: generated ``create_server`` functions forward
``**options`` unchanged, and packages generated before the option existed take it without
being regenerated (a minor runtime API step).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from .sealed import RequestStateKey
    from .state import State

__all__ = ["StartupOptions"]


class StartupOptions(TypedDict, total=False):
    request_state_key: RequestStateKey | bytes | None
    """The key that seals 2026-07-28 ``requestState``; None: ``$MCPGEN_REQUEST_STATE_KEY``,
    else a key generated at start."""
    limits: Mapping[str, Any] | None
    """Limits for every tool, JSON spelling (``timeoutSeconds``, ``maxArgumentBytes``,
    ``rateLimit``); they override the manifest's."""
    toolsets: list[str] | None
    """Serve only these toolsets' tools (``--toolsets``; ``all``, ``default``); None:
    ``$MCPGEN_TOOLSETS``, else the manifest's default toolsets (see ``toolsets``)."""
    tools: list[str] | None
    """Serve these tools too (``--tools``); None: ``$MCPGEN_TOOLS``."""
    inline_schema_refs: bool | None
    """List inputSchemas with non-recursive ``$ref``s inlined and ``$defs`` dropped
    (``--inline-schema-refs``); None: ``$MCPGEN_INLINE_SCHEMA_REFS``."""
    state: State | str | None
    """What replicas share (``--state``): a backend, ``redis://...``, or None for
    ``$MCPGEN_STATE_URL`` (unset: this process's memory)."""
