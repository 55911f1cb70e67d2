"""The rule type and the severity type of every mcpgen rule: the generator's ``check`` and
``breaking`` rules (``mcpgen.check.registry``) and the breaking-change rules a deployed client
runs (``breaking``). One definition, here, at the lowest floor (standard library only)."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any, NamedTuple

from .revisions import KNOWN_REVISIONS

__all__ = ["ALL_REVISIONS", "Rule", "Severity", "revision_order"]

ALL_REVISIONS: frozenset[str] = frozenset(KNOWN_REVISIONS)


class Severity(enum.IntEnum):
    """Ordered so that ``sev >= Severity.ERROR`` reads naturally."""

    INFO = 0
    WARNING = 1
    ERROR = 2

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown severity {text!r} (expected info, warning or error)"
            ) from None

    @property
    def label(self) -> str:
        return self.name.lower()


def revision_order(revs: Iterable[str]) -> list[str]:
    order = {r: i for i, r in enumerate(KNOWN_REVISIONS)}
    return sorted(revs, key=lambda r: order.get(r, len(order)))


class Rule(NamedTuple):
    id: str
    category: str
    severity: Severity
    purpose: str
    revisions: frozenset[str] = ALL_REVISIONS
    default_enabled: bool = True
    why: str = ""
    """The reason for the default severity (and for being off by default)."""
    aliases: tuple[str, ...] = ()
    """Former ids, still accepted in config, on the command line and in ignore comments."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category,
            "severity": self.severity.label,
            "default": self.default_enabled,
            "revisions": revision_order(self.revisions),
            "purpose": self.purpose,
            "why": self.why,
            "aliases": list(self.aliases),
        }
