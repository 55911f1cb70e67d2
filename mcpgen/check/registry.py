"""The rule registry: every rule `mcpgen check`, `mcpgen breaking` and the manifest loader can emit.

A rule is data (buf style): a stable SCREAMING_SNAKE id, a default severity, the protocol
revisions it applies to, a category, a one-line purpose and ``why``: the reason for its default.
`mcpgen rules` prints this table.

Defaults mean "act on this" (as ruff, buf and Spectral keep their default sets): a default
``error`` is a spec violation or a manifest mcpgen cannot use; a default ``warning`` means a real
client or model fails or degrades with the manifest as written. Advice that is harmless on its
own is ``info`` (counted, hidden from the text output unless ``--show-info``) or off by default
(``enable`` turns it on).
Checker functions (in ``rules_*.py``) are registered separately with the set of rule ids they
may emit, so one walk over a schema can serve several rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from mcpgen_runtime.breaking.rules import BREAKING as BREAKING  # `mcpgen breaking`
from mcpgen_runtime.revisions import KNOWN_REVISIONS
from mcpgen_runtime.revisions import MODERN_REVISIONS as _MODERN
from mcpgen_runtime.rules import ALL_REVISIONS as ALL_REVISIONS
from mcpgen_runtime.rules import Rule as Rule
from mcpgen_runtime.rules import Severity as Severity
from mcpgen_runtime.rules import revision_order as revision_order

MODERN_REVISIONS: frozenset[str] = frozenset(_MODERN)
LEGACY_REVISIONS: frozenset[str] = ALL_REVISIONS - MODERN_REVISIONS

# Categories, in the order `mcpgen rules` lists them.
LOAD = "load"  # emitted while reading the manifest (syntax, format, $ref bundling)
LINT = "lint"  # `mcpgen check`
CATEGORIES = (LOAD, LINT, BREAKING)


def since(revision: str) -> frozenset[str]:
    """Every known revision from ``revision`` on (``draft`` counts as the newest)."""
    return frozenset(KNOWN_REVISIONS[KNOWN_REVISIONS.index(revision) :])


def until(revision: str) -> frozenset[str]:
    """Every known revision up to and including ``revision``."""
    return frozenset(KNOWN_REVISIONS[: KNOWN_REVISIONS.index(revision) + 1])


def describe_revisions(revs: frozenset[str]) -> str:
    """`all`, `2025-06-18+`, `<=2025-11-25` or a comma list: how `mcpgen rules` shows a set."""
    if revs == ALL_REVISIONS:
        return "all"
    for rev in KNOWN_REVISIONS:
        if revs == since(rev):
            return f"{rev}+"
        if revs == until(rev):
            return f"<={rev}"
    missing = ALL_REVISIONS - revs
    if len(missing) == 1:
        return f"all but {next(iter(missing))}"
    return ",".join(revision_order(revs))


RULES: dict[str, Rule] = {}
ALIASES: dict[str, str] = {}
"""Former rule id -> current id."""


def canonical_id(rule_id: str) -> str:
    """``rule_id`` upper-cased, with a former id replaced by the current one."""
    rid = rule_id.strip().upper()
    return ALIASES.get(rid, rid)


def rule(
    id: str,
    category: str,
    severity: Severity,
    purpose: str,
    revisions: frozenset[str] = ALL_REVISIONS,
    *,
    why: str,
    default_enabled: bool = True,
    aliases: tuple[str, ...] = (),
) -> Rule:
    if id in RULES or id in ALIASES:
        raise ValueError(f"duplicate rule id {id}")
    if not why:
        raise ValueError(f"rule {id} must say why its default is what it is")
    return register(Rule(id, category, severity, purpose, revisions, default_enabled, why, aliases))


def register(r: Rule) -> Rule:
    """Add a rule defined elsewhere (the runtime's breaking rules) to the registry."""
    if r.id in RULES or r.id in ALIASES:
        raise ValueError(f"duplicate rule id {r.id}")
    RULES[r.id] = r
    for old in r.aliases:
        ALIASES[old] = r.id
    return r


class Checker(NamedTuple):
    """A function run once per tool (scope ``tool``) or per manifest (scope ``manifest``)."""

    rules: tuple[str, ...]
    scope: str
    func: Callable[[Any], None]


CHECKERS: list[Checker] = []


def checker(
    *rule_ids: str, scope: str = "tool"
) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    def deco(func: Callable[[Any], None]) -> Callable[[Any], None]:
        for rid in rule_ids:
            if rid not in RULES:
                raise ValueError(f"checker {func.__name__} names unknown rule {rid}")
        CHECKERS.append(Checker(tuple(rule_ids), scope, func))
        return func

    return deco


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741

# Reasons shared by many rules.
SPEC = "A spec violation: clients may reject the tool, or the whole tools/list."
UNUSABLE = "mcpgen cannot build the manifest as written (`mcpgen server` refuses it)."

# --- rules the manifest loader (mcpgen.manifest.load) emits ------------------------------------
rule(
    "INPUT_UNREADABLE",
    LOAD,
    E,
    "The file cannot be read or parsed as YAML/JSON (exit code 2).",
    why="Nothing in the file can be checked or served.",
)
rule(
    "RESOURCE_FILE",
    LOAD,
    E,
    "A resource's `file:` is a regular file inside the manifest's directory (symlinks "
    "resolved), at most 16 MiB.",
    why="The file is copied into the generated package; one outside the project, or a huge one, "
    "is never what a server should ship.",
)
rule(
    "MANIFEST_SCHEMA",
    LOAD,
    E,
    "The manifest matches schema/manifest.schema.json (the manifest format).",
    why="Tools not of the wire Tool shape are rejected by clients; " + UNUSABLE,
)
rule(
    "DUPLICATE_KEY",
    LOAD,
    E,
    "A YAML/JSON mapping repeats a key (the last one would silently win).",
    why="Parsers disagree on which value wins, so clients may see a different tool than the one "
    "reviewed.",
    aliases=("YAML_DUPLICATE_KEY",),
)
rule(
    "YAML_IMPLICIT_TYPE",
    LOAD,
    W,
    "A plain YAML scalar that YAML 1.1 reads as a non-string (yes/no/on/off, 0777, 1_000): "
    "quote it.",
    why="YAML 1.1 tools (PyYAML, many editors and CI tools) read a different value than mcpgen "
    "serves, so the manifest means two things.",
)
rule(
    "YAML_TIMESTAMP",
    LOAD,
    W,
    "A plain YAML scalar that looks like a date/timestamp; it is kept as a string: quote it.",
    why="YAML 1.1 tools turn it into a date object, a different value than mcpgen serves.",
)
rule(
    "REF_NETWORK",
    LOAD,
    E,
    "A $ref points at the network; mcpgen never fetches remote schemas.",
    why="The schema cannot be built without fetching, and clients never fetch; " + UNUSABLE,
)
rule(
    "REF_UNRESOLVED",
    LOAD,
    E,
    "A $ref in the manifest (shared $defs or a file) does not resolve.",
    why="The schema is incomplete; " + UNUSABLE,
)
rule(
    "REF_OUTSIDE_ROOT",
    LOAD,
    E,
    "A file $ref leaves the manifest's directory tree.",
    why="The manifest would depend on files outside the project; " + UNUSABLE,
)
rule(
    "REF_CYCLE",
    LOAD,
    E,
    "File $refs form a cycle.",
    why="The schema cannot be bundled; " + UNUSABLE,
)
rule(
    "MANIFEST_REVISION_UNKNOWN",
    LOAD,
    E,
    "The `protocol` list names a revision mcpgen does not know.",
    why="No server can be generated for an unknown revision; " + UNUSABLE,
)
