"""The rule registry: every rule `mcpgen check`, `mcpgen breaking` and the manifest loader can emit.

A rule is data (buf style): a stable SCREAMING_SNAKE id, a default severity, the protocol
revisions it applies to, a category and a one-line purpose. `mcpgen rules` prints this table.
Checker functions (in ``rules_*.py``) are registered separately with the set of rule ids they
may emit, so one walk over a schema can serve several rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from codegen.diagnostics import Severity
from codegen.manifest.model import KNOWN_REVISIONS

ALL_REVISIONS: frozenset[str] = frozenset(KNOWN_REVISIONS)
LEGACY_REVISIONS: frozenset[str] = frozenset(KNOWN_REVISIONS[:4])
MODERN_REVISIONS: frozenset[str] = frozenset(KNOWN_REVISIONS[4:])

# Categories, in the order `mcpgen rules` lists them.
LOAD = "load"  # emitted while reading the manifest (syntax, format, $ref bundling)
LINT = "lint"  # `mcpgen check`
BREAKING = "breaking"  # `mcpgen breaking`
CATEGORIES = (LOAD, LINT, BREAKING)


def since(revision: str) -> frozenset[str]:
    """Every known revision from ``revision`` on (``draft`` counts as the newest)."""
    return frozenset(KNOWN_REVISIONS[KNOWN_REVISIONS.index(revision) :])


def until(revision: str) -> frozenset[str]:
    """Every known revision up to and including ``revision``."""
    return frozenset(KNOWN_REVISIONS[: KNOWN_REVISIONS.index(revision) + 1])


def revision_order(revs: Iterable[str]) -> list[str]:
    order = {r: i for i, r in enumerate(KNOWN_REVISIONS)}
    return sorted(revs, key=lambda r: order.get(r, len(order)))


def describe_revisions(revs: frozenset[str]) -> str:
    """`all`, `2025-06-18+`, `<=2025-11-25` or a comma list: how `mcpgen rules` shows a set."""
    if revs == ALL_REVISIONS:
        return "all"
    for rev in KNOWN_REVISIONS:
        if revs == since(rev):
            return f"{rev}+"
        if revs == until(rev):
            return f"<={rev}"
    return ",".join(revision_order(revs))


@dataclass(frozen=True)
class Rule:
    id: str
    category: str
    severity: Severity
    purpose: str
    revisions: frozenset[str] = ALL_REVISIONS
    default_enabled: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category,
            "severity": self.severity.label,
            "default": self.default_enabled,
            "revisions": revision_order(self.revisions),
            "purpose": self.purpose,
        }


RULES: dict[str, Rule] = {}


def rule(
    id: str,
    category: str,
    severity: Severity,
    purpose: str,
    revisions: frozenset[str] = ALL_REVISIONS,
    *,
    default_enabled: bool = True,
) -> Rule:
    if id in RULES:
        raise ValueError(f"duplicate rule id {id}")
    r = Rule(id, category, severity, purpose, revisions, default_enabled)
    RULES[id] = r
    return r


@dataclass(frozen=True)
class Checker:
    """A function run once per tool (scope ``tool``) or per manifest (scope ``manifest``)."""

    rules: tuple[str, ...]
    scope: str
    func: Callable[[Any], None]


CHECKERS: list[Checker] = []


def checker(*rule_ids: str, scope: str = "tool") -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    def deco(func: Callable[[Any], None]) -> Callable[[Any], None]:
        for rid in rule_ids:
            if rid not in RULES:
                raise ValueError(f"checker {func.__name__} names unknown rule {rid}")
        CHECKERS.append(Checker(tuple(rule_ids), scope, func))
        return func

    return deco


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

# --- rules the manifest loader (codegen.manifest.load) emits ------------------------------------
rule("INPUT_UNREADABLE", LOAD, E, "The file cannot be read or parsed as YAML/JSON (exit code 2).")
rule("MANIFEST_SCHEMA", LOAD, E, "The manifest matches schema/manifest.schema.json (the manifest format).")
rule("YAML_DUPLICATE_KEY", LOAD, E, "A YAML/JSON mapping repeats a key (the last one would silently win).")
rule("YAML_IMPLICIT_TYPE", LOAD, W, "A plain YAML scalar that YAML 1.1 reads as a non-string (yes/no/on/off, 0777, 1_000): quote it.")
rule("YAML_TIMESTAMP", LOAD, W, "A plain YAML scalar that looks like a date/timestamp; it is kept as a string: quote it.")
rule("REF_NETWORK", LOAD, E, "A $ref points at the network; mcpgen never fetches remote schemas.")
rule("REF_UNRESOLVED", LOAD, E, "A $ref in the manifest (shared $defs or a file) does not resolve.")
rule("REF_OUTSIDE_ROOT", LOAD, E, "A file $ref leaves the manifest's directory tree.")
rule("REF_CYCLE", LOAD, E, "File $refs form a cycle.")
rule("MANIFEST_REVISION_UNKNOWN", LOAD, E, "The `protocol` list names a revision mcpgen does not know.")
