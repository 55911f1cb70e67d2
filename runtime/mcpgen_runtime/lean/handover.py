"""What the fast boot (``boot``) hands the lean engine's stdio loop (``stdio``)."""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Handover"]


class Handover(NamedTuple):
    """What the boot read and answered, for the lean engine to go on from."""

    claim: Any
    pending: bytes
    eof: bool
    era: str | None
    version: str
    initialize: dict[str, Any] | None
    client_capabilities: dict[str, Any] | None
