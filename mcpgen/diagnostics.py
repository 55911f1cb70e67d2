"""Diagnostics are data: collected by checks, sorted, then printed by ``report``."""

from __future__ import annotations

from typing import NamedTuple

from mcpgen_runtime.rules import Severity as Severity

__all__ = ["Diagnostic", "Location", "Severity"]


class Location(NamedTuple):
    path: str
    line: int = 1
    col: int = 1
    pointer: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


class Diagnostic(NamedTuple):
    rule_id: str
    severity: Severity
    location: Location
    message: str
    related: tuple[Location, ...] = ()

    @property
    def path(self) -> str:
        return self.location.path

    @property
    def line(self) -> int:
        return self.location.line

    @property
    def col(self) -> int:
        return self.location.col

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line, self.col, self.rule_id, self.message)


def sort_diagnostics(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Sorted and de-duplicated: a stable order for every output format."""
    seen: set[tuple[object, ...]] = set()
    out: list[Diagnostic] = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        key = (d.sort_key(), d.severity, d.related)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
