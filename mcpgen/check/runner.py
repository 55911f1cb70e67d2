"""Run the lint rules over manifests: pick the active rules, run the checkers, apply config
severities and inline ``# mcpgen: ignore RULE_ID`` comments. Pure: returns diagnostics."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mcpgen.check import catalog
from mcpgen.check.config import RuleConfig
from mcpgen.check.context import ManifestCtx, Options, Sink, ToolCtx
from mcpgen.check.registry import ALIASES, CHECKERS, LINT, RULES, Rule, canonical_id
from mcpgen.diagnostics import Diagnostic, Location, Severity, sort_diagnostics
from mcpgen.errors import McpgenError
from mcpgen.manifest.model import Manifest
from mcpgen_runtime.revisions import KNOWN_REVISIONS

if TYPE_CHECKING:
    from mcpgen.manifest.load import LoadResult


def rule_severity(r: Rule, cfg: RuleConfig) -> Severity | None:
    """The severity ``r`` runs at under ``cfg``, or None when it is off."""
    if r.id in cfg.disable:
        return None
    if r.id in cfg.severity:
        return cfg.severity[r.id]
    if r.id in cfg.target_rules:
        return r.severity
    if r.id in cfg.superseded and r.id not in cfg.enable:
        return None
    if not r.default_enabled and r.id not in cfg.enable:
        return None
    return r.severity


def active_rules(
    categories: Iterable[str], revisions: Iterable[str], cfg: RuleConfig
) -> dict[str, Severity]:
    targeted = set(revisions)
    cats = set(categories)
    out: dict[str, Severity] = {}
    for r in RULES.values():
        if r.category not in cats or not (r.revisions & targeted):
            continue
        sev = rule_severity(r, cfg)
        if sev is not None:
            out[r.id] = sev
    return out


def targeted_revisions(manifest: Manifest) -> tuple[str, ...]:
    revs = tuple(r for r in manifest.revisions if r in KNOWN_REVISIONS)
    return revs or KNOWN_REVISIONS


def check_manifest(manifest: Manifest, cfg: RuleConfig) -> list[Diagnostic]:
    """Lint findings for one loaded manifest (ignores applied, not yet sorted)."""
    catalog.load_lint()
    revisions = targeted_revisions(manifest)
    active = active_rules((LINT,), revisions, cfg)
    sink = Sink(manifest.path, manifest.source_map, active)
    options = Options(name_max_length=cfg.name_max_length)
    tool_checkers = []
    for c in CHECKERS:
        if not any(rid in active for rid in c.rules):
            continue
        if c.scope == "manifest":
            c.func(ManifestCtx(manifest, revisions, options, sink))
        else:
            tool_checkers.append(c.func)
    if tool_checkers:
        for tool in manifest.tools:
            ctx = ToolCtx(manifest, revisions, options, sink, tool)
            for func in tool_checkers:
                func(ctx)
    return sink.diagnostics


def reconfigure(diags: Iterable[Diagnostic], cfg: RuleConfig) -> list[Diagnostic]:
    """Apply config to diagnostics emitted outside the checkers (the loader's)."""
    out = []
    for d in diags:
        r = RULES.get(d.rule_id)
        if r is None:
            out.append(d)
            continue
        sev = rule_severity(r, cfg)
        if sev is None:
            continue
        out.append(
            d if sev == d.severity or d.rule_id not in cfg.severity else _with_severity(d, sev)
        )
    return out


def _with_severity(d: Diagnostic, sev: Severity) -> Diagnostic:
    return Diagnostic(d.rule_id, sev, d.location, d.message, d.related)


def apply_ignores(
    diags: Iterable[Diagnostic], ignores: dict[int, frozenset[str]], path: str | None = None
) -> list[Diagnostic]:
    """Drop findings silenced by ``# mcpgen: ignore`` comments (former rule ids count too).
    With ``path`` (the file the comments are in), a finding located in another file
    (``pyproject.toml``, ``server.json``) is never silenced by a comment's line number."""
    if not ignores:
        return list(diags)
    if ALIASES:
        ignores = {line: frozenset(canonical_id(r) for r in ids) for line, ids in ignores.items()}
    return [
        d
        for d in diags
        if d.rule_id not in ignores.get(d.line, ()) or (path is not None and d.path != path)
    ]


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unreadable: bool = False
    tools: int = 0
    """Tools in the manifest (for the summary line)."""
    resources_and_prompts: tuple[int, int, int] = (0, 0, 0)
    """How many resources, resource templates and prompts (for the summary line)."""


def unreadable(path: str, exc: McpgenError) -> FileResult:
    loc = Location(exc.path or path, exc.line or 1, exc.col or 1)
    return FileResult(
        path, [Diagnostic("INPUT_UNREADABLE", Severity.ERROR, loc, exc.message)], True
    )


def check_file(path: str, cfg: RuleConfig) -> FileResult:
    from mcpgen.manifest.load import load_manifest

    try:
        res = load_manifest(path)
    except McpgenError as exc:
        return unreadable(path, exc)
    m = res.manifest
    tools = len(m.tools) if m is not None else 0
    counts = (len(m.resources), len(m.templates), len(m.prompts)) if m is not None else (0, 0, 0)
    return FileResult(path, lint_loaded(res, cfg), tools=tools, resources_and_prompts=counts)


def lint_loaded(res: LoadResult, cfg: RuleConfig) -> list[Diagnostic]:
    """Every finding ``mcpgen check`` reports for an already loaded manifest (sorted): the
    loader's and the lint rules', config and inline ignores applied. Generation runs this too,
    so ``mcpgen server`` refuses exactly what ``check`` rejects."""
    catalog.load_lint()
    diags = reconfigure(res.diagnostics, cfg)
    m = res.manifest
    if m is not None:
        lint = check_manifest(m, cfg)
        diags.extend(_drop_shadowed(lint, diags))
        diags = apply_ignores(diags, getattr(m.source_map, "ignores", {}) or {}, m.path)
    return sort_diagnostics(diags)


def _drop_shadowed(lint: list[Diagnostic], loaded: list[Diagnostic]) -> list[Diagnostic]:
    """One finding per place: a $ref the loader reported (REF_*) is not reported again as
    SCHEMA_REF_UNRESOLVED, and a specific lint rule replaces a generic MANIFEST_SCHEMA error at
    the same position. Mutates ``loaded``; returns the lint findings to keep."""
    ref_at = {(d.line, d.col) for d in loaded if d.rule_id.startswith("REF_")}
    lint = [
        d for d in lint if not (d.rule_id == "SCHEMA_REF_UNRESOLVED" and (d.line, d.col) in ref_at)
    ]
    # Only a lint *error* about the very same value replaces the generic structure error (same
    # JSON pointer); a different finding that merely starts at the same line:col does not.
    lint_at = {
        d.location.pointer for d in lint if d.location.pointer and d.severity >= Severity.ERROR
    }
    loaded[:] = [
        d
        for d in loaded
        if not (
            d.rule_id == "MANIFEST_SCHEMA" and d.location.pointer and d.location.pointer in lint_at
        )
    ]
    return lint


def exit_code(results: Iterable[FileResult], fail_on: Severity | None) -> int:
    results = list(results)
    if any(r.unreadable for r in results):
        return 2
    if fail_on is None:
        return 0
    for r in results:
        if any(d.severity >= fail_on for d in r.diagnostics):
            return 1
    return 0
