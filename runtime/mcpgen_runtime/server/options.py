"""Start-up options of a server process (set by ``run_cli`` before it builds the server).

``build_server`` reads them for arguments it was not given, so packages generated before an
option existed get it without being regenerated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["STARTUP", "StartupOptions"]


@dataclass
class StartupOptions:
    request_state_key: bytes | None = None
    """None: ``$MCPGEN_REQUEST_STATE_KEY``, else a key generated at start."""
    limits: Mapping[str, Any] | None = None
    """Limits for every tool, JSON spelling (``timeoutSeconds``, ``maxArgumentBytes``,
    ``rateLimit``); they override the manifest's."""


STARTUP = StartupOptions()
